package main

// The glTF document is built from structs rather than maps so that
// encoding/json writes fields in a fixed order and the files are
// reproducible (the one map, primitive attributes, is written with sorted
// keys). Optional indices are pointers: index 0 is valid and must not be
// omitted.

type gltfDoc struct {
	Asset          gltfAsset        `json:"asset"`
	ExtensionsUsed []string         `json:"extensionsUsed,omitempty"`
	Scene          int              `json:"scene"`
	Scenes         []gltfScene      `json:"scenes"`
	Nodes          []gltfNode       `json:"nodes"`
	Meshes         []gltfMesh       `json:"meshes,omitempty"`
	Skins          []gltfSkin       `json:"skins,omitempty"`
	Materials      []gltfMaterial   `json:"materials,omitempty"`
	Textures       []gltfTexture    `json:"textures,omitempty"`
	Samplers       []gltfSampler    `json:"samplers,omitempty"`
	Images         []gltfImage      `json:"images,omitempty"`
	Animations     []gltfAnimation  `json:"animations,omitempty"`
	Accessors      []gltfAccessor   `json:"accessors"`
	BufferViews    []gltfBufferView `json:"bufferViews"`
	Buffers        []gltfBuffer     `json:"buffers"`
}

type gltfAsset struct {
	Version   string `json:"version"`
	Generator string `json:"generator"`
}

type gltfScene struct {
	Name  string `json:"name"`
	Nodes []int  `json:"nodes"`
}

type gltfNode struct {
	Name        string      `json:"name"`
	Children    []int       `json:"children,omitempty"`
	Mesh        *int        `json:"mesh,omitempty"`
	Skin        *int        `json:"skin,omitempty"`
	Translation *[3]float64 `json:"translation,omitempty"`
	Rotation    *[4]float64 `json:"rotation,omitempty"`
	Scale       *[3]float64 `json:"scale,omitempty"`
}

type gltfMesh struct {
	Name       string          `json:"name"`
	Primitives []gltfPrimitive `json:"primitives"`
	Weights    []float64       `json:"weights,omitempty"`
	Extras     *gltfMeshExtras `json:"extras,omitempty"`
}

// gltfMeshExtras carries the names of a mesh's morph targets, as
// exporters write them.
type gltfMeshExtras struct {
	TargetNames []string `json:"targetNames"`
}

type gltfPrimitive struct {
	Attributes map[string]int   `json:"attributes"`
	Indices    *int             `json:"indices,omitempty"`
	Material   *int             `json:"material,omitempty"`
	Mode       int              `json:"mode"`
	Targets    []map[string]int `json:"targets,omitempty"`
}

type gltfSkin struct {
	Name                string `json:"name"`
	InverseBindMatrices *int   `json:"inverseBindMatrices,omitempty"`
	Skeleton            *int   `json:"skeleton,omitempty"`
	Joints              []int  `json:"joints"`
}

type gltfTextureInfo struct {
	Index      int                 `json:"index"`
	TexCoord   int                 `json:"texCoord,omitempty"`
	Scale      *float64            `json:"scale,omitempty"`    // normalTexture
	Strength   *float64            `json:"strength,omitempty"` // occlusionTexture
	Extensions *gltfTextureInfoExt `json:"extensions,omitempty"`
}

type gltfTextureInfoExt struct {
	Transform *gltfTextureTransform `json:"KHR_texture_transform,omitempty"`
}

type gltfTextureTransform struct {
	Offset   [2]float64 `json:"offset"`
	Rotation float64    `json:"rotation"`
	Scale    [2]float64 `json:"scale"`
}

type gltfPBR struct {
	BaseColorFactor          [4]float64       `json:"baseColorFactor"`
	BaseColorTexture         *gltfTextureInfo `json:"baseColorTexture,omitempty"`
	MetallicFactor           float64          `json:"metallicFactor"`
	RoughnessFactor          float64          `json:"roughnessFactor"`
	MetallicRoughnessTexture *gltfTextureInfo `json:"metallicRoughnessTexture,omitempty"`
}

type gltfMaterial struct {
	Name             string           `json:"name"`
	PBR              gltfPBR          `json:"pbrMetallicRoughness"`
	AlphaMode        string           `json:"alphaMode,omitempty"`
	AlphaCutoff      *float64         `json:"alphaCutoff,omitempty"`
	DoubleSided      bool             `json:"doubleSided,omitempty"`
	NormalTexture    *gltfTextureInfo `json:"normalTexture,omitempty"`
	OcclusionTexture *gltfTextureInfo `json:"occlusionTexture,omitempty"`
	EmissiveTexture  *gltfTextureInfo `json:"emissiveTexture,omitempty"`
	EmissiveFactor   *[3]float64      `json:"emissiveFactor,omitempty"`
}

type gltfTexture struct {
	Sampler int `json:"sampler"`
	Source  int `json:"source"`
}

type gltfSampler struct {
	MagFilter int `json:"magFilter"`
	MinFilter int `json:"minFilter"`
	WrapS     int `json:"wrapS"`
	WrapT     int `json:"wrapT"`
}

type gltfImage struct {
	Name       string `json:"name"`
	BufferView int    `json:"bufferView"`
	MimeType   string `json:"mimeType"`
}

type gltfAnimation struct {
	Name     string            `json:"name"`
	Channels []gltfChannel     `json:"channels"`
	Samplers []gltfAnimSampler `json:"samplers"`
}

type gltfChannel struct {
	Sampler int        `json:"sampler"`
	Target  gltfTarget `json:"target"`
}

type gltfTarget struct {
	Node int    `json:"node"`
	Path string `json:"path"`
}

type gltfAnimSampler struct {
	Input         int    `json:"input"`
	Interpolation string `json:"interpolation"`
	Output        int    `json:"output"`
}

type gltfAccessor struct {
	BufferView    *int        `json:"bufferView,omitempty"`
	ComponentType int         `json:"componentType"`
	Normalized    bool        `json:"normalized,omitempty"`
	Count         int         `json:"count"`
	Type          string      `json:"type"`
	Min           []float64   `json:"min,omitempty"`
	Max           []float64   `json:"max,omitempty"`
	Sparse        *gltfSparse `json:"sparse,omitempty"`
}

// gltfSparse substitutes values at a few indices of an accessor; without
// a bufferView the others are zero.
type gltfSparse struct {
	Count   int `json:"count"`
	Indices struct {
		BufferView    int `json:"bufferView"`
		ComponentType int `json:"componentType"`
	} `json:"indices"`
	Values struct {
		BufferView int `json:"bufferView"`
	} `json:"values"`
}

type gltfBufferView struct {
	Buffer     int `json:"buffer"`
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
	Target     int `json:"target,omitempty"`
}

type gltfBuffer struct {
	URI        string `json:"uri,omitempty"`
	ByteLength int    `json:"byteLength"`
}

// glTF enum values used here.
const (
	compUnsignedByte  = 5121
	compUnsignedShort = 5123
	compUnsignedInt   = 5125
	compFloat         = 5126

	targetArrayBuffer        = 34962
	targetElementArrayBuffer = 34963

	filterNearest            = 9728
	filterLinear             = 9729
	filterLinearMipmapLinear = 9987
	wrapRepeat               = 10497
	wrapClampToEdge          = 33071

	modeTriangles = 4
)

// glTF attribute semantics.
const (
	attrPosition  = "POSITION"
	attrNormal    = "NORMAL"
	attrTexCoord0 = "TEXCOORD_0"
	attrJoints0   = "JOINTS_0"
	attrWeights0  = "WEIGHTS_0"
	attrJoints1   = "JOINTS_1"
	attrWeights1  = "WEIGHTS_1"
)

func intPtr(i int) *int { return &i }
