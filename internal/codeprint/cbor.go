package codeprint

// maxCBORDepth bounds the nesting cborItem follows: metadata trailers
// nest two or three levels; chain input may nest as deep as it likes.
const maxCBORDepth = 8

// cborItem checks that b holds one well-formed, definite-length CBOR
// data item at off and returns the offset just past it. It reads only
// lengths and headers, never decodes values, and refuses indefinite
// lengths, reserved headers and anything past b's end.
func cborItem(b []byte, off, depth int) (int, bool) {
	if depth > maxCBORDepth || off >= len(b) {
		return 0, false
	}
	major, info := b[off]>>5, b[off]&0x1f
	off++
	var arg uint64
	switch {
	case info < 24:
		arg = uint64(info)
	case info <= 27:
		n := 1 << (info - 24) // 1, 2, 4 or 8 bytes
		if off+n > len(b) {
			return 0, false
		}
		for _, c := range b[off : off+n] {
			arg = arg<<8 | uint64(c)
		}
		off += n
	default: // 28-30 reserved, 31 indefinite
		return 0, false
	}
	rest := uint64(len(b) - off)
	switch major {
	case 0, 1, 7: // integers, simple values and floats: the header is all
		return off, true
	case 2, 3: // byte and text strings
		if arg > rest {
			return 0, false
		}
		return off + int(arg), true
	case 4, 5: // arrays and maps: every item is at least one byte
		items := arg
		if major == 5 {
			if items > rest/2 {
				return 0, false
			}
			items *= 2
		}
		if items > rest {
			return 0, false
		}
		for range items {
			var ok bool
			if off, ok = cborItem(b, off, depth+1); !ok {
				return 0, false
			}
		}
		return off, true
	default: // 6: a tag and the item it tags
		return cborItem(b, off, depth+1)
	}
}
