// Package animtest holds the fixtures that anim's tests and graph's tests
// share: small skeletons and clips whose values are simple functions of
// time, the Blend2Palette-100 workload, and approximate comparisons.
// Only tests import it.
package animtest
