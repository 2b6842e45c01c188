// Package export writes what the viewer renders to files people share: an
// animated GIF with a palette fitted to its frames (GIF), and video
// through ffmpeg when it is installed (Video). It works on images and
// knows nothing of GL, the scene or the animation.
package export
