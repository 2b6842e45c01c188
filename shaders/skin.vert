#version 410 core
// Four-weight linear blend skinning. The renderer inserts
// "#define MAX_JOINTS n" after the version line, n chosen from
// GL_MAX_UNIFORM_BLOCK_SIZE.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUV;
layout(location = 3) in uvec4 aJoints;
layout(location = 4) in vec4 aWeights;
layout(location = 5) in vec4 aColor;    // COLOR_0, white when absent
layout(location = 6) in vec2 aUV1;    // TEXCOORD_1, (0, 0) when absent
layout(location = 7) in vec4 aTangent; // TANGENT, zero when absent

// Each palette entry is an affine 3x4 matrix as three rows: the fourth row
// is always (0 0 0 1), so storing it would only cost joints per block.
#ifdef INSTANCED
// One draw for every member of a crowd (the renderer compiles this file
// again with "#define INSTANCED"): instance gl_InstanceID draws member
// uMembers[gl_InstanceID]. uInstances holds every member's palette, its
// 3·uInstJoints rows member after member, then from texel uInstExtras
// every member's extras, uInstExtraTexels each: its offset (xyz, added
// after skinning) and its morph weights, four a texel.
uniform samplerBuffer uInstances;
uniform isamplerBuffer uMembers;
uniform int uInstJoints;
uniform int uInstExtras;
uniform int uInstExtraTexels;
int instanceMember;  // set first thing in main
vec4 paletteRow(uint k) { return texelFetch(uInstances, instanceMember * 3 * uInstJoints + int(k)); }
int instanceExtras() { return uInstExtras + instanceMember * uInstExtraTexels; }
#else
layout(std140) uniform Palette {
    vec4 uRows[3 * MAX_JOINTS];
};
vec4 paletteRow(uint k) { return uRows[k]; }
#endif

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
#ifdef INSTANCED
    instanceMember = texelFetch(uMembers, gl_InstanceID).r;
#endif
    uvec4 j = aJoints * 3u;
    vec4 w = aWeights;
    vec4 r0 = w.x * paletteRow(j.x) + w.y * paletteRow(j.y) + w.z * paletteRow(j.z) + w.w * paletteRow(j.w);
    vec4 r1 = w.x * paletteRow(j.x + 1u) + w.y * paletteRow(j.y + 1u) + w.z * paletteRow(j.z + 1u) + w.w * paletteRow(j.w + 1u);
    vec4 r2 = w.x * paletteRow(j.x + 2u) + w.y * paletteRow(j.y + 2u) + w.z * paletteRow(j.z + 2u) + w.w * paletteRow(j.w + 2u);
    // A vertex without weight stays at its bind position.
    if (w == vec4(0.0)) {
        r0 = vec4(1.0, 0.0, 0.0, 0.0);
        r1 = vec4(0.0, 1.0, 0.0, 0.0);
        r2 = vec4(0.0, 0.0, 1.0, 0.0);
    }

    vec3 mp = aPosition;
    vec3 mn = aNormal;
    morph(mp, mn);
    vec4 p = vec4(mp, 1.0);
    vec3 world = vec3(dot(r0, p), dot(r1, p), dot(r2, p));

    // Normals transform by the inverse transpose of the blended 3x3 part.
    // Its cofactor matrix is det(M) times that, needs no division, and is
    // exact under non-uniform scale; the sign keeps mirrored joints facing
    // out, and normalization removes the determinant's magnitude.
    mat3 m = transpose(mat3(r0.xyz, r1.xyz, r2.xyz));
    mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
    float det = dot(m[0], cof[0]);
    vec3 n = cof * mn * (det < 0.0 ? -1.0 : 1.0);

    // Root motion's rigid transform: rotation and translation, no scale.
    world = (uModel * vec4(world, 1.0)).xyz;
#ifdef INSTANCED
    world += texelFetch(uInstances, instanceExtras()).xyz;
#endif
    n = mat3(uModel) * n;

    // A mirroring m mirrors the tangent frame: n × t of the mirrored n and
    // t is the mirror image of the bitangent reversed, so the handedness
    // w turns with the determinant.
    vTangent = vec4(mat3(uModel) * (m * aTangent.xyz), det < 0.0 ? -aTangent.w : aTangent.w);
    vNormal = n;
    vUV = aUV;
    vUV1 = aUV1;
    vColor = aColor;
    vSel = dot(aWeights, vec4(equal(aJoints, uvec4(uint(uSelJoint)))));
    world = toGround(world);
    vWorld = world;
    gl_Position = uViewProj * vec4(world, 1.0);
}
