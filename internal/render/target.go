package render

import (
	"fmt"
	"image"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Target is an offscreen framebuffer: a multisampled one drawn into and a
// single-sampled one it resolves to for read-back.
type Target struct {
	Width, Height           int
	msFBO, msColor, msDepth uint32
	fbo, color              uint32
}

// NewTarget makes an offscreen target with the given multisample count
// (clamped to what the driver offers; 1 or less for none).
func NewTarget(width, height, samples int) (*Target, error) {
	t := &Target{Width: width, Height: height}
	var maxSamples int32
	gl.GetIntegerv(gl.MAX_SAMPLES, &maxSamples)
	samples = min(samples, int(maxSamples))
	if samples < 1 {
		samples = 1
	}
	gl.GenFramebuffers(1, &t.msFBO)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.msFBO)
	gl.GenRenderbuffers(1, &t.msColor)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.msColor)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(samples), gl.RGBA8, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, t.msColor)
	gl.GenRenderbuffers(1, &t.msDepth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.msDepth)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(samples), gl.DEPTH_COMPONENT24, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, t.msDepth)
	if st := gl.CheckFramebufferStatus(gl.FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
		t.Destroy()
		return nil, fmt.Errorf("render: offscreen framebuffer %dx%d (%d samples) incomplete: status 0x%x", width, height, samples, st)
	}
	gl.GenFramebuffers(1, &t.fbo)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	gl.GenRenderbuffers(1, &t.color)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.color)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, t.color)
	if st := gl.CheckFramebufferStatus(gl.FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
		t.Destroy()
		return nil, fmt.Errorf("render: resolve framebuffer incomplete: status 0x%x", st)
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return t, nil
}

// bindTarget directs drawing into t; nil is the default framebuffer (the
// window's). Every drawing entry point binds its target itself, so no
// caller has to remember which framebuffer is bound.
func bindTarget(t *Target) {
	if t == nil {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.msFBO)
}

// ReadImage resolves the samples and reads the pixels back, top row first.
func (t *Target) ReadImage() *image.NRGBA {
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, t.msFBO)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, t.fbo)
	w, h := int32(t.Width), int32(t.Height)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, t.fbo)
	img := image.NewNRGBA(image.Rect(0, 0, t.Width, t.Height))
	row := make([]byte, t.Width*4*t.Height)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(row))
	// GL's first row is the bottom one.
	for y := 0; y < t.Height; y++ {
		copy(img.Pix[y*img.Stride:(y+1)*img.Stride], row[(t.Height-1-y)*t.Width*4:])
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return img
}

// Destroy frees the target's GL objects.
func (t *Target) Destroy() {
	for _, fb := range []*uint32{&t.msFBO, &t.fbo} {
		if *fb != 0 {
			gl.DeleteFramebuffers(1, fb)
			*fb = 0
		}
	}
	for _, rb := range []*uint32{&t.msColor, &t.msDepth, &t.color} {
		if *rb != 0 {
			gl.DeleteRenderbuffers(1, rb)
			*rb = 0
		}
	}
}
