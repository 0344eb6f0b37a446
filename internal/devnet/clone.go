package devnet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// Clone is one copy of a token that clone deployed.
type Clone struct {
	Address common.Address
	Creator common.Address
	// SameCreator is true for the token creator's own copy.
	SameCreator bool
}

// cloneFunds is what the token's creator gives the new creator: enough
// gas for one deployment.
var cloneFunds = ether(5)

// clone deploys the token's code again the way a scammer relaunches it:
// the token's own creation transaction (its init code and constructor
// arguments) sent once more by the token's creator, then by a new
// creator the creator funds. Each copy runs its constructor (its owner,
// its pair, its immutables are its own), so only what a redeployment
// changes differs from the original.
func (s *sender) clone(ctx context.Context, token common.Address) error {
	input, err := creationInput(ctx, s.client, s.from, token)
	if err != nil {
		return err
	}
	deploy := func(d *sender, same bool) error {
		nonce, err := d.client.PendingNonceAt(ctx, d.from)
		if err != nil {
			return fmt.Errorf("devnet act: nonce: %w", err)
		}
		if err := d.send(ctx, nil, input); err != nil {
			return err
		}
		s.res.Clones = append(s.res.Clones, Clone{Address: crypto.CreateAddress(d.from, nonce), Creator: d.from, SameCreator: same})
		return nil
	}
	if err := deploy(s, true); err != nil {
		return err
	}
	// The new creator's key is derived from the token and the creator's
	// nonce: a fresh wallet on every clone, reproducible from the chain.
	nonce, err := s.client.PendingNonceAt(ctx, s.from)
	if err != nil {
		return fmt.Errorf("devnet act: nonce: %w", err)
	}
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte(fmt.Sprintf("tokenrisk devnet clone %s %d", token.Hex(), nonce))))
	if err != nil {
		return fmt.Errorf("devnet act: new creator key: %w", err)
	}
	other := &sender{client: s.client, key: key, from: crypto.PubkeyToAddress(key.PublicKey), res: s.res}
	if err := s.sendValue(ctx, &other.from, cloneFunds, nil); err != nil {
		return fmt.Errorf("devnet act: funding the new creator: %w", err)
	}
	return deploy(other, false)
}

// creationInput finds the transaction by which creator deployed token
// (a contract creation whose address is token) and returns its input:
// the init code and the constructor arguments.
func creationInput(ctx context.Context, client *ethclient.Client, creator, token common.Address) ([]byte, error) {
	chainID, err := client.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("devnet act: chain id: %w", err)
	}
	signer := types.LatestSignerForChainID(chainID)
	head, err := client.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("devnet act: head: %w", err)
	}
	for n := uint64(1); n <= head; n++ {
		b, err := client.BlockByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			return nil, fmt.Errorf("devnet act: block %d: %w", n, err)
		}
		for _, tx := range b.Transactions() {
			if tx.To() != nil || crypto.CreateAddress(creator, tx.Nonce()) != token {
				continue
			}
			if from, err := types.Sender(signer, tx); err == nil && from == creator {
				return tx.Data(), nil
			}
		}
	}
	return nil, fmt.Errorf("devnet act: no transaction of %s created %s", creator.Hex(), token.Hex())
}
