package solana

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"
)

// holderCountGrace is how long the holders wait for the counting query
// once round trip 3 is done; past it the count is a bound with a warning.
const holderCountGrace = 2 * time.Second

// holderCount is the outcome of counting a mint's token accounts: how
// many hold a non-zero balance and how much they hold together.
type holderCount struct {
	accounts int
	held     uint64
	err      error
}

// startHolderCount counts the mint's token accounts with a non-zero
// balance (getProgramAccounts on the mint's token program, memcmp on the
// mint at offset 0, each account sliced to its 8-byte amount: about 150
// bytes of answer per account) in its own request beside round trips 2
// and 3, so that a large answer, or a node that refuses the query, fails
// only the count. A token account always belongs to its mint's program,
// so one program is asked. wait returns the count, giving the query
// holderCountGrace past the moment it is called.
func (c *collector) startHolderCount(ctx context.Context) (wait func() *holderCount) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan *holderCount, 1)
	go func() {
		done <- c.countHolders(ctx)
	}()
	return func() *holderCount {
		defer cancel()
		t := time.NewTimer(holderCountGrace)
		defer t.Stop()
		select {
		case hc := <-done:
			return hc
		case <-t.C:
			cancel()
			<-done
			return &holderCount{err: fmt.Errorf("no answer within %s of the scan's last round trip", holderCountGrace)}
		}
	}
}

func (c *collector) countHolders(ctx context.Context) *holderCount {
	program := MustPublicKey(c.facts.Mint.ProgramID)
	size := 0
	if program == c.cfg.tokenProgram {
		size = tokenAccountSize
	}
	var out []programAccount
	call := programAccountsCall(program, size, []memcmp{{0, c.mint[:]}}, &out)
	call.Params[1].(map[string]any)["dataSlice"] = map[string]any{"offset": 64, "length": 8}
	if err := c.client.Batch(ctx, []*Call{call}); err != nil {
		return &holderCount{err: err}
	}
	if call.Err != nil {
		return &holderCount{err: call.Err}
	}
	return tallyAmounts(out)
}

// tallyAmounts counts the accounts listed with a non-zero amount (each
// account's data is its 8-byte amount) and sums what they hold.
func tallyAmounts(out []programAccount) *holderCount {
	hc := &holderCount{}
	for _, pa := range out {
		acc, err := pa.Account.decode()
		if err != nil {
			return &holderCount{err: fmt.Errorf("token account %s: %w", pa.Pubkey, err)}
		}
		if len(acc.Data) != 8 {
			return &holderCount{err: fmt.Errorf("token account %s: %d bytes of amount, asked for 8", pa.Pubkey, len(acc.Data))}
		}
		if amt := binary.LittleEndian.Uint64(acc.Data); amt > 0 {
			hc.accounts++
			hc.held = satAdd(hc.held, amt)
		}
	}
	return hc
}
