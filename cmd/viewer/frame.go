package main

import (
	"image"

	"github.com/skinview/skinview/internal/render"
)

// renderImage draws the character at clip time t into a w×h offscreen
// image, framed on the pose shown. A GL context must be current.
func renderImage(c *character, t float32, w, h int) (*image.NRGBA, error) {
	r, err := render.New()
	if err != nil {
		return nil, err
	}
	defer r.Destroy()
	scene, err := upload(r, c)
	if err != nil {
		return nil, err
	}
	target, err := render.NewTarget(w, h, 4)
	if err != nil {
		return nil, err
	}
	defer target.Destroy()
	c.evaluate(t)
	scene.refresh(c)
	cam := frameClip(scene, c, float32(w)/float32(h))
	c.evaluate(t)
	scene.refresh(c)
	target.Bind()
	frame := render.Frame{Width: w, Height: h, Camera: cam, Clear: background, Items: scene.items}
	if err := r.Draw(&frame); err != nil {
		return nil, err
	}
	return target.ReadImage(), nil
}
