// Package graph drives anim's jobs: specs and their JSON, blend trees and
// spaces, action state machines and layers, run by a Controller that owns
// its character's one clock; a Crowd runs many controllers on all cores.
package graph
