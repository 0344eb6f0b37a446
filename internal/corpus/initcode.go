package corpus

import (
	"encoding/binary"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
)

// transferTopic is the ERC-20 Transfer event's topic.
var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// credit is a balance the seed gives, announced as a mint (a Transfer log
// from the zero address) so the engine's holder scan sees the holder.
type credit struct {
	to     common.Address
	amount *big.Int
}

// initCode is creation code that writes storage, emits a mint Transfer
// log per credit and returns runtime as the contract's code: a token
// deployed by it starts in the seeded state, as if its own constructor
// had run.
func initCode(runtime []byte, storage map[common.Hash]common.Hash, keys []common.Hash, credits []credit) []byte {
	var c []byte
	push32 := func(w common.Hash) { c = append(append(c, byte(vm.PUSH32)), w.Bytes()...) }
	push1 := func(b byte) { c = append(c, byte(vm.PUSH1), b) }
	for _, k := range keys {
		push32(storage[k])
		push32(k)
		c = append(c, byte(vm.SSTORE))
	}
	for _, cr := range credits {
		push32(common.BigToHash(cr.amount))
		push1(0)
		c = append(c, byte(vm.MSTORE))
		push32(common.BytesToHash(cr.to.Bytes()))
		push1(0) // from: the zero address
		push32(transferTopic)
		push1(32)
		push1(0)
		c = append(c, byte(vm.LOG3))
	}
	// CODECOPY(0, offset, len); RETURN(0, len). The tail is fixed size, so
	// the runtime's offset is known before it is written.
	const tail = 3 + 3 + 2 + 1 + 3 + 2 + 1
	n := make([]byte, 2)
	binary.BigEndian.PutUint16(n, uint16(len(runtime)))
	off := make([]byte, 2)
	binary.BigEndian.PutUint16(off, uint16(len(c)+tail))
	c = append(c, byte(vm.PUSH2), n[0], n[1])
	c = append(c, byte(vm.PUSH2), off[0], off[1])
	push1(0)
	c = append(c, byte(vm.CODECOPY))
	c = append(c, byte(vm.PUSH2), n[0], n[1])
	push1(0)
	c = append(c, byte(vm.RETURN))
	return append(c, runtime...)
}
