#!/usr/bin/env python3
"""Independent reference implementation of glTF 2.0 animation + skinning evaluation.

Standard library only. Written from the glTF 2.0 specification.

Usage:
  gltfref.py MODEL.(gltf|glb) [--clip NAME|INDEX] [--time T] [--all-nodes]
             [--blend CLIP:W[,CLIP:W...]] [--additive CLIP:W[@REFTIME]]
  gltfref.py MODEL --list-clips      (prints JSON: [{"index","name","duration"}...])

Output JSON:
  {"clip": name-or-null, "time": T,
   "nodes": [{"index", "name", "world": [16 floats column-major]}...],
   "primitives": [{"mesh", "primitive", "node", "positions": [x,y,z,...]}...]}
  With --blend / --additive, "clip" is null and "time" is T.

--blend: every listed clip is sampled at T (clamped to its own duration; no
looping); per-node local TRS (rest TRS where a clip does not animate a node) are
blended with normalized weights: two clips -> lerp/slerp(shortest) with
w = W2/(W1+W2); three or more -> weighted sums, rotation = normalize(sum w_i q_i)
with q_i flipped into the hemisphere of the first clip's quaternion.
--additive CLIP:W@REF: on the base pose (--clip, default clip 0, or the --blend
result): r = base * slerp(identity, ref^-1 * src, W), t = base + W (src - ref),
s = base * (src/ref)^W per component (ratio 1 where ref is 0); src = CLIP at T,
ref = CLIP at REF (both clamped).
"""
import base64
import json
import math
import os
import struct
import sys
import urllib.parse

# ----------------------------------------------------------------------------
# File loading
# ----------------------------------------------------------------------------

GLB_MAGIC = 0x46546C67  # 'glTF'
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942


def load_model(path):
    with open(path, 'rb') as f:
        data = f.read()
    bin_chunk = None
    if len(data) >= 12 and struct.unpack_from('<I', data, 0)[0] == GLB_MAGIC:
        magic, version, length = struct.unpack_from('<III', data, 0)
        if version != 2:
            raise ValueError('unsupported GLB version %d' % version)
        off = 12
        doc = None
        first = True
        end = min(length, len(data))
        while off + 8 <= end:
            clen, ctype = struct.unpack_from('<II', data, off)
            off += 8
            chunk = data[off:off + clen]
            off += clen
            if first:
                if ctype != CHUNK_JSON:
                    raise ValueError('first GLB chunk is not JSON')
                doc = json.loads(chunk.decode('utf-8'))
                first = False
            elif ctype == CHUNK_BIN and bin_chunk is None:
                bin_chunk = chunk
        if doc is None:
            raise ValueError('GLB without JSON chunk')
    else:
        text = data.decode('utf-8')
        if text.startswith('\ufeff'):
            text = text[1:]
        doc = json.loads(text)
    base_dir = os.path.dirname(os.path.abspath(path))
    buffers = []
    for i, b in enumerate(doc.get('buffers', [])):
        uri = b.get('uri')
        if uri is None:
            if i == 0 and bin_chunk is not None:
                buffers.append(bytes(bin_chunk))
            else:
                raise ValueError('buffer %d has no uri and no GLB BIN chunk' % i)
        elif uri.startswith('data:'):
            comma = uri.index(',')
            header = uri[5:comma]
            payload = uri[comma + 1:]
            if header.endswith(';base64'):
                buffers.append(base64.b64decode(payload))
            else:
                buffers.append(urllib.parse.unquote_to_bytes(payload))
        else:
            p = os.path.join(base_dir, urllib.parse.unquote(uri))
            with open(p, 'rb') as f:
                buffers.append(f.read())
    return doc, buffers


# ----------------------------------------------------------------------------
# Accessors
# ----------------------------------------------------------------------------

COMP_FMT = {5120: ('b', 1), 5121: ('B', 1), 5122: ('h', 2), 5123: ('H', 2),
            5125: ('I', 4), 5126: ('f', 4)}
# type -> (columns, rows)
TYPE_SHAPE = {'SCALAR': (1, 1), 'VEC2': (1, 2), 'VEC3': (1, 3), 'VEC4': (1, 4),
              'MAT2': (2, 2), 'MAT3': (3, 3), 'MAT4': (4, 4)}


def dequantize(c, ctype):
    if ctype == 5120:
        return max(c / 127.0, -1.0)
    if ctype == 5121:
        return c / 255.0
    if ctype == 5122:
        return max(c / 32767.0, -1.0)
    if ctype == 5123:
        return c / 65535.0
    if ctype == 5125:
        return c / 4294967295.0
    return float(c)


def _layout(ctype, typ):
    """Returns (fmt char, component size, columns, rows, column stride, element size)."""
    fmt, csize = COMP_FMT[ctype]
    cols, rows = TYPE_SHAPE[typ]
    if cols > 1:
        # matrix columns are aligned to 4 bytes
        colstride = (rows * csize + 3) & ~3
    else:
        colstride = rows * csize
    return fmt, csize, cols, rows, colstride, cols * colstride


def _read_elements(buf, start, stride, count, ctype, typ):
    fmt, csize, cols, rows, colstride, esize = _layout(ctype, typ)
    out = []
    if cols == 1:
        st = struct.Struct('<' + fmt * rows)
        for i in range(count):
            out.append(list(st.unpack_from(buf, start + i * stride)))
    else:
        st = struct.Struct('<' + fmt * rows)
        for i in range(count):
            base = start + i * stride
            e = []
            for c in range(cols):
                e.extend(st.unpack_from(buf, base + c * colstride))
            out.append(e)
    return out


def read_accessor(doc, buffers, index, cache={}):
    key = (id(doc), index)
    hit = cache.get(key)
    if hit is not None and hit[0] is doc:  # the stored doc reference keeps id() unique
        return hit[1]
    acc = doc['accessors'][index]
    ctype = acc['componentType']
    typ = acc['type']
    count = acc['count']
    normalized = bool(acc.get('normalized', False))
    fmt, csize, cols, rows, colstride, esize = _layout(ctype, typ)
    ncomp = cols * rows
    if 'bufferView' in acc and acc['bufferView'] is not None:
        bv = doc['bufferViews'][acc['bufferView']]
        buf = buffers[bv['buffer']]
        start = bv.get('byteOffset', 0) + acc.get('byteOffset', 0)
        stride = bv.get('byteStride') or esize
        elems = _read_elements(buf, start, stride, count, ctype, typ)
    else:
        elems = [[0] * ncomp for _ in range(count)]
    sp = acc.get('sparse')
    if sp:
        scount = sp['count']
        ind = sp['indices']
        ibv = doc['bufferViews'][ind['bufferView']]
        ibuf = buffers[ibv['buffer']]
        ictype = ind['componentType']
        ifmt, isize = COMP_FMT[ictype]
        istart = ibv.get('byteOffset', 0) + ind.get('byteOffset', 0)
        indices = list(struct.unpack_from('<' + ifmt * scount, ibuf, istart))
        val = sp['values']
        vbv = doc['bufferViews'][val['bufferView']]
        vbuf = buffers[vbv['buffer']]
        vstart = vbv.get('byteOffset', 0) + val.get('byteOffset', 0)
        values = _read_elements(vbuf, vstart, esize, scount, ctype, typ)
        for k, ix in enumerate(indices):
            elems[ix] = values[k]
    if normalized:
        elems = [[dequantize(c, ctype) for c in e] for e in elems]
    else:
        elems = [[float(c) if ctype == 5126 else c for c in e] for e in elems]
    cache[key] = (doc, elems)
    return elems


# ----------------------------------------------------------------------------
# Math (column-major 4x4 matrices: m[col*4 + row])
# ----------------------------------------------------------------------------

IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
            0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]


def mat_mul(a, b):
    r = [0.0] * 16
    for c in range(4):
        for row in range(4):
            s = 0.0
            for k in range(4):
                s += a[k * 4 + row] * b[c * 4 + k]
            r[c * 4 + row] = s
    return r


def quat_normalize(q):
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if n == 0.0:
        return [0.0, 0.0, 0.0, 1.0]
    return [q[0] / n, q[1] / n, q[2] / n, q[3] / n]


def trs_matrix(t, r, s):
    x, y, z, w = r
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz = x * y, x * z, y * z
    wx, wy, wz = w * x, w * y, w * z
    # rotation matrix R (row, col)
    r00 = 1 - 2 * (yy + zz)
    r01 = 2 * (xy - wz)
    r02 = 2 * (xz + wy)
    r10 = 2 * (xy + wz)
    r11 = 1 - 2 * (xx + zz)
    r12 = 2 * (yz - wx)
    r20 = 2 * (xz - wy)
    r21 = 2 * (yz + wx)
    r22 = 1 - 2 * (xx + yy)
    sx, sy, sz = s
    return [r00 * sx, r10 * sx, r20 * sx, 0.0,
            r01 * sy, r11 * sy, r21 * sy, 0.0,
            r02 * sz, r12 * sz, r22 * sz, 0.0,
            t[0], t[1], t[2], 1.0]


def slerp(a, b, t):
    """Spherical linear interpolation, shortest path (glTF spec appendix)."""
    d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
    if d < 0.0:
        b = [-b[0], -b[1], -b[2], -b[3]]
        d = -d
    if d > 0.9999999:
        # nearly identical: linear interpolation then normalize
        r = [a[i] + (b[i] - a[i]) * t for i in range(4)]
        return quat_normalize(r)
    theta = math.acos(min(1.0, d))
    st = math.sin(theta)
    sa = math.sin((1.0 - t) * theta) / st
    sb = math.sin(t * theta) / st
    return quat_normalize([sa * a[i] + sb * b[i] for i in range(4)])


# ----------------------------------------------------------------------------
# Animation
# ----------------------------------------------------------------------------

def clip_duration(doc, buffers, anim):
    dur = 0.0
    for ch in anim.get('channels', []):
        smp = anim['samplers'][ch['sampler']]
        inp = read_accessor(doc, buffers, smp['input'])
        if inp:
            dur = max(dur, float(inp[-1][0]))
    return dur


def sample_channel(doc, buffers, smp, path, T, group=0):
    """group > 0: the output holds `group` scalars per value (morph weights,
    one per target), which are regrouped into vectors."""
    times = [float(e[0]) for e in read_accessor(doc, buffers, smp['input'])]
    outs = read_accessor(doc, buffers, smp['output'])
    outs = [[float(c) for c in e] for e in outs]
    if group:
        flat = [e[0] for e in outs]
        outs = [flat[k:k + group] for k in range(0, len(flat), group)]
    interp = smp.get('interpolation', 'LINEAR')
    n = len(times)
    if n == 0:
        return None
    is_rot = path == 'rotation'
    if interp == 'CUBICSPLINE':
        def val(k):
            return outs[3 * k + 1]

        def in_tan(k):
            return outs[3 * k]

        def out_tan(k):
            return outs[3 * k + 2]
    else:
        def val(k):
            return outs[k]

    def fin(v):
        return quat_normalize(v) if is_rot else list(v)

    if T <= times[0]:
        return fin(val(0))
    if T >= times[-1]:
        return fin(val(n - 1))
    # find k with times[k] <= T < times[k+1]
    lo, hi = 0, n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if times[mid] <= T:
            lo = mid
        else:
            hi = mid
    k = lo
    t0, t1 = times[k], times[k + 1]
    td = t1 - t0
    if interp == 'STEP':
        return fin(val(k))
    u = (T - t0) / td if td > 0 else 0.0
    if interp == 'CUBICSPLINE':
        u2 = u * u
        u3 = u2 * u
        h00 = 2 * u3 - 3 * u2 + 1
        h10 = u3 - 2 * u2 + u
        h01 = -2 * u3 + 3 * u2
        h11 = u3 - u2
        vk, bk = val(k), out_tan(k)
        vk1, ak1 = val(k + 1), in_tan(k + 1)
        r = [h00 * vk[i] + td * h10 * bk[i] + h01 * vk1[i] + td * h11 * ak1[i]
             for i in range(len(vk))]
        return fin(r)
    # LINEAR
    a, b = val(k), val(k + 1)
    if is_rot:
        return slerp(quat_normalize(a), quat_normalize(b), u)
    return [a[i] + (b[i] - a[i]) * u for i in range(len(a))]


# ----------------------------------------------------------------------------
# Evaluation
# ----------------------------------------------------------------------------

def rest_pose(doc):
    """Per node: [t, r, s] rest TRS (a node with a matrix gets TRS defaults here;
    its matrix is kept by finish_pose unless the pose animates it)."""
    out = []
    for nd in doc.get('nodes', []):
        t = [float(x) for x in nd.get('translation', [0, 0, 0])]
        r = quat_normalize([float(x) for x in nd.get('rotation', [0, 0, 0, 1])])
        s = [float(x) for x in nd.get('scale', [1, 1, 1])]
        out.append([t, r, s])
    return out


def sample_clip_pose(doc, buffers, clip_index, T):
    """Local pose of clip clip_index at T (clamped to [0, duration]).
    Returns (pose, animated): pose = per node [t, r, s] (rest TRS where the clip
    does not animate the path), animated = set of node indices the clip targets."""
    pose = rest_pose(doc)
    animated = set()
    weights = rest_weights(doc)
    anim = doc.get('animations', [])[clip_index]
    dur = clip_duration(doc, buffers, anim)
    Tc = min(max(T, 0.0), dur)
    slot = {'translation': 0, 'rotation': 1, 'scale': 2}
    for ch in anim.get('channels', []):
        tgt = ch.get('target', {})
        node = tgt.get('node')
        path = tgt.get('path')
        if path == 'weights' and node in weights:
            v = sample_channel(doc, buffers, anim['samplers'][ch['sampler']], path, Tc,
                               group=len(weights[node]))
            if v is not None:
                weights[node] = v
            continue
        if node is None or path not in slot:
            continue
        v = sample_channel(doc, buffers, anim['samplers'][ch['sampler']], path, Tc)
        if v is not None:
            pose[node][slot[path]] = v
            animated.add(node)
    sample_clip_pose.weights = weights
    return pose, animated


def mesh_targets(doc, mi):
    prims = doc['meshes'][mi].get('primitives', [])
    return len(prims[0].get('targets', [])) if prims else 0


def rest_weights(doc):
    """Per node whose mesh has morph targets: node.weights, else mesh.weights,
    else zeros (glTF 3.7.2.2); a list of the wrong length is not used."""
    out = {}
    for i, nd in enumerate(doc.get('nodes', [])):
        if 'mesh' not in nd:
            continue
        n = mesh_targets(doc, nd['mesh'])
        if n == 0:
            continue
        w = [0.0] * n
        mw = doc['meshes'][nd['mesh']].get('weights')
        if mw is not None and len(mw) == n:
            w = [float(x) for x in mw]
        if nd.get('weights') is not None and len(nd['weights']) == n:
            w = [float(x) for x in nd['weights']]
        out[i] = w
    return out


# --- quaternion helpers for blending ([x, y, z, w]) ---

def quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz]


def quat_conj(q):
    return [-q[0], -q[1], -q[2], q[3]]


def quat_dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]


def blend_poses(poses, weights):
    """poses: list of per-node [t, r, s]; weights: raw weights (normalized here).
    2 poses: LERP with w = W2/(W1+W2) (slerp rotations, shortest arc).
    3+ poses: weighted average, rotation = normalize(sum w_i q_i), each q_i first
    flipped into the hemisphere of the first pose's quaternion."""
    tot = float(sum(weights))
    if tot == 0.0:
        raise ValueError('blend weights sum to zero')
    ws = [w / tot for w in weights]
    n = len(poses[0])
    if len(poses) == 1:
        return [[list(p[0]), list(p[1]), list(p[2])] for p in poses[0]]
    out = []
    if len(poses) == 2:
        w = ws[1]
        A, B = poses
        for i in range(n):
            ta, ra, sa = A[i]
            tb, rb, sb = B[i]
            t = [ta[k] + (tb[k] - ta[k]) * w for k in range(3)]
            r = slerp(ra, rb, w)
            s = [sa[k] + (sb[k] - sa[k]) * w for k in range(3)]
            out.append([t, r, s])
        return out
    for i in range(n):
        t = [0.0, 0.0, 0.0]
        s = [0.0, 0.0, 0.0]
        q = [0.0, 0.0, 0.0, 0.0]
        q0 = poses[0][i][1]
        for p, w in zip(poses, ws):
            pt, pr, ps = p[i]
            for k in range(3):
                t[k] += w * pt[k]
                s[k] += w * ps[k]
            sign = -1.0 if quat_dot(pr, q0) < 0.0 else 1.0
            for k in range(4):
                q[k] += w * sign * pr[k]
        out.append([t, quat_normalize(q), s])
    return out


def apply_additive(base, src, ref, w):
    """Per node: r = base * slerp(identity, ref^-1 * src, w); t = base + w (src - ref);
    s = base * (src/ref)^w per component (ratio 1 where ref is 0)."""
    out = []
    ident = [0.0, 0.0, 0.0, 1.0]
    for i in range(len(base)):
        bt, br, bs = base[i]
        st, sr, ss = src[i]
        rt, rr, rs = ref[i]
        delta = quat_normalize(quat_mul(quat_conj(rr), sr))
        r = quat_normalize(quat_mul(br, slerp(ident, delta, w)))
        t = [bt[k] + w * (st[k] - rt[k]) for k in range(3)]
        s = []
        for k in range(3):
            ratio = 1.0 if rs[k] == 0.0 else ss[k] / rs[k]
            if ratio < 0.0:
                # not covered by the formula; keep the sign, power the magnitude
                f = -((-ratio) ** w)
            else:
                f = ratio ** w
            s.append(bs[k] * f)
        out.append([t, r, s])
    return out


def evaluate(doc, buffers, clip_index, T, all_nodes):
    nodes = doc.get('nodes', [])
    anims = doc.get('animations', [])
    if clip_index is None:
        return finish_pose(doc, buffers, rest_pose(doc), set(), None, T, all_nodes,
                           rest_weights(doc))
    pose, animated = sample_clip_pose(doc, buffers, clip_index, T)
    return finish_pose(doc, buffers, pose, animated, anims[clip_index].get('name'),
                       T, all_nodes, sample_clip_pose.weights)


def finish_pose(doc, buffers, pose, animated, clip_name, T, all_nodes, weights=None):
    """pose: per node local [t, r, s]; animated: nodes whose TRS replaces a
    node matrix. Computes world matrices and skinned positions."""
    nodes = doc.get('nodes', [])
    nn = len(nodes)
    # local transforms
    local = []
    for i, nd in enumerate(nodes):
        if 'matrix' in nd and i not in animated:
            local.append([float(x) for x in nd['matrix']])
            continue
        # spec: animated nodes must not have a matrix; decompose is not
        # attempted, TRS defaults + animated values are used.
        t, r, s = pose[i]
        local.append(trs_matrix(t, r, s))

    parent = [None] * nn
    for i, nd in enumerate(nodes):
        for c in nd.get('children', []):
            parent[c] = i
    world = [None] * nn

    def get_world(i):
        # iterative to avoid recursion limits
        chain = []
        j = i
        while j is not None and world[j] is None:
            chain.append(j)
            j = parent[j]
        m = world[j] if j is not None else None
        for k in reversed(chain):
            m = local[k] if m is None else mat_mul(m, local[k])
            world[k] = m
        return world[i]

    for i in range(nn):
        get_world(i)

    if weights is None:
        weights = rest_weights(doc)
    joint_set = set()
    for sk in doc.get('skins', []):
        joint_set.update(sk.get('joints', []))
    joint_set.update(weights)  # nodes with morph targets
    node_ids = range(nn) if all_nodes else sorted(joint_set)
    out_nodes = []
    for i in node_ids:
        e = {'index': i, 'name': nodes[i].get('name', ''), 'world': world[i]}
        if i in weights:
            e['weights'] = weights[i]
        out_nodes.append(e)

    # scene traversal
    scenes = doc.get('scenes', [])
    if scenes:
        sidx = doc.get('scene', 0)
        roots = scenes[sidx].get('nodes', [])
    else:
        roots = [i for i in range(nn) if parent[i] is None]
    scene_nodes = set()
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i in scene_nodes:
            continue
        scene_nodes.add(i)
        stack.extend(nodes[i].get('children', []))

    prims_out = []
    for ni in sorted(scene_nodes):
        nd = nodes[ni]
        if 'mesh' not in nd:
            continue
        jm = None
        if 'skin' in nd:
            skin = doc['skins'][nd['skin']]
            joints = skin['joints']
            if 'inverseBindMatrices' in skin:
                ibms = [[float(x) for x in e] for e in
                        read_accessor(doc, buffers, skin['inverseBindMatrices'])]
            else:
                ibms = [IDENTITY] * len(joints)
            jm = [mat_mul(world[joints[j]], ibms[j]) for j in range(len(joints))]
        mesh = doc['meshes'][nd['mesh']]
        for pi, prim in enumerate(mesh['primitives']):
            attrs = prim.get('attributes', {})
            if 'POSITION' not in attrs:
                continue
            pos = [[float(c) for c in p] for p in read_accessor(doc, buffers, attrs['POSITION'])]
            # Morph: p + sum of w_t * POSITION displacement of target t.
            for t, tg in enumerate(prim.get('targets', [])):
                w = weights.get(ni, [])[t] if t < len(weights.get(ni, [])) else 0.0
                if w == 0.0 or 'POSITION' not in tg:
                    continue
                d = read_accessor(doc, buffers, tg['POSITION'])
                for vi in range(len(pos)):
                    for c in range(3):
                        pos[vi][c] += w * float(d[vi][c])
            if jm is None or 'JOINTS_0' not in attrs:
                m = world[ni]
                flat = []
                for x, y, z in pos:
                    flat.extend((m[0] * x + m[4] * y + m[8] * z + m[12],
                                 m[1] * x + m[5] * y + m[9] * z + m[13],
                                 m[2] * x + m[6] * y + m[10] * z + m[14]))
                prims_out.append({'mesh': nd['mesh'], 'primitive': pi, 'node': ni,
                                  'positions': flat})
                continue
            sets = []
            s = 0
            while ('JOINTS_%d' % s) in attrs and ('WEIGHTS_%d' % s) in attrs:
                sets.append((read_accessor(doc, buffers, attrs['JOINTS_%d' % s]),
                             read_accessor(doc, buffers, attrs['WEIGHTS_%d' % s])))
                s += 1
            flat = []
            for vi, p in enumerate(pos):
                x, y, z = float(p[0]), float(p[1]), float(p[2])
                ox = oy = oz = tot = 0.0
                for J, W in sets:
                    jv, wv = J[vi], W[vi]
                    for c in range(len(jv)):
                        w = float(wv[c])
                        if w == 0.0:
                            continue
                        tot += w
                        m = jm[int(jv[c])]
                        ox += w * (m[0] * x + m[4] * y + m[8] * z + m[12])
                        oy += w * (m[1] * x + m[5] * y + m[9] * z + m[13])
                        oz += w * (m[2] * x + m[6] * y + m[10] * z + m[14])
                # Weights not summing to 1 are normalized, as renderers do;
                # a vertex without weight stays at its bind position.
                if tot == 0.0:
                    ox, oy, oz = x, y, z
                else:
                    ox, oy, oz = ox / tot, oy / tot, oz / tot
                flat.extend((ox, oy, oz))
            prims_out.append({'mesh': nd['mesh'], 'primitive': pi, 'node': ni,
                              'positions': flat})
    return {'clip': clip_name, 'time': T, 'nodes': out_nodes, 'primitives': prims_out}


def resolve_clip(anims, spec):
    """Clip by name (first match), else by integer index."""
    for i, a in enumerate(anims):
        if a.get('name') == spec:
            return i
    try:
        i = int(spec)
    except ValueError:
        raise ValueError('no clip named %r' % spec)
    if not (0 <= i < len(anims)):
        raise ValueError('clip index %d out of range (%d animations)' % (i, len(anims)))
    return i


def parse_blend(anims, text):
    out = []
    for item in text.split(','):
        name, sep, w = item.rpartition(':')
        if not sep or not name:
            raise ValueError('bad --blend item %r (want CLIP:W)' % item)
        out.append((resolve_clip(anims, name), float(w)))
    return out


def parse_additive(anims, text):
    head, at, reft = text.rpartition('@')
    if not at:
        head, reft = text, '0'
    name, sep, w = head.rpartition(':')
    if not sep or not name:
        raise ValueError('bad --additive %r (want CLIP:W[@REFTIME])' % text)
    return resolve_clip(anims, name), float(w), float(reft)


def evaluate_mixed(doc, buffers, base_clip, blend, additive, T, all_nodes):
    """--blend / --additive evaluation; output clip is null, time is T."""
    animated = set()
    if blend:
        poses = []
        for ci, _ in blend:
            p, a = sample_clip_pose(doc, buffers, ci, T)
            poses.append(p)
            animated |= a
        pose = blend_poses(poses, [w for _, w in blend])
    elif base_clip is not None:
        pose, animated = sample_clip_pose(doc, buffers, base_clip, T)
    else:
        pose = rest_pose(doc)
    if additive:
        ci, w, reft = additive
        src, a = sample_clip_pose(doc, buffers, ci, T)
        ref, _ = sample_clip_pose(doc, buffers, ci, reft)
        animated |= a
        pose = apply_additive(pose, src, ref, w)
    return finish_pose(doc, buffers, pose, animated, None, T, all_nodes)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('model')
    ap.add_argument('--clip', default=None, help='clip name or index (default: 0)')
    ap.add_argument('--time', type=float, default=0.0)
    ap.add_argument('--all-nodes', action='store_true')
    ap.add_argument('--list-clips', action='store_true')
    ap.add_argument('--blend', default=None, metavar='CLIP:W[,CLIP:W...]',
                    help='blend clips (by name) at the same local time; weights normalized')
    ap.add_argument('--additive', default=None, metavar='CLIP:W[@REFTIME]',
                    help='add CLIP\'s difference from its pose at REFTIME (default 0) '
                         'on top of the --clip (or --blend) pose, with weight W')
    args = ap.parse_args(argv)
    doc, buffers = load_model(args.model)
    anims = doc.get('animations', [])
    if args.list_clips:
        print(json.dumps([{'index': i, 'name': a.get('name'),
                           'duration': clip_duration(doc, buffers, a)}
                          for i, a in enumerate(anims)]))
        return 0
    try:
        clip = None
        if args.clip is not None:
            clip = resolve_clip(anims, args.clip)
        elif anims:
            clip = 0  # default: the first clip
        blend = parse_blend(anims, args.blend) if args.blend else None
        additive = parse_additive(anims, args.additive) if args.additive else None
    except ValueError as e:
        print(str(e), file=sys.stderr)
        return 2
    if blend or additive:
        res = evaluate_mixed(doc, buffers, clip, blend, additive, args.time, args.all_nodes)
    else:
        res = evaluate(doc, buffers, clip, args.time, args.all_nodes)
    json.dump(res, sys.stdout)
    sys.stdout.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
