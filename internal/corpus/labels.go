package corpus

import (
	"fmt"
	"slices"
	"sort"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// FeeCeilingPct is the fee ceiling at or above which an owner's fee power
// makes selling prohibitive (a limit): the engine's TAX_EXTREME line.
const FeeCeilingPct = risk.TaxExtremePct

// Behaviour maps a report's flags to the behaviours they establish:
//
//   - mint: OWNER_CAN_MINT (a proven or code mint power) or
//     OWNER_CAN_CHANGE_BALANCE (the owner can set a balance: credit);
//   - leak: OWNER_CAN_SEIZE, OWNER_CAN_TAKE_CONTRACT_TOKENS (the tokens
//     the contract holds), or OWNER_CAN_CHANGE_BALANCE (debit);
//   - limit: OWNER_CAN_BLACKLIST, OWNER_CAN_PAUSE, TRADING_SWITCH,
//     OWNER_CAN_LIMIT_TX, HONEYPOT_CANNOT_SELL, WHITELIST_ONLY,
//     PER_ADDRESS_FEE, OWNER_CAN_BLOCK_SELLS, or OWNER_CAN_CHANGE_FEES
//     whose value (the highest fee the owner can set) is FeeCeilingPct or
//     more.
//
// It returns, per behaviour, the codes that raised it.
func Behaviour(flags []risk.Flag) map[string][]string {
	out := map[string][]string{}
	add := func(b, code string) {
		for _, c := range out[b] {
			if c == code {
				return
			}
		}
		out[b] = append(out[b], code)
	}
	for _, f := range flags {
		switch f.Code {
		case risk.OwnerCanMint:
			add(Mint, f.Code)
		case risk.OwnerCanChangeBalance:
			add(Mint, f.Code)
			add(Leak, f.Code)
		case risk.OwnerCanSeize, risk.OwnerCanTakeContractTokens:
			add(Leak, f.Code)
		case risk.OwnerCanBlacklist, risk.OwnerCanPause, risk.TradingSwitch, risk.OwnerCanLimitTx, risk.HoneypotCannotSell,
			risk.WhitelistOnly, risk.PerAddressFee, risk.OwnerCanBlockSells:
			add(Limit, f.Code)
		case risk.OwnerCanChangeFees:
			if f.Value != nil && *f.Value >= FeeCeilingPct {
				add(Limit, f.Code)
			}
		}
	}
	return out
}

// PowerBehaviour maps a report's flags to the backdoor powers they
// establish (backdoors.json):
//
//   - mint: OWNER_CAN_MINT or OWNER_CAN_CHANGE_BALANCE (credit);
//   - blacklist: OWNER_CAN_BLACKLIST, WHITELIST_ONLY (a chosen account's
//     transfers switched on or off) or PER_ADDRESS_FEE (taxed away);
//   - pause: OWNER_CAN_PAUSE, TRADING_SWITCH or OWNER_CAN_BLOCK_SELLS
//     (every transfer or sell stopped);
//   - seize: OWNER_CAN_SEIZE or OWNER_CAN_CHANGE_BALANCE (debit).
//
// It returns, per power, the codes that raised it.
func PowerBehaviour(flags []risk.Flag) map[string][]string {
	out := map[string][]string{}
	add := func(p, code string) {
		if !slices.Contains(out[p], code) {
			out[p] = append(out[p], code)
		}
	}
	for _, f := range flags {
		switch f.Code {
		case risk.OwnerCanMint:
			add(PowerMint, f.Code)
		case risk.OwnerCanChangeBalance:
			add(PowerMint, f.Code)
			add(PowerSeize, f.Code)
		case risk.OwnerCanSeize:
			add(PowerSeize, f.Code)
		case risk.OwnerCanBlacklist, risk.WhitelistOnly, risk.PerAddressFee:
			add(PowerBlacklist, f.Code)
		case risk.OwnerCanPause, risk.TradingSwitch, risk.OwnerCanBlockSells:
			add(PowerPause, f.Code)
		}
	}
	return out
}

// TallyPowers counts, per backdoor power, the tokens labelled with it
// that the report found (TP) and missed (FN), and lists the misses. The
// labels are positives only: there is no FP or TN.
func TallyPowers(results []Result) (map[string]*Score, []Miss) {
	scores := map[string]*Score{}
	for _, p := range Powers {
		scores[p] = &Score{}
	}
	var misses []Miss
	for _, r := range results {
		found := PowerBehaviour(r.Flags)
		for _, p := range Powers {
			if l := r.Token.Powers[p]; l == nil || !*l {
				continue
			}
			if len(found[p]) > 0 {
				scores[p].TP++
				continue
			}
			scores[p].FN++
			m := Miss{Address: r.Token.Address.Hex(), Behaviour: "backdoor:" + p, Label: true, Flags: flagNames(r.Flags)}
			if r.Err != nil {
				m.Error = r.Err.Error()
			}
			if r.Seeded != nil {
				m.Seeding = r.Seeded.AllNotes()
			}
			misses = append(misses, m)
		}
	}
	return scores, misses
}

// Score counts one behaviour's verdicts against its labels.
type Score struct {
	TP, FP, FN, TN int
}

// Precision is TP/(TP+FP), 0 when nothing was predicted.
func (s Score) Precision() float64 { return ratio(s.TP, s.TP+s.FP) }

// Recall is TP/(TP+FN), 0 when nothing is labelled true.
func (s Score) Recall() float64 { return ratio(s.TP, s.TP+s.FN) }

// F1 is the harmonic mean of precision and recall.
func (s Score) F1() float64 {
	p, r := s.Precision(), s.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Miss is one wrong verdict: a false positive or a false negative.
type Miss struct {
	Address   string   `json:"address"`
	Behaviour string   `json:"behaviour"`
	Label     bool     `json:"label"`
	Predicted bool     `json:"predicted"`
	Flags     []string `json:"flags"`
	Error     string   `json:"error,omitempty"`
	Seeding   []string `json:"seeding,omitempty"`
}

// Tally scores results against their labels (null labels are skipped) and
// lists the misses.
func Tally(results []Result) (map[string]*Score, []Miss) {
	scores := map[string]*Score{}
	for _, b := range Behaviours {
		scores[b] = &Score{}
	}
	var misses []Miss
	for _, r := range results {
		predicted := Behaviour(r.Flags)
		for _, b := range Behaviours {
			label := r.Token.Labels[b]
			if label == nil {
				continue
			}
			got := len(predicted[b]) > 0
			sc := scores[b]
			switch {
			case *label && got:
				sc.TP++
			case *label && !got:
				sc.FN++
			case !*label && got:
				sc.FP++
			default:
				sc.TN++
			}
			if got != *label {
				m := Miss{Address: r.Token.Address.Hex(), Behaviour: b, Label: *label, Predicted: got, Flags: flagNames(r.Flags)}
				if r.Err != nil {
					m.Error = r.Err.Error()
				}
				if r.Seeded != nil {
					m.Seeding = r.Seeded.AllNotes()
				}
				misses = append(misses, m)
			}
		}
	}
	sort.SliceStable(misses, func(i, j int) bool { return misses[i].Behaviour < misses[j].Behaviour })
	return scores, misses
}

func flagNames(flags []risk.Flag) []string {
	out := make([]string, 0, len(flags))
	for _, f := range flags {
		s := f.Code
		if f.Evidence != "" {
			s += " [" + f.Evidence
			if f.Source != "" {
				s += ": " + f.Source
			}
			s += "]"
		}
		if f.Value != nil {
			s += fmt.Sprintf(" =%g", *f.Value)
		}
		out = append(out, s)
	}
	return out
}
