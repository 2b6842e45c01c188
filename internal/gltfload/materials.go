package gltfload

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// loadMaterials reads every material with glTF's defaults for what the
// file leaves out (glTF 2.0 §3.9), and each texture's sampler.
func (l *loader) loadMaterials() error {
	l.model.Samplers = make([]Sampler, len(l.doc.Textures))
	for ti, t := range l.doc.Textures {
		l.model.Samplers[ti] = DefaultSampler
		if t != nil && t.Sampler != nil {
			l.model.Samplers[ti] = l.sampler(*t.Sampler)
		}
	}
	for mi, m := range l.doc.Materials {
		where := fmt.Sprintf("materials[%d]", mi)
		if m == nil {
			return fmt.Errorf("%s: null", where)
		}
		raw := l.rawObject("materials", mi)
		mat := DefaultMaterial
		mat.Name = m.Name
		mat.DoubleSided = m.DoubleSided
		var err error
		if pbr := m.PBRMetallicRoughness; pbr != nil {
			pw := where + ".pbrMetallicRoughness"
			f := pbr.BaseColorFactorOrDefault()
			if !finite32(f[:]...) {
				return fmt.Errorf("%s.baseColorFactor: not finite in single precision", pw)
			}
			for c := range 4 {
				mat.BaseColor[c] = float32(f[c])
			}
			mat.Metallic, mat.Roughness = float32(pbr.MetallicFactorOrDefault()), float32(pbr.RoughnessFactorOrDefault())
			if !finite32(float64(mat.Metallic), float64(mat.Roughness)) {
				return fmt.Errorf("%s: metallicFactor or roughnessFactor not finite in single precision", pw)
			}
			rp, _ := raw["pbrMetallicRoughness"].(map[string]any)
			if bt := pbr.BaseColorTexture; bt != nil {
				if mat.BaseColorTexture, err = l.textureRef(pw+".baseColorTexture", bt.Index, bt.TexCoord, rp["baseColorTexture"]); err != nil {
					return err
				}
			}
			if mt := pbr.MetallicRoughnessTexture; mt != nil {
				if mat.MetallicRoughnessTexture, err = l.textureRef(pw+".metallicRoughnessTexture", mt.Index, mt.TexCoord, rp["metallicRoughnessTexture"]); err != nil {
					return err
				}
			}
		}
		if nt := m.NormalTexture; nt != nil && nt.Index != nil {
			if mat.NormalTexture, err = l.textureRef(where+".normalTexture", *nt.Index, nt.TexCoord, raw["normalTexture"]); err != nil {
				return err
			}
			mat.NormalScale = float32(nt.ScaleOrDefault())
		}
		if ot := m.OcclusionTexture; ot != nil && ot.Index != nil {
			if mat.OcclusionTexture, err = l.textureRef(where+".occlusionTexture", *ot.Index, ot.TexCoord, raw["occlusionTexture"]); err != nil {
				return err
			}
			mat.OcclusionStrength = float32(ot.StrengthOrDefault())
		}
		if et := m.EmissiveTexture; et != nil {
			if mat.EmissiveTexture, err = l.textureRef(where+".emissiveTexture", et.Index, et.TexCoord, raw["emissiveTexture"]); err != nil {
				return err
			}
		}
		exts, _ := raw["extensions"].(map[string]any)
		if es, ok := exts["KHR_materials_emissive_strength"].(map[string]any); ok {
			if v, ok := jsonFloat(es["emissiveStrength"]); ok && v >= 0 && finite32(v) {
				mat.EmissiveStrength = float32(v)
			}
		}
		for c := range 3 {
			mat.Emissive[c] = float32(m.EmissiveFactor[c])
		}
		if !finite32(float64(mat.Emissive[0]), float64(mat.Emissive[1]), float64(mat.Emissive[2])) {
			return fmt.Errorf("%s.emissiveFactor: not finite in single precision", where)
		}
		_, mat.Unlit = exts["KHR_materials_unlit"].(map[string]any)
		switch m.AlphaMode {
		case gltf.AlphaMask:
			mat.AlphaMode = AlphaMask
		case gltf.AlphaBlend:
			mat.AlphaMode = AlphaBlend
		}
		mat.AlphaCutoff = float32(m.AlphaCutoffOrDefault())
		if !finite32(float64(mat.AlphaCutoff)) {
			return fmt.Errorf("%s.alphaCutoff: not finite in single precision", where)
		}
		l.model.Materials = append(l.model.Materials, mat)
	}
	return nil
}

// textureRef checks a material's textureInfo at where (index, texCoord,
// and its JSON for KHR_texture_transform) and returns what it samples.
func (l *loader) textureRef(where string, index, texCoord int, rawInfo any) (TextureRef, error) {
	ref, err := l.textureInfo(where, index, texCoord, rawInfo)
	if err == nil && ref.TexCoord > 1 {
		l.issue("VIEWER_NOT_DRAWN", where, "texCoord %d: drawn with TEXCOORD_0 (the viewer draws TEXCOORD_0 and TEXCOORD_1)", ref.TexCoord)
		ref.TexCoord = 0
	}
	return ref, err
}

// textureInfo is textureRef's reading of the textureInfo.
func (l *loader) textureInfo(where string, index, texCoord int, rawInfo any) (TextureRef, error) {
	if index < 0 || index >= len(l.model.Textures) {
		return NoTexture, fmt.Errorf("%s: textures[%d] does not exist (%d textures)", where, index, len(l.model.Textures))
	}
	if texCoord < 0 {
		return NoTexture, fmt.Errorf("%s.texCoord: %d is negative", where, texCoord)
	}
	ref := TextureRef{Texture: index, TexCoord: texCoord, Scale: [2]float32{1, 1}}
	info, _ := rawInfo.(map[string]any)
	exts, _ := info["extensions"].(map[string]any)
	tt, ok := exts["KHR_texture_transform"].(map[string]any)
	if !ok {
		return ref, nil
	}
	if _, set := tt["texCoord"]; set {
		ref.TexCoord = jsonInt(tt["texCoord"])
	}

	pair := func(key string, into *[2]float32) {
		arr, _ := tt[key].([]any)
		if len(arr) != 2 {
			return
		}
		x, okx := jsonFloat(arr[0])
		y, oky := jsonFloat(arr[1])
		if okx && oky && finite32(x, y) {
			into[0], into[1] = float32(x), float32(y)
		}
	}
	pair("offset", &ref.Offset)
	pair("scale", &ref.Scale)
	if r, ok := jsonFloat(tt["rotation"]); ok && finite32(r) {
		ref.Rotation = float32(r)
	}
	return ref, nil
}

// sampler is samplers[i] as the file gives it (OpenGL enum values), with
// REPEAT where a wrap mode is left out; validation reports bad values,
// which fall back to the defaults here.
func (l *loader) sampler(i int) Sampler {
	s := DefaultSampler
	raw := l.rawObject("samplers", i)
	get := func(key string, valid ...int) (int, bool) {
		v, ok := raw[key].(json.Number)
		if !ok {
			return 0, false
		}
		n, err := v.Int64()
		for _, ok := range valid {
			if err == nil && int(n) == ok {
				return ok, true
			}
		}
		return 0, false
	}
	const nearest, linear = 9728, 9729
	if v, ok := get("magFilter", nearest, linear); ok {
		s.MagFilter = v
	}
	if v, ok := get("minFilter", nearest, linear, 9984, 9985, 9986, 9987); ok {
		s.MinFilter = v
	}
	const repeat, clamp, mirrored = 10497, 33071, 33648
	if v, ok := get("wrapS", repeat, clamp, mirrored); ok {
		s.WrapS = v
	}
	if v, ok := get("wrapT", repeat, clamp, mirrored); ok {
		s.WrapT = v
	}
	return s
}

// jsonFloat is a JSON number as a float64.
func jsonFloat(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsNaN(f)
}
