#version 410 core
// HUD overlay: positions arrive in framebuffer pixels, origin top-left and
// y down, and are mapped to clip space here so the CPU side never builds a
// matrix.

layout(location = 0) in vec2 aPos;    // framebuffer pixels
layout(location = 1) in vec2 aUV;     // atlas coordinates, or shape-local pixels
layout(location = 2) in vec2 aShape;  // (extent in pixels, kind); see hud.frag
layout(location = 3) in vec4 aColor;  // sRGB-encoded RGBA, not premultiplied

uniform vec2 uViewport;               // framebuffer size in pixels

out vec2 vUV;
flat out vec2 vShape;
flat out vec4 vColor;

void main() {
    vUV = aUV;
    vShape = aShape;
    vColor = aColor;
    vec2 ndc = aPos / uViewport * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
