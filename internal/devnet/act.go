package devnet

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// Actions are the owner actions `tokenrisk devnet act` performs, with
// their argument.
var Actions = map[string]string{
	"set-fee":          "N (percent, buy and sell)",
	"mint":             "AMOUNT (whole tokens, to the owner)",
	"pause":            "",
	"blacklist":        "ADDR",
	"remove-liquidity": "PCT (of the owner's LP shares)",
	"transfer-owner":   "ADDR",
	"renounce":         "",
	"upgrade":          "",
	"impersonate":      "SYMBOL (a devnet major token: WETH or USDC; deployed by the token's creator)",
	"clone":            "(the token's code deployed again: by its creator, and by a new creator it funds)",
	"hook-fee":         "N (percent of every swap's output the token's V4 hook takes; its owner is the creator)",
	"hook-block":       "",
}

// ActResult is what an action sent.
type ActResult struct {
	Action string
	// Txs are the owner's transactions, in order, all mined and successful.
	Txs []common.Hash
	// Block is the block of the last one.
	Block uint64
	// SentAt is when the first transaction was sent.
	SentAt time.Time
	// Deployed is the contract an action deployed (impersonate), if any.
	Deployed common.Address
	// Clones are the copies clone deployed: the creator's, then the new
	// creator's.
	Clones []Clone
}

// Act sends the owner's real transaction(s) for action on the token of the
// manifest at address, through the node at rpcURL, and waits until they
// are mined. The owner's key is the devnet's own (derived like every
// devnet account), so Act works against any running devnet.
//
// Which function a token offers is read from its code: the action tries
// the usual signatures and uses the first whose selector the code has.
func Act(ctx context.Context, rpcURL string, m Manifest, address, action string, args []string) (ActResult, error) {
	res := ActResult{Action: action}
	if !common.IsHexAddress(address) {
		return res, fmt.Errorf("devnet act: %q is not an address", address)
	}
	tok, ok := manifestToken(m, address)
	if !ok {
		return res, fmt.Errorf("devnet act: %s is not a token of the manifest", address)
	}
	key, err := creatorKey(tok.Creator)
	if err != nil {
		return res, err
	}
	client, err := ethclient.DialContext(ctx, rpcURL)
	if err != nil {
		return res, fmt.Errorf("devnet act: dial: %w", err)
	}
	defer client.Close()
	token := common.HexToAddress(tok.Address)
	code, err := client.CodeAt(ctx, token, nil)
	if err != nil {
		return res, fmt.Errorf("devnet act: code: %w", err)
	}
	owner := crypto.PubkeyToAddress(key.PublicKey)
	s := &sender{client: client, key: key, from: owner, res: &res}
	arg := func(i int) (string, error) {
		if len(args) <= i {
			return "", fmt.Errorf("devnet act: %s needs %s", action, Actions[action])
		}
		return args[i], nil
	}
	switch action {
	case "set-fee":
		a, err := arg(0)
		if err != nil {
			return res, err
		}
		n, err := strconv.ParseUint(a, 10, 64)
		if err != nil {
			return res, fmt.Errorf("devnet act: fee %q: %w", a, err)
		}
		fee := new(big.Int).SetUint64(n)
		err = s.first(ctx, token, code, []call{
			{"updateFees(uint256,uint256)", []any{fee, fee}},
			{"setFees(uint256,uint256)", []any{fee, fee}},
			{"setTaxes(uint256,uint256)", []any{fee, fee}},
			{"setFee(uint256)", []any{fee}},
			{"setTax(uint256)", []any{fee}},
		})
		return res, err
	case "mint":
		a, err := arg(0)
		if err != nil {
			return res, err
		}
		amount, ok := new(big.Int).SetString(a, 10)
		if !ok || amount.Sign() <= 0 {
			return res, fmt.Errorf("devnet act: amount %q is not a positive whole number", a)
		}
		amount.Mul(amount, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tok.Decimals)), nil))
		return res, s.first(ctx, token, code, []call{
			{"mint(address,uint256)", []any{owner, amount}},
			{"distributeRewards(address,uint256)", []any{owner, amount}},
		})
	case "pause":
		return res, s.first(ctx, token, code, []call{{"pause()", nil}})
	case "blacklist":
		a, err := arg(0)
		if err != nil {
			return res, err
		}
		if !common.IsHexAddress(a) {
			return res, fmt.Errorf("devnet act: %q is not an address", a)
		}
		who := common.HexToAddress(a)
		return res, s.first(ctx, token, code, []call{
			{"blacklistAddress(address,bool)", []any{who, true}},
			{"setBlacklist(address,bool)", []any{who, true}},
			{"blacklist(address)", []any{who}},
			{"addToBlacklist(address)", []any{who}},
		})
	case "transfer-owner":
		a, err := arg(0)
		if err != nil {
			return res, err
		}
		if !common.IsHexAddress(a) {
			return res, fmt.Errorf("devnet act: %q is not an address", a)
		}
		return res, s.first(ctx, token, code, []call{{"transferOwnership(address)", []any{common.HexToAddress(a)}}})
	case "renounce":
		return res, s.first(ctx, token, code, []call{{"renounceOwnership()", nil}})
	case "remove-liquidity":
		a, err := arg(0)
		if err != nil {
			return res, err
		}
		pct, err := strconv.ParseUint(a, 10, 64)
		if err != nil || pct == 0 || pct > 100 {
			return res, fmt.Errorf("devnet act: percent %q must be 1 to 100", a)
		}
		return res, s.removeLiquidity(ctx, tok, pct)
	case "upgrade":
		return res, s.upgrade(ctx, token)
	case "impersonate":
		a, err := arg(0)
		if err != nil {
			return res, err
		}
		return res, s.impersonate(ctx, m, a)
	case "clone":
		return res, s.clone(ctx, token)
	case "hook-fee", "hook-block":
		return res, s.hookAction(ctx, tok, action, args)
	}
	return res, fmt.Errorf("devnet act: unknown action %q (one of set-fee, mint, pause, blacklist, remove-liquidity, transfer-owner, renounce, upgrade, impersonate, clone, hook-fee, hook-block)", action)
}

func manifestToken(m Manifest, address string) (ManifestToken, bool) {
	for _, t := range m.Tokens {
		if strings.EqualFold(t.Address, address) {
			return t, true
		}
	}
	return ManifestToken{}, false
}

// creatorKey finds the devnet account whose address is creator.
func creatorKey(creator string) (*ecdsa.PrivateKey, error) {
	accts, err := newAccounts()
	if err != nil {
		return nil, err
	}
	for _, a := range accts.all {
		if strings.EqualFold(a.addr.Hex(), creator) {
			return a.key, nil
		}
	}
	return nil, fmt.Errorf("devnet act: the creator %s is not a devnet account", creator)
}

// call is one candidate function and its arguments (uint256 as *big.Int,
// address, bool).
type call struct {
	sig  string
	args []any
}

func (c call) data() []byte {
	out := append([]byte{}, crypto.Keccak256([]byte(c.sig))[:4]...)
	for _, a := range c.args {
		var w [32]byte
		switch v := a.(type) {
		case *big.Int:
			v.FillBytes(w[:])
		case common.Address:
			copy(w[12:], v[:])
		case bool:
			if v {
				w[31] = 1
			}
		}
		out = append(out, w[:]...)
	}
	return out
}

type sender struct {
	client *ethclient.Client
	key    *ecdsa.PrivateKey
	from   common.Address
	res    *ActResult
}

// first sends the first candidate whose selector appears in code.
func (s *sender) first(ctx context.Context, to common.Address, code []byte, calls []call) error {
	for _, c := range calls {
		sel := crypto.Keccak256([]byte(c.sig))[:4]
		if bytes.Contains(code, append([]byte{0x63}, sel...)) { // PUSH4 selector
			return s.send(ctx, &to, c.data())
		}
	}
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.sig
	}
	return fmt.Errorf("devnet act: %s has none of %s", to.Hex(), strings.Join(names, ", "))
}

// send signs and sends one transaction from the owner and waits for its
// successful receipt.
func (s *sender) send(ctx context.Context, to *common.Address, data []byte) error {
	return s.sendValue(ctx, to, nil, data)
}

// sendValue is send with value wei attached (nil for none).
func (s *sender) sendValue(ctx context.Context, to *common.Address, value *big.Int, data []byte) error {
	chainID, err := s.client.ChainID(ctx)
	if err != nil {
		return fmt.Errorf("devnet act: chain id: %w", err)
	}
	nonce, err := s.client.PendingNonceAt(ctx, s.from)
	if err != nil {
		return fmt.Errorf("devnet act: nonce: %w", err)
	}
	gas, err := s.client.EstimateGas(ctx, ethereum.CallMsg{From: s.from, To: to, Value: value, Data: data})
	if err != nil {
		return fmt.Errorf("devnet act: the owner's call would fail: %w", err)
	}
	tip, err := s.client.SuggestGasTipCap(ctx)
	if err != nil {
		return fmt.Errorf("devnet act: gas tip: %w", err)
	}
	head, err := s.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return fmt.Errorf("devnet act: head: %w", err)
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	tx, err := types.SignNewTx(s.key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas + gas/5, To: to, Value: value, Data: data,
	})
	if err != nil {
		return fmt.Errorf("devnet act: sign: %w", err)
	}
	if s.res.SentAt.IsZero() {
		s.res.SentAt = time.Now()
	}
	if err := s.client.SendTransaction(ctx, tx); err != nil {
		return fmt.Errorf("devnet act: send: %w", err)
	}
	for {
		r, err := s.client.TransactionReceipt(ctx, tx.Hash())
		switch {
		case err == nil:
			if r.Status != types.ReceiptStatusSuccessful {
				return fmt.Errorf("devnet act: transaction %s reverted", tx.Hash().Hex())
			}
			s.res.Txs = append(s.res.Txs, tx.Hash())
			s.res.Block = r.BlockNumber.Uint64()
			return nil
		case !errors.Is(err, ethereum.NotFound):
			return fmt.Errorf("devnet act: receipt: %w", err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("devnet act: waiting for %s: %w", tx.Hash().Hex(), ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// removeLiquidity returns pct of the owner's LP shares to the pool and
// burns them (the V2 way: shares into the pair, then burn(to)).
func (s *sender) removeLiquidity(ctx context.Context, tok ManifestToken, pct uint64) error {
	if !common.IsHexAddress(tok.Pair) {
		return fmt.Errorf("devnet act: %s has no pool", tok.Address)
	}
	pair := common.HexToAddress(tok.Pair)
	out, err := s.client.CallContract(ctx, ethereum.CallMsg{To: &pair, Data: call{"balanceOf(address)", []any{s.from}}.data()}, nil)
	if err != nil || len(out) < 32 {
		return fmt.Errorf("devnet act: LP balance: %v", err)
	}
	shares := new(big.Int).SetBytes(out[:32])
	if shares.Sign() == 0 {
		return fmt.Errorf("devnet act: the owner holds no LP shares of %s (burned or locked)", tok.Pair)
	}
	amount := new(big.Int).Div(new(big.Int).Mul(shares, new(big.Int).SetUint64(pct)), big.NewInt(100))
	if err := s.send(ctx, &pair, call{"transfer(address,uint256)", []any{pair, amount}}.data()); err != nil {
		return err
	}
	return s.send(ctx, &pair, call{"burn(address)", []any{s.from}}.data())
}

// upgrade deploys a new implementation and points the proxy at it (the
// admin's upgradeTo).
func (s *sender) upgrade(ctx context.Context, proxy common.Address) error {
	slot := common.HexToHash("0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc")
	cur, err := s.client.StorageAt(ctx, proxy, slot, nil)
	if err != nil || common.BytesToAddress(cur) == (common.Address{}) {
		return fmt.Errorf("devnet act: %s is not an EIP-1967 proxy", proxy.Hex())
	}
	art, err := contracts.Artifact("UpgradeableToken")
	if err != nil {
		return err
	}
	if err := s.send(ctx, nil, art.Bytecode); err != nil {
		return err
	}
	r, err := s.client.TransactionReceipt(ctx, s.res.Txs[len(s.res.Txs)-1])
	if err != nil {
		return fmt.Errorf("devnet act: receipt: %w", err)
	}
	return s.send(ctx, &proxy, call{"upgradeTo(address)", []any{r.ContractAddress}}.data())
}
