#version 410 core
// The ground shadow pass (ground.glsl moved the vertices onto the ground):
// the background darkened, sRGB-encoded, which the renderer blends by the
// minimum. A masked material casts the shadow of what it keeps.

in vec2 vUV;
in vec2 vUV1;
in vec4 vColor;

uniform vec4 uBaseColor;     // linear RGBA factor
uniform sampler2D uBaseTex;  // white when the material has none
uniform mat3 uUVTransform;   // KHR_texture_transform of the base colour texture
uniform int uSets[5];        // coordinate set of the base colour texture first
uniform int uAlphaMode;      // 1 MASK
uniform float uAlphaCutoff;
uniform vec3 uShadowColor;

out vec4 fragColor;

void main() {
    if (uAlphaMode == 1) {
        float a = uBaseColor.a * vColor.a * texture(uBaseTex, (uUVTransform * vec3(uSets[0] == 1 ? vUV1 : vUV, 1.0)).xy).a;
        if (a < uAlphaCutoff) {
            discard;
        }
    }
    fragColor = vec4(uShadowColor, 1.0);
}
