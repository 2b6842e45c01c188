//go:build goexperiment.simd && amd64

package anim

// The SIMD build's unexported names and fields that its external tests
// use, under exported names.

var (
	BlendLevel     = &blendLevel // a pointer: SetKernels changes it
	ChooseLevel    = chooseLevel
	CpuLevel       = cpuLevel
	IdentityLanes8 = identityLanes8
	IdentityMasks8 = identityMasks8
	LayerLevel     = &layerLevel // a pointer: SetKernels changes it
	LevelName      = levelName
	PaletteLevel   = &paletteLevel // a pointer: SetKernels changes it
	SameBlock8     = sameBlock8
	SameMasks8     = sameMasks8
	SampleLevel    = &sampleLevel // a pointer: SetKernels changes it
	ShiftFramesAt  = shiftFramesAt
	Slerp16        = slerp16
	Slerp8         = slerp8
)

type (
	LaneMasks = laneMasks
)

const (
	LevelAVX2     = levelAVX2
	LevelAVX512   = levelAVX512
	LevelPortable = levelPortable
	SoaLanes      = soaLanes
)

func (x *frameGroup) FieldDrop() [8]int32                               { return x.drop }
func (x *frameGroup) FieldFrame() [8]int32                              { return x.frame }
func (x *frameGroup) FieldLo() *[3][8]float32                           { return &x.lo }
func (x *frameGroup) FieldRot() bool                                    { return x.rot }
func (x *frameGroup) FieldSel() [8]int32                                { return x.sel }
func (x *frameTrack) FieldLo() *[3]float32                              { return &x.lo }
func (x *packedClip) FieldGroups() []frameGroup                         { return x.groups }
func (x *SoAPose) IdentityAt(p0 int) bool                               { return x.identityAt(p0) }
func (x *SoAPose) SameJoint(p0 int, p1 *SoAPose) bool                   { return x.sameJoint(p0, p1) }
func (x *laneMasks) Has(p0 int) bool                                    { return x.has(p0) }
func (x *packedClip) FillFrames(p0 int, p1 []float32)                   { x.fillFrames(p0, p1) }
func (x *packedClip) ShiftFrames(p0 int, p1 []float32, p2 []frameTrack) { x.shiftFrames(p0, p1, p2) }
