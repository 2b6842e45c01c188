package asset

// ProgressEvery lets the tests make CompressClips report progress at once.
var ProgressEvery = &progressEvery

// BakeSubsteps is bakeSubsteps, for the retargeting tests.
const BakeSubsteps = bakeSubsteps
