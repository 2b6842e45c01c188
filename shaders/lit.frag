#version 410 core
// Base colour (factor x texture x vertex colour) lit by a directional key
// light and a sky/ground hemisphere ambient, in linear space, encoded to
// sRGB at the end; the base colour view draws it unlit. Alpha follows the
// material's mode: OPAQUE ignores it, MASK cuts at the cutoff, BLEND
// outputs it for blending.

in vec3 vNormal;
in vec2 vUV;
in vec3 vWorld;
in vec4 vColor;
in float vSel;

uniform vec4 uBaseColor;      // linear RGBA factor
uniform sampler2D uBaseTex;   // sRGB texture (white when the material has none)
uniform vec3 uLightDir;       // direction the light travels, unit length
uniform vec3 uEye;            // camera position, for the rim term
uniform mat3 uUVTransform;    // KHR_texture_transform of the base colour texture
uniform int uAlphaMode;       // 0 OPAQUE, 1 MASK, 2 BLEND
uniform float uAlphaCutoff;   // MASK's cutoff
uniform int uView;            // 0 shaded, 1 partitions (flat uTint), 2 weights of the selected joint, 3 base colour
uniform vec4 uTint;           // the draw's partition colour

out vec4 fragColor;

// srgb encodes linear colour with the sRGB transfer function (IEC
// 61966-2-1).
vec3 srgb(vec3 c) {
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

void main() {
    // A zero normal (glTF allows one; so does the interpolation between
    // opposite ones) is lit as facing the camera, never normalized to NaN.
    vec3 v = normalize(uEye - vWorld);
    float nl = length(vNormal);
    vec3 n = v;
    if (nl > 1e-30) {
        n = vNormal / nl;
        if (!gl_FrontFacing) {
            n = -n;
        }
    }
    vec4 base = uBaseColor * vColor * texture(uBaseTex, (uUVTransform * vec3(vUV, 1.0)).xy);
    if (uAlphaMode == 1 && base.a < uAlphaCutoff) {
        discard;
    }
    float alpha = uAlphaMode == 2 ? base.a : 1.0;
    if (uView == 3) {
        fragColor = vec4(srgb(clamp(base.rgb, 0.0, 1.0)), alpha);
        return;
    }
    if (uView == 1) {
        base = uTint;
    } else if (uView == 2) {
        // Blue (no weight) through green to red (full weight), in linear space.
        float w = clamp(vSel, 0.0, 1.0);
        base = vec4(mix(mix(vec3(0.02, 0.05, 0.6), vec3(0.05, 0.7, 0.05), clamp(w * 2.0, 0.0, 1.0)),
                        vec3(0.9, 0.05, 0.02), clamp(w * 2.0 - 1.0, 0.0, 1.0)), 1.0);
    }
    float key = max(dot(n, -uLightDir), 0.0);
    vec3 sky = vec3(0.42, 0.45, 0.52);
    vec3 ground = vec3(0.22, 0.20, 0.18);
    vec3 ambient = mix(ground, sky, 0.5 + 0.5 * n.y);
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.25;
    vec3 lit = base.rgb * (ambient + key * vec3(1.0, 0.97, 0.92)) + rim * vec3(0.6, 0.7, 0.9);
    fragColor = vec4(pow(clamp(lit, 0.0, 1.0), vec3(1.0 / 2.2)), alpha);
}
