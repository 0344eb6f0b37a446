package chains

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// Kind is the family of a chain: how addresses look and which adapter reads it.
type Kind string

// The chain kinds.
const (
	EVM    Kind = "evm"
	Solana Kind = "solana"
)

// Address is a parsed, canonical token address.
type Address struct {
	Kind Kind
	// Canonical is the EIP-55 checksummed form for EVM, base58 for Solana.
	Canonical string
}

func (a Address) String() string { return a.Canonical }

// maxAddressLen bounds what the parser looks at; no valid address is longer.
const maxAddressLen = 128

// ParseAddress validates s (surrounding whitespace trimmed) as an EVM
// address (0x + 40 hex; all-lower or all-upper, or a valid EIP-55 mixed
// case checksum) or a Solana base58 address decoding to 32 bytes.
func ParseAddress(s string) (Address, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Address{}, fault.Errorf(fault.InvalidAddress, "address is empty")
	}
	if len(s) > maxAddressLen {
		return Address{}, fault.Errorf(fault.InvalidAddress, "address is too long")
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		return parseEVM(s)
	}
	return parseSolana(s)
}

func parseEVM(s string) (Address, error) {
	body := s[2:]
	if s[1] == 'X' || len(body) != 40 {
		return Address{}, fault.Errorf(fault.InvalidAddress, "an EVM address is 0x followed by 40 hex digits")
	}
	// One pass for the digits and the case, with no copies: this runs for
	// every scan request, cached or not.
	var lower, upper bool
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		default:
			return Address{}, fault.Errorf(fault.InvalidAddress, "an EVM address is 0x followed by 40 hex digits")
		}
	}
	canonical := common.HexToAddress(s).Hex()
	if lower && upper && body != canonical[2:] {
		return Address{}, fault.Errorf(fault.InvalidChecksum, "mixed-case address fails its EIP-55 checksum (expected %s)", canonical)
	}
	return Address{Kind: EVM, Canonical: canonical}, nil
}

func parseSolana(s string) (Address, error) {
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 {
		return Address{}, fault.Errorf(fault.InvalidAddress, "not an EVM address (0x + 40 hex) nor a Solana address (base58, 32 bytes)")
	}
	// Re-encode so that the canonical form never carries odd leading ones.
	return Address{Kind: Solana, Canonical: base58.Encode(b)}, nil
}
