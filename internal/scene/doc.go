// Package scene is the viewer's world: the loaded model's characters with
// their animation engine state (Character), their meshes on the GPU with
// the draw lists and debug views (GPU), the camera and framing (View), and
// the crowd layout (Crowd). A frame is View.Update(dt) then View.Draw, into
// the window's framebuffer or an offscreen target, so tests drive it
// without a window. It imports anim, skin, render and gltfload; it knows
// nothing of windows, keys or the HUD's layout, which cmd/viewer and
// internal/ui own.
package scene
