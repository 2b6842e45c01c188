// Writes internal/gltfload/testdata/mikktspace_sphere.json,
// mikktspace_rough.json and mikktspace_seam.json, meshes of unindexed triangles (positions, normals,
// texture coordinates) with the tangents MikkTSpace gives them, from the
// reference port (npm mikktspace, the Rust port of Morten Mikkelsen's
// mikktspace.c, built to WebAssembly): the expected frames of
// TestTangentsMatchMikkTSpace.
//
// The sphere: a UV sphere, smooth normals, texture coordinates mirrored
// about u = 0 at its meridian x = 0, poles of coinciding corners.
// The rough sheet: a height field of random heights (a fixed seed), its
// texture mirrored about the middle column, a seam where v jumps by 0.5
// halfway up, a hard edge (one cell's corners with their own normal), a
// strip of cells with no uv area welded to their neighbours, a cell with
// uvs of its own, two triangles on two points, one triangle wound against
// its neighbours, in shuffled order, written twice: with a triangle of no
// uv area first and a fin on its first edge (three triangles on one edge)
// last, and with a corner on the mirror's column first and a
// triangle on two points at that corner's vertex last (the seam file).
//
//   cd tools/mikkref && npm install mikktspace@1.1.1 && node make.js
//
// glTF's texture coordinates have v down the image, MikkTSpace's up: v
// goes in as 1 − v, and the w that comes out is glTF's (glTF-Transform
// instead passes v as it is and flips w, the same).
const fs = require('fs');
const path = require('path');
const { generateTangents } = require('mikktspace');

// write stores the corners and MikkTSpace's tangents for them.
function write(name, pos, nrm, uv) {
  const flipV = uv.map((x, k) => (k % 2 ? 1 - x : x));
  const t = generateTangents(new Float32Array(pos), new Float32Array(nrm), new Float32Array(flipV));
  const f32 = (a) => Array.from(new Float32Array(a));
  const out = path.join(__dirname, '../../internal/gltfload/testdata', name);
  fs.writeFileSync(out, JSON.stringify({ positions: f32(pos), normals: f32(nrm), uv: f32(uv), tangents: Array.from(t) }) + '\n');
  console.log(`${out}: ${pos.length / 3} corners`);
}

const rings = 6, segs = 8;
const vert = (i, j) => {
  const th = Math.PI * i / rings, ph = 2 * Math.PI * j / segs;
  const n = [Math.sin(th) * Math.cos(ph), Math.cos(th), Math.sin(th) * Math.sin(ph)];
  const u = Math.abs(2 * j / segs - 1), v = i / rings;
  return { p: n.map((c) => 2 * c), n, uv: [u, v] };
};
{
const pos = [], nrm = [], uv = [];
const put = (x) => { pos.push(...x.p); nrm.push(...x.n); uv.push(...x.uv); };
for (let i = 0; i < rings; i++) {
  for (let j = 0; j < segs; j++) {
    const a = vert(i, j), b = vert(i + 1, j), c = vert(i + 1, j + 1), d = vert(i, j + 1);
    put(a); put(b); put(c);
    put(a); put(c); put(d);
  }
}
write('mikktspace_sphere.json', pos, nrm, uv);
}

{
// A fixed pseudo-random sequence (mulberry32), so the file is reproducible.
let s = 7;
const rnd = () => { s |= 0; s = s + 0x6D2B79F5 | 0; let t = Math.imul(s ^ s >>> 15, 1 | s); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; };
const f32 = (x) => Math.fround(x);
const W = 8, H = 6;
const h = [];
for (let j = 0; j <= H; j++) { h.push([]); for (let i = 0; i <= W; i++) h[j].push(f32(0.4 * rnd())); }
const P = (i, j) => [f32(i / W * 2), f32(j / H * 2), h[j][i]];
const N = (i, j) => {
  const dx = h[j][Math.min(i + 1, W)] - h[j][Math.max(i - 1, 0)], dy = h[Math.min(j + 1, H)][i] - h[Math.max(j - 1, 0)][i];
  const n = [-dx * 2, -dy * 2, 1]; const l = Math.hypot(...n); return n.map((c) => f32(c / l));
};
const tris = [];
for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) {
  const c = (ii, jj) => {
    // u mirrored about the middle column; columns 5 and 6 share one u, so
    // the cells between them have no uv area but stay welded to theirs.
    const g = (k) => (k <= W / 2 ? k / W : 1 - k / W);
    let u = g(ii === 6 ? 5 : ii), v = jj / H;
    if (j >= H / 2) v = v + 0.5;          // a seam: the top half's uv jumps
    let n = N(ii, jj);
    if (i === 2 && ii === 3) n = [0, 0, 1]; // a hard edge at x column 3 seen from cell 2
    return { p: P(ii, jj), n, uv: [f32(u), f32(v)], col: ii };
  };
  let a = c(i, j), b = c(i + 1, j), d = c(i + 1, j + 1), e = c(i, j + 1);
  if (i === 6 && j === 4) { const m = [f32(0.7), f32(0.2)]; a.uv = m; b.uv = [f32(0.8), f32(0.3)]; d.uv = [f32(0.9), f32(0.4)]; } // its own uvs, three on a line
  const cell = (t) => Object.assign(t, { cell: i });
  if ((i + j) % 2) { tris.push(cell([a, b, d]), cell([a, d, e])); } else { tris.push(cell([a, b, e]), cell([b, d, e])); }
  if (i === 1 && j === 3) tris.push(cell([a, a, b]));  // degenerate: two corners at one position
  if (i === 4 && j === 2) tris.push(cell([d, e, d]));
}
// one flipped triangle (its edges walk with its neighbours', not against)
tris[17] = [tris[17][0], tris[17][2], tris[17][1]];
// shuffle
for (let k = tris.length - 1; k > 0; k--) { const r = Math.floor(rnd() * (k + 1)); [tris[k], tris[r]] = [tris[r], tris[k]]; }
// Written twice, in two orders. First: a triangle with no uv area first,
// which joins a group only when another reaches it.
const first = (t) => [t, ...tris.filter((x) => x !== t)];
const flat = tris.find((t) => t.cell === 5 && t[0].p !== t[1].p && t[1].p !== t[2].p && t[0].p !== t[2].p);
// Then: first a triangle with a corner on the mirror's column (two frames
// meet there), that corner first, and a triangle on two points at it last:
// the degenerate triangle takes the frame of the first corner at its vertex.
const seam = tris.find((t) => t.cell === 3 && t.some((x) => x.col === 4));
const k = seam.findIndex((x) => x.col === 4);
const turned = [seam[k], seam[(k + 1) % 3], seam[(k + 2) % 3]];
// And last a fin on that triangle's first edge, walked the same way: a
// third triangle on an edge two already share, which stays unpaired.
const fin = [flat[0], flat[1], { p: [flat[0].p[0], flat[0].p[1], f32(flat[0].p[2] + 0.5)], n: flat[0].n, uv: [f32(flat[0].uv[0] + 0.1), flat[0].uv[1]] }];
for (const [name, order] of [['mikktspace_rough.json', [...first(flat), fin]],
  ['mikktspace_seam.json', [...first(seam).map((t) => (t === seam ? turned : t)), [turned[0], turned[0], turned[1]]]]]) {
  const pos = [], nrm = [], uv = [];
  for (const t of order) for (const x of t) { pos.push(...x.p); nrm.push(...x.n); uv.push(...x.uv); }
  write(name, pos, nrm, uv);
}
}
