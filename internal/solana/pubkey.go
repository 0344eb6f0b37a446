package solana

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	"github.com/mr-tron/base58"
)

// PublicKey is a 32-byte Solana account address.
type PublicKey [32]byte

// ParsePublicKey decodes a base58 address of exactly 32 bytes.
func ParsePublicKey(s string) (PublicKey, error) {
	b, err := base58.Decode(s)
	if err != nil {
		return PublicKey{}, fmt.Errorf("solana: public key %q: %w", s, err)
	}
	if len(b) != 32 {
		return PublicKey{}, fmt.Errorf("solana: public key %q: %d bytes, want 32", s, len(b))
	}
	var k PublicKey
	copy(k[:], b)
	return k, nil
}

// MustPublicKey parses a base58 address known at compile time (a program id
// in a test or a table); it panics on a malformed literal.
func MustPublicKey(s string) PublicKey {
	k, err := ParsePublicKey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// String returns the base58 form.
func (k PublicKey) String() string { return base58.Encode(k[:]) }

// IsZero reports whether k is all zeros, which Solana programs use for
// "none" in fixed-size fields.
func (k PublicKey) IsZero() bool { return k == PublicKey{} }

// Curve25519 constants: p = 2^255 - 19 and Edwards d = -121665/121666.
var (
	curveP = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	curveD = func() *big.Int {
		num := new(big.Int).Sub(curveP, big.NewInt(121665))
		inv := new(big.Int).ModInverse(big.NewInt(121666), curveP)
		return num.Mul(num, inv).Mod(num, curveP)
	}()
	// legendreExp is (p-1)/2: a^legendreExp is 1 for non-zero squares.
	legendreExp = new(big.Int).Rsh(new(big.Int).Sub(curveP, big.NewInt(1)), 1)
)

// IsOnCurve reports whether k decompresses to a point of the ed25519 curve,
// the way the runtime's curve library does: the sign bit is ignored, y is
// taken mod p, and the point exists when (y²-1)/(d·y²+1) is a square.
func IsOnCurve(k PublicKey) bool {
	le := k
	le[31] &= 0x7f
	be := make([]byte, 32)
	for i := range 32 {
		be[i] = le[31-i]
	}
	y := new(big.Int).SetBytes(be)
	y.Mod(y, curveP)
	y2 := new(big.Int).Mul(y, y)
	y2.Mod(y2, curveP)
	u := new(big.Int).Sub(y2, big.NewInt(1))
	u.Mod(u, curveP)
	v := new(big.Int).Mul(curveD, y2)
	v.Add(v, big.NewInt(1)).Mod(v, curveP)
	if v.Sign() == 0 {
		return false
	}
	x2 := new(big.Int).ModInverse(v, curveP)
	x2.Mul(x2, u).Mod(x2, curveP)
	if x2.Sign() == 0 {
		return true
	}
	return new(big.Int).Exp(x2, legendreExp, curveP).Cmp(big.NewInt(1)) == 0
}

// errNoViableBump means every bump from 255 down to 0 gave an on-curve
// address; it does not happen in practice.
var errNoViableBump = errors.New("solana: no viable bump seed")

// CreateProgramAddress hashes seeds, program id and the PDA marker, and
// fails when the result lies on the curve (it would have a private key).
func CreateProgramAddress(seeds [][]byte, program PublicKey) (PublicKey, error) {
	if len(seeds) > 16 {
		return PublicKey{}, fmt.Errorf("solana: %d seeds, at most 16", len(seeds))
	}
	h := sha256.New()
	for _, s := range seeds {
		if len(s) > 32 {
			return PublicKey{}, fmt.Errorf("solana: seed of %d bytes, at most 32", len(s))
		}
		h.Write(s)
	}
	h.Write(program[:])
	h.Write([]byte("ProgramDerivedAddress"))
	var k PublicKey
	copy(k[:], h.Sum(nil))
	if IsOnCurve(k) {
		return PublicKey{}, errors.New("solana: derived address is on the curve")
	}
	return k, nil
}

// FindProgramAddress returns the program derived address of seeds and the
// first bump, from 255 down, that puts it off the curve.
func FindProgramAddress(seeds [][]byte, program PublicKey) (PublicKey, uint8, error) {
	if len(seeds) > 15 {
		return PublicKey{}, 0, fmt.Errorf("solana: %d seeds, at most 15 with the bump", len(seeds))
	}
	for _, s := range seeds {
		if len(s) > 32 {
			return PublicKey{}, 0, fmt.Errorf("solana: seed of %d bytes, at most 32", len(s))
		}
	}
	for bump := 255; bump >= 0; bump-- {
		withBump := append(append([][]byte{}, seeds...), []byte{byte(bump)})
		k, err := CreateProgramAddress(withBump, program)
		if err == nil {
			return k, uint8(bump), nil
		}
	}
	return PublicKey{}, 0, errNoViableBump
}
