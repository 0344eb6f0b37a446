package probe

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/tokenrisk/tokenrisk/internal/evm/node"
)

// The victim's grant: when the token's transfers are off on the state the
// probes start from (the simulation could not buy), no donor can give the
// victim tokens and no transfer-blocking power could be observed. The
// victim is then credited ProbeRequest.Grant tokens by state override of
// its key in each balance mapping, so the baseline shows its transfers
// refused and an owner call that turns them on shows them passing (the
// pause is observed from the other side).

// grantDiff is the storage the grant writes: req.Grant at the victim's key
// of every balance mapping the code reads (solc's and vyper's layouts);
// nil when there is nothing to grant or no balance mapping is known.
func grantDiff(req ProbeRequest) map[common.Hash]common.Hash {
	if req.Grant == nil || req.Grant.Sign() <= 0 || len(req.Code.Methods.BalanceSlots) == 0 {
		return nil
	}
	return balanceDiff(ProbeVictim, req.Grant, req.Code.Methods.BalanceSlots)
}

// balanceDiff sets who's balance to amount in each mapping slot.
func balanceDiff(who common.Address, amount *big.Int, slots []uint256.Int) map[common.Hash]common.Hash {
	key := common.LeftPadBytes(who.Bytes(), 32)
	word := common.BigToHash(amount)
	diff := map[common.Hash]common.Hash{}
	for _, slot := range slots {
		sw := slot.Bytes32()
		diff[crypto.Keccak256Hash(key, sw[:])] = word
		diff[crypto.Keccak256Hash(sw[:], key)] = word
	}
	return diff
}

// withGrant adds the grant's storage to the token's account of ov (which
// may already override the token's storage: the stock calls').
func withGrant(ov node.StateOverride, token common.Address, grant map[common.Hash]common.Hash) node.StateOverride {
	if len(grant) == 0 {
		return ov
	}
	acct := ov[token]
	diff := make(map[common.Hash]common.Hash, len(acct.StateDiff)+len(grant))
	for k, v := range acct.StateDiff {
		diff[k] = v
	}
	for k, v := range grant {
		diff[k] = v
	}
	acct.StateDiff = diff
	ov[token] = acct
	return ov
}

// grantedProbesPerCall bounds one eth_call's candidate calls when the
// victim is granted: its transfers then fail in every measurement, and
// an old token's failure (a throw: INVALID) burns all the gas given to
// each of the three test transfers, so far fewer probes fit in one call's
// gas.
const grantedProbesPerCall = 8

// callsPerChunk is how many candidate calls one eth_call carries.
func callsPerChunk(grant map[common.Hash]common.Hash) int {
	if len(grant) > 0 {
		return grantedProbesPerCall
	}
	return probesPerCall
}
