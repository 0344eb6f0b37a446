package devnet

import (
	"context"
	"fmt"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
)

// hookAction sends the hook owner's transaction for hook-fee (N percent of
// every swap's output, through the hook's fee setter) or hook-block (the
// hook's switch that closes sells) on the V4 pool's hook of tok. The
// hook's owner is the token's creator; which setter the hook offers is
// read from its code.
func (s *sender) hookAction(ctx context.Context, tok ManifestToken, action string, args []string) error {
	if !common.IsHexAddress(tok.Hook) {
		return fmt.Errorf("devnet act: %s has no Uniswap V4 pool with a hook", tok.Address)
	}
	hook := common.HexToAddress(tok.Hook)
	code, err := s.client.CodeAt(ctx, hook, nil)
	if err != nil {
		return fmt.Errorf("devnet act: hook code: %w", err)
	}
	switch action {
	case "hook-fee":
		if len(args) == 0 {
			return fmt.Errorf("devnet act: hook-fee needs %s", Actions[action])
		}
		n, err := strconv.ParseUint(args[0], 10, 64)
		if err != nil || n > 100 {
			return fmt.Errorf("devnet act: hook fee %q must be a percent from 0 to 100", args[0])
		}
		bps := new(big.Int).SetUint64(n * 100)
		return s.first(ctx, hook, code, []call{{"setFee(uint256)", []any{bps}}, {"setFeeBps(uint256)", []any{bps}}})
	default: // hook-block
		return s.first(ctx, hook, code, []call{{"setSellsBlocked(bool)", []any{true}}})
	}
}
