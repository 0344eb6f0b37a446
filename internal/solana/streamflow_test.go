package solana_test

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

const streamflowProgram = "strmRqUCoQUgGUan5YhzUZa6KqdzwX5L6FpUxfmKg5m"

// streamflowStream is a SYNTHETIC Streamflow stream (no real stream
// account was found in public fixtures), laid out as the Streamflow SDK's
// streamLayout: it locks deposited of mint in escrow for recipient,
// releasing cliffAmount at cliff and perPeriod every period seconds
// after it, until end.
type streamflowStream struct {
	mint, escrow, recipient                              string
	deposited, withdrawn, start, cliff, end, period, per uint64
	cliffAmount                                          uint64
	cancelable, closed                                   bool
}

func (s streamflowStream) bytes() []byte {
	data := make([]byte, 1104)
	le := binary.LittleEndian
	le.PutUint64(data[17:], s.withdrawn)
	le.PutUint64(data[33:], s.end)
	putKey(data, 49, "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU")
	putKey(data, 113, s.recipient)
	putKey(data, 177, s.mint)
	putKey(data, 209, s.escrow)
	le.PutUint64(data[409:], s.start)
	le.PutUint64(data[417:], s.deposited)
	le.PutUint64(data[425:], s.period)
	le.PutUint64(data[433:], s.per)
	le.PutUint64(data[441:], s.cliff)
	le.PutUint64(data[449:], s.cliffAmount)
	if s.cancelable {
		data[457] = 1
	}
	if s.closed {
		data[671] = 1
	}
	return data
}

func TestDecodeStreamflowContract(t *testing.T) {
	s := streamflowStream{mint: cpmmLPMint, escrow: syntheticKey("escrow"), recipient: whale, deposited: 1000, withdrawn: 100,
		start: 100, cliff: 200, cliffAmount: 100, period: 10, per: 50, end: 380}
	got, err := solana.DecodeStreamflowContract(s.bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got.Mint.String() != cpmmLPMint || got.Escrow.String() != s.escrow || got.Recipient.String() != whale || got.Deposited != 1000 || got.Withdrawn != 100 || got.End != 380 {
		t.Errorf("stream = %+v", got)
	}
	// Nothing before the cliff; the cliff amount at it; 50 more every 10 s.
	for now, want := range map[int64]uint64{150: 0, 200: 100, 209: 100, 210: 150, 300: 600, 379: 950, 380: 1000, 10_000: 1000} {
		if u := got.Unlocked(now); u != want {
			t.Errorf("unlocked at %d = %d, want %d", now, u, want)
		}
	}
	if l := got.LockedAt(250); l != 1000-350 {
		t.Errorf("locked at 250 = %d", l)
	}
	s.cancelable = true
	if c, _ := solana.DecodeStreamflowContract(s.bytes()); c.LockedAt(0) != 0 {
		t.Error("a stream the sender can cancel counted locked")
	}
	s.withdrawn = 2000
	if _, err := solana.DecodeStreamflowContract(s.bytes()); err == nil {
		t.Error("decoded a stream that paid out more than deposited")
	}
	if _, err := solana.DecodeStreamflowContract(s.bytes()[:1103]); err == nil {
		t.Error("decoded a stream one byte short")
	}
}

// TestAssessStreamflowLock: the CPMM pool's LP sits 60% in a Streamflow
// stream's escrow (owned by a program address) and 40% burned. A stream
// that has released nothing counts its escrow locked, with its end as
// locked_until; one its sender can cancel counts nothing locked; one that
// has released a third counts that third its recipient's (a wallet).
func TestAssessStreamflowLock(t *testing.T) {
	now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	escrowOwner := somePDA(t)
	escrow := syntheticKey("lp-streamflow-escrow")
	held := uint64(cpmmLPSupply / 10 * 6)
	for _, tt := range []struct {
		name                      string
		stream                    streamflowStream
		locked, unlocked, unknown float64
		lockedOK                  bool
	}{
		{"locked a year", streamflowStream{cliff: uint64(now.Unix()) + 365*86400, cliffAmount: held, end: uint64(now.Unix()) + 365*86400}, 60, 0, 0, false},
		{"cancelable by its sender", streamflowStream{cliff: uint64(now.Unix()) + 365*86400, cliffAmount: held, end: uint64(now.Unix()) + 365*86400, cancelable: true}, 0, 0, 60, false},
		{"a third released", streamflowStream{start: uint64(now.Unix()) - 100, cliff: uint64(now.Unix()) - 100, cliffAmount: held / 3, end: uint64(now.Unix()) + 86400}, 40, 20, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			addLPHolders(t, srv, []lpHolding{{burnOwner, cpmmLPSupply - held}})
			if err := srv.AddTokenAccount(escrow, cpmmLPMint, escrowOwner, held, solanatest.TokenProgram); err != nil {
				t.Fatal(err)
			}
			st := tt.stream
			st.mint, st.escrow, st.recipient, st.deposited = cpmmLPMint, escrow, whale, held
			srv.SetAccount(syntheticKey("stream"), solanatest.Account{Lamports: 8_574_720, Owner: streamflowProgram, Data: st.bytes()})
			got, err := newAdapter(t, solana.Options{Now: func() time.Time { return now }}, srv.URL()).Assess(context.Background(), request(t, pumpMint))
			if err != nil {
				t.Fatal(err)
			}
			l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
			var p analysis.SolanaPool
			for _, q := range l.Pools {
				if q.LPMint == cpmmLPMint {
					p = q
				}
			}
			if !pctIs(p.LPBurnedPct, 40) || !pctIs(p.LPLockedPct, tt.locked) || !pctIs(p.LPUnlockedPct, tt.unlocked) || !pctIs(p.LPUnknownPct, tt.unknown) {
				t.Errorf("burned %v locked %v unlocked %v unknown %v", p.LPBurnedPct, p.LPLockedPct, p.LPUnlockedPct, p.LPUnknownPct)
			}
			var row *analysis.SolanaLPHolder
			for i := range p.LPHolders {
				if p.LPHolders[i].TokenAccount == escrow {
					row = &p.LPHolders[i]
				}
			}
			if row == nil {
				t.Fatalf("no escrow row in %+v", p.LPHolders)
			}
			if tt.locked > 0 && (row.Label != analysis.SolanaLPLocker || row.LockedUntil == nil || *row.LockedUntil != int64(st.end)) {
				t.Errorf("escrow row %+v, want a locker until %d", row, st.end)
			}
			if tt.locked == 0 && row.Label == analysis.SolanaLPLocker {
				t.Errorf("a cancelable stream labelled a locker: %+v", row)
			}
			if safe := *p.LPBurnedPct + *p.LPLockedPct; (safe >= 90) != got.Checklist.LiquidityLocked || hasFlag(got.Liquidity.Flags, risk.LPNotLocked) != (tt.unlocked > 10) {
				t.Errorf("checklist %v flags %+v", got.Checklist.LiquidityLocked, got.Liquidity.Flags)
			}
		})
	}
}
