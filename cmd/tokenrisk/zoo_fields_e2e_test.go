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
// one it must not read as; flag is the code its true value raises. A
// capped look-alike (a fee the owner may change within a cap) may read
// true, but never with flag nor above medium.
type fieldCase struct {
	kind, field, flag string
	benign, capped    bool
}

// fieldCases cover every capability but is_open_source, which only a
// source-verification service decides (an explorer's answer, not the
// contract's behaviour: there is no zoo shape of it). A kind counts for
// every field its contract really has the behaviour of.
var fieldCases = []fieldCase{
	{"honeypot_transferfrom", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"honeypot_transferfrom_list", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"honeypot_holders_armed", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"honeypot_holders_listed", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"honeypot_time_bomb", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"honeypot_block_fuse", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"honeypot_owner_switch", "is_honeypot", "OWNER_CAN_BLOCK_SELLS", false, false},
	{"honeypot_owner_sell_cap", "is_honeypot", "OWNER_CAN_BLOCK_SELLS", false, false},
	{"cannot_sell_all", "cannot_sell_all", "CANNOT_SELL_ALL", false, false},
	{"cannot_sell_all_residue", "cannot_sell_all", "CANNOT_SELL_ALL", false, false},
	{"buy_cooldown", "trading_cooldown", "TRADING_COOLDOWN", false, false},
	{"buy_cooldown_blocks", "trading_cooldown", "TRADING_COOLDOWN", false, false},
	{"whitelist_fee_exempt", "is_whitelisted", "", false, false},
	{"whitelist_limits", "is_whitelisted", "", false, false},
	{"personal_fee", "personal_slippage_modifiable", "PER_ADDRESS_FEE", false, false},
	{"personal_fee_tiers", "personal_slippage_modifiable", "PER_ADDRESS_FEE", false, false},
	{"ownership_reclaim_lock", "can_take_back_ownership", "", false, false},
	{"ownership_reclaim_admin", "can_take_back_ownership", "", false, false},
	{"hidden_owner_dev", "hidden_owner", "HIDDEN_OWNER", false, false},
	{"hidden_owner_slot", "hidden_owner", "HIDDEN_OWNER", false, false},
	{"external_call_ledger", "external_call", "EXTERNAL_CALL", false, false},
	{"external_call_guard", "external_call", "EXTERNAL_CALL", false, false},
	{"anti_whale_max_tx", "is_anti_whale", "", false, false},
	{"anti_whale_max_wallet", "is_anti_whale", "", false, false},
	// Other shapes of the newer probes' powers (zoo_shapes.go).
	{"honeypot_owner_switch_asm", "is_honeypot", "OWNER_CAN_BLOCK_SELLS", false, false},
	{"ownership_reclaim_stewards", "can_take_back_ownership", "", false, false},
	{"whitelist_partner_array", "is_whitelisted", "", false, false},
	{"whitelist_presale_array", "is_whitelisted", "WHITELIST_ONLY", false, false},
	{"personal_fee_asm", "personal_slippage_modifiable", "PER_ADDRESS_FEE", false, false},
	{"buy_cooldown_asm", "trading_cooldown", "TRADING_COOLDOWN", false, false},
	{"mint_in_transfer", "is_mintable", "OWNER_CAN_MINT", false, false},
	{"mint_two_step", "is_mintable", "OWNER_CAN_MINT", false, false},
	{"blacklist_two_step", "is_blacklisted", "OWNER_CAN_BLACKLIST", false, false},
	{"mint_set_then_credit", "is_mintable", "OWNER_CAN_MINT", false, false},
	{"seize_two_step", "owner_change_balance", "OWNER_CAN_SEIZE", false, false},
	// The first zoo's kinds (zoo.go), for each field their contract has.
	{"mintable", "is_mintable", "OWNER_CAN_MINT", false, false},
	{"hidden_mint", "is_mintable", "OWNER_CAN_MINT", false, false},
	{"balance_modifiable", "owner_change_balance", "OWNER_CAN_CHANGE_BALANCE", false, false},
	{"hidden_owner", "hidden_owner", "HIDDEN_OWNER", false, false},
	{"hidden_owner", "can_take_back_ownership", "", false, false},
	{"hidden_owner", "slippage_modifiable", "", false, false},
	{"selfdestruct", "selfdestruct", "SELFDESTRUCT", false, false},
	{"external_call", "external_call", "EXTERNAL_CALL", false, false},
	{"blacklist", "is_blacklisted", "OWNER_CAN_BLACKLIST", false, false},
	{"fee_modifiable", "slippage_modifiable", "OWNER_CAN_CHANGE_FEES", false, false},
	{"pausable", "transfer_pausable", "OWNER_CAN_PAUSE", false, false},
	{"cooldown", "trading_cooldown", "TRADING_COOLDOWN", false, false},
	{"max_tx", "is_anti_whale", "", false, false},
	{"max_tx", "anti_whale_modifiable", "OWNER_CAN_LIMIT_TX", false, false},
	{"max_tx_tight", "is_anti_whale", "", false, false},
	{"max_tx_tight", "anti_whale_modifiable", "OWNER_CAN_LIMIT_TX", false, false},
	{"trading_disabled", "cannot_buy", "", false, false},
	{"honeypot_sell_blocked", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"honeypot_blacklist_on_buy", "is_honeypot", "HONEYPOT_CANNOT_SELL", false, false},
	{"proxy_upgradeable", "is_proxy", "PROXY_UPGRADEABLE", false, false},
	// The field zoo's kinds, for the other fields their contract has.
	{"anti_whale_max_tx", "anti_whale_modifiable", "OWNER_CAN_LIMIT_TX", false, false},
	{"anti_whale_max_wallet", "anti_whale_modifiable", "OWNER_CAN_LIMIT_TX", false, false},
	{"hidden_owner_dev", "slippage_modifiable", "", false, false},
	{"hidden_owner_slot", "is_blacklisted", "", false, false},
	{"honeypot_holders_listed", "is_blacklisted", "", false, false},
	{"whitelist_presale_array", "cannot_buy", "", false, false},
	// Second shapes (zoo_fields2.go).
	{"selfdestruct_vault", "selfdestruct", "SELFDESTRUCT", false, false},
	{"balance_assembly", "owner_change_balance", "OWNER_CAN_CHANGE_BALANCE", false, false},
	{"pause_mode", "transfer_pausable", "", false, false},
	{"cannot_buy_start_block", "cannot_buy", "", false, false},
	{"fee_schedule", "slippage_modifiable", "OWNER_CAN_CHANGE_FEES", false, false},
	{"proxy_beacon", "is_proxy", "PROXY_UPGRADEABLE", false, false},
	{"proxy_custom_slot", "is_proxy", "PROXY_UPGRADEABLE", false, false},
	// Benign look-alikes.
	{"benign_marketing_transfer", "is_mintable", "OWNER_CAN_MINT", true, false},
	{"benign_cooldown_named", "trading_cooldown", "TRADING_COOLDOWN", true, false},
	{"benign_max_wallet", "is_honeypot", "HONEYPOT_CANNOT_SELL", true, false},
	{"benign_self_lock", "can_take_back_ownership", "OWNER_CAN_RECLAIM", true, false},
	{"benign_pause_renounced", "transfer_pausable", "OWNER_CAN_PAUSE", true, false},
	{"benign_fee_capped", "slippage_modifiable", "OWNER_CAN_CHANGE_FEES", true, true},
	{"benign_destroy_named", "selfdestruct", "SELFDESTRUCT", true, false},
}

// fieldPowerFree are zoo tokens with none of the table's powers: every
// field (but is_open_source) must read false or null on each, and a true
// is a false positive of that field.
var fieldPowerFree = []string{
	"clean", "clean_owned", "lp_locked", "powerfree_unfreeze", "powerfree_zero_owner", "powerfree_vesting",
	"powerfree_retired_admin", "benign_self_lock", "benign_cooldown_named", "benign_marketing_transfer",
	"benign_pause_renounced", "benign_destroy_named",
}

// fieldMisses are the field zoo's tokens the scan does not detect yet,
// keyed "kind field", with why: the test fails when one of them is
// detected (update the list) as when any other token is missed.
var fieldMisses = map[string]string{}

// fieldFalsePositives are the benign look-alikes and power-free tokens
// the scan still reads as having a power, keyed "kind field", with why:
// the test fails when one of them reads right (update the list), as when
// any other reads wrong.
var fieldFalsePositives = map[string]string{}

type fieldTally struct{ detected, instances, falsePositives, benign int }

// TestZooFieldVerdicts scans the field zoo through POST /api/v1/scan/ and
// prints the per-field table of detections: each token's capability must
// read true (with its flag), each benign look-alike's must not, no benign
// look-alike may read as a honeypot or above medium, and no power-free
// token may read true on any field.
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

	reports := map[string]fieldReport{}
	report := func(kind string) fieldReport {
		if rep, ok := reports[kind]; ok {
			return rep
		}
		tok, ok := m.Token(kind)
		if !ok {
			t.Fatalf("manifest has no %s token", kind)
		}
		r := s.scan(t, key, tok.Address)
		if r.status != 200 {
			t.Fatalf("%s: status %d: %s", kind, r.status, r.body)
		}
		var rep fieldReport
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		validateReport(t, r.body)
		reports[kind] = rep
		return rep
	}
	table := map[string]*fieldTally{}
	tally := func(field string) *fieldTally {
		if table[field] == nil {
			table[field] = &fieldTally{}
		}
		return table[field]
	}
	checked := map[string]bool{}
	for _, c := range fieldCases {
		rep := report(c.kind)
		checkFieldCase(t, c, rep, tally(c.field))
		checked[c.kind+" "+c.field] = true
	}
	for _, kind := range fieldPowerFree {
		rep := report(kind)
		for field, e := range rep.ContractAnalysis.Capabilities {
			if field == "is_open_source" || checked[kind+" "+field] {
				continue
			}
			x := tally(field)
			x.benign++
			name := kind + " " + field
			why, known := fieldFalsePositives[name]
			wrong := e.Value != nil && *e.Value
			switch {
			case wrong && known:
				x.falsePositives++
				t.Logf("%s (power-free): reads true, a known false positive (%s)", name, why)
			case wrong:
				x.falsePositives++
				t.Errorf("%s (power-free): reads true (%s)", name, e.Detail)
			case known:
				t.Errorf("%s (power-free): reads right now; remove it from fieldFalsePositives (%s)", name, why)
			}
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

// checkFieldCase checks one token of the field zoo against the field it
// was built for (or must not read as), and counts it.
func checkFieldCase(t *testing.T, c fieldCase, rep fieldReport, x *fieldTally) {
	t.Helper()
	name := c.kind + " " + c.field
	v := rep.capability(c.field)
	flagged := c.flag != "" && slices.Contains(rep.codes(), c.flag)
	hit := v != nil && *v && (c.flag == "" || flagged)
	sim := rep.LiquidityAnalysis.Simulation
	proofs := ""
	if sim != nil {
		proofs = fmt.Sprintf("router %s sell_all %s buy_cooldown %s holders %s blocks %s", sim.RouterSell, sim.SellAll, sim.BuyCooldown, sim.HolderSells, sim.SellBlocks)
	}
	t.Logf("%s: %s=%v level %s flags %v; %s", c.kind, c.field, fmtBool(v), rep.RiskLevel, rep.codes(), proofs)
	if c.benign {
		x.benign++
		why, known := fieldFalsePositives[name]
		wrong := hit || v != nil && *v
		if c.capped {
			wrong = flagged
		}
		switch {
		case wrong && known:
			x.falsePositives++
			t.Logf("%s (benign): reads true, a known false positive (%s)", name, why)
			return
		case wrong:
			x.falsePositives++
			t.Errorf("%s (benign): reads true (%s)", name, rep.ContractAnalysis.Capabilities[c.field].Detail)
		case known:
			t.Errorf("%s (benign): reads right now; remove it from fieldFalsePositives (%s)", name, why)
		}
		for _, code := range rep.codes() {
			if strings.HasPrefix(code, "HONEYPOT_") || code == "SIMULATION_FAILED" || code == "OWNER_CAN_BLOCK_SELLS" {
				t.Errorf("%s (benign): %s raised", c.kind, code)
			}
		}
		if levelRank[rep.RiskLevel] > levelRank["medium"] {
			t.Errorf("%s (benign): level %s, want medium or below", c.kind, rep.RiskLevel)
		}
		return
	}
	x.instances++
	if c.field == "external_call" {
		checkCallee(t, c.kind, rep)
	}
	why, miss := fieldMisses[name]
	switch {
	case hit:
		x.detected++
		if miss {
			t.Errorf("%s: detected now (%s=true, %s); remove it from fieldMisses (%s)", c.kind, c.field, c.flag, why)
		}
	case !miss:
		t.Errorf("%s: %s=%v, flag %s raised %v; want true with the flag (%s)", c.kind, c.field, fmtBool(v), c.flag,
			flagged, rep.ContractAnalysis.Capabilities[c.field].Detail)
	default:
		t.Logf("%s: a known miss (%s)", name, why)
	}
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
