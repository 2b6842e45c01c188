package ui

import (
	"strconv"
	"unsafe"
)

// line builds one line of HUD text in a buffer the State keeps from frame
// to frame, so that laying out the HUD allocates nothing. The string str
// returns shares the buffer: it is valid until the next reset, which is
// why a Painter draws what it is given at once and keeps no string.
type line struct{ b, tmp []byte }

func (l *line) reset() *line { l.b = l.b[:0]; return l }

// s appends text.
func (l *line) s(text string) *line { l.b = append(l.b, text...); return l }

// f appends v with prec decimals, right-aligned in width characters.
func (l *line) f(v float32, prec, width int) *line {
	l.tmp = strconv.AppendFloat(l.tmp[:0], float64(v), 'f', prec, 32)
	return l.pad(width)
}

// i appends n, right-aligned in width characters.
func (l *line) i(n, width int) *line {
	l.tmp = strconv.AppendInt(l.tmp[:0], int64(n), 10)
	return l.pad(width)
}

// g appends v as short as it reads: 30, 29.97.
func (l *line) g(v float32) *line {
	l.b = strconv.AppendFloat(l.b, float64(v), 'f', -1, 32)
	return l
}

func (l *line) pad(width int) *line {
	for k := len(l.tmp); k < width; k++ {
		l.b = append(l.b, ' ')
	}
	l.b = append(l.b, l.tmp...)
	return l
}

// str is the line so far; see line.
func (l *line) str() string {
	if len(l.b) == 0 {
		return ""
	}
	return unsafe.String(&l.b[0], len(l.b))
}
