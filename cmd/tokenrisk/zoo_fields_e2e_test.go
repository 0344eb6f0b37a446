package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// fieldReport is the part of a report the field zoo reads: the
// capability table, the flags and the simulation's proofs.
type fieldReport struct {
	RiskLevel        string `json:"risk_level"`
	ContractAnalysis struct {
		Capabilities map[string]struct {
			Value    *bool   `json:"value"`
			Evidence *string `json:"evidence"`
			Detail   string  `json:"detail"`
			Calls    []struct {
				Callee       *string `json:"callee"`
				Slot         *string `json:"slot"`
				ChangeableBy []struct {
					Role string `json:"role"`
				} `json:"changeable_by"`
			} `json:"calls"`
		} `json:"capabilities"`
	} `json:"contract_analysis"`
	LiquidityAnalysis struct {
		Simulation *struct {
			CanSell     *bool           `json:"can_sell"`
			HolderSells json.RawMessage `json:"holder_sells"`
			RouterSell  json.RawMessage `json:"router_sell"`
			SellAll     json.RawMessage `json:"sell_all"`
			BuyCooldown json.RawMessage `json:"buy_cooldown"`
			SellBlocks  json.RawMessage `json:"sell_blocks"`
		} `json:"simulation"`
	} `json:"liquidity_analysis"`
	RiskFlags []struct {
		Code string `json:"code"`
	} `json:"risk_flags"`
}

func (r fieldReport) capability(name string) *bool {
	return r.ContractAnalysis.Capabilities[name].Value
}

func (r fieldReport) codes() []string {
	var out []string
	for _, f := range r.RiskFlags {
		out = append(out, f.Code)
	}
	return out
}

// fieldCase is one zoo token of issue 18's field zoo: the capability
// (GoPlus field) it was built to have, or, for a benign look-alike, the
// one it must not read as; flag is the code its true value raises.
type fieldCase struct {
	kind, field, flag string
	benign            bool
}

var fieldCases = []fieldCase{
	{"honeypot_transferfrom", "is_honeypot", "HONEYPOT_CANNOT_SELL", false},
	{"honeypot_transferfrom_list", "is_honeypot", "HONEYPOT_CANNOT_SELL", false},
	{"honeypot_holders_armed", "is_honeypot", "HONEYPOT_CANNOT_SELL", false},
	{"honeypot_holders_listed", "is_honeypot", "HONEYPOT_CANNOT_SELL", false},
	{"honeypot_time_bomb", "is_honeypot", "HONEYPOT_CANNOT_SELL", false},
	{"honeypot_block_fuse", "is_honeypot", "HONEYPOT_CANNOT_SELL", false},
	{"honeypot_owner_switch", "is_honeypot", "OWNER_CAN_BLOCK_SELLS", false},
	{"honeypot_owner_sell_cap", "is_honeypot", "OWNER_CAN_BLOCK_SELLS", false},
	{"cannot_sell_all", "cannot_sell_all", "CANNOT_SELL_ALL", false},
	{"cannot_sell_all_residue", "cannot_sell_all", "CANNOT_SELL_ALL", false},
	{"buy_cooldown", "trading_cooldown", "TRADING_COOLDOWN", false},
	{"buy_cooldown_blocks", "trading_cooldown", "TRADING_COOLDOWN", false},
	{"whitelist_fee_exempt", "is_whitelisted", "", false},
	{"whitelist_limits", "is_whitelisted", "", false},
	{"personal_fee", "personal_slippage_modifiable", "PER_ADDRESS_FEE", false},
	{"personal_fee_tiers", "personal_slippage_modifiable", "PER_ADDRESS_FEE", false},
	{"ownership_reclaim_lock", "can_take_back_ownership", "", false},
	{"ownership_reclaim_admin", "can_take_back_ownership", "", false},
	{"hidden_owner_dev", "hidden_owner", "HIDDEN_OWNER", false},
	{"hidden_owner_slot", "hidden_owner", "HIDDEN_OWNER", false},
	{"external_call_ledger", "external_call", "EXTERNAL_CALL", false},
	{"external_call_guard", "external_call", "EXTERNAL_CALL", false},
	{"anti_whale_max_tx", "is_anti_whale", "", false},
	{"anti_whale_max_wallet", "is_anti_whale", "", false},
	// Other shapes of the newer probes' powers (zoo_shapes.go).
	{"honeypot_owner_switch_asm", "is_honeypot", "OWNER_CAN_BLOCK_SELLS", false},
	{"ownership_reclaim_stewards", "can_take_back_ownership", "", false},
	{"whitelist_partner_array", "is_whitelisted", "", false},
	{"whitelist_presale_array", "is_whitelisted", "WHITELIST_ONLY", false},
	{"personal_fee_asm", "personal_slippage_modifiable", "PER_ADDRESS_FEE", false},
	{"buy_cooldown_asm", "trading_cooldown", "TRADING_COOLDOWN", false},
	{"mint_in_transfer", "is_mintable", "OWNER_CAN_MINT", false},
	{"mint_two_step", "is_mintable", "OWNER_CAN_MINT", false},
	{"blacklist_two_step", "is_blacklisted", "OWNER_CAN_BLACKLIST", false},
	{"benign_marketing_transfer", "is_mintable", "OWNER_CAN_MINT", true},
	{"benign_cooldown_named", "trading_cooldown", "TRADING_COOLDOWN", true},
	{"benign_max_wallet", "is_honeypot", "HONEYPOT_CANNOT_SELL", true},
	{"benign_self_lock", "can_take_back_ownership", "OWNER_CAN_RECLAIM", true},
}

// fieldMisses are the field zoo's tokens the scan does not detect yet,
// with why: the test fails when one of them is detected (update the
// list) as when any other token is missed.
var fieldMisses = map[string]string{}

// fieldFalsePositives are the benign look-alikes the scan still reads as
// having the power, with why: the test fails when one of them reads right
// (update the list), as when any other benign token reads wrong.
var fieldFalsePositives = map[string]string{}

// TestZooFieldVerdicts scans the field zoo through POST /api/v1/scan/ and
// prints the per-field table of detections: each token's capability must
// read true (with its flag), each benign look-alike's must not, and no
// benign look-alike may read as a honeypot or above medium.
func TestZooFieldVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	s := startServer(t, map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "fields.db"),
		"TOKENRISK_LOG_LEVEL":    "warn",
		"TOKENRISK_SOURCIFY_URL": "none",
	}, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	key := s.key(t, "premium")

	type tally struct{ detected, instances, falsePositives, benign int }
	table := map[string]*tally{}
	for _, c := range fieldCases {
		tok, ok := m.Token(c.kind)
		if !ok {
			t.Fatalf("manifest has no %s token", c.kind)
		}
		r := s.scan(t, key, tok.Address)
		if r.status != 200 {
			t.Fatalf("%s: status %d: %s", c.kind, r.status, r.body)
		}
		var rep fieldReport
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		validateReport(t, r.body)
		if table[c.field] == nil {
			table[c.field] = &tally{}
		}
		v := rep.capability(c.field)
		hit := v != nil && *v && (c.flag == "" || slices.Contains(rep.codes(), c.flag))
		sim := rep.LiquidityAnalysis.Simulation
		proofs := ""
		if sim != nil {
			proofs = fmt.Sprintf("router %s sell_all %s buy_cooldown %s holders %s blocks %s", sim.RouterSell, sim.SellAll, sim.BuyCooldown, sim.HolderSells, sim.SellBlocks)
		}
		t.Logf("%s: %s=%v level %s flags %v; %s", c.kind, c.field, fmtBool(v), rep.RiskLevel, rep.codes(), proofs)
		if c.benign {
			table[c.field].benign++
			why, known := fieldFalsePositives[c.kind]
			wrong := hit || v != nil && *v
			switch {
			case wrong && known:
				table[c.field].falsePositives++
				t.Logf("%s (benign): %s reads true, a known false positive (%s)", c.kind, c.field, why)
				continue
			case wrong:
				table[c.field].falsePositives++
				t.Errorf("%s (benign): %s reads true (%s)", c.kind, c.field, rep.ContractAnalysis.Capabilities[c.field].Detail)
			case known:
				t.Errorf("%s (benign): reads right now; remove it from fieldFalsePositives (%s)", c.kind, why)
			}
			for _, code := range rep.codes() {
				if strings.HasPrefix(code, "HONEYPOT_") || code == "SIMULATION_FAILED" || code == "OWNER_CAN_BLOCK_SELLS" {
					t.Errorf("%s (benign): %s raised", c.kind, code)
				}
			}
			if levelRank[rep.RiskLevel] > levelRank["medium"] {
				t.Errorf("%s (benign): level %s, want medium or below", c.kind, rep.RiskLevel)
			}
			continue
		}
		table[c.field].instances++
		if c.field == "external_call" {
			checkCallee(t, c.kind, rep)
		}
		why, miss := fieldMisses[c.kind]
		switch {
		case hit:
			table[c.field].detected++
			if miss {
				t.Errorf("%s: detected now (%s=true, %s); remove it from fieldMisses (%s)", c.kind, c.field, c.flag, why)
			}
		case !miss:
			t.Errorf("%s: %s=%v, flag %s raised %v; want true with the flag (%s)", c.kind, c.field, fmtBool(v), c.flag,
				slices.Contains(rep.codes(), c.flag), rep.ContractAnalysis.Capabilities[c.field].Detail)
		}
	}
	fields := make([]string, 0, len(table))
	for f := range table {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-30s %9s %9s %9s\n", "field", "detected", "benign", "false+")
	for _, f := range fields {
		x := table[f]
		fmt.Fprintf(&b, "%-30s %4d / %-2d %9d %9d\n", f, x.detected, x.instances, x.benign, x.falsePositives)
	}
	t.Log(b.String())
}

func fmtBool(v *bool) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

// checkCallee: an external_call token's report names the contract its
// transfers call, the slot it is stored in and who can change it.
func checkCallee(t *testing.T, kind string, rep fieldReport) {
	t.Helper()
	for _, call := range rep.ContractAnalysis.Capabilities["external_call"].Calls {
		if call.Callee != nil && call.Slot != nil && len(call.ChangeableBy) > 0 && call.ChangeableBy[0].Role == "owner" {
			t.Logf("%s: %s", kind, rep.ContractAnalysis.Capabilities["external_call"].Detail)
			return
		}
	}
	t.Errorf("%s: external_call names no callee the owner can change: %+v", kind, rep.ContractAnalysis.Capabilities["external_call"])
}
