package solana_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

const (
	jitoSOL       = "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn"
	upgradeLoader = "BPFLoaderUpgradeab1e11111111111111111111111"
)

func flagDetail(flags []risk.Flag, code string) string {
	for _, f := range flags {
		if f.Code == code {
			return f.Detail
		}
	}
	return ""
}

// TestAuthorityLabels: the mint authority of the real JitoSOL, mSOL and
// scnSOL mints is a program-derived address (their stake pools'), not a
// wallet: labelled pda and the flag does not say "at will"; the mega
// token's authority is a wallet (on the curve); a SYNTHETIC 2-of-3 SPL
// multisig account (the token program's 355-byte layout) in its place
// reads as such.
func TestAuthorityLabels(t *testing.T) {
	for _, tt := range []struct {
		name, mint string
		multisig   bool
		kind       string
		says       string
	}{
		{"JitoSOL", jitoSOL, false, analysis.SolanaAuthorityPDA, "no key holder mints at will"},
		{"mSOL", msolMint, false, analysis.SolanaAuthorityPDA, "no key holder mints at will"},
		{"scnSOL", scnSOL, false, analysis.SolanaAuthorityPDA, "no key holder mints at will"},
		{"mega token", megaMint, false, analysis.SolanaAuthorityWallet, "(a wallet) can mint new tokens at will"},
		{"mega token, multisig authority", megaMint, true, analysis.SolanaAuthorityMultisig, "(a 2-of-3 multisig) can mint new tokens when enough of its signers agree"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			if tt.multisig {
				data := make([]byte, 355)
				data[0], data[1], data[2] = 2, 3, 1
				for i := range 3 {
					putKey(data, 3+32*i, syntheticKey(string(rune('a'+i))))
				}
				srv.SetAccount(megaAuth, solanatest.Account{Lamports: 3_361_680, Owner: solanatest.TokenProgram, Data: data})
			}
			got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, tt.mint))
			if err != nil {
				t.Fatal(err)
			}
			c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
			auth := *c.MintAuthority
			if c.Authorities[auth].Kind != tt.kind {
				t.Errorf("mint authority %s labelled %+v, want %s", auth, c.Authorities[auth], tt.kind)
			}
			if d := flagDetail(got.Contract.Flags, risk.MintAuthorityEnabled); !strings.Contains(d, tt.says) {
				t.Errorf("MINT_AUTHORITY_ENABLED says %q, want %q", d, tt.says)
			}
		})
	}
}

// TestWhoCanChangeWhat: the mega token (real test-validator bytes) keeps
// its hook, fee, default-state and metadata authorities; its hook program
// is the mint itself, not executable, so every transfer fails. pump
// mints have revoked everything. A SYNTHETIC Token-2022 mint whose hook
// points at the real SPL Stake Pool program reads upgradeable by its
// upgrade authority, or not once the authority is gone.
func TestWhoCanChangeWhat(t *testing.T) {
	t.Run("mega token", func(t *testing.T) {
		srv := newServer(t)
		got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, megaMint))
		if err != nil {
			t.Fatal(err)
		}
		c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
		if c.TransferHookUpgradable == nil || !*c.TransferHookUpgradable || !c.TransferFeeUpgradable || !c.DefaultAccountStateUpgradable ||
			c.MetadataMutable == nil || !*c.MetadataMutable || c.MetadataUpdateAuthority == nil || *c.MetadataUpdateAuthority != megaAuth {
			t.Errorf("hook %v fee %v default state %v metadata %v by %v", c.TransferHookUpgradable, c.TransferFeeUpgradable, c.DefaultAccountStateUpgradable, c.MetadataMutable, c.MetadataUpdateAuthority)
		}
		hp := c.TransferHookProgram
		if hp == nil || hp.Address != megaMint || !hp.Exists || hp.Executable {
			t.Errorf("hook program %+v, want the mint's own account, not executable", hp)
		}
		if d := flagDetail(got.Contract.Flags, risk.TransferHook); !strings.Contains(d, "not executable, so every transfer fails") {
			t.Errorf("TRANSFER_HOOK says %q", d)
		}
	})
	t.Run("pump mint", func(t *testing.T) {
		got, err := newAdapter(t, solana.Options{}, newServer(t).URL()).Assess(context.Background(), request(t, pumpMint))
		if err != nil {
			t.Fatal(err)
		}
		c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
		if c.TransferHookUpgradable == nil || *c.TransferHookUpgradable || c.TransferFeeUpgradable || c.DefaultAccountStateUpgradable || c.MetadataMutable == nil || *c.MetadataMutable || c.TransferHookProgram != nil {
			t.Errorf("hook %v fee %v default state %v metadata %v program %v: all revoked", c.TransferHookUpgradable, c.TransferFeeUpgradable, c.DefaultAccountStateUpgradable, c.MetadataMutable, c.TransferHookProgram)
		}
	})
	// The real SPL Stake Pool program (its account whole, its
	// program-data account's header) as the hook program of a SYNTHETIC
	// Token-2022 mint whose hook authority is revoked; then the same
	// header with its authority tag cleared (a program made immutable).
	for _, tt := range []struct {
		name        string
		upgradeable bool
	}{{"upgradeable hook program", true}, {"immutable hook program", false}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			if err := srv.LoadDir("testdata/programs"); err != nil {
				t.Fatal(err)
			}
			const program, upgrader = "SPoo1Ku8WFXoNDMHPsrGSTSG1Y47rzgn41SLUNakuHy", "dPpFfahSWhm5M2RB3nVaHsXfnh9ooz5bWtR3WeUguDH"
			pd, err := solana.ProgramDataAddress(solana.MustPublicKey(program))
			if err != nil || pd.String() != "EmiU8AQkB2sswTxVB6aCmsAJftoowZGGDXuytm6X65R3" {
				t.Fatalf("program data address %s (%v)", pd, err)
			}
			if !tt.upgradeable {
				acc, _ := srv.Account(pd.String())
				acc.Data = acc.Data[:13]
				acc.Data[12] = 0
				srv.SetAccount(pd.String(), acc)
			}
			mint := syntheticKey("hooked mint")
			hook := tlvEntry(14, le{}.key("").key(program))
			srv.SetAccount(mint, solanatest.Account{Lamports: 1_000_000, Owner: solanatest.Token2022Program, Data: extendedMint(1_000_000, 6, hook)})
			got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, mint))
			if err != nil {
				t.Fatal(err)
			}
			c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
			hp := c.TransferHookProgram
			if hp == nil || !hp.Executable || hp.Loader != upgradeLoader || hp.Upgradeable == nil || *hp.Upgradeable != tt.upgradeable || c.TransferHookUpgradable == nil || *c.TransferHookUpgradable != tt.upgradeable {
				t.Fatalf("hook program %+v, transfer_hook_upgradable %v", hp, c.TransferHookUpgradable)
			}
			want := "can no longer be upgraded"
			if tt.upgradeable {
				want = "upgradeable by " + upgrader
				if hp.UpgradeAuthority == nil || *hp.UpgradeAuthority != upgrader {
					t.Errorf("upgrade authority %v", hp.UpgradeAuthority)
				}
			}
			if d := flagDetail(got.Contract.Flags, risk.TransferHook); !strings.Contains(d, want) {
				t.Errorf("TRANSFER_HOOK says %q, want %q", d, want)
			}
			if got.Contract.Status != scan.Complete || slices.ContainsFunc(got.Warnings, func(w string) bool { return strings.Contains(w, "not established") && strings.Contains(w, "hook") }) {
				t.Errorf("contract %s warnings %v", got.Contract.Status, got.Warnings)
			}
		})
	}
}

// TestCreatorCandidates: the addresses tied to who made a token, for the
// creator's record: the pump mint's curve creator and its CPMM pool's
// recorded creator (real bytes); JitoSOL's stake-pool mint authority is a
// program-derived address, nobody's identity; the mega token's wallet
// authority is its creator (update authority) and mint authority, once.
func TestCreatorCandidates(t *testing.T) {
	for _, tt := range []struct {
		mint string
		want []analysis.SolanaIdentity
	}{
		{pumpMint, []analysis.SolanaIdentity{{Address: creator, Source: analysis.SolanaCreatorBondingCurve}, {Address: cpmmCreator, Source: analysis.SolanaIdentityPoolCreator}}},
		{megaMint, []analysis.SolanaIdentity{{Address: megaAuth, Source: analysis.SolanaCreatorUpdateAuthority}}},
	} {
		got, err := newAdapter(t, solana.Options{}, newServer(t).URL()).Assess(context.Background(), request(t, tt.mint))
		if err != nil {
			t.Fatal(err)
		}
		d := got.Deployer.Evidence.(analysis.SolanaDeployerEvidence)
		if !slices.Equal(d.CreatorCandidates, tt.want) {
			t.Errorf("%s: candidates %+v, want %+v", tt.mint, d.CreatorCandidates, tt.want)
		}
	}
	got, err := newAdapter(t, solana.Options{}, newServer(t).URL()).Assess(context.Background(), request(t, jitoSOL))
	if err != nil {
		t.Fatal(err)
	}
	c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
	for _, id := range got.Deployer.Evidence.(analysis.SolanaDeployerEvidence).CreatorCandidates {
		if id.Address == *c.MintAuthority {
			t.Errorf("JitoSOL's stake-pool authority %s named a creator candidate", id.Address)
		}
	}
}

// TestStakePoolAuthority: JitoSOL's mint authority is proven to be the
// withdraw authority of Jito's SPL stake pool (the real pool account: its
// pool mint is JitoSOL and PDA [pool, "withdraw"] of the program is the
// authority), and the flag says the program mints under its own rules;
// without the pool account (a node that has not got it) the authority is
// only a PDA; mSOL's (Marinade's) is no SPL stake pool's.
func TestStakePoolAuthority(t *testing.T) {
	const stakePoolProgram = "SPoo1Ku8WFXoNDMHPsrGSTSG1Y47rzgn41SLUNakuHy"
	for _, tt := range []struct {
		name, mint string
		pool       bool
		role       string
	}{
		{"JitoSOL with its pool", jitoSOL, true, "withdraw authority of SPL Stake Pool pool Jito4APyf642JPZPx3hGc6WWJ8zPKtRbRs4P815Awbb"},
		{"JitoSOL, pool not served", jitoSOL, false, ""},
		{"mSOL", msolMint, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			if tt.pool {
				if err := srv.LoadDir("testdata/stake_pool"); err != nil {
					t.Fatal(err)
				}
			}
			got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, tt.mint))
			if err != nil {
				t.Fatal(err)
			}
			c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
			a := c.Authorities[*c.MintAuthority]
			if a.Kind != analysis.SolanaAuthorityPDA || a.Role != tt.role || (a.Program != nil) != (tt.role != "") || a.Program != nil && *a.Program != stakePoolProgram {
				t.Errorf("mint authority %+v, want a PDA with role %q", a, tt.role)
			}
			d := flagDetail(got.Contract.Flags, risk.MintAuthorityEnabled)
			if strings.Contains(d, "at will.") || tt.role != "" && !strings.Contains(d, "(the "+tt.role+")") {
				t.Errorf("MINT_AUTHORITY_ENABLED says %q", d)
			}
		})
	}
}
