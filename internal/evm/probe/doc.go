// Package probe proves owner powers by simulation: each privileged
// function found in the code is called by the owner, the addresses in
// the slots the code compares msg.sender with (guard.go), other stored
// addresses, the creator and a control caller inside one Prober
// eth_call, and the balances, fees and limits measured before and after
// decide each power. A new probe goes here; static method analysis is
// package method.
package probe
