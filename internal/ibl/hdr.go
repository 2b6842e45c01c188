package ibl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Equirect is an equirectangular environment: W×H pixels of linear RGB
// radiance, three float32 a pixel, row-major, row 0 the top (+Y). The
// direction ↔ (u, v) mapping is the package's (see the package comment).
type Equirect struct {
	W, H int
	Pix  []float32
}

// Limits on the resolution ParseHDR accepts.
const (
	MaxHDRWidth  = 16384
	MaxHDRHeight = 8192
	// maxHeaderLine bounds one header line; longer is not a Radiance file.
	maxHeaderLine = 4096
)

// ParseHDR reads a Radiance RGBE picture (.hdr, .pic).
//
// Accepted: the magic line "#?RADIANCE" or "#?RGBE"; header lines up to an
// empty line, of which FORMAT must be 32-bit_rle_rgbe when present (XYZE
// is refused) and each EXPOSURE=e multiplies the stored exposure (the file
// stores real × exposure, so pixels are divided by the product); other
// variables and comments are ignored. The resolution line must be
// "-Y H +X W" (rows top to bottom, pixels left to right), 1 ≤ W ≤
// MaxHDRWidth, 1 ≤ H ≤ MaxHDRHeight. Each scanline is either the "new"
// run-length form (bytes 2, 2, W>>8, W&255, then the four channels one
// after the other, each as runs: a count c > 128 repeats the next byte
// c−128 times, 1 ≤ c ≤ 128 copies c literal bytes) or W flat RGBE
// quadruples. The old run-length form (1,1,1,n repeat markers) is not
// recognised: such quadruples are read as flat pixels.
//
// A pixel (r, g, b, e) decodes as channel = m × 2^(e−136) for m in r, g, b
// (stb_image's ldexp(m, e−136); Radiance's own reader uses m + 0.5, half a
// step more), and e = 0 as black, so a zero mantissa stays exactly zero.
//
// Errors are one line naming what is wrong and where: the header line, or
// the scanline and byte offset in the file. ParseHDR does not panic on any
// input; memory grows with the data actually read, not the claimed size.
func ParseHDR(r io.Reader) (*Equirect, error) {
	cr := &countReader{r: r}
	br := bufio.NewReader(cr)
	p := &hdrParser{br: br, cr: cr}
	return p.parse()
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

type hdrParser struct {
	br   *bufio.Reader
	cr   *countReader
	line int
}

// offset is the file offset of the next byte the parser will consume.
func (p *hdrParser) offset() int64 { return p.cr.n - int64(p.br.Buffered()) }

// readLine returns one header line without its newline.
func (p *hdrParser) readLine() (string, error) {
	p.line++
	var sb strings.Builder
	for {
		b, err := p.br.ReadByte()
		if err != nil {
			if err == io.EOF {
				return "", fmt.Errorf("hdr: header line %d: file ends before the header does (byte offset %d)", p.line, p.offset())
			}
			return "", fmt.Errorf("hdr: header line %d: %v", p.line, err)
		}
		if b == '\n' {
			return strings.TrimSuffix(sb.String(), "\r"), nil
		}
		if sb.Len() >= maxHeaderLine {
			return "", fmt.Errorf("hdr: header line %d: longer than %d bytes (byte offset %d)", p.line, maxHeaderLine, p.offset())
		}
		sb.WriteByte(b)
	}
}

func (p *hdrParser) parse() (*Equirect, error) {
	magic, err := p.readLine()
	if err != nil {
		if p.offset() == 0 {
			return nil, errors.New("hdr: empty file, want a #?RADIANCE or #?RGBE header")
		}
		return nil, err
	}
	// Radiance writes "#?RADIANCE"; other writers append a program name.
	if !strings.HasPrefix(magic, "#?RADIANCE") && !strings.HasPrefix(magic, "#?RGBE") {
		return nil, fmt.Errorf("hdr: header line 1: bad magic %q, want #?RADIANCE or #?RGBE", clip(magic))
	}
	exposure := 1.0
	for {
		l, err := p.readLine()
		if err != nil {
			return nil, err
		}
		if l == "" {
			break
		}
		switch {
		case strings.HasPrefix(l, "FORMAT="):
			f := strings.TrimSpace(strings.TrimPrefix(l, "FORMAT="))
			switch f {
			case "32-bit_rle_rgbe":
			case "32-bit_rle_xyze":
				return nil, fmt.Errorf("hdr: header line %d: FORMAT=32-bit_rle_xyze (CIE XYZ) is not supported, only 32-bit_rle_rgbe", p.line)
			default:
				return nil, fmt.Errorf("hdr: header line %d: unknown FORMAT %q, want 32-bit_rle_rgbe", p.line, clip(f))
			}
		case strings.HasPrefix(l, "EXPOSURE="):
			s := strings.TrimSpace(strings.TrimPrefix(l, "EXPOSURE="))
			e, err := strconv.ParseFloat(s, 64)
			if err != nil || !(e > 0) || math.IsInf(e, 0) {
				return nil, fmt.Errorf("hdr: header line %d: EXPOSURE %q is not a positive number", p.line, clip(s))
			}
			exposure *= e
		}
	}
	res, err := p.readLine()
	if err != nil {
		return nil, err
	}
	w, h, err := parseResolution(res)
	if err != nil {
		return nil, fmt.Errorf("hdr: resolution line %d: %v", p.line, err)
	}
	if exposure == 0 || math.IsInf(exposure, 0) {
		return nil, fmt.Errorf("hdr: the product of the EXPOSURE lines (%g) is not usable", exposure)
	}
	scale := 1 / exposure
	e := &Equirect{W: w, H: h}
	// Grow with the data read, at most 1M pixels ahead of it.
	e.Pix = make([]float32, 0, 3*w*min(h, 1+(1<<20)/w))
	line := make([]byte, 4*w)
	for y := 0; y < h; y++ {
		if err := p.scanline(line, w, y); err != nil {
			return nil, err
		}
		for x := 0; x < w; x++ {
			q := line[4*x : 4*x+4]
			r, g, b := decodeRGBE(q[0], q[1], q[2], q[3])
			e.Pix = append(e.Pix, float32(r*scale), float32(g*scale), float32(b*scale))
		}
	}
	return e, nil
}

// decodeRGBE is m × 2^(e−136) per channel, black for e = 0.
func decodeRGBE(r, g, b, e byte) (float64, float64, float64) {
	if e == 0 {
		return 0, 0, 0
	}
	f := math.Ldexp(1, int(e)-136)
	return float64(r) * f, float64(g) * f, float64(b) * f
}

func parseResolution(s string) (w, h int, err error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return 0, 0, fmt.Errorf("%q is not a resolution string, want \"-Y H +X W\"", clip(s))
	}
	if f[0] != "-Y" || f[2] != "+X" {
		return 0, 0, fmt.Errorf("orientation \"%s %s\" is not supported, only \"-Y H +X W\" (top to bottom, left to right)", clip(f[0]), clip(f[2]))
	}
	h, err1 := strconv.Atoi(f[1])
	w, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q: sizes are not integers", clip(s))
	}
	if w < 1 || h < 1 || w > MaxHDRWidth || h > MaxHDRHeight {
		return 0, 0, fmt.Errorf("size %d×%d is outside 1×1 … %d×%d", w, h, MaxHDRWidth, MaxHDRHeight)
	}
	return w, h, nil
}

// scanline reads scanline y into line (4w bytes, RGBE interleaved).
func (p *hdrParser) scanline(line []byte, w, y int) error {
	start := p.offset()
	var head [4]byte
	if _, err := io.ReadFull(p.br, head[:]); err != nil {
		return p.truncated(y, start)
	}
	rle := head[0] == 2 && head[1] == 2 && head[2]&0x80 == 0 && w >= 8 && w <= 0x7fff
	if !rle {
		copy(line, head[:])
		if _, err := io.ReadFull(p.br, line[4:]); err != nil {
			return p.truncated(y, start)
		}
		return nil
	}
	if n := int(head[2])<<8 | int(head[3]); n != w {
		return fmt.Errorf("hdr: scanline %d (byte offset %d): run-length scanline of %d pixels in a picture %d wide", y, start, n, w)
	}
	for c := 0; c < 4; c++ {
		for x := 0; x < w; {
			at := p.offset()
			n, err := p.br.ReadByte()
			if err != nil {
				return p.truncated(y, start)
			}
			if n > 128 {
				run := int(n) - 128
				v, err := p.br.ReadByte()
				if err != nil {
					return p.truncated(y, start)
				}
				if x+run > w {
					return fmt.Errorf("hdr: scanline %d channel %d (byte offset %d): run of %d overruns the width %d", y, c, at, run, w)
				}
				for ; run > 0; run-- {
					line[4*x+c] = v
					x++
				}
				continue
			}
			if n == 0 {
				return fmt.Errorf("hdr: scanline %d channel %d (byte offset %d): zero-length run", y, c, at)
			}
			if x+int(n) > w {
				return fmt.Errorf("hdr: scanline %d channel %d (byte offset %d): %d literal bytes overrun the width %d", y, c, at, n, w)
			}
			for i := 0; i < int(n); i++ {
				v, err := p.br.ReadByte()
				if err != nil {
					return p.truncated(y, start)
				}
				line[4*x+c] = v
				x++
			}
		}
	}
	return nil
}

func (p *hdrParser) truncated(y int, start int64) error {
	return fmt.Errorf("hdr: scanline %d (byte offset %d): file truncated at byte offset %d", y, start, p.offset())
}

// clip shortens a quoted fragment of bad input so an error stays one line.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
