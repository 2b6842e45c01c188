package render

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/skinview/skinview/shaders"
)

type program uint32

// compileShader compiles one embedded source. defines are inserted right
// after the #version line, which GLSL requires to come first.
func compileShader(file string, kind uint32, defines string) (uint32, error) {
	src, err := shaders.FS.ReadFile(file)
	if err != nil {
		return 0, fmt.Errorf("render: shader %s: %w", file, err)
	}
	text := string(src)
	// GLSL has no #include: a line `#include "part.glsl"` is replaced by
	// that file of the same folder, with #line directives keeping the
	// driver's line numbers true.
	for {
		i := strings.Index(text, "#include \"")
		if i < 0 {
			break
		}
		j := strings.IndexByte(text[i+10:], '"')
		if j < 0 {
			return 0, fmt.Errorf("render: shader %s: unterminated #include", file)
		}
		part, err := shaders.FS.ReadFile(text[i+10 : i+10+j])
		if err != nil {
			return 0, fmt.Errorf("render: shader %s: %w", file, err)
		}
		line := strings.Count(text[:i], "\n") + 1
		text = text[:i] + "#line 1\n" + string(part) + fmt.Sprintf("#line %d\n", line+1) + text[i+10+j+1:]
	}
	if defines != "" {
		if i := strings.IndexByte(text, '\n'); i >= 0 && strings.HasPrefix(text, "#version") {
			text = text[:i+1] + defines + "#line 2\n" + text[i+1:]
		}
	}
	return compileSource(file, text, kind)
}

// compileSource compiles GLSL text; errors name file and carry the
// driver's log.
func compileSource(file, text string, kind uint32) (uint32, error) {
	sh := gl.CreateShader(kind)
	csrc, free := gl.Strs(text + "\x00")
	gl.ShaderSource(sh, 1, csrc, nil)
	free()
	gl.CompileShader(sh)
	if log, ok := status(sh, false); !ok {
		return 0, fmt.Errorf("render: shader %s does not compile: %s", file, log)
	}
	return sh, nil
}

// status reports whether a shader compiled or a program linked; when not,
// it deletes the object and returns the driver's log.
func status(obj uint32, isProgram bool) (log string, ok bool) {
	var st int32
	if isProgram {
		gl.GetProgramiv(obj, gl.LINK_STATUS, &st)
	} else {
		gl.GetShaderiv(obj, gl.COMPILE_STATUS, &st)
	}
	if st != gl.FALSE {
		return "", true
	}
	log = shaderLog(obj, isProgram)
	if isProgram {
		gl.DeleteProgram(obj)
	} else {
		gl.DeleteShader(obj)
	}
	return log, false
}

func shaderLog(obj uint32, isProgram bool) string {
	var n int32
	if isProgram {
		gl.GetProgramiv(obj, gl.INFO_LOG_LENGTH, &n)
	} else {
		gl.GetShaderiv(obj, gl.INFO_LOG_LENGTH, &n)
	}
	if n <= 1 {
		return "(the driver gave no log)"
	}
	buf := make([]byte, n)
	if isProgram {
		gl.GetProgramInfoLog(obj, n, nil, &buf[0])
	} else {
		gl.GetShaderInfoLog(obj, n, nil, &buf[0])
	}
	return strings.TrimSpace(strings.TrimRight(string(buf), "\x00"))
}

// linkProgram compiles and links a vertex and a fragment shader.
func linkProgram(vert, frag, defines string) (program, error) {
	vs, err := compileShader(vert, gl.VERTEX_SHADER, defines)
	if err != nil {
		return 0, err
	}
	defer gl.DeleteShader(vs)
	fs, err := compileShader(frag, gl.FRAGMENT_SHADER, defines)
	if err != nil {
		return 0, err
	}
	defer gl.DeleteShader(fs)
	p := gl.CreateProgram()
	gl.AttachShader(p, vs)
	gl.AttachShader(p, fs)
	return link(p, "program "+vert+" + "+frag)
}

// link links program p, deleting it and naming it as what when it fails.
func link(p uint32, what string) (program, error) {
	gl.LinkProgram(p)
	if log, ok := status(p, true); !ok {
		return 0, fmt.Errorf("render: %s does not link: %s", what, log)
	}
	return program(p), nil
}

func (p program) uniform(name string) int32 {
	return gl.GetUniformLocation(uint32(p), gl.Str(name+"\x00"))
}

// pipeline is one skinning vertex shader with a fragment shader.
type pipeline struct {
	prog program
	// vert and defines are the vertex shader's file and defines, which
	// the tests compile again to record its output.
	vert, defines string
	entryFloats   int // palette floats per joint
	uViewProj     int32
	uBaseColor    int32
	uBaseTex      int32
	uLightDir     int32
	uEye          int32
	uView         int32
	uTint         int32
	uSelJoint     int32
	uModel        int32
	uUVTransform  int32
	uAlphaMode    int32
	uAlphaCutoff  int32
	// The material maps (texture units mapUnits), their transforms and
	// presence, the factors besides base colour, the lighting and the
	// split-sum table.
	uMaps, uMapUV, uHasMap        int32
	uMetalRough, uNormalOcclusion int32
	uEmissive                     int32
	uLighting, uDFG               int32
	uSets                         int32
	uLightCount, uLightKind       int32
	uLightPos, uLightDirs         int32
	uLightColor, uLightRange      int32
	uLightCone                    int32
	uUnlit, uFlat                 int32
	// The viewer's look: environment, exposure, tone mapping, and the
	// ground shadow pass (uShadowPass 1 in it).
	uEnv, uEnvMaxLod, uSH              int32
	uExposure, uTonemap                int32
	uShadow, uShadowPass, uShadowColor int32
	// The instanced variant's record layout (skin.vert under INSTANCED).
	uInstances, uMembers, uInstExtras     int32
	uInstExtraTexels                      int32
	uInstJoints, uInstTargets, uInstVerts int32
}

// newPipeline links vertex shader vert with fragment shader frag (lit.frag,
// or shadow.frag for the ground shadow pass).
func newPipeline(vert, frag, defines string, entryFloats int) (pipeline, error) {
	pl := pipeline{vert: vert, defines: defines, entryFloats: entryFloats}
	p, err := linkProgram(vert, frag, defines)
	if err != nil {
		return pl, err
	}
	pl.prog = p
	pl.uViewProj = p.uniform("uViewProj")
	pl.uBaseColor = p.uniform("uBaseColor")
	pl.uBaseTex = p.uniform("uBaseTex")
	pl.uLightDir = p.uniform("uLightDir")
	pl.uEye = p.uniform("uEye")
	pl.uView = p.uniform("uView")
	pl.uTint = p.uniform("uTint")
	pl.uSelJoint = p.uniform("uSelJoint")
	pl.uModel = p.uniform("uModel")
	pl.uUVTransform = p.uniform("uUVTransform")
	pl.uAlphaMode = p.uniform("uAlphaMode")
	pl.uAlphaCutoff = p.uniform("uAlphaCutoff")
	pl.uMaps = p.uniform("uMaps")
	pl.uMapUV = p.uniform("uMapUV")
	pl.uHasMap = p.uniform("uHasMap")
	pl.uMetalRough = p.uniform("uMetalRough")
	pl.uNormalOcclusion = p.uniform("uNormalOcclusion")
	pl.uEmissive = p.uniform("uEmissive")
	pl.uLighting = p.uniform("uLighting")
	pl.uDFG = p.uniform("uDFG")
	pl.uSets = p.uniform("uSets")
	pl.uLightCount = p.uniform("uLightCount")
	pl.uLightKind = p.uniform("uLightKind")
	pl.uLightPos = p.uniform("uLightPos")
	pl.uLightDirs = p.uniform("uLightDirs")
	pl.uLightColor = p.uniform("uLightColor")
	pl.uLightRange = p.uniform("uLightRange")
	pl.uLightCone = p.uniform("uLightCone")
	pl.uUnlit = p.uniform("uUnlit")
	pl.uFlat = p.uniform("uFlat")
	pl.uEnv = p.uniform("uEnv")
	pl.uEnvMaxLod = p.uniform("uEnvMaxLod")
	pl.uSH = p.uniform("uSH")
	pl.uExposure = p.uniform("uExposure")
	pl.uTonemap = p.uniform("uTonemap")
	pl.uShadow = p.uniform("uShadow")
	pl.uShadowPass = p.uniform("uShadowPass")
	pl.uShadowColor = p.uniform("uShadowColor")
	instanced := strings.Contains(defines, "#define INSTANCED")
	if instanced {
		pl.uInstances = p.uniform("uInstances")
		pl.uMembers = p.uniform("uMembers")
		pl.uInstExtras = p.uniform("uInstExtras")
		pl.uInstExtraTexels = p.uniform("uInstExtraTexels")
		pl.uInstJoints = p.uniform("uInstJoints")
		pl.uInstTargets = p.uniform("uInstTargets")
		pl.uInstVerts = p.uniform("uInstVerts")
	} else if err := bindPalette(p, vert); err != nil {
		pl.destroy()
		return pl, err
	}
	if err := bindMorphBlock(p, vert, instanced); err != nil {
		pl.destroy()
		return pl, err
	}
	return pl, nil
}

// bindPalette attaches the program's Palette block to binding point 0,
// where every draw binds its palette range.
func bindPalette(p program, file string) error {
	blk := gl.GetUniformBlockIndex(uint32(p), gl.Str("Palette\x00"))
	if blk == gl.INVALID_INDEX {
		return fmt.Errorf("render: %s has no Palette uniform block", file)
	}
	gl.UniformBlockBinding(uint32(p), blk, 0)
	return nil
}

func (pl *pipeline) destroy() {
	if pl.prog != 0 {
		gl.DeleteProgram(uint32(pl.prog))
	}
	*pl = pipeline{}
}
