// Morph targets (see internal/render/morph.go): displacements in a buffer
// texture, 2·n texels per target (positions, then normals, of its n
// vertices), and this draw's targets of non-zero weight as (index,
// weight) pairs after a head of (count, n). The renderer inserts
// "#define MAX_MORPH_PAIRS m" (two pairs per vec4). Instanced draws read
// their weights from the member's record instead.
uniform samplerBuffer uMorphDeltas;
#ifdef INSTANCED
// An instanced draw reads every target's weight from the member's record
// (skin.vert): uInstTargets targets of uInstVerts vertices.
uniform int uInstTargets;
uniform int uInstVerts;

void morph(inout vec3 p, inout vec3 n) {
    int base = instanceExtras() + 1;
    for (int t = 0; t < uInstTargets; t++) {
        float w = texelFetch(uInstances, base + (t >> 2))[t & 3];
        if (w != 0.0) {
            int at = t * 2 * uInstVerts + gl_VertexID;
            p += w * texelFetch(uMorphDeltas, at).xyz;
            n += w * texelFetch(uMorphDeltas, at + uInstVerts).xyz;
        }
    }
}
#else
layout(std140) uniform Morph {
    vec4 uMorphHead;
    vec4 uMorphPairs[MAX_MORPH_PAIRS];
};

// morph adds the weighted displacements of this vertex to p and n.
void morph(inout vec3 p, inout vec3 n) {
    int count = int(uMorphHead.x);
    int verts = int(uMorphHead.y);
    for (int i = 0; i < count; i++) {
        vec4 two = uMorphPairs[i >> 1];
        vec2 tw = (i & 1) == 0 ? two.xy : two.zw;
        int at = int(tw.x) * 2 * verts + gl_VertexID;
        p += tw.y * texelFetch(uMorphDeltas, at).xyz;
        n += tw.y * texelFetch(uMorphDeltas, at + verts).xyz;
    }
}
#endif
