// Package app is the viewer as a user drives it, without the window: the
// loop's contract (Update, Draw, and the ui.Actions the keys call), reload
// and file watch, and the offscreen modes (-screenshot, -keys, -record,
// -sheet, -stats, -corpus) that run the same frames as the window. The
// window, its GL context and the flags are cmd/viewer's.
package app
