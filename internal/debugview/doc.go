// Package debugview names the viewer's debug views: what the fragments
// show. The renderer draws them, -view and the V key pick them, the HUD
// labels them; this small package lets all of those share one enum
// without depending on one another (the HUD's package stays free of GL).
package debugview
