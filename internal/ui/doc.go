// Package ui is the viewer's interaction model in plain Go: key events
// become state changes and requests, and the HUD is laid out from a
// snapshot of the viewer. No window or GL here, so all of it is unit-tested.
package ui
