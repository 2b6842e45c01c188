#version 410 core
// HUD overlay coverage. Kind 0 reads the R8 glyph atlas (its solid block
// for rectangles); kinds 1 and 2 compute an antialiased edge analytically,
// because a disc or a slanted line drawn from the nearest-filtered atlas
// would have stair-stepped edges. The colour is written as given: the
// target holds sRGB-encoded bytes and no conversion happens on the way.

in vec2 vUV;
flat in vec2 vShape;
flat in vec4 vColor;

uniform sampler2D uAtlas;             // R8 coverage, nearest filtering

out vec4 fragColor;

void main() {
    float coverage;
    if (vShape.y < 0.5) {
        coverage = texture(uAtlas, vUV).r;
    } else if (vShape.y < 1.5) {
        // Disc: vUV is the offset from the centre, vShape.x the radius.
        coverage = clamp(vShape.x + 0.5 - length(vUV), 0.0, 1.0);
    } else {
        // Line: vUV.x is the distance across the line, vShape.x half its width.
        coverage = clamp(vShape.x + 0.5 - abs(vUV.x), 0.0, 1.0);
    }
    fragColor = vec4(vColor.rgb, vColor.a * coverage);
}
