// Writes internal/gltfload/testdata/mikktspace_sphere.json: a UV sphere of
// unindexed triangles (positions, smooth normals, texture coordinates
// mirrored about u = 0 at its meridian x = 0, poles of coinciding corners)
// and the tangents MikkTSpace gives them, from the reference port
// (npm mikktspace, the Rust port of Morten Mikkelsen's mikktspace.c, built
// to WebAssembly): the expected frames of TestTangentsMatchMikkTSpace.
//
//   cd tools/mikkref && npm install mikktspace@1.1.1 && node make.js
//
// glTF's texture coordinates have v down the image, MikkTSpace's up: v
// goes in as 1 − v, and the w that comes out is glTF's (glTF-Transform
// instead passes v as it is and flips w, the same).
const fs = require('fs');
const path = require('path');
const { generateTangents } = require('mikktspace');

const rings = 6, segs = 8;
const vert = (i, j) => {
  const th = Math.PI * i / rings, ph = 2 * Math.PI * j / segs;
  const n = [Math.sin(th) * Math.cos(ph), Math.cos(th), Math.sin(th) * Math.sin(ph)];
  const u = Math.abs(2 * j / segs - 1), v = i / rings;
  return { p: n.map((c) => 2 * c), n, uv: [u, v] };
};
const pos = [], nrm = [], uv = [];
const put = (x) => { pos.push(...x.p); nrm.push(...x.n); uv.push(...x.uv); };
for (let i = 0; i < rings; i++) {
  for (let j = 0; j < segs; j++) {
    const a = vert(i, j), b = vert(i + 1, j), c = vert(i + 1, j + 1), d = vert(i, j + 1);
    put(a); put(b); put(c);
    put(a); put(c); put(d);
  }
}
const flipV = uv.map((x, k) => (k % 2 ? 1 - x : x));
const t = generateTangents(new Float32Array(pos), new Float32Array(nrm), new Float32Array(flipV));
const tan = Array.from(t);
const f32 = (a) => Array.from(new Float32Array(a));
const out = path.join(__dirname, '../../internal/gltfload/testdata/mikktspace_sphere.json');
fs.writeFileSync(out, JSON.stringify({ positions: f32(pos), normals: f32(nrm), uv: f32(uv), tangents: tan }) + '\n');
console.log(`${out}: ${pos.length / 3} corners`);
