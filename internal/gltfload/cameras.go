package gltfload

import "fmt"

// optional is ", name value", or "" for an absent value.
func optional(name string, v *float64) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf("%s %v", name, *v)
}

// addCamera adds the camera of glTF node ni, if it has one the viewer can
// look through; a camera it cannot use is reported and left out.
func (l *loader) addCamera(ni int) {
	nd := l.doc.Nodes[ni]
	if nd.Camera == nil {
		return
	}
	ci := *nd.Camera
	where := fmt.Sprintf("nodes[%d].camera", ni)
	if ci < 0 || ci >= len(l.doc.Cameras) || l.doc.Cameras[ci] == nil {
		l.issue("VIEWER_NOT_DRAWN", where, "cameras[%d] does not exist (%d cameras); not looked through", ci, len(l.doc.Cameras))
		return
	}
	c := l.doc.Cameras[ci]
	cam := Camera{Node: ni, Index: ci, Name: c.Name}
	if cam.Name == "" {
		cam.Name = nd.Name
	}
	if cam.Name == "" {
		cam.Name = fmt.Sprintf("camera %d", ci)
	}
	switch {
	case c.Perspective != nil:
		p := c.Perspective
		cam.YFov, cam.ZNear = float32(p.Yfov), float32(p.Znear)
		if p.AspectRatio != nil {
			cam.Aspect = float32(*p.AspectRatio)
		}
		if p.Zfar != nil {
			cam.ZFar = float32(*p.Zfar)
		}
		if !(cam.YFov > 0 && cam.YFov < 3.14159 && cam.ZNear > 0 && cam.Aspect >= 0 && (cam.ZFar == 0 || cam.ZFar > cam.ZNear)) {
			l.issue("VIEWER_NOT_DRAWN", fmt.Sprintf("cameras[%d].perspective", ci), "yfov %v, znear %v%s%s: not a camera to look through", p.Yfov, p.Znear, optional(", zfar", p.Zfar), optional(", aspectRatio", p.AspectRatio))
			return
		}
	case c.Orthographic != nil:
		o := c.Orthographic
		cam.Orthographic = true
		cam.XMag, cam.YMag, cam.ZNear, cam.ZFar = float32(o.Xmag), float32(o.Ymag), float32(o.Znear), float32(o.Zfar)
		if !(cam.XMag != 0 && cam.YMag != 0 && cam.ZNear >= 0 && cam.ZFar > cam.ZNear) {
			l.issue("VIEWER_NOT_DRAWN", fmt.Sprintf("cameras[%d].orthographic", ci), "xmag %v, ymag %v, znear %v, zfar %v: not a camera to look through", o.Xmag, o.Ymag, o.Znear, o.Zfar)
			return
		}
	default:
		l.issue("VIEWER_NOT_DRAWN", fmt.Sprintf("cameras[%d]", ci), "neither perspective nor orthographic; not looked through")
		return
	}
	l.model.Cameras = append(l.model.Cameras, cam)
}
