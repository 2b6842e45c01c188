// Package character is one animated character without GL: a model, the
// controller that poses it (the clip browser or a spec) with its palettes,
// the domain operations the keys ask for (play, seek, choices, blend and
// morph weights, loop modes), root motion, ghost poses, and the pose dump.
// What is drawn of it, and how, is internal/scene's; which joint or morph
// panel the user looks at is internal/ui's.
package character
