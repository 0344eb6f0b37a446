package probe

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
)

// The victim runs the Prober without carrying its code: each probe
// eth_call places the Prober's code once, at the caller, and at the victim
// a forwarder of 45 bytes that DELEGATECALLs every call it receives to the
// caller's address. The Prober's code then runs in the victim's account
// (address(this) and storage are the victim's, msg.sender and msg.value
// the victim's caller's), answers what the victim was asked (send, hits,
// hit, a token's callback through the fallback) and its return data or
// revert comes back unchanged. The Prober has no immutables, and what it
// decides by address(this) (the victim counts hits) holds in the
// victim's account; a token still sees code at the victim. The
// forwarder passes on all but 1/64 of its gas (EIP-150), as any call
// does, and the caller's address is warm (the eth_call's "to").

// forwarderCode is the runtime code of a forwarder to impl: copy the call
// data to memory, DELEGATECALL impl with all the gas, copy the return
// data back, and RETURN it, or REVERT with it when the call failed.
func forwarderCode(impl common.Address) []byte {
	code := []byte{
		byte(vm.CALLDATASIZE), byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.CALLDATACOPY), // memory[0:size] = call data
		byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.CALLDATASIZE), byte(vm.PUSH0), // out 0,0; in 0,size
		byte(vm.PUSH20),
	}
	code = append(code, impl.Bytes()...)
	code = append(code,
		byte(vm.GAS), byte(vm.DELEGATECALL), // success on the stack
		byte(vm.RETURNDATASIZE), byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.RETURNDATACOPY), // memory[0:n] = return data
		byte(vm.PUSH1), 0, byte(vm.JUMPI), // to the RETURN below on success
		byte(vm.RETURNDATASIZE), byte(vm.PUSH0), byte(vm.REVERT),
		byte(vm.JUMPDEST), byte(vm.RETURNDATASIZE), byte(vm.PUSH0), byte(vm.RETURN),
	)
	code[len(code)-9] = byte(len(code) - 4) // the JUMPDEST's offset
	return code
}
