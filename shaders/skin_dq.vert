#version 410 core
// Dual-quaternion skinning, for comparison with linear blend skinning: it
// keeps volume where LBS collapses (the candy-wrapper twist) but carries
// only rotation and translation, so joint scale is ignored. The renderer
// inserts "#define MAX_JOINTS n" after the version line.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUV;
layout(location = 3) in uvec4 aJoints;
layout(location = 4) in vec4 aWeights;
layout(location = 5) in vec4 aColor;
layout(location = 6) in vec2 aUV1;    // TEXCOORD_1, (0, 0) when absent
layout(location = 7) in vec4 aTangent; // TANGENT, zero when absent

// Each joint is a unit dual quaternion as two vec4: the real part (x y z w)
// then the dual part, with dual = 0.5 * translation * real.
layout(std140) uniform Palette {
    vec4 uDQ[2 * MAX_JOINTS];
};

#include "morph.glsl"
#include "ground.glsl"

uniform mat4 uViewProj;
uniform mat4 uModel;       // the rigid transform root motion moves the character by
uniform int uSelJoint;    // palette entry shown by the weights view, -1 for none

out vec3 vNormal;
out vec2 vUV;
out vec2 vUV1;
out vec4 vTangent;       // world tangent and bitangent sign, zero without TANGENT
out vec3 vWorld;
out vec4 vColor;
out float vSel;           // this vertex's weight on uSelJoint

void main() {
    uvec4 j = aJoints * 2u;
    // q and -q are the same rotation: blend every influence in the
    // hemisphere of the first weighted one (as skin.SkinDQ does), or the
    // blend can cancel out; a slot of no weight may hold any joint.
    vec4 r0 = aWeights.x != 0.0 ? uDQ[j.x]
            : aWeights.y != 0.0 ? uDQ[j.y]
            : aWeights.z != 0.0 ? uDQ[j.z] : uDQ[j.w];
    vec4 s = vec4(dot(r0, uDQ[j.x]) < 0.0 ? -1.0 : 1.0,
                  dot(r0, uDQ[j.y]) < 0.0 ? -1.0 : 1.0,
                  dot(r0, uDQ[j.z]) < 0.0 ? -1.0 : 1.0,
                  dot(r0, uDQ[j.w]) < 0.0 ? -1.0 : 1.0) * aWeights;
    vec4 br = s.x * uDQ[j.x] + s.y * uDQ[j.y] + s.z * uDQ[j.z] + s.w * uDQ[j.w];
    vec4 bd = s.x * uDQ[j.x + 1u] + s.y * uDQ[j.y + 1u] + s.z * uDQ[j.z + 1u] + s.w * uDQ[j.w + 1u];
    // A vertex without weight stays at its bind position.
    if (aWeights == vec4(0.0)) {
        br = vec4(0.0, 0.0, 0.0, 1.0);
        bd = vec4(0.0);
    }
    float len = length(br);
    br /= len;
    bd /= len;

    vec3 p = aPosition;
    vec3 mn = aNormal;
    morph(p, mn);
    p += 2.0 * cross(br.xyz, cross(br.xyz, p) + br.w * p);
    vec3 t = 2.0 * (br.w * bd.xyz - bd.w * br.xyz + cross(br.xyz, bd.xyz));
    vec3 world = p + t;
    vec3 n = mn + 2.0 * cross(br.xyz, cross(br.xyz, mn) + br.w * mn);

    // Root motion's rigid transform: rotation and translation, no scale.
    world = (uModel * vec4(world, 1.0)).xyz;
    n = mat3(uModel) * n;

    vec3 tg = aTangent.xyz + 2.0 * cross(br.xyz, cross(br.xyz, aTangent.xyz) + br.w * aTangent.xyz);
    vTangent = vec4(mat3(uModel) * tg, aTangent.w);
    vNormal = n;
    vUV = aUV;
    vUV1 = aUV1;
    vColor = aColor;
    vSel = dot(aWeights, vec4(equal(aJoints, uvec4(uint(uSelJoint)))));
    world = toGround(world);
    vWorld = world;
    gl_Position = uViewProj * vec4(world, 1.0);
}
