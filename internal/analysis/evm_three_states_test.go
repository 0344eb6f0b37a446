package analysis

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEVMThreeStates: proxy and hidden_owner say an established absence
// ({"kind": "none"}, {"found": false}), an established presence, or null
// with a warning naming the check: never null for "none".
func TestEVMThreeStates(t *testing.T) {
	for _, tc := range []struct {
		name              string
		facts             *EVMContractFacts
		proxy, hidden     string // the JSON of each field
		warnProxy, warnHO bool
	}{
		{name: "no proxy, probes complete", facts: evmContractWith(func(f *EVMContractFacts) { f.ProxyRead = true }),
			proxy: `{"kind":"none","upgradeable":false}`, hidden: `{"found":false,"address":null,"detail":"No address but the declared owner proved an owner power`},
		{name: "a proxy, a hidden owner", facts: evmContractWith(func(f *EVMContractFacts) {
			f.ProxyRead = true
			f.Proxy = &EVMProxy{Kind: "eip1967", Implementation: evmTestOwner}
			f.Owner = evmTestOwner
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestHidden, Evidence: "stored"}}
		}), proxy: `{"kind":"eip1967","implementation":"` + evmTestOwner + `","admin":null,"upgradeable":false}`,
			hidden: `{"found":true,"address":"` + evmTestHidden + `"`},
		{name: "slots unread, probes not run", facts: evmContractWith(func(f *EVMContractFacts) { f.Probe = nil }),
			proxy: `null`, hidden: `null`, warnHO: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sec, _, warnings := AnalyseEVMContract(tc.facts)
			ev := sec.Evidence.(EVMContractEvidence)
			p, _ := json.Marshal(ev.Proxy)
			h, _ := json.Marshal(ev.HiddenOwner)
			if string(p) != tc.proxy {
				t.Errorf("proxy = %s, want %s", p, tc.proxy)
			}
			if !strings.HasPrefix(string(h), tc.hidden) {
				t.Errorf("hidden_owner = %s, want %s…", h, tc.hidden)
			}
			named := strings.Contains(strings.Join(warnings, "\n"), "hidden owner unknown")
			if named != tc.warnHO {
				t.Errorf("warnings %q: hidden owner named %v, want %v", warnings, named, tc.warnHO)
			}
			// The capability table agrees with the fields.
			if v := ev.Capabilities[CapIsProxy].Value; (v == nil) != (ev.Proxy == nil) || (v != nil && *v != (ev.Proxy.Kind != ProxyNone)) {
				t.Errorf("is_proxy %v beside proxy %s", v, p)
			}
			if v := ev.Capabilities[CapHiddenOwner].Value; (v == nil) != (ev.HiddenOwner == nil) || (v != nil && *v != ev.HiddenOwner.Found) {
				t.Errorf("capabilities.hidden_owner %v beside hidden_owner %s", v, h)
			}
		})
	}
}

// TestEVMSimulationErrorStates: simulation.error is {"failed": false}
// when every step ran, {"failed": true, "reason"} when one failed, null
// only when neither is known.
func TestEVMSimulationErrorStates(t *testing.T) {
	reason := "TRANSFER_FROM_FAILED"
	for _, tc := range []struct {
		sim  EVMSimulation
		want string
	}{
		{EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(true)}, `{"failed":false}`},
		{EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(false), Error: &reason}, `{"failed":true,"reason":"TRANSFER_FROM_FAILED"}`},
		{EVMSimulation{CanBuy: evmBoolPtr(true)}, `null`},
	} {
		b, err := json.Marshal(tc.sim)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(b, &got); err != nil || string(got.Error) != tc.want {
			t.Errorf("error = %s, want %s (%s)", got.Error, tc.want, b)
		}
		if strings.Count(string(b), `"error"`) != 1 {
			t.Errorf("error written twice: %s", b)
		}
	}
}
