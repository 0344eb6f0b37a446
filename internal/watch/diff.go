package watch

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// snapshot is what change detection reads from a stored report.
type snapshot struct {
	ScanID      string      `json:"scan_id"`
	RiskLevel   string      `json:"risk_level"`
	Score       float64     `json:"overall_risk_score"`
	TotalSupply *string     `json:"total_supply"`
	Flags       []risk.Flag `json:"risk_flags"`
	Contract    struct {
		Owner       *string     `json:"owner"`
		HiddenOwner hiddenOwner `json:"hidden_owner"`
		Proxy       *struct {
			Implementation string  `json:"implementation"`
			Admin          *string `json:"admin"`
		} `json:"proxy"`
		// Powers are the privileged powers, with the address each was
		// proven from.
		Powers []struct {
			Proven *bool  `json:"proven"`
			Caller string `json:"caller"`
			Role   string `json:"role"`
		} `json:"powers"`
	} `json:"contract_analysis"`
	Liquidity struct {
		MainPool     *string  `json:"main_pool"`
		LPSecuredPct *float64 `json:"lp_secured_pct"`
		Pools        []struct {
			Address      string  `json:"address"`
			Kind         string  `json:"kind"`
			QuoteAddress string  `json:"quote_address"`
			QuoteReserve *string `json:"quote_reserve"`
		} `json:"pools"`
		Simulation *struct {
			CanBuy  *bool    `json:"can_buy"`
			CanSell *bool    `json:"can_sell"`
			BuyTax  *float64 `json:"buy_tax"`
			SellTax *float64 `json:"sell_tax"`
			Error   simError `json:"error"`
		} `json:"simulation"`
	} `json:"liquidity_analysis"`
}

// simError is a simulation's failure reason as a report stores it: an
// object ({"failed": true, "reason": …}, or {"failed": false}) since
// reports say none apart from unknown, a string or null before.
type simError struct{ reason *string }

func (e *simError) UnmarshalJSON(b []byte) error {
	var s *string
	if json.Unmarshal(b, &s) == nil {
		e.reason = s
		return nil
	}
	var o struct {
		Reason *string `json:"reason"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	e.reason = o.Reason
	return nil
}

// hiddenOwner is contract_analysis.hidden_owner's address: an object
// ({"found", "address"}) since reports tell none from unknown, a string
// or null before.
type hiddenOwner struct{ address string }

func (h *hiddenOwner) UnmarshalJSON(b []byte) error {
	var s *string
	if json.Unmarshal(b, &s) == nil {
		if s != nil {
			h.address = *s
		}
		return nil
	}
	var o struct {
		Address *string `json:"address"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	if o.Address != nil {
		h.address = *o.Address
	}
	return nil
}

// privileged are the addresses whose own transactions can change the
// token without a log: the owner, a hidden owner, the proxy's admin and
// every address a power was proven from (the probes' control caller,
// "anyone", excepted).
func (s *snapshot) privileged() []common.Address {
	var out []common.Address
	add := func(a string) {
		if common.IsHexAddress(a) {
			if addr := common.HexToAddress(a); addr != (common.Address{}) && !slices.Contains(out, addr) {
				out = append(out, addr)
			}
		}
	}
	if s.Contract.Owner != nil {
		add(*s.Contract.Owner)
	}
	add(s.Contract.HiddenOwner.address)
	if s.Contract.Proxy != nil && s.Contract.Proxy.Admin != nil {
		add(*s.Contract.Proxy.Admin)
	}
	for _, p := range s.Contract.Powers {
		if p.Proven != nil && *p.Proven && p.Role != "anyone" {
			add(p.Caller)
		}
	}
	return out
}

func decodeSnapshot(report []byte) (*snapshot, error) {
	var s snapshot
	if err := json.Unmarshal(report, &s); err != nil {
		return nil, fmt.Errorf("watch: decode report: %w", err)
	}
	return &s, nil
}

// mainPool is the main pool's address, kind, quote token and quote
// reserve ("" when unknown).
func (s *snapshot) mainPool() (addr, kind, quote, reserve string) {
	if s.Liquidity.MainPool == nil {
		return "", "", "", ""
	}
	for _, p := range s.Liquidity.Pools {
		if strings.EqualFold(p.Address, *s.Liquidity.MainPool) {
			if p.QuoteReserve != nil {
				reserve = *p.QuoteReserve
			}
			return p.Address, p.Kind, p.QuoteAddress, reserve
		}
	}
	return *s.Liquidity.MainPool, "", "", ""
}

func (s *snapshot) owner() string {
	if s.Contract.Owner == nil {
		return ""
	}
	return strings.ToLower(*s.Contract.Owner)
}

func (s *snapshot) implementation() string {
	if s.Contract.Proxy == nil {
		return ""
	}
	return strings.ToLower(s.Contract.Proxy.Implementation)
}

// change is one event before it is addressed to a watchlist entry: its
// type, the parts its id derives from, and its data without the entry.
type change struct {
	typ     string
	idParts []string
	// fill sets the data's common part and returns the data object.
	fill func(c Common) any
}

// diffScans compares the scans before and after and returns the changes
// that no log of this tick already announced (seen).
func diffScans(before, after *snapshot, seen map[string]bool, liquidityDropPct float64) []change {
	var out []change
	if before.RiskLevel != after.RiskLevel {
		added, removed := flagDiff(before.Flags, after.Flags)
		b := ScanPoint{ScanID: before.ScanID, RiskLevel: before.RiskLevel, OverallRiskScore: before.Score}
		a := ScanPoint{ScanID: after.ScanID, RiskLevel: after.RiskLevel, OverallRiskScore: after.Score}
		out = append(out, change{typ: RiskChanged, idParts: []string{RiskChanged, before.ScanID, after.RiskLevel, flagCodes(added), flagCodes(removed)},
			fill: func(c Common) any {
				return RiskChangedData{Common: c, Before: b, After: a, FlagsAdded: added, FlagsRemoved: removed}
			}})
	}
	if !seen[OwnerChanged] && before.owner() != after.owner() && after.Contract.Owner != nil && before.Contract.Owner != nil {
		prev, next := *before.Contract.Owner, *after.Contract.Owner
		renounced := isZeroAddress(next)
		reclaimed := isZeroAddress(prev) && !renounced
		out = append(out, change{typ: OwnerChanged, idParts: []string{OwnerChanged, before.ScanID, strings.ToLower(next)},
			fill: func(c Common) any {
				return OwnerChangedData{Common: c, PreviousOwner: &prev, NewOwner: &next, Renounced: renounced, Reclaimed: reclaimed}
			}})
	}
	if !seen[ContractUpgraded] && before.implementation() != after.implementation() && after.implementation() != "" {
		var prev *string
		if p := before.implementation(); p != "" {
			prev = &before.Contract.Proxy.Implementation
		}
		impl := after.Contract.Proxy.Implementation
		out = append(out, change{typ: ContractUpgraded, idParts: []string{ContractUpgraded, before.ScanID, strings.ToLower(impl)},
			fill: func(c Common) any {
				return ContractUpgradedData{Common: c, PreviousImplementation: prev, Implementation: impl}
			}})
	}
	if !seen[SupplyChanged] && before.TotalSupply != nil && after.TotalSupply != nil && *before.TotalSupply != *after.TotalSupply {
		b, a := *before.TotalSupply, *after.TotalSupply
		out = append(out, change{typ: SupplyChanged, idParts: []string{SupplyChanged, before.ScanID, a},
			fill: func(c Common) any {
				return SupplyChangedData{Common: c, Kind: "unannounced", TotalSupplyBefore: &b, TotalSupplyAfter: &a}
			}})
	}
	if ch, ok := tradingDiff(before, after, seen); ok {
		out = append(out, ch)
	}
	if !seen[LiquidityRemoved] {
		if ch, ok := liquidityDiff(before, after, liquidityDropPct); ok {
			out = append(out, ch)
		}
	}
	return out
}

// tradingDiff reports a honeypot appearing or ending and a buy or sell tax
// moving by at least one point.
func tradingDiff(before, after *snapshot, seen map[string]bool) (change, bool) {
	bs, as := before.Liquidity.Simulation, after.Liquidity.Simulation
	if bs == nil || as == nil {
		return change{}, false
	}
	var changes []string
	// 1 trades (both ways proven), 0 fails (either way fails), -1 unknown.
	tradable := func(buy, sell *bool) int {
		switch {
		case buy != nil && !*buy, sell != nil && !*sell:
			return 0
		case buy != nil && sell != nil:
			return 1
		}
		return -1
	}
	was := tradable(bs.CanBuy, bs.CanSell)
	now := tradable(as.CanBuy, as.CanSell)
	switch {
	case was == 1 && now == 0:
		changes = append(changes, "honeypot")
	case was == 0 && now == 1:
		changes = append(changes, "tradable")
	}
	var buy, sell *TaxChange
	if taxMoved(bs.BuyTax, as.BuyTax) {
		buy = &TaxChange{Before: bs.BuyTax, After: as.BuyTax}
	}
	if taxMoved(bs.SellTax, as.SellTax) {
		sell = &TaxChange{Before: bs.SellTax, After: as.SellTax}
	}
	if buy != nil || sell != nil {
		changes = append(changes, "fee_changed")
	}
	if len(changes) == 0 {
		return change{}, false
	}
	canBuy, canSell, reason := as.CanBuy, as.CanSell, as.Error.reason
	parts := append([]string{TradingChanged, before.ScanID}, changes...)
	parts = append(parts, taxString(as.BuyTax), taxString(as.SellTax))
	return change{typ: TradingChanged, idParts: parts, fill: func(c Common) any {
		return TradingChangedData{Common: c, Changes: changes, BuyTax: buy, SellTax: sell, CanBuy: canBuy, CanSell: canSell, Reason: reason}
	}}, true
}

func taxMoved(before, after *float64) bool {
	return before != nil && after != nil && math.Abs(*after-*before) >= 1
}

func taxString(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%.1f", *v)
}

// liquidityDiff reports the main pool's quote reserve down by the
// threshold between two scans of the same pool, or its secured LP share
// falling by at least a point.
func liquidityDiff(before, after *snapshot, dropPct float64) (change, bool) {
	bp, _, _, br := before.mainPool()
	ap, _, _, ar := after.mainPool()
	d := LiquidityRemovedData{Pool: ap, LPSecuredPctBefore: before.Liquidity.LPSecuredPct, LPSecuredPctAfter: after.Liquidity.LPSecuredPct}
	raised := false
	if bp != "" && strings.EqualFold(bp, ap) {
		if drop, ok := reserveDrop(br, ar); ok && drop >= dropPct {
			d.QuoteReserveBefore, d.QuoteReserveAfter, d.DropPct = &br, &ar, &drop
			raised = true
		}
	}
	if b, a := before.Liquidity.LPSecuredPct, after.Liquidity.LPSecuredPct; b != nil && a != nil && *b-*a >= 1 {
		d.LPUnlocked = true
		raised = true
	}
	if bp != "" && ap == "" { // the pool is gone from the scan
		d.Pool = bp
		if br != "" {
			zero := "0"
			hundred := 100.0
			d.QuoteReserveBefore, d.QuoteReserveAfter, d.DropPct = &br, &zero, &hundred
		}
		raised = true
	}
	if !raised {
		return change{}, false
	}
	return change{typ: LiquidityRemoved, idParts: []string{LiquidityRemoved, before.ScanID, ar, taxString(after.Liquidity.LPSecuredPct)},
		fill: func(c Common) any { d.Common = c; return d }}, true
}

// reserveDrop is how far reserve after fell below before, in percent
// (one decimal); ok is false when either is unknown or before is zero.
func reserveDrop(before, after string) (float64, bool) {
	b, ok1 := new(big.Int).SetString(before, 10)
	a, ok2 := new(big.Int).SetString(after, 10)
	if !ok1 || !ok2 || b.Sign() <= 0 {
		return 0, false
	}
	diff := new(big.Int).Sub(b, a)
	if diff.Sign() <= 0 {
		return 0, true
	}
	pm := new(big.Int).Div(new(big.Int).Mul(diff, big.NewInt(1000)), b) // per mille
	return float64(pm.Int64()) / 10, true
}

// flagDiff returns the flags raised in after but not before, and the
// reverse, by code.
func flagDiff(before, after []risk.Flag) (added, removed []risk.Flag) {
	has := func(fs []risk.Flag, code string) bool {
		return slices.ContainsFunc(fs, func(f risk.Flag) bool { return f.Code == code })
	}
	added, removed = []risk.Flag{}, []risk.Flag{}
	for _, f := range after {
		if !has(before, f.Code) {
			added = append(added, f)
		}
	}
	for _, f := range before {
		if !has(after, f.Code) {
			removed = append(removed, f)
		}
	}
	return added, removed
}

func flagCodes(fs []risk.Flag) string {
	codes := make([]string, len(fs))
	for i, f := range fs {
		codes[i] = f.Code
	}
	slices.Sort(codes)
	return strings.Join(codes, ",")
}

func isZeroAddress(a string) bool {
	return strings.TrimLeft(strings.TrimPrefix(strings.ToLower(a), "0x"), "0") == ""
}
