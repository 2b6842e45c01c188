// Package asset prepares models after loading: the built-in assets
// (Load), clips retargeted from other files (ImportClips), and the
// runtime clips a character plays, compressed (CompressClips) or as
// loaded (RuntimeClips), which it owns: the loader makes the model, asset
// makes what plays from it. It touches no GL.
package asset
