package v4

import (
	"fmt"

	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
)

// PathV4 is the simulation path of a trade through a V4 pool
// (analysis.EVMSimulation.Path).
const PathV4 = "v4"

// wrappedErrorSelector is the PoolManager's WrappedError(address target,
// bytes4 selector, bytes reason, bytes details): how it reports a revert
// inside a hook (or a currency's transfer).
var wrappedErrorSelector = crypto.Keccak256([]byte("WrappedError(address,bytes4,bytes,bytes)"))[:4]

// Reason renders a step's revert data; a hook's revert the PoolManager
// wrapped names the hook and its own reason.
func Reason(data []byte) string {
	if len(data) >= 4 && string(data[:4]) == string(wrappedErrorSelector) {
		args := abi.Arguments{{Type: revert.MustType("address")}, {Type: revert.MustType("bytes4")},
			{Type: revert.MustType("bytes")}, {Type: revert.MustType("bytes")}}
		if vals, err := args.Unpack(data[4:]); err == nil && len(vals) == 4 {
			target, _ := vals[0].(common.Address)
			inner, _ := vals[2].([]byte)
			return fmt.Sprintf("%s reverted inside the PoolManager: %s", target.Hex(), revert.RevertReason(inner))
		}
	}
	return revert.RevertReason(data)
}

// Report turns the V4 simulator's measurements through pool p into the
// simulation the analysis reads (the same shape as a V2/V3 simulation's),
// path "v4". The token's own taxes are what its transfers withheld (the
// PoolManager paying the buyer, the seller paying the PoolManager, the
// wallet-to-wallet transfer); the hook's cut is what the swap credited
// short of the hook-free twin of the same state, reported apart.
func (s *Simulation) Report(p Pool) *analysis.EVMSimulation {
	res := &analysis.EVMSimulation{Pool: p.ID.Hex(), Path: PathV4}
	if s.AmountIn != nil {
		res.QuoteIn = s.AmountIn.String()
	}
	hooked := p.Key.Hooks != (common.Address{})
	var hook *analysis.EVMHookCut
	if hooked {
		hook = &analysis.EVMHookCut{Address: p.Key.Hooks.Hex()}
		res.Hook = hook
	}
	res.CanBuy = boolPtr(s.BuyOK)
	if !s.BuyOK {
		msg := "buy failed: " + Reason(s.BuyError)
		res.Error = &msg
		return res
	}
	res.BuyGas = u64Ptr(s.BuyGas)
	res.BuyTax = simulation.LossPct(s.BuyReceived, s.BuyCredit)
	var notes, errs []string
	if hooked {
		if s.TwinOK {
			hook.BuyFee = simulation.LossPct(s.BuyCredit, s.BuyTwin)
		} else {
			notes = append(notes, "the hook-free twin of the V4 pool could not be built: the hook's cut is unknown")
		}
	}
	if s.TransferOK {
		res.TransferTax = simulation.LossPct(s.TransferReceived, s.TransferSent)
	} else {
		errs = append(errs, "transfer failed: "+Reason(s.TransferError))
	}
	res.CanSell = boolPtr(s.SellOK)
	if s.SellOK {
		res.SellGas = u64Ptr(s.SellGas)
		res.SellTax = sellTax(s)
		if hooked && s.TwinOK {
			hook.SellFee = simulation.LossPct(s.SellCredit, s.SellTwin)
		}
	} else {
		errs = append(errs, "sell failed: "+Reason(s.SellError))
	}
	if len(errs) > 0 {
		msg := strings.Join(errs, "; ")
		res.Error = &msg
	}
	res.Notes = notes
	return res
}

// sellTax is what the token withheld on the sell: the share of the tokens
// sent that the PoolManager did not count as paid, and of the quote
// credited that did not arrive (a quote token's own tax; none for the
// native coin).
func sellTax(s *Simulation) *float64 {
	if s.SellSent == nil || s.SellSent.Sign() == 0 || s.SellCredit == nil || s.SellCredit.Sign() == 0 {
		return nil
	}
	tokenSide, _ := new(big.Rat).SetFrac(s.SellPaid, s.SellSent).Float64()
	quoteSide, _ := new(big.Rat).SetFrac(s.SellReceived, s.SellCredit).Float64()
	return simulation.Pct(1 - tokenSide*quoteSide)
}

func boolPtr(v bool) *bool    { return &v }
func u64Ptr(v uint64) *uint64 { return &v }
