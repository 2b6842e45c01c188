// Package session is the viewer as a user drives it, without the window:
// a character and its view (scene), the key map's state and the HUD (ui),
// and the offscreen modes (-screenshot, -keys, -record, -sheet, -stats)
// that run the same frames as the window. The window, its GL context and
// the flags are cmd/viewer's.
package session
