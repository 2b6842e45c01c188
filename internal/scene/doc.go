// Package scene is what is drawn of a character: its meshes on the GPU
// with the draw lists and debug views (GPU), the camera and framing
// (View), the overlays (skeleton, inspector axes, onion skins, trails),
// and the crowd's draws (Crowd). A frame is View.Update(dt) then
// View.Draw, into the window's framebuffer or an offscreen target, so
// tests drive it without a window. It poses through internal/character
// and draws through internal/render; it knows nothing of windows, keys or
// the HUD's layout, which cmd/viewer and internal/ui own.
package scene
