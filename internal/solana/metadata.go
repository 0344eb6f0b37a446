package solana

import (
	"fmt"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// metaplexKeyMetadataV1 is the Metaplex account key of a Metadata account.
const metaplexKeyMetadataV1 = 4

// metaplexCreatorSize is one creator entry: address, verified, share.
const metaplexCreatorSize = 34

// MetadataPDA returns the Metaplex metadata account of mint:
// PDA ["metadata", program, mint] of the metadata program.
func MetadataPDA(program, mint PublicKey) (PublicKey, error) {
	k, _, err := FindProgramAddress([][]byte{[]byte("metadata"), program[:], mint[:]}, program)
	return k, err
}

// DecodeMetaplexMetadata decodes a Metaplex Token Metadata account
// (MetadataV1) up to is_mutable and checks it belongs to mint.
func DecodeMetaplexMetadata(data []byte, mint PublicKey) (*analysis.SolanaMetadata, error) {
	c := &cursor{b: data}
	if key := c.u8(); c.err == nil && key != metaplexKeyMetadataV1 {
		return nil, fmt.Errorf("solana: metaplex metadata: account key %d, want %d", key, metaplexKeyMetadataV1)
	}
	md := &analysis.SolanaMetadata{Source: analysis.SolanaMetaplex}
	md.UpdateAuthority = keyString(c.optKey())
	gotMint := c.key()
	md.Name = trimPadding(c.borshString())
	md.Symbol = trimPadding(c.borshString())
	md.URI = trimPadding(c.borshString())
	c.u16() // seller_fee_basis_points
	if hasCreators := c.u8(); hasCreators == 1 {
		n := c.u32()
		if c.err == nil && int64(n)*metaplexCreatorSize > int64(len(data)-c.off) {
			c.err = fmt.Errorf("%d creators exceed the data", n)
		}
		if c.err == nil {
			c.take(int(n) * metaplexCreatorSize)
		}
	} else if hasCreators > 1 {
		c.err = fmt.Errorf("creators option tag %d", hasCreators)
	}
	c.u8() // primary_sale_happened
	mutable := c.u8()
	if c.err != nil {
		return nil, fmt.Errorf("solana: metaplex metadata: %w", c.err)
	}
	if mutable > 1 {
		return nil, fmt.Errorf("solana: metaplex metadata: is_mutable byte %d", mutable)
	}
	if gotMint != mint {
		return nil, fmt.Errorf("solana: metaplex metadata: for mint %s, not %s", gotMint, mint)
	}
	isMutable := mutable == 1
	md.IsMutable = &isMutable
	return md, nil
}

// trimPadding drops the NUL padding Metaplex stores fixed-size strings with.
func trimPadding(s string) string {
	return strings.TrimRight(s, "\x00")
}
