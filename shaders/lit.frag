#version 410 core
// glTF's metallic-roughness material (base colour × texture × vertex
// colour, metallic, roughness, normal, occlusion, emissive) lit in linear
// space and encoded to sRGB at the end. The viewer's look lights it by an
// environment (a prefiltered radiance cube map and spherical-harmonic
// irradiance) and a key light, tone mapped; the reference stage lights it
// as three.js does; the debug views show one input. Alpha follows the
// material's mode: OPAQUE ignores it, MASK cuts at the cutoff, BLEND
// outputs it for blending.

in vec3 vNormal;
in vec2 vUV;
in vec2 vUV1;
in vec4 vTangent;
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
// The material maps: metallic-roughness (G roughness, B metalness),
// normal, occlusion (R), emissive (sRGB); their KHR_texture_transform and
// whether the material has each.
uniform sampler2D uMaps[4];
uniform mat3 uMapUV[4];
uniform int uHasMap[4];
uniform vec2 uMetalRough;      // metallic and roughness factors
uniform vec2 uNormalOcclusion; // normal scale, occlusion strength
uniform vec3 uEmissive;        // linear emissive factor
uniform int uFlat;             // the primitive has no NORMAL: each posed triangle's own normal
uniform int uUnlit;            // KHR_materials_unlit: the shaded view shows the base colour
uniform int uLighting;         // 0 the viewer's look, 1 the reference stage (-lighting three)
uniform sampler2D uDFG;        // split-sum (A, B): roughness along x, n·v along y
uniform int uSets[5];
// The file's punctual lights (KHR_lights_punctual), in either stage: kind 0 directional, 1 point, 2 spot; position and direction the
// light shines in (world), linear colour times intensity, range (0: none)
// and the spot's cosines (outer, inner).
#define MAX_LIGHTS 8
uniform int uLightCount;
uniform int uLightKind[MAX_LIGHTS];
uniform vec3 uLightPos[MAX_LIGHTS];
uniform vec3 uLightDirs[MAX_LIGHTS];
uniform vec3 uLightColor[MAX_LIGHTS];
uniform float uLightRange[MAX_LIGHTS];
uniform vec2 uLightCone[MAX_LIGHTS];          // coordinate set (0, 1) of the base colour texture, then of each map
// 0 shaded, 1 partitions (flat uTint), 2 weights of the selected joint,
// 3 base colour; the inputs of glTF's material model: 4 shading normal,
// 5 metallic, 6 roughness, 7 occlusion, 8 emissive, 9 alpha.
uniform int uView;
// The viewer's look: the environment's radiance, prefiltered for GGX
// (level k holds perceptual roughness k / uEnvMaxLod), its irradiance's
// spherical-harmonic coefficients (L00, L1-1, L10, L11, L2-2, L2-1, L20,
// L21, L22), the exposure's factor and the tone mapping (0 PBR Neutral,
// 1 ACES, 2 none).
uniform samplerCube uEnv;
uniform float uEnvMaxLod;
uniform vec3 uSH[9];
uniform float uExposure;
uniform int uTonemap;
uniform vec4 uTint;           // the draw's partition colour

out vec4 fragColor;

// srgb encodes linear colour with the sRGB transfer function (IEC
// 61966-2-1).
vec3 srgb(vec3 c) {
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// mapAt samples material map k at the fragment's transformed coordinates.
vec4 mapAt(int k) {
    vec2 uv = (uMapUV[k] * vec3(uSets[k + 1] == 1 ? vUV1 : vUV, 1.0)).xy;
    if (k == 0) return texture(uMaps[0], uv);
    if (k == 1) return texture(uMaps[1], uv);
    if (k == 2) return texture(uMaps[2], uv);
    return texture(uMaps[3], uv);
}

// shadingNormal is n perturbed by the normal map, in the frame of the
// vertex tangent (TANGENT; bitangent n × tangent times its w), or without
// one in a frame from the screen-space derivatives of position and
// texture coordinates: tangent along increasing u, bitangent n × tangent,
// reversed where that would run along increasing v (MikkTSpace's
// handedness, glTF's convention). On a back face n arrives reversed, and
// the frame turns with it, tangent and bitangent too (as
// glTF-Sample-Viewer and three.js turn it), so that the back of a mapped
// bump is a dent.
vec3 shadingNormal(vec3 n) {
    if (uHasMap[1] == 0) {
        return n;
    }
    float face = gl_FrontFacing ? 1.0 : -1.0;
    vec3 vt = vTangent.xyz - n * dot(n, vTangent.xyz);
    if (dot(vt, vt) > 1e-12) {
        vec3 t = normalize(vt) * face;
        vec3 b = cross(n, t) * face * (vTangent.w < 0.0 ? -1.0 : 1.0);
        vec3 m = mapAt(1).xyz * 2.0 - 1.0;
        m.xy *= uNormalOcclusion.x;
        return normalize(mat3(t, b, n) * m);
    }
    vec2 uv = (uMapUV[1] * vec3(uSets[2] == 1 ? vUV1 : vUV, 1.0)).xy;
    vec3 dpx = dFdx(vWorld), dpy = dFdy(vWorld);
    vec2 dux = dFdx(uv), duy = dFdy(uv);
    float det = dux.x * duy.y - duy.x * dux.y;
    if (abs(det) < 1e-12) {
        return n;
    }
    vec3 t = (duy.y * dpx - dux.y * dpy) / det;
    t = t - n * dot(n, t);
    if (dot(t, t) < 1e-24) {
        return n;
    }
    // MikkTSpace's handedness: the bitangent points against v, whichever
    // way the coordinates run (mirrored UVs flip it).
    t = normalize(t);
    vec3 pv = (dux.x * dpy - duy.x * dpx) / det;
    float w = dot(cross(n * face, t), pv) > 0.0 ? -1.0 : 1.0;
    t *= face;
    vec3 b = cross(n, t) * face * w;
    vec3 m = mapAt(1).xyz * 2.0 - 1.0;
    m.xy *= uNormalOcclusion.x;
    return normalize(mat3(t, b, n) * m);
}

const float PI = 3.14159265358979;

// schlick is Schlick's Fresnel term with the spherical-Gaussian power of
// Karis (2013), as the reference renderer evaluates it.
vec3 schlick(vec3 f0, float f90, float vh) {
    float f = exp2((-5.55473 * vh - 6.98316) * vh);
    return f0 * (1.0 - f) + f90 * f;
}

// referenceStage lights glTF's metallic-roughness material as three.js
// r187's MeshStandardMaterial is lit by HemisphereLight(0xffffff,
// 0x444444, 1.5) and DirectionalLight(0xffffff, 2.0) from (1, 2, 3)
// towards the origin, without environment or tone mapping: GGX specular
// (height-correlated Smith visibility) with multiple-scattering
// compensation from the split-sum table, Lambert diffuse weighted by
// (1 − F) of a dielectric, the hemisphere's irradiance as diffuse only,
// less the energy the lobe reflects, occlusion on it, and emission. n is
// the shading normal, v the direction to the eye.
vec3 direct(vec3 l, vec3 radiance, vec3 n, vec3 v, vec3 diffuse, vec3 f0, float rough, vec3 compensation);

// fileLights is the light the file's punctual lights bring: directional,
// point and spot (inverse-square falloff windowed to zero at the range,
// smooth between the spot's cone cosines), as KHR_lights_punctual
// defines them.
vec3 fileLights(vec3 n, vec3 v, vec3 diffuse, vec3 f0, float rough, vec3 compensation) {
    vec3 lit = vec3(0.0);
    for (int i = 0; i < uLightCount; i++) {
        vec3 l = -uLightDirs[i];
        vec3 radiance = uLightColor[i];
        if (uLightKind[i] != 0) {
            vec3 d = uLightPos[i] - vWorld;
            float dist = length(d);
            l = d / max(dist, 1e-6);
            radiance *= 1.0 / max(dist * dist, 0.01);
            if (uLightRange[i] > 0.0) {
                radiance *= pow(clamp(1.0 - pow(dist / uLightRange[i], 4.0), 0.0, 1.0), 2.0);
            }
            if (uLightKind[i] == 2) {
                radiance *= smoothstep(uLightCone[i].x, uLightCone[i].y, dot(-l, uLightDirs[i]));
            }
        }
        lit += direct(l, radiance, n, v, diffuse, f0, rough, compensation);
    }
    return lit;
}

vec3 referenceStage(vec3 base, vec3 ng, vec3 v) {
    vec4 mr = uHasMap[0] != 0 ? mapAt(0) : vec4(1.0);
    float metal = uMetalRough.x * mr.b;
    vec3 dn = max(abs(dFdx(ng)), abs(dFdy(ng)));
    float rough = min(max(uMetalRough.y * mr.g, 0.045) + max(max(dn.x, dn.y), dn.z), 1.0);
    vec3 n = shadingNormal(ng);
    vec3 diffuse = base * (1.0 - metal);
    vec3 f0 = mix(vec3(0.04), base, metal);
    float nv = clamp(dot(n, v), 0.0, 1.0);
    vec2 dfg = texture(uDFG, vec2(rough, nv)).rg;
    vec3 compensation = 1.0 + f0 * (1.0 / (dfg.x + dfg.y) - 1.0);

    vec3 lit = direct(normalize(vec3(1.0, 2.0, 3.0)), vec3(2.0), n, v, diffuse, f0, rough, compensation);
    lit += fileLights(n, v, diffuse, f0, rough, compensation);

    // The hemisphere: white above, 0x444444 (sRGB, 0.0578 linear) below.
    vec3 sky = vec3(1.5), ground = vec3(1.5 * 0.05781);
    vec3 hemi = mix(ground, sky, 0.5 * n.y + 0.5);
    float single = 0.04 * dfg.x + dfg.y;
    float ems = 1.0 - (dfg.x + dfg.y);
    float favg = 0.04 + 0.96 / 21.0;
    float multi = single * favg / (1.0 - ems * favg) * ems;
    vec3 indirect = hemi * diffuse / PI * (1.0 - single - multi);
    float ao = uHasMap[2] != 0 ? mapAt(2).r : 1.0;
    lit += indirect * (1.0 + uNormalOcclusion.y * (ao - 1.0));
    lit += uEmissive * (uHasMap[3] != 0 ? mapAt(3).rgb : vec3(1.0));
    return lit;
}

// direct is the light a direction l brings with radiance (colour times
// intensity times falloff) to the surface: GGX specular with multiple-
// scattering compensation, and Lambert diffuse less a dielectric's
// Fresnel.
vec3 direct(vec3 l, vec3 radiance, vec3 n, vec3 v, vec3 diffuse, vec3 f0, float rough, vec3 compensation) {
    vec3 irradiance = clamp(dot(n, l), 0.0, 1.0) * radiance;
    vec3 h = normalize(l + v);
    float nv = clamp(dot(n, v), 0.0, 1.0);
    float nl = clamp(dot(n, l), 0.0, 1.0), nh = clamp(dot(n, h), 0.0, 1.0), vh = clamp(dot(v, h), 0.0, 1.0);
    float a2 = pow(max(rough, 0.045), 4.0);
    float vis = 0.5 / max(nl * sqrt(a2 + (1.0 - a2) * nv * nv) + nv * sqrt(a2 + (1.0 - a2) * nl * nl), 1e-6);
    float d = a2 / (PI * pow(nh * nh * (a2 - 1.0) + 1.0, 2.0));
    return irradiance * schlick(f0, 1.0, vh) * (vis * d) * compensation
         + irradiance * diffuse / PI * (1.0 - schlick(vec3(0.04), 1.0, vh));
}

// irradiance is the light arriving at a surface facing n from the
// environment, E(n) = ∫ L(ω) max(n·ω, 0) dω, from the nine coefficients
// convolved with the clamped cosine (Ramamoorthi and Hanrahan 2001, eq. 13).
vec3 irradiance(vec3 n) {
    const float c1 = 0.429043, c2 = 0.511664, c3 = 0.743125, c4 = 0.886227, c5 = 0.247708;
    float x = n.x, y = n.y, z = n.z;
    return c1 * uSH[8] * (x * x - y * y) + c3 * uSH[6] * z * z + c4 * uSH[0] - c5 * uSH[6]
         + 2.0 * c1 * (uSH[4] * x * y + uSH[7] * x * z + uSH[5] * y * z)
         + 2.0 * c2 * (uSH[3] * x + uSH[1] * y + uSH[2] * z);
}

// keyLight is the viewer's key light: the direction it travels comes from
// uLightDir, white, radiance keyRadiance.
const float keyRadiance = 2.0;

// viewerLook lights the material by the environment (split-sum specular
// with multiple-scattering compensation, Lambert diffuse from the
// irradiance, occlusion on both) and the key light, plus emission. ng is
// the geometric normal, v the direction to the eye.
vec3 viewerLook(vec3 base, vec3 ng, vec3 v) {
    vec4 mr = uHasMap[0] != 0 ? mapAt(0) : vec4(1.0);
    float metal = clamp(uMetalRough.x * mr.b, 0.0, 1.0);
    float rough = clamp(uMetalRough.y * mr.g, 0.0, 1.0);
    vec3 n = shadingNormal(ng);
    vec3 diffuse = base * (1.0 - metal);
    vec3 f0 = mix(vec3(0.04), base, metal);
    float nv = clamp(dot(n, v), 1e-4, 1.0);
    vec2 dfg = texture(uDFG, vec2(rough, nv)).rg;
    vec3 compensation = 1.0 + f0 * (1.0 / max(dfg.x + dfg.y, 1e-4) - 1.0);

    vec3 r = reflect(-v, n);
    vec3 specular = textureLod(uEnv, r, rough * uEnvMaxLod).rgb * (f0 * dfg.x + dfg.y) * compensation;
    // Diffuse takes what the specular lobe leaves of a dielectric.
    vec3 ambient = irradiance(n) / PI * diffuse * (1.0 - (0.04 * dfg.x + dfg.y));
    float ao = uHasMap[2] != 0 ? mapAt(2).r : 1.0;
    vec3 lit = (ambient + specular) * (1.0 + uNormalOcclusion.y * (ao - 1.0));
    lit += direct(-uLightDir, vec3(keyRadiance), n, v, diffuse, f0, max(rough, 0.045), compensation);
    lit += fileLights(n, v, diffuse, f0, max(rough, 0.045), compensation);
    lit += uEmissive * (uHasMap[3] != 0 ? mapAt(3).rgb : vec3(1.0));
    return lit;
}

// neutral is the Khronos PBR Neutral tone mapping (Khronos 3D Commerce,
// 2024): an offset for the darkest channel, colours below 0.76 kept,
// brighter ones compressed towards a peak of 1 and desaturated by 0.15.
vec3 neutral(vec3 c) {
    const float start = 0.8 - 0.04, desaturation = 0.15;
    float x = min(c.r, min(c.g, c.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    c -= offset;
    float peak = max(c.r, max(c.g, c.b));
    if (peak < start) {
        return c;
    }
    const float d = 1.0 - start;
    float newPeak = 1.0 - d * d / (peak + d - start);
    c *= newPeak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    return mix(c, vec3(newPeak), g);
}

// aces is Stephen Hill's fit of the ACES RRT and ODT: into the fit's
// space, the rational curve, back, with the 1/0.6 exposure of his sRGB
// version.
vec3 aces(vec3 c) {
    const mat3 into = mat3(0.59719, 0.07600, 0.02840, 0.35458, 0.90834, 0.13383, 0.04823, 0.01566, 0.83777);
    const mat3 back = mat3(1.60475, -0.10208, -0.00327, -0.53108, 1.10813, -0.07276, -0.07367, -0.00605, 1.07602);
    c = into * (c / 0.6);
    c = (c * (c + 0.0245786) - 0.000090537) / (c * (0.983729 * c + 0.4329510) + 0.238081);
    return back * c;
}

// display maps the viewer's look's light to sRGB display values.
vec3 display(vec3 c) {
    c *= uExposure;
    if (uTonemap == 0) {
        c = neutral(c);
    } else if (uTonemap == 1) {
        c = aces(c);
    }
    return srgb(clamp(c, 0.0, 1.0));
}

void main() {
    // A zero normal (glTF allows one; so does the interpolation between
    // opposite ones) is lit as facing the camera, never normalized to NaN.
    vec3 v = normalize(uEye - vWorld);
    float nl = length(vNormal);
    vec3 n = v;
    if (uFlat == 1) {
        // glTF's flat normals of the triangle as posed, towards the eye.
        vec3 fn = cross(dFdx(vWorld), dFdy(vWorld));
        if (dot(fn, fn) > 1e-30) {
            n = normalize(fn);
            n = dot(n, v) < 0.0 ? -n : n;
        }
    } else if (nl > 1e-30) {
        n = vNormal / nl;
        if (!gl_FrontFacing) {
            n = -n;
        }
    }
    vec4 base = uBaseColor * vColor * texture(uBaseTex, (uUVTransform * vec3(uSets[0] == 1 ? vUV1 : vUV, 1.0)).xy);
    if (uAlphaMode == 1 && base.a < uAlphaCutoff) {
        discard;
    }
    float alpha = uAlphaMode == 2 ? base.a : 1.0;
    if (uView == 3) {
        fragColor = vec4(srgb(clamp(base.rgb, 0.0, 1.0)), alpha);
        return;
    }
    if (uView >= 4) {
        // The inputs as glTF-Sample-Viewer's debug channels show them:
        // data as stored, colours sRGB-encoded, opaque.
        vec3 c;
        vec4 mr = uHasMap[0] != 0 ? mapAt(0) : vec4(1.0);
        if (uView == 4) {
            c = shadingNormal(n) * 0.5 + 0.5;
        } else if (uView == 5) {
            c = vec3(uMetalRough.x * mr.b);
        } else if (uView == 6) {
            c = vec3(uMetalRough.y * mr.g);
        } else if (uView == 7) {
            float ao = uHasMap[2] != 0 ? mapAt(2).r : 1.0;
            c = vec3(1.0 + uNormalOcclusion.y * (ao - 1.0));
        } else if (uView == 8) {
            vec3 e = uHasMap[3] != 0 ? mapAt(3).rgb : vec3(1.0);
            c = srgb(clamp(uEmissive * e, 0.0, 1.0));
        } else {
            c = vec3(uAlphaMode == 0 ? 1.0 : base.a);
        }
        fragColor = vec4(clamp(c, 0.0, 1.0), 1.0);
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
    if (uUnlit == 1 && uView == 0) {
        // As authored: neither lit nor tone mapped, in either stage.
        fragColor = vec4(srgb(clamp(base.rgb, 0.0, 1.0)), alpha);
        return;
    }
    if (uLighting == 1 && uView == 0) {
        fragColor = vec4(srgb(clamp(referenceStage(base.rgb, n, v), 0.0, 1.0)), alpha);
        return;
    }
    if (uView != 0) {
        // The partitions and weights views: flat colours under the key
        // light and a sky/ground ambient, untouched by the material.
        float key = max(dot(n, -uLightDir), 0.0);
        vec3 ambient = mix(vec3(0.22, 0.20, 0.18), vec3(0.42, 0.45, 0.52), 0.5 + 0.5 * n.y);
        fragColor = vec4(srgb(clamp(base.rgb * (ambient + key * vec3(0.8)), 0.0, 1.0)), alpha);
        return;
    }
    fragColor = vec4(display(viewerLook(base.rgb, n, v)), alpha);
}
