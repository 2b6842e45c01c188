package asset

// ProgressEvery lets the tests make CompressClips report progress at once.
var ProgressEvery = &progressEvery

// BakeSubsteps is bakeSubsteps, for the retargeting tests.
const BakeSubsteps = bakeSubsteps

// MovingRoot is movingRoot, for the tests of which root a retarget moves.
var MovingRoot = movingRoot
