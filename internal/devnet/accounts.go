package devnet

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// holderCount is how many holder wallets the zoo spreads tokens over.
const holderCount = 64

// deadAddress is the conventional burn address LP is sent to.
var deadAddress = common.HexToAddress("0x000000000000000000000000000000000000dEaD")

// account is a funded EOA with a locally tracked nonce.
type account struct {
	name  string
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
	funds *big.Int
}

// newAccount derives a key from a fixed seed, so every run uses the same
// addresses.
func newAccount(name string, funds *big.Int) (*account, error) {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("tokenrisk devnet " + name)))
	if err != nil {
		return nil, fmt.Errorf("devnet: key %s: %w", name, err)
	}
	return &account{name: name, key: key, addr: crypto.PubkeyToAddress(key.PublicKey), funds: funds}, nil
}

// accounts are every EOA the devnet funds at genesis.
type accounts struct {
	deployer  *account            // deploys WETH, the AMM, the locker and USDC
	creators  map[string]*account // one creator per zoo kind
	holders   []*account
	whale     *account
	marketing *account // receives fees of the taxed tokens
	all       []*account
}

func newAccounts() (*accounts, error) {
	a := &accounts{creators: map[string]*account{}}
	add := func(name string, funds *big.Int) (*account, error) {
		acct, err := newAccount(name, funds)
		if err != nil {
			return nil, err
		}
		a.all = append(a.all, acct)
		return acct, nil
	}
	var err error
	if a.deployer, err = add("deployer", ether(1_000_000)); err != nil {
		return nil, err
	}
	if a.whale, err = add("whale", ether(100)); err != nil {
		return nil, err
	}
	if a.marketing, err = add("marketing", ether(10)); err != nil {
		return nil, err
	}
	for _, spec := range allZooSpecs() {
		c, err := add("creator "+spec.kind, ether(1_000))
		if err != nil {
			return nil, err
		}
		a.creators[spec.kind] = c
	}
	for i := range holderCount {
		h, err := add(fmt.Sprintf("holder %d", i), ether(100))
		if err != nil {
			return nil, err
		}
		a.holders = append(a.holders, h)
	}
	return a, nil
}

func (a *accounts) genesisAlloc() types.GenesisAlloc {
	alloc := types.GenesisAlloc{}
	for _, acct := range a.all {
		alloc[acct.addr] = types.Account{Balance: acct.funds}
	}
	return alloc
}

func (a *accounts) keys() map[common.Address]*ecdsa.PrivateKey {
	out := make(map[common.Address]*ecdsa.PrivateKey, len(a.all))
	for _, acct := range a.all {
		out[acct.addr] = acct.key
	}
	return out
}
