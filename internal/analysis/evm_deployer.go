package analysis

import (
	"fmt"
	"math/big"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// EVMCreatorNewWalletNonce: a creator with fewer transactions than this
// has almost no history.
const EVMCreatorNewWalletNonce = 3

// EVMSerialLaunches: a creator with at least this many other contract
// deployments is a serial launcher.
const EVMSerialLaunches = 3

// EVMDeployerEvidence is deployer_analysis for an EVM token.
type EVMDeployerEvidence struct {
	Creator *string `json:"creator"`
	// CreatorSource is "explorer" or "first_mint_recipient" (on-chain
	// evidence only, not proof of who deployed).
	CreatorSource   string   `json:"creator_source,omitempty"`
	CreationTx      *string  `json:"creation_tx"`
	CreatorBalance  *string  `json:"creator_balance"`
	CreatorTxCount  *uint64  `json:"creator_tx_count"`
	CreatorSharePct *float64 `json:"creator_share_pct"`
	Owner           *string  `json:"owner"`
	OwnerSharePct   *float64 `json:"owner_share_pct"`
	// OtherLaunches is null when unknown (no explorer).
	OtherLaunches []string `json:"other_launches"`
}

// AnalyseEVMDeployer raises CREATOR_HOLDS_LARGE_SHARE,
// OWNER_HOLDS_LARGE_SHARE, CREATOR_NEW_WALLET and CREATOR_SERIAL_LAUNCHER.
func AnalyseEVMDeployer(f *EVMFacts) (scan.Section, []string) {
	d := f.Deployer
	ev := EVMDeployerEvidence{
		Creator:        d.Creator,
		CreatorSource:  d.CreatorSource,
		CreationTx:     d.CreationTx,
		CreatorTxCount: d.CreatorNonce,
	}
	var flags []risk.Flag
	var warnings []string
	status := scan.Complete
	if d.CreatorBalanceWei != nil {
		s := evmUnits(d.CreatorBalanceWei, 18) + " " + d.Native
		ev.CreatorBalance = &s
	}
	if d.OtherLaunchesKnown {
		ev.OtherLaunches = append([]string{}, d.OtherLaunches...)
	}
	if f.OwnerKnown && f.Owner != "" {
		o := f.Owner
		ev.Owner = &o
	}

	switch {
	case d.Creator == nil:
		status = scan.Partial
		warnings = append(warnings, "deployer: creator unknown (no explorer answer and no on-chain evidence)")
	case d.CreatorSource != "explorer":
		status = scan.Partial
		warnings = append(warnings, "deployer: creator inferred from the first mint's recipient; no explorer confirmed it")
	}

	if d.Creator != nil {
		ev.CreatorSharePct = evmShare(d.CreatorTokens, f.TotalSupply)
		switch {
		case ev.CreatorSharePct == nil:
			status = scan.Partial
			warnings = append(warnings, "deployer: creator's share of supply unknown")
		case *ev.CreatorSharePct > risk.LargeSharePct:
			flags = append(flags, risk.NewFlag(risk.CreatorHoldsLargeShare,
				fmt.Sprintf("Creator holds %.1f%% of supply", *ev.CreatorSharePct),
				fmt.Sprintf("The creator %s holds %.2f%% of the total supply.", *d.Creator, *ev.CreatorSharePct)).WithValue(*ev.CreatorSharePct))
		}
		switch {
		case d.CreatorNonce == nil:
			warnings = append(warnings, "deployer: creator's transaction count unknown")
		case *d.CreatorNonce < EVMCreatorNewWalletNonce:
			flags = append(flags, risk.NewFlag(risk.CreatorNewWallet, "Creator wallet is new",
				fmt.Sprintf("The creator %s has sent only %d transaction(s).", *d.Creator, *d.CreatorNonce)).WithValue(float64(*d.CreatorNonce)))
		}
	}

	if ev.Owner != nil {
		ev.OwnerSharePct = evmShare(d.OwnerTokens, f.TotalSupply)
		sameAsCreator := d.Creator != nil && evmSameAddress(*d.Creator, f.Owner)
		switch {
		case ev.OwnerSharePct == nil:
			status = scan.Partial
			warnings = append(warnings, "deployer: owner's share of supply unknown")
		case *ev.OwnerSharePct > risk.LargeSharePct && !sameAsCreator:
			flags = append(flags, risk.NewFlag(risk.OwnerHoldsLargeShare,
				fmt.Sprintf("Owner holds %.1f%% of supply", *ev.OwnerSharePct),
				fmt.Sprintf("The owner %s holds %.2f%% of the total supply.", f.Owner, *ev.OwnerSharePct)).WithValue(*ev.OwnerSharePct))
		}
	}

	switch {
	case !d.OtherLaunchesKnown:
		status = scan.Partial
		warnings = append(warnings, "deployer: no explorer answer; the creator's other launches are unknown")
	case len(d.OtherLaunches) >= EVMSerialLaunches:
		flags = append(flags, risk.NewFlag(risk.CreatorSerialLauncher,
			fmt.Sprintf("Creator deployed %d other contracts", len(d.OtherLaunches)),
			"The creator's recent transactions include these other contract creations.").WithValue(float64(len(d.OtherLaunches))))
	}
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// evmShare is part/total in percent, or nil when either is unknown.
func evmShare(part, total *big.Int) *float64 {
	if part == nil || total == nil || total.Sign() <= 0 {
		return nil
	}
	r, _ := new(big.Rat).SetFrac(new(big.Int).Mul(part, big.NewInt(100)), total).Float64()
	r = evmRound2(r)
	return &r
}

// evmUnits formats a raw amount with decimals as a decimal string.
func evmUnits(v *big.Int, decimals int) string {
	r := new(big.Rat).SetFrac(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
	s := r.FloatString(6)
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
