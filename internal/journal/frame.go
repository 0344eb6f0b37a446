package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// A segment file is the magic header, then frames: the payload's length
// (4 bytes, little endian), its CRC-32C (4 bytes), the payload. A payload
// is a report base (kindBase: digest, body) or an entry (kindEntry). A
// segment holds every base its entries use, before the first entry that
// uses it, so a segment replays on its own.
const magic = "TRJRNL01"

const (
	kindBase  = 'B'
	kindEntry = 'E'
)

// frameHeader is the length and checksum before each payload.
const frameHeader = 8

// maxPayload bounds one frame's payload when reading: a length past it is
// damage, not a record (a report is tens of KB).
const maxPayload = 64 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errTorn is a frame cut short: the tail of a write that did not finish.
var errTorn = errors.New("journal: frame cut short")

// appendFrame appends payload, framed, to dst.
func appendFrame(dst, payload []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	dst = binary.LittleEndian.AppendUint32(dst, crc32.Checksum(payload, castagnoli))
	return append(dst, payload...)
}

// nextFrame reads the frame at the start of b and returns its payload and
// length in b. A frame cut short is errTorn; a bad length or checksum is
// another error.
func nextFrame(b []byte) (payload []byte, n int, err error) {
	if len(b) < frameHeader {
		return nil, 0, errTorn
	}
	size := binary.LittleEndian.Uint32(b)
	if size > maxPayload {
		return nil, 0, fmt.Errorf("journal: frame of %d bytes", size)
	}
	if len(b)-frameHeader < int(size) {
		return nil, 0, errTorn
	}
	payload = b[frameHeader : frameHeader+int(size)]
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(b[4:]) {
		return nil, 0, errors.New("journal: frame checksum mismatch")
	}
	return payload, frameHeader + int(size), nil
}

// appendBase appends the payload of a report base.
func appendBase(dst []byte, b *store.Base) []byte {
	dst = append(dst, kindBase)
	dst = append(dst, b.Digest[:]...)
	return append(dst, b.Body...)
}

// decodeBase reads a base payload (after its kind byte).
func decodeBase(p []byte) (store.Base, error) {
	if len(p) < 32 {
		return store.Base{}, errors.New("journal: base without its digest")
	}
	var b store.Base
	copy(b.Digest[:], p)
	b.Body = p[32:]
	return b, nil
}

const (
	flagCached  = 1 << 0
	flagHasBase = 1 << 1
)

// appendEntry appends the payload of an entry. A scan on a base is
// written as the base's digest and its edits; the base goes in its own
// frame.
func appendEntry(dst []byte, e store.Entry) []byte {
	sc := e.Scan
	dst = append(dst, kindEntry)
	for _, s := range [...]string{sc.ID, sc.KeyID, sc.Address, sc.Chain, sc.RiskLevel, e.Day} {
		dst = appendBytes(dst, s)
	}
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(sc.Score))
	var flags byte
	if sc.Cached {
		flags |= flagCached
	}
	if sc.Base != nil {
		flags |= flagHasBase
	}
	dst = append(dst, flags)
	dst = binary.AppendVarint(dst, sc.ScannedAt.UnixMicro())
	if sc.Base == nil {
		return appendBytes(dst, sc.Report)
	}
	dst = append(dst, sc.Base.Digest[:]...)
	dst = binary.AppendUvarint(dst, uint64(len(sc.Edits)))
	for _, ed := range sc.Edits {
		dst = binary.AppendUvarint(dst, uint64(ed.From))
		dst = binary.AppendUvarint(dst, uint64(ed.To))
		dst = appendBytes(dst, ed.With)
	}
	return dst
}

// appendBytes appends a length-prefixed string or byte slice.
func appendBytes[T string | []byte](dst []byte, s T) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// reader reads an entry payload, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("journal: entry cut short in its %s", what)
	}
}

func (r *reader) uvarint(what string) uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(what string) []byte {
	n := r.uvarint(what)
	if r.err != nil || n > uint64(len(r.b)) {
		r.fail(what)
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) fixed(n int, what string) []byte {
	if len(r.b) < n {
		r.fail(what)
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// decodeEntry reads an entry payload (after its kind byte). bases holds
// the bases read so far in its segment: an entry on a base the segment
// has not given is an error.
func decodeEntry(p []byte, bases map[[32]byte][]byte) (store.Entry, error) {
	r := &reader{b: p}
	var e store.Entry
	sc := &e.Scan
	for _, f := range [...]struct {
		dst  *string
		name string
	}{{&sc.ID, "id"}, {&sc.KeyID, "key"}, {&sc.Address, "address"}, {&sc.Chain, "chain"}, {&sc.RiskLevel, "level"}, {&e.Day, "day"}} {
		*f.dst = string(r.bytes(f.name))
	}
	if score := r.fixed(8, "score"); score != nil {
		sc.Score = math.Float64frombits(binary.LittleEndian.Uint64(score))
	}
	var flags byte
	if f := r.fixed(1, "flags"); f != nil {
		flags = f[0]
	}
	at, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("time")
	} else {
		r.b = r.b[n:]
		sc.ScannedAt = time.UnixMicro(at).UTC()
	}
	sc.Cached = flags&flagCached != 0
	if flags&flagHasBase == 0 {
		sc.Report = r.bytes("report")
	} else {
		d := r.fixed(32, "base digest")
		count := r.uvarint("edit count")
		if r.err == nil && count > uint64(len(r.b)) {
			// Each edit takes at least three bytes: a count past the
			// payload is damage, not a reason to allocate.
			r.fail("edits")
		}
		if r.err == nil {
			var digest [32]byte
			copy(digest[:], d)
			body, ok := bases[digest]
			if !ok {
				return store.Entry{}, fmt.Errorf("journal: entry %s on a base its segment does not hold", sc.ID)
			}
			sc.Base = &store.Base{Digest: digest, Body: body}
			sc.Edits = make([]store.Edit, 0, count)
			for i := uint64(0); i < count && r.err == nil; i++ {
				from, to := r.uvarint("edit"), r.uvarint("edit")
				with := r.bytes("edit")
				if from > math.MaxInt32 || to > math.MaxInt32 {
					r.fail("edit")
				}
				sc.Edits = append(sc.Edits, store.Edit{From: int(from), To: int(to), With: with})
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("journal: %d bytes after entry %s", len(r.b), sc.ID)
	}
	if r.err != nil {
		return store.Entry{}, r.err
	}
	return e, nil
}

// readSegment reads a segment's bytes and returns its entries and how
// many bytes of it are whole frames: a torn or damaged frame ends the
// segment there (good < len(b)) with the reason in cut.
func readSegment(b []byte) (entries []store.Entry, good int, cut error) {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return nil, 0, errors.New("journal: not a journal segment (no header)")
	}
	bases := map[[32]byte][]byte{}
	at := len(magic)
	for at < len(b) {
		payload, n, err := nextFrame(b[at:])
		if err != nil {
			return entries, at, err
		}
		if len(payload) == 0 {
			return entries, at, errors.New("journal: empty frame")
		}
		switch payload[0] {
		case kindBase:
			base, err := decodeBase(payload[1:])
			if err != nil {
				return entries, at, err
			}
			bases[base.Digest] = base.Body
		case kindEntry:
			e, err := decodeEntry(payload[1:], bases)
			if err != nil {
				return entries, at, err
			}
			entries = append(entries, e)
		default:
			return entries, at, fmt.Errorf("journal: frame of unknown kind %q", payload[0])
		}
		at += n
	}
	return entries, at, nil
}
