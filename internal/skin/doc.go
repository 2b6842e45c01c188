// Package skin is the CPU reference for linear blend skinning: the numbers
// the GPU must reproduce, and the positions -dump-pose reports. It reads
// the same std140 palette that the renderer uploads.
package skin
