package gltfload

import (
	"image"
	"math"
	"unsafe"

	"github.com/skinview/skinview/internal/anim"
)

// Model is everything the viewer needs from one glTF file, CPU side.
type Model struct {
	// Name is the file's base name.
	Name string
	// Skeleton holds every node of the file as a joint, parents first, so
	// that a joint's model matrix is exactly its node's global transform
	// (glTF §3.7.3), whatever non-joint nodes sit between joints, and rigid
	// node animation comes from the same pass.
	Skeleton anim.Skeleton
	// NodeOfJoint[j] is the glTF node index of skeleton joint j.
	NodeOfJoint []int
	// JointOfNode[n] is the skeleton joint of glTF node n.
	JointOfNode []int
	// NodeNames[n] is glTF node n's name as in the file, possibly empty
	// (Skeleton.Names falls back to "nodeN" instead). Nodes past the
	// file's own are the instances EXT_mesh_gpu_instancing places,
	// children of their node, named "<node>#k".
	NodeNames []string
	// Skins has one entry per glTF skin, in file order; Skin.Joints index
	// Skeleton. SkinRoots[i] is the joint of skins[i].skeleton, or -1.
	Skins     []anim.Skin
	SkinRoots []int
	// Clips has one entry per glTF animation, in file order.
	Clips []anim.Clip
	// Meshes has one entry per glTF mesh.
	Meshes []Mesh
	// Materials has one entry per glTF material.
	Materials []Material
	// Textures has one entry per glTF texture: the decoded image of those
	// a material uses, nil for the others and where the image could not
	// be read (a report line says why). Textures sharing an image share
	// the *image.NRGBA. Samplers[t] is texture t's sampler.
	Textures []*image.NRGBA
	Samplers []Sampler
	// Cameras are the glTF cameras the shown scene's nodes carry, in node
	// order (skeleton order: parents first). CameraChannels are the
	// camera parameters KHR_animation_pointer channels animate, pose
	// channels after the morph channels like MaterialChannels.
	Cameras        []Camera
	CameraChannels []CameraChannel
	// Lights are the KHR_lights_punctual lights the shown scene's nodes
	// carry; LightChannels their animated parameters, pose channels like
	// MaterialChannels.
	Lights        []Light
	LightChannels []LightChannel
	// Instances are the nodes of the shown scene that draw a mesh.
	Instances []Instance
	// NodeMorph[n] is the first morph channel of glTF node n in the
	// pose's weights (anim.SoAPose.W), one per morph target of its mesh,
	// or -1 when its mesh has none. Skeleton.MorphRest holds each
	// channel's default: node.weights, else mesh.weights, else 0.
	NodeMorph []int
	// NodeMesh[n] is glTF node n's mesh, -1 for none.
	NodeMesh []int
	// MaterialChannels are the material factors KHR_animation_pointer
	// channels animate, each Count pose channels from Channel, after the
	// morph channels (Skeleton.MorphRest holds the material's own value;
	// MorphJoint the root joint): clips sample, blend and play them as
	// they do morph weights.
	MaterialChannels []MaterialChannel
	// Compression has one entry per compression extension the file uses
	// (KHR_draco_mesh_compression, EXT_meshopt_compression), in the order
	// decoded; nil for an uncompressed file.
	Compression []Compression
	// Report lists what is wrong with the file although it loaded, and
	// what the loader did about it.
	Report Report
}

// Instance is a node that draws a mesh.
type Instance struct {
	Node int // glTF node index (or an instance node, see NodeNames)
	Mesh int // index into Model.Meshes
	// Skin is the index into Model.Skins, or -1 for a rigid mesh drawn with
	// its node's global transform.
	Skin int
}

// Mesh is a glTF mesh.
type Mesh struct {
	Name       string
	Primitives []Primitive
	// Targets is the number of morph targets of every primitive;
	// TargetNames their names from extras.targetNames ("" where none).
	Targets     int
	TargetNames []string
	// Weights are the default morph weights (mesh.weights), or nil.
	Weights []float32
}

// Primitive is one triangle list with its vertex attributes, de-interleaved.
// Vertex count n = len(Positions)/3. Primitives whose file shares
// accessors share these arrays: treat them as read-only.
type Primitive struct {
	// Positions, xyz per vertex, in the mesh's (bind) space.
	Positions []float32
	// Normals, xyz per vertex, unit length. Computed (flat) when the file
	// has none, in which case vertices are unshared per triangle.
	Normals []float32
	// UV0 and UV1 are TEXCOORD_0 and TEXCOORD_1, uv per vertex, or nil;
	// later sets are not drawn.
	UV0, UV1 []float32
	// FlatNormals marks a copy made by WithFlatNormals: its normals are
	// its bind-pose faces', and a renderer may take each posed triangle's
	// own instead.
	FlatNormals bool
	// Tangents is TANGENT, xyzw per vertex (w the bitangent's sign), or
	// nil; normal maps fall back to a tangent frame from screen-space
	// derivatives without it.
	Tangents []float32
	// TangentsGenerated marks Tangents computed at load rather than read:
	// MikkTSpace, as glTF asks where the material has a normal texture
	// and the file no TANGENT. Vertices whose corners got different
	// frames were copied (every per-vertex array with them), so the
	// vertex count can exceed the file's.
	TangentsGenerated bool
	// Colors is COLOR_0 as linear RGBA per vertex (alpha 1 where the file
	// has RGB), or nil. It multiplies the base colour.
	Colors []float32
	// Joints and Weights are the four largest influences of each vertex
	// (renormalized to sum 1); unused slots have joint 0 and weight 0. Nil
	// when the primitive is not skinned.
	Joints  []uint16
	Weights []float32
	// AllJoints and AllWeights hold every influence of every JOINTS_n /
	// WEIGHTS_n set as stored (4·sets per vertex), for reference skinning
	// by the glTF formula. Nil when not skinned.
	AllJoints  []uint16
	AllWeights []float32
	// Sets is the number of JOINTS_n/WEIGHTS_n pairs.
	Sets int
	// Indices lists triangles, three vertex indices each.
	Indices []uint32
	// Material indexes Model.Materials, or -1 for the default material.
	Material int
	// DroppedMax and DroppedMean are the largest and mean fraction of a
	// vertex's weight lost by keeping only four influences.
	DroppedMax, DroppedMean float32
	// Targets are the morph targets: displacements added to Positions and
	// Normals, each scaled by its weight, before skinning.
	Targets []MorphTarget
}

// MorphTarget is one morph target of a primitive: xyz displacements per
// vertex of the positions and of the normals (nil where the target has
// none). Tangent displacements are validated but not kept: a morphed
// vertex keeps its base tangent.
type MorphTarget struct {
	Positions, Normals []float32
}

// NumVertices is the vertex count.
func (p *Primitive) NumVertices() int { return len(p.Positions) / 3 }

// Material is a glTF 2.0 metallic-roughness material (glTF 2.0 §3.9 and
// Appendix B) with the extensions the viewer reads:
// KHR_materials_emissive_strength (EmissiveStrength),
// KHR_materials_unlit and KHR_texture_transform (in each TextureRef).
// Factors are linear; a texture absent or not decoded leaves its factor
// alone (glTF's defaults where the file gives none).
type Material struct {
	Name string
	// BaseColor is the linear RGBA base colour factor; BaseColorTexture's
	// texels are sRGB-encoded.
	BaseColor        [4]float32
	BaseColorTexture TextureRef
	// Metallic and Roughness are the factors; MetallicRoughnessTexture
	// holds roughness in G and metalness in B, linear.
	Metallic, Roughness      float32
	MetallicRoughnessTexture TextureRef
	// NormalTexture is a tangent-space normal map; NormalScale scales its
	// X and Y.
	NormalTexture TextureRef
	NormalScale   float32
	// OcclusionTexture holds ambient occlusion in R; OcclusionStrength
	// blends it in (0: none, 1: all).
	OcclusionTexture  TextureRef
	OcclusionStrength float32
	// Emissive is the linear emissive factor, to be multiplied by
	// EmissiveStrength (KHR_materials_emissive_strength, 1 without it);
	// EmissiveTexture's texels are sRGB.
	Emissive         [3]float32
	EmissiveStrength float32
	EmissiveTexture  TextureRef
	// AlphaMode and AlphaCutoff (MASK only) say how alpha draws.
	AlphaMode   AlphaMode
	AlphaCutoff float32
	DoubleSided bool
	// Unlit is KHR_materials_unlit: base colour only, no lighting.
	Unlit bool
}

// Camera is a glTF camera placed by a node: it looks down the node's −Z
// with +Y up (glTF 2.0 §3.10).
type Camera struct {
	// Name is the camera's name, else its node's, else "camera N".
	Name string
	// Node is the glTF node that places it; Index the glTF camera.
	Node, Index int
	// Orthographic cameras show XMag × YMag half-extents; perspective
	// ones YFov radians vertically, at Aspect (0: the viewport's).
	Orthographic bool
	YFov, Aspect float32
	XMag, YMag   float32
	// ZNear and ZFar are the clip planes; ZFar 0 is infinitely far.
	ZNear, ZFar float32
}

// Light is a KHR_lights_punctual light placed by a node: at its origin,
// shining down its −Z (directional and spot).
type Light struct {
	Name        string
	Node, Index int
	Kind        LightKind
	// Color is linear; Intensity candela (point, spot) or lux
	// (directional); Range 0 is unlimited; the cone angles (spot) are
	// radians from the axis.
	Color                [3]float32
	Intensity, Range     float32
	InnerCone, OuterCone float32
}

// LightKind is a punctual light's type.
type LightKind uint8

const (
	DirectionalLight LightKind = iota
	PointLight
	SpotLight
)

// LightChannel is one animated parameter of glTF light Index: Count pose
// channels from Channel holding Light.Field(Param).
type LightChannel struct {
	Index          int
	Param          LightParam
	Channel, Count int
}

// LightParam is a light parameter a clip can animate.
type LightParam uint8

const (
	LightColor LightParam = iota // 3 channels
	LightIntensity
	LightRange
	LightInnerCone
	LightOuterCone
)

// Field is the floats of g that p names.
func (g *Light) Field(p LightParam) []float32 {
	switch p {
	case LightColor:
		return g.Color[:]
	case LightIntensity:
		return unsafe.Slice(&g.Intensity, 1)
	case LightRange:
		return unsafe.Slice(&g.Range, 1)
	case LightInnerCone:
		return unsafe.Slice(&g.InnerCone, 1)
	}
	return unsafe.Slice(&g.OuterCone, 1)
}

// CameraChannel is one animated camera parameter of glTF camera Index:
// the pose channel that holds it.
type CameraChannel struct {
	Index   int
	Param   CameraParam
	Channel int
}

// CameraParam is a camera parameter a clip can animate.
type CameraParam uint8

const (
	CameraYFov CameraParam = iota
	CameraAspect
	CameraZNear
	CameraZFar
	CameraXMag
	CameraYMag
)

// Param is the float of c that p names.
func (c *Camera) Param(p CameraParam) *float32 {
	return [...]*float32{&c.YFov, &c.Aspect, &c.ZNear, &c.ZFar, &c.XMag, &c.YMag}[p]
}

// MaterialChannel is one animated material property: Count pose
// channels from Channel. Slot is the texture (a TextureSlot) of the
// texture transform properties.
type MaterialChannel struct {
	Material       int
	Property       MaterialProperty
	Slot           int
	Channel, Count int
}

// MaterialProperty is a material factor a clip can animate.
type MaterialProperty uint8

const (
	BaseColorFactor   MaterialProperty = iota // Material.BaseColor, 4 channels
	AlphaCutoff                               // 1
	MetallicFactor                            // 1
	RoughnessFactor                           // 1
	EmissiveFactor                            // Material.Emissive, 3
	EmissiveStrength                          // 1
	NormalScale                               // 1
	OcclusionStrength                         // 1
	TextureOffset                             // the slot's TextureRef.Offset, 2
	TextureScale                              // TextureRef.Scale, 2
	TextureRotation                           // TextureRef.Rotation, 1
)

// The texture slots of a material, for Material.Texture.
const (
	BaseColorSlot = iota
	MetallicRoughnessSlot
	NormalSlot
	OcclusionSlot
	EmissiveSlot
	TextureSlots // how many
)

// Texture is the material's texture in slot (a TextureSlot).
func (m *Material) Texture(slot int) *TextureRef {
	return [TextureSlots]*TextureRef{&m.BaseColorTexture, &m.MetallicRoughnessTexture, &m.NormalTexture, &m.OcclusionTexture, &m.EmissiveTexture}[slot]
}

// Field is the floats of m that property p (of texture slot, for the
// texture transform properties) holds: what a channel of p sets.
func (m *Material) Field(p MaterialProperty, slot int) []float32 {
	one := func(f *float32) []float32 { return unsafe.Slice(f, 1) }
	switch p {
	case BaseColorFactor:
		return m.BaseColor[:]
	case AlphaCutoff:
		return one(&m.AlphaCutoff)
	case MetallicFactor:
		return one(&m.Metallic)
	case RoughnessFactor:
		return one(&m.Roughness)
	case EmissiveFactor:
		return m.Emissive[:]
	case EmissiveStrength:
		return one(&m.EmissiveStrength)
	case NormalScale:
		return one(&m.NormalScale)
	case OcclusionStrength:
		return one(&m.OcclusionStrength)
	case TextureOffset:
		return m.Texture(slot).Offset[:]
	case TextureScale:
		return m.Texture(slot).Scale[:]
	}
	return one(&m.Texture(slot).Rotation)
}

// AlphaMode is a material's alpha mode (glTF 2.0 §3.9.4).
type AlphaMode uint8

const (
	AlphaOpaque AlphaMode = iota // alpha ignored
	AlphaMask                    // cut where alpha < AlphaCutoff
	AlphaBlend                   // blended over what is behind
)

func (a AlphaMode) String() string {
	switch a {
	case AlphaMask:
		return "MASK"
	case AlphaBlend:
		return "BLEND"
	}
	return "OPAQUE"
}

// TextureRef is a material's use of a texture (glTF's textureInfo).
type TextureRef struct {
	// Texture indexes Model.Textures, or -1 for none.
	Texture int
	// TexCoord is the TEXCOORD_n set sampled (KHR_texture_transform's
	// texCoord where it gives one).
	TexCoord int
	// Offset, Rotation (radians, counter-clockwise in UV space) and Scale
	// are KHR_texture_transform's; zero, zero and one without it.
	Offset   [2]float32
	Rotation float32
	Scale    [2]float32
}

// NoTexture is a TextureRef that samples nothing.
var NoTexture = TextureRef{Texture: -1, Scale: [2]float32{1, 1}}

// UVMatrix is the 3×3 matrix, column-major, that KHR_texture_transform
// applies to a texture coordinate (u, v, 1): translation × rotation ×
// scale, with the extension's rotation matrix
// [cos sin; −sin cos] (a rotation of UVs, whose V axis points down).
func (t TextureRef) UVMatrix() [9]float32 {
	c, s := float32(math.Cos(float64(t.Rotation))), float32(math.Sin(float64(t.Rotation)))
	sx, sy := t.Scale[0], t.Scale[1]
	return [9]float32{
		c * sx, -s * sx, 0,
		s * sy, c * sy, 0,
		t.Offset[0], t.Offset[1], 1,
	}
}

// Sampler is a texture's filtering and wrapping, as glTF's sampler gives
// them (OpenGL enum values; 0 for a filter the file leaves to the
// viewer).
type Sampler struct {
	MagFilter, MinFilter int
	WrapS, WrapT         int
}

// DefaultSampler is glTF's sampler for a texture without one: filters
// left to the viewer, REPEAT both ways.
var DefaultSampler = Sampler{WrapS: 10497, WrapT: 10497}

// DefaultMaterial is what glTF prescribes for primitives without one.
var DefaultMaterial = Material{
	Name: "default", BaseColor: [4]float32{1, 1, 1, 1}, Metallic: 1, Roughness: 1,
	BaseColorTexture: NoTexture, MetallicRoughnessTexture: NoTexture, NormalTexture: NoTexture, NormalScale: 1,
	OcclusionTexture: NoTexture, OcclusionStrength: 1, EmissiveTexture: NoTexture, EmissiveStrength: 1, AlphaCutoff: 0.5,
}

// Morph writes the primitive's shape under morph weights (one per target)
// into pos and, when nrm is not nil, nrm: the base positions and normals
// plus each target's displacements times its weight; targets with weight 0
// cost nothing. Normals are left unnormalized, as the shader takes them.
// len(pos) = len(Positions), len(nrm) = len(Normals).
func (p *Primitive) Morph(pos, nrm, weights []float32) {
	copy(pos, p.Positions)
	if nrm != nil {
		copy(nrm, p.Normals)
	}
	for t := range min(len(weights), len(p.Targets)) {
		w := weights[t]
		if w == 0 {
			continue
		}
		addScaled(pos, p.Targets[t].Positions, w)
		if nrm != nil {
			addScaled(nrm, p.Targets[t].Normals, w)
		}
	}
}

// addScaled adds w·d to dst; a nil d adds nothing.
func addScaled(dst, d []float32, w float32) {
	if d == nil {
		return
	}
	d = d[:len(dst)]
	for i, v := range d {
		dst[i] += w * v
	}
}
