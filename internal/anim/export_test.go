package anim

// The package's unexported names and fields that its external tests
// (package anim_test) use, under exported names.

var (
	AimEnds           = aimEnds
	Arc               = arc
	CutMantissaToward = cutMantissaToward
	CutShares         = cutShares
	ErrNilSkeleton    = errNilSkeleton
	ExpGolombBits     = expGolombBits
	FrameTurn         = frameTurn
	FirstTarget       = firstTarget
	FromTo            = fromTo
	GridTimes         = gridTimes
	InvSqrt           = invSqrt
	NewClipTag        = newClipTag
	KeepSecond        = keepSecond
	Models64          = models64
	P99               = p99
	RaiseShares       = raiseShares
	PackPlayed        = packPlayed
	ParentFrame       = parentFrame
	Qmul              = qmul
	RawBytes          = rawBytes
	ReadBits          = readBits
	RestoreKernels    = restoreKernels
	Retarget          = retarget
	SetKernelPath     = setKernelPath
	SimdPath          = simdPath
	SlerpPoly         = slerpPoly
	SoaPadded         = soaPadded
	TagStripes        = tagStripes
	TsPaths           = tsPaths
	TurnAbout         = turnAbout
	Vec               = vec
)

type (
	HeldTag = heldTag
	Quat    = quat
	V3      = v3
)

const (
	FitTries   = fitTries
	FitRounds  = fitRounds
	StreamHead = streamHead
)

// Search is the encoder's search for the smallest packing over a packer
// a test gives.
type Search = searcher

func NewSearch(parents []int, pack func([]float64, func(float64)) (*RuntimeClip, []float64, []float32), bytes func(*RuntimeClip) int) Search {
	return searcher{parents, pack, bytes}
}

func (s Search) Fit(target float64, progress func(float64)) (*RuntimeClip, []float64, []float32, []float64) {
	return s.fit(target, progress)
}

func (s Search) Refine(target float64, share []float64, room []int, rc *RuntimeClip, worst []float64, errs []float32, progress func(float64)) (*RuntimeClip, []float64, []float32) {
	return s.refine(target, share, room, rc, worst, errs, progress)
}

func (x *RuntimeClip) FieldHeld() [3]heldTag                  { return x.held }
func (x *RuntimeClip) FieldKeyed() uint8                      { return x.keyed }
func (x *RuntimeClip) FieldPk() *packedClip                   { return x.pk }
func (x *RuntimeClip) FieldStill() uint8                      { return x.still }
func (x *SoAPose) FieldBuf() []float32                        { return x.buf }
func (x *SoAPose) FieldHeld() *[3]heldTag                     { return &x.held }
func (x *SoAPose) FieldN() int                                { return x.n }
func (x *SoAPose) FieldQw() []float32                         { return x.qw }
func (x *SoAPose) FieldQx() []float32                         { return x.qx }
func (x *SoAPose) FieldQy() []float32                         { return x.qy }
func (x *SoAPose) FieldQz() []float32                         { return x.qz }
func (x *SoAPose) FieldSx() []float32                         { return x.sx }
func (x *SoAPose) FieldSy() []float32                         { return x.sy }
func (x *SoAPose) FieldSz() []float32                         { return x.sz }
func (x *SoAPose) FieldTx() []float32                         { return x.tx }
func (x *SoAPose) FieldTy() []float32                         { return x.ty }
func (x *SoAPose) FieldTz() []float32                         { return x.tz }
func (x heldStripes) FieldIdentity() bool                     { return x.identity }
func (x *packedClip) FieldData() []byte                       { return x.data }
func (x *packedClip) FieldFrame() []frameTrack                { return x.frame }
func (x *packedClip) FieldLoose() [3][]int32                  { return x.loose }
func (x *packedClip) FieldTimeBits() uint8                    { return x.timeBits }
func (x *packedClip) FieldTimes() []float32                   { return x.times }
func (x *packedClip) FieldTracks() [3][]packedTrack           { return x.tracks }
func (x *packedTrack) FieldBits() uint8                       { return x.bits }
func (x *packedTrack) FieldCbits() [3]uint8                   { return x.cbits }
func (x *packedTrack) FieldDrop() uint8                       { return x.drop }
func (x *packedTrack) FieldEvery() bool                       { return x.every }
func (x *packedTrack) FieldLo() [3]float32                    { return x.lo }
func (x *packedTrack) FieldMask() bool                        { return x.mask }
func (x *packedTrack) FieldN() uint32                         { return x.n }
func (x *packedTrack) FieldOff() uint32                       { return x.off }
func (x *packedTrack) FieldRbits() uint8                      { return x.rbits }
func (x *packedTrack) FieldStep() [3]float32                  { return x.step }
func (x *packedTrack) FieldToff() uint32                      { return x.toff }
func (x *packedTrack) FieldXyz() bool                         { return x.xyz }
func (x *packedTrack) FieldZero() bool                        { return x.zero }
func (x *quat) FieldW() float32                               { return x.w }
func (x *quat) FieldX() float32                               { return x.x }
func (x *quat) FieldY() float32                               { return x.y }
func (x *quat) FieldZ() float32                               { return x.z }
func (x *v3) FieldX() float32                                 { return x.x }
func (x *v3) FieldY() float32                                 { return x.y }
func (x *v3) FieldZ() float32                                 { return x.z }
func (x *LookAtJob) RestForward() v3                          { return x.restForward() }
func (x *RuntimeClip) SeekStream(p0 float32, p1 []float32)    { x.seekStream(p0, p1) }
func (x *SoAPose) CopyJoint(p0 int, p1 *SoAPose)              { x.copyJoint(p0, p1) }
func (x *SoAPose) Stripes(p0 Path) []float32                  { return x.stripes(p0) }
func (x *packedClip) KeyTime(p0 *packedTrack, p1 int) float32 { return x.keyTime(p0, p1) }
func (x *packedTrack) KeyBits() uint32                        { return x.keyBits() }
func (x quat) Rotate(p0 v3) v3                                { return x.rotate(p0) }
func (x v3) Dot(p0 v3) float32                                { return x.dot(p0) }
func (x v3) Len() float32                                     { return x.len() }
func (x v3) Scale(p0 float32) v3                              { return x.scale(p0) }
func (x v3) Sub(p0 v3) v3                                     { return x.sub(p0) }
func (x v3) Unit() (v3, float32)                              { return x.unit() }

// SetClipTags sets the count newClipTag numbers clips from and returns
// the count it held.
func SetClipTags(n uint32) uint32 { return clipTags.Swap(n) }

// V3Of is the v3 (x, y, z).
func V3Of(x, y, z float32) V3 { return v3{x, y, z} }

// IdentityQuat is the quat of no turn.
var IdentityQuat = quat{w: 1}
