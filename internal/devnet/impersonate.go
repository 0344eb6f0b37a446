package devnet

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// impersonate deploys, from the token's creator, a plain ERC-20 named
// and symbolled like the devnet's major token symbol (WETH or USDC): a
// copycat FAKE_TOKEN catches, and the creator's next launch its record
// shows. Its address is res.Deployed.
func (s *sender) impersonate(ctx context.Context, m Manifest, symbol string) error {
	var names []string
	for _, t := range m.Chain("").MajorTokens {
		names = append(names, t.Symbol)
		if !strings.EqualFold(t.Symbol, symbol) {
			continue
		}
		c, err := contracts.Artifact("PlainERC20")
		if err != nil {
			return fmt.Errorf("devnet act: %w", err)
		}
		supply := new(big.Int).Mul(big.NewInt(1_000_000_000), new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil))
		args, err := c.ABI.Pack("", t.Name, t.Symbol, supply)
		if err != nil {
			return fmt.Errorf("devnet act: PlainERC20 constructor: %w", err)
		}
		nonce, err := s.client.PendingNonceAt(ctx, s.from)
		if err != nil {
			return fmt.Errorf("devnet act: nonce: %w", err)
		}
		if err := s.send(ctx, nil, append(append([]byte(nil), c.Bytecode...), args...)); err != nil {
			return err
		}
		s.res.Deployed = crypto.CreateAddress(s.from, nonce)
		return nil
	}
	return fmt.Errorf("devnet act: impersonate %q: the devnet's major tokens are %s", symbol, strings.Join(names, ", "))
}
