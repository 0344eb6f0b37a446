package solana

import (
	"encoding/binary"
	"fmt"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Loaders and the system program, for labelling authorities and reading a
// hook program.
var (
	systemProgramKey     = MustPublicKey(systemProgram)
	bpfLoaderUpgradeable = MustPublicKey("BPFLoaderUpgradeab1e11111111111111111111111")
)

const (
	// multisigSize is an SPL Token (and Token-2022) Multisig account: m,
	// n, initialized, 11 signers.
	multisigSize = 355
	// programDataHeader is what a scan reads of a program-data account:
	// its state tag (u32 3), the slot it was deployed at (u64) and its
	// optional upgrade authority (1 + 32).
	programDataHeader = 45
)

// labelAuthority labels the account behind an authority address: a
// token-program multisig (m of n), an executable program, a
// program-derived address (off the curve; with the program owning its
// account when there is one), or a wallet.
func (c *collector) labelAuthority(addr PublicKey, acc *Account) analysis.SolanaAuthority {
	var a analysis.SolanaAuthority
	if acc != nil && acc.Owner != systemProgramKey {
		o := acc.Owner.String()
		a.Owner = &o
	}
	switch {
	case acc != nil && (acc.Owner == c.cfg.tokenProgram || acc.Owner == c.cfg.token2022) && len(acc.Data) == multisigSize && acc.Data[2] == 1:
		m, n := int(acc.Data[0]), int(acc.Data[1])
		a.Kind, a.SignersRequired, a.Signers = analysis.SolanaAuthorityMultisig, &m, &n
	case acc != nil && acc.Executable:
		a.Kind = analysis.SolanaAuthorityProgram
	case !IsOnCurve(addr):
		a.Kind = analysis.SolanaAuthorityPDA
	default:
		a.Kind = analysis.SolanaAuthorityWallet
	}
	return a
}

// ProgramDataAddress is the program-data account of an upgradeable
// program: PDA [program] of the upgradeable loader.
func ProgramDataAddress(program PublicKey) (PublicKey, error) {
	k, _, err := FindProgramAddress([][]byte{program[:]}, bpfLoaderUpgradeable)
	return k, err
}

// DecodeUpgradeableProgram decodes an upgradeable loader's Program account
// (u32 state 2, then its program-data address).
func DecodeUpgradeableProgram(data []byte) (PublicKey, error) {
	if len(data) < 36 || binary.LittleEndian.Uint32(data) != 2 {
		return PublicKey{}, fmt.Errorf("solana: not an upgradeable program account")
	}
	return PublicKey(data[4:36]), nil
}

// DecodeProgramDataHeader decodes the head of an upgradeable loader's
// ProgramData account (u32 state 3, u64 slot, Option<Pubkey> upgrade
// authority): its upgrade authority, nil once the program is immutable.
func DecodeProgramDataHeader(data []byte) (slot uint64, authority *PublicKey, err error) {
	if len(data) < 13 || binary.LittleEndian.Uint32(data) != 3 {
		return 0, nil, fmt.Errorf("solana: not a program-data account")
	}
	slot = binary.LittleEndian.Uint64(data[4:])
	switch data[12] {
	case 0:
		return slot, nil, nil
	case 1:
		if len(data) < programDataHeader {
			return 0, nil, fmt.Errorf("solana: program-data account cut short")
		}
		k := PublicKey(data[13:45])
		return slot, &k, nil
	}
	return 0, nil, fmt.Errorf("solana: program-data authority tag %d", data[12])
}

// hookRead is the transfer hook program's reading in round trip 3: its
// account with the others, its program-data header in a call of its own
// (sliced: the rest is the program's code).
type hookRead struct {
	program, data PublicKey
	call          *Call
	result        multipleAccountsResult
}

// hookProgram returns the transfer hook's program, if the mint names one.
func (c *collector) hookProgram() *PublicKey {
	for _, e := range c.facts.Mint.Extensions {
		if p, ok := e.Params.(analysis.SolanaTransferHookParams); ok && p.ProgramID != nil {
			if k, err := ParsePublicKey(*p.ProgramID); err == nil {
				return &k
			}
		}
	}
	return nil
}

// prepareHook adds the hook program's program-data header to round trip
// 3 (the program account rides with the other accounts).
func (c *collector) prepareHook(add func(PublicKey)) *hookRead {
	prog := c.hookProgram()
	if prog == nil {
		return nil
	}
	pd, err := ProgramDataAddress(*prog)
	if err != nil {
		return nil
	}
	add(*prog)
	h := &hookRead{program: *prog, data: pd}
	h.call = &Call{
		Method: "getMultipleAccounts",
		Params: []any{[]string{pd.String()}, map[string]any{"encoding": "base64", "dataSlice": map[string]any{"offset": 0, "length": programDataHeader}}},
		Result: &h.result,
	}
	return h
}

// buildAuthorities labels the authorities read in round trip 3 and reads
// the hook program.
func (c *collector) buildAuthorities(get func(PublicKey) (*Account, bool), hook *hookRead) {
	f := c.facts
	f.Authorities = map[string]analysis.SolanaAuthority{}
	missing := 0
	for _, s := range f.AuthorityAddresses() {
		k, err := ParsePublicKey(s)
		if err != nil {
			continue
		}
		acc, ok := get(k)
		if !ok {
			missing++
			continue
		}
		l := c.labelAuthority(k, acc)
		if d, ok := c.derived[k]; ok && l.Kind == analysis.SolanaAuthorityPDA {
			p := d.program.String()
			l.Program, l.Role = &p, d.role
		}
		f.Authorities[s] = l
	}
	if missing > 0 {
		f.Warnings.Contract = append(f.Warnings.Contract, fmt.Sprintf("contract: %d authority account(s) could not be read; what holds them is not labelled", missing))
	}
	if hook != nil {
		c.readHook(get, hook)
	}
}

// readHook reads the transfer hook's program: whether an executable
// account is there and, for the upgradeable loader, who can upgrade it.
func (c *collector) readHook(get func(PublicKey) (*Account, bool), h *hookRead) {
	f := c.facts
	acc, ok := get(h.program)
	if !ok {
		f.Warnings.Contract = append(f.Warnings.Contract, "contract: the transfer hook program "+h.program.String()+" could not be read")
		return
	}
	hp := &analysis.SolanaProgram{Address: h.program.String()}
	f.HookProgram = hp
	if acc == nil {
		return
	}
	hp.Exists, hp.Executable, hp.Loader = true, acc.Executable, acc.Owner.String()
	if !acc.Executable {
		return
	}
	if acc.Owner != bpfLoaderUpgradeable {
		// The older loaders have no upgrade: what is deployed stays.
		no := false
		hp.Upgradeable = &no
		return
	}
	unknown := func(why string) {
		f.Warnings.Contract = append(f.Warnings.Contract, "contract: transfer hook program "+h.program.String()+": "+why+"; whether it can be upgraded is not established")
	}
	pd, err := DecodeUpgradeableProgram(acc.Data)
	switch {
	case err != nil:
		unknown(err.Error())
		return
	case pd != h.data:
		unknown("its program-data account is not the loader's address for it")
		return
	case h.call.Err != nil:
		unknown("its program-data account could not be read: " + describe(h.call.Err))
		return
	}
	accs, err := h.result.accounts(1)
	if err != nil || accs[0] == nil || accs[0].Owner != bpfLoaderUpgradeable {
		unknown("its program-data account is missing or not the loader's")
		return
	}
	_, auth, err := DecodeProgramDataHeader(accs[0].Data)
	if err != nil {
		unknown(err.Error())
		return
	}
	up := auth != nil
	hp.Upgradeable = &up
	hp.UpgradeAuthority = keyString(auth)
}
