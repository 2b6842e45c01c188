#!/usr/bin/env python3
"""Measures a retarget (-clips) the way its acceptance does, from world
matrices alone: the source clip is evaluated by gltfref.py (from the glTF
specification, no viewer code), the target by

    viewer -dump-pose - -all-nodes -clips SOURCE [-joint-map MAP] -clip I -time T TARGET

at N evenly spaced times. For every joint of the target's first skin that
a source node drives (same name, or paired by MAP), it compares the world
rotation change from rest (rest: the file's node transforms, no
animation) of target and source: the angle between them, the source
first turned to face as the target does (the quarter turn about +Y that
best matches the two rest skeletons' horizontal joint offsets, 2-D
Procrustes rounded to 90°: a rig exported facing -Z against one facing
+Z is turned 180°, a pair facing alike not at all). The hips (the
target's shallowest such joint that the source translates, or --hips
NAME) must move from rest as the source's do, times the ratio of the two
rest hip heights (and the same turn). Prints the turn, the worst
angle and hips error per clip; exit status 1 when an angle exceeds
--max-deg (3) or the hips stray more than --max-hips (3 %) of the target's
hip height.

Usage: retarget_check.py [--map MAP.json] [--times 24] [--hips NAME] SOURCE TARGET
Env VIEWER: the viewer binary (default bin/viewer).
"""
import argparse
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gltfref  # noqa: E402

VIEWER = os.environ.get("VIEWER", os.path.join(os.path.dirname(__file__), "..", "..", "bin", "viewer"))


def rotation(world):
    """Unit quaternion (x, y, z, w) of a column-major world matrix whose
    columns are normalized first (uniform scale)."""
    cols = []
    for c in range(3):
        v = world[4 * c:4 * c + 3]
        n = math.sqrt(sum(x * x for x in v)) or 1.0
        cols.append([x / n for x in v])
    m = [[cols[c][r] for c in range(3)] for r in range(3)]  # m[row][col]
    tr = m[0][0] + m[1][1] + m[2][2]
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s]
    elif m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = math.sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2
        q = [0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s]
    elif m[1][1] > m[2][2]:
        s = math.sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2
        q = [(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s]
    else:
        s = math.sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2
        q = [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s]
    return gltfref.quat_normalize(q)


def change(world, rest):
    return gltfref.quat_mul(rotation(world), gltfref.quat_conj(rotation(rest)))


def angle_deg(a, b):
    d = gltfref.quat_mul(a, gltfref.quat_conj(b))
    return math.degrees(2 * math.atan2(math.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2), abs(d[3])))


def facing_turn(spos, tpos):
    """Degrees (a multiple of 90) about +Y that best take the source's
    horizontal joint offsets from their centroid onto the target's."""
    if len(spos) < 2:
        return 0
    cs = [sum(p[i] for p in spos) / len(spos) for i in range(3)]
    ct = [sum(p[i] for p in tpos) / len(tpos) for i in range(3)]
    # A turn by phi about +Y takes (x, z) to (x cos + z sin, -x sin + z cos).
    # Score every quarter turn by the summed dot products; take the best.
    best, best_deg = None, 0
    for deg in (0, 90, 180, -90):
        c, s_ = math.cos(math.radians(deg)), math.sin(math.radians(deg))
        score = 0.0
        for a, b in zip(spos, tpos):
            ax, az = a[0] - cs[0], a[2] - cs[2]
            bx, bz = b[0] - ct[0], b[2] - ct[2]
            score += (ax * c + az * s_) * bx + (-ax * s_ + az * c) * bz
        if best is None or score > best + 1e-12:
            best, best_deg = score, deg
    return best_deg


def yaw_quat(deg):
    h = math.radians(deg) / 2
    return [0.0, math.sin(h), 0.0, math.cos(h)]


def turn_vec(q, v):
    p = gltfref.quat_mul(gltfref.quat_mul(q, [v[0], v[1], v[2], 0.0]), gltfref.quat_conj(q))
    return p[:3]


def worlds(res):
    return {n["index"]: n["world"] for n in res["nodes"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--map", default=None)
    ap.add_argument("--times", type=int, default=24)
    ap.add_argument("--hips", default=None)
    ap.add_argument("--max-deg", type=float, default=3.0)
    ap.add_argument("--max-hips", type=float, default=3.0, help="percent of the hip height")
    ap.add_argument("source")
    ap.add_argument("target")
    args = ap.parse_args()
    names = json.load(open(args.map)) if args.map else {}
    sdoc, sbuf = gltfref.load_model(args.source)
    tdoc, tbuf = gltfref.load_model(args.target)
    snodes, tnodes = sdoc.get("nodes", []), tdoc.get("nodes", [])
    by_name = {}
    for i, n in enumerate(snodes):
        name = n.get("name", "")
        name = names.get(name, name)
        if name and name not in by_name:
            by_name[name] = i
    parent = {}
    for i, n in enumerate(tnodes):
        for c in n.get("children", []):
            parent[c] = i

    def depth(i):
        d = 0
        while i in parent:
            i, d = parent[i], d + 1
        return d

    shared = {}  # target node -> source node
    for j in tdoc["skins"][0]["joints"]:
        s = by_name.get(tnodes[j].get("name", ""))
        if s is not None:
            shared[j] = s
    if not shared:
        print("no shared joints", file=sys.stderr)
        return 2
    moved = set()
    for anim in sdoc.get("animations", []):
        for ch in anim.get("channels", []):
            tgt = ch.get("target", {})
            if tgt.get("path") == "translation":
                moved.add(tgt.get("node"))
    if args.hips:
        hips = next(j for j in shared if tnodes[j].get("name") == args.hips)
    else:
        # As the viewer picks it: the shallowest shared joint the source
        # translates, else the shallowest.
        hips = min(shared, key=lambda j: (shared[j] not in moved, depth(j)))
    srest = worlds(gltfref.evaluate(sdoc, sbuf, None, 0, True))
    trest = worlds(gltfref.evaluate(tdoc, tbuf, None, 0, True))
    pairs = sorted(shared.items())
    turn = facing_turn([srest[s][12:15] for _, s in pairs], [trest[j][12:15] for j, _ in pairs])
    F = yaw_quat(turn)
    hs, ht = srest[shared[hips]][13], trest[hips][13]
    k = ht / hs if hs > 1e-6 and ht > 1e-6 else 1.0
    if ht <= 1e-6:
        ht = 1.0  # a root on the ground: the hips error in model units
    extra = ["-joint-map", args.map] if args.map else []
    failed = False
    for ci, anim in enumerate(sdoc.get("animations", [])):
        dur = gltfref.clip_duration(sdoc, sbuf, anim)
        worst, worst_at, hip_err = 0.0, "", 0.0
        for n in range(args.times + 1):
            t = dur * n / args.times
            src = worlds(gltfref.evaluate(sdoc, sbuf, ci, t, True))
            out = subprocess.run([VIEWER, "-dump-pose", "-", "-all-nodes", "-clips", args.source, *extra,
                                  "-clip", str(len(tdoc.get("animations", [])) + ci), "-time", repr(t), args.target],
                                 check=True, capture_output=True, text=True).stdout
            tgt = worlds(json.loads(out))
            for j, s in shared.items():
                cs = gltfref.quat_mul(gltfref.quat_mul(F, change(src[s], srest[s])), gltfref.quat_conj(F))
                a = angle_deg(change(tgt[j], trest[j]), cs)
                if a > worst:
                    worst, worst_at = a, "%s at %.3f s" % (tnodes[j].get("name"), t)
            ds = turn_vec(F, [src[shared[hips]][12 + i] - srest[shared[hips]][12 + i] for i in range(3)])
            dt = [tgt[hips][12 + i] - trest[hips][12 + i] for i in range(3)]
            hip_err = max(hip_err, 100 * math.dist(dt, [k * x for x in ds]) / ht)
        bad = worst > args.max_deg or hip_err > args.max_hips
        failed = failed or bad
        print("clip %d %r: turn %d°, %d joints, worst %.4f° (%s), hips (%s, ratio %.4f) off by %.4f%% of the hip height%s" % (
            ci, anim.get("name"), turn, len(shared), worst, worst_at, tnodes[hips].get("name"), k, hip_err,
            "  FAIL" if bad else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
