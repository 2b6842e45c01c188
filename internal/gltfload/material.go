package gltfload

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // glTF images are PNG or JPEG
	_ "image/png"
)

// maxTexturePixels refuses images whose header claims more pixels than a
// character texture plausibly has, before decoding allocates them.
const maxTexturePixels = 8192 * 8192

func (l *loader) loadTextures() error {
	for ti, t := range l.doc.Textures {
		where := fmt.Sprintf("textures[%d]", ti)
		if t == nil {
			return fmt.Errorf("%s: null", where)
		}
		var img *image.NRGBA
		if t.Source == nil {
			l.warnf("%s: no source image supported here; drawn untextured", where)
		} else if si := *t.Source; si < 0 || si >= len(l.doc.Images) || l.doc.Images[si] == nil {
			return fmt.Errorf("%s.source: images[%d] does not exist (%d images)", where, si, len(l.doc.Images))
		} else {
			var err error
			if img, err = l.loadImage(si); err != nil {
				l.warnf("images[%d]: %v; drawn untextured", si, err)
			}
		}
		if t.Sampler != nil && (*t.Sampler < 0 || *t.Sampler >= len(l.doc.Samplers)) {
			return fmt.Errorf("%s.sampler: samplers[%d] does not exist (%d samplers)", where, *t.Sampler, len(l.doc.Samplers))
		}
		l.model.Textures = append(l.model.Textures, img)
	}
	return nil
}

func (l *loader) loadImage(i int) (*image.NRGBA, error) {
	im := l.doc.Images[i]
	var data []byte
	var err error
	switch {
	case im.BufferView != nil:
		if data, _, err = l.viewBytes(*im.BufferView); err != nil {
			return nil, err
		}
	case im.URI != "":
		if data, err = l.resolveURI(im.URI); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("neither uri nor bufferView")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("cannot decode: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxTexturePixels {
		return nil, fmt.Errorf("%dx%d pixels is outside the supported size", cfg.Width, cfg.Height)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("cannot decode: %v", err)
	}
	if n, ok := src.(*image.NRGBA); ok {
		return n, nil
	}
	dst := image.NewNRGBA(src.Bounds())
	draw.Draw(dst, dst.Bounds(), src, src.Bounds().Min, draw.Src)
	return dst, nil
}

func (l *loader) loadMaterials() error {
	for mi, m := range l.doc.Materials {
		where := fmt.Sprintf("materials[%d]", mi)
		if m == nil {
			return fmt.Errorf("%s: null", where)
		}
		mat := DefaultMaterial
		mat.Name = m.Name
		mat.DoubleSided = m.DoubleSided
		if pbr := m.PBRMetallicRoughness; pbr != nil {
			f := pbr.BaseColorFactorOrDefault()
			if !finite(f[:]...) {
				return fmt.Errorf("%s.pbrMetallicRoughness.baseColorFactor: not finite", where)
			}
			for c := range 4 {
				mat.BaseColor[c] = float32(f[c])
			}
			if bt := pbr.BaseColorTexture; bt != nil {
				if bt.Index < 0 || bt.Index >= len(l.model.Textures) {
					return fmt.Errorf("%s.pbrMetallicRoughness.baseColorTexture: textures[%d] does not exist (%d textures)", where, bt.Index, len(l.model.Textures))
				}
				if bt.TexCoord < 0 {
					return fmt.Errorf("%s.pbrMetallicRoughness.baseColorTexture.texCoord: %d is negative", where, bt.TexCoord)
				}
				if bt.TexCoord != 0 {
					l.warnf("%s.pbrMetallicRoughness.baseColorTexture: texCoord %d is drawn with TEXCOORD_0", where, bt.TexCoord)
				}
				mat.BaseColorTexture = bt.Index
				mat.TexCoord = bt.TexCoord
			}
		}
		l.model.Materials = append(l.model.Materials, mat)
	}
	return nil
}
