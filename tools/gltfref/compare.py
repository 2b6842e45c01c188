#!/usr/bin/env python3
"""compare.py REF.json OTHER.json [--tol 1e-4] [--top N]

Matches nodes by index and primitives by (mesh, primitive, node); reports the max
absolute difference of world-matrix elements and of skinned positions, divided by
the bounding-box diagonal of REF's skinned positions (else of REF's world
translations, else 1). Exit 1 if any relative difference exceeds the tolerance
or the node/primitive sets (or position counts) differ.
"""
import json
import math
import sys


def diag_of(points):
    if not points:
        return 0.0
    lo = [min(p[i] for p in points) for i in range(3)]
    hi = [max(p[i] for p in points) for i in range(3)]
    return math.sqrt(sum((hi[i] - lo[i]) ** 2 for i in range(3)))


def main(argv):
    tol = 1e-4
    top = 8
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == '--tol':
            tol = float(argv[i + 1]); i += 2
        elif argv[i] == '--top':
            top = int(argv[i + 1]); i += 2
        else:
            args.append(argv[i]); i += 1
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as f:
        ref = json.load(f)
    with open(args[1]) as f:
        oth = json.load(f)

    problems = []
    rn = {n['index']: n for n in ref.get('nodes', [])}
    on = {n['index']: n for n in oth.get('nodes', [])}
    rp = {(p['mesh'], p['primitive'], p['node']): p for p in ref.get('primitives', [])}
    op = {(p['mesh'], p['primitive'], p['node']): p for p in oth.get('primitives', [])}

    if set(rn) != set(on):
        problems.append('node sets differ: only in REF %s, only in OTHER %s'
                        % (sorted(set(rn) - set(on)), sorted(set(on) - set(rn))))
    if set(rp) != set(op):
        problems.append('primitive sets differ: only in REF %s, only in OTHER %s'
                        % (sorted(set(rp) - set(op)), sorted(set(op) - set(rp))))

    pts = []
    for p in ref.get('primitives', []):
        a = p['positions']
        pts.extend((a[k], a[k + 1], a[k + 2]) for k in range(0, len(a) - 2, 3))
    d = diag_of(pts)
    src = 'positions'
    if d == 0.0:
        d = diag_of([(n['world'][12], n['world'][13], n['world'][14])
                     for n in ref.get('nodes', [])])
        src = 'translations'
    if d == 0.0 or not math.isfinite(d):
        d = 1.0
        src = 'fallback'

    node_err = []  # (rel, desc)
    for idx in sorted(set(rn) & set(on)):
        a, b = rn[idx]['world'], on[idx]['world']
        if len(a) != 16 or len(b) != 16:
            problems.append('node %d world has %d/%d elements' % (idx, len(a), len(b)))
            continue
        worst = (-1.0, 0)
        for k in range(16):
            e = abs(a[k] - b[k]) if (a[k] is not None and b[k] is not None) else math.inf
            if not math.isfinite(e):
                e = math.inf
            if e > worst[0]:
                worst = (e, k)
        node_err.append((worst[0] / d, 'node %d %r elem %d (col %d,row %d): ref %.9g other %.9g'
                         % (idx, rn[idx].get('name', ''), worst[1], worst[1] // 4, worst[1] % 4,
                            a[worst[1]], b[worst[1]])))
    # Morph weights are compared as they are (they have no length scale).
    for idx in sorted(set(rn) & set(on)):
        a, b = rn[idx].get('weights'), on[idx].get('weights')
        if a is None and b is None:
            continue
        if a is None or b is None or len(a) != len(b):
            problems.append('node %d weights: REF %r vs OTHER %r' % (idx, a, b))
            continue
        for k in range(len(a)):
            if not abs(a[k] - b[k]) <= 1e-5:
                problems.append('node %d weight %d: ref %.9g other %.9g' % (idx, k, a[k], b[k]))
                break

    pos_err = []
    for key in sorted(set(rp) & set(op)):
        a, b = rp[key]['positions'], op[key]['positions']
        if len(a) != len(b):
            problems.append('primitive %s: position count REF %d vs OTHER %d'
                            % (key, len(a), len(b)))
            continue
        worst = (-1.0, 0)
        for k in range(len(a)):
            e = abs(a[k] - b[k]) if (a[k] is not None and b[k] is not None) else math.inf
            if not math.isfinite(e):
                e = math.inf
            if e > worst[0]:
                worst = (e, k)
        if a:
            v = worst[1] // 3
            pos_err.append((worst[0] / d,
                            'prim mesh=%d prim=%d node=%d vertex %d: ref (%.7g,%.7g,%.7g) other (%.7g,%.7g,%.7g)'
                            % (key + (v, a[3 * v], a[3 * v + 1], a[3 * v + 2],
                                      b[3 * v], b[3 * v + 1], b[3 * v + 2]))))

    max_node = max([e for e, _ in node_err], default=0.0)
    max_pos = max([e for e, _ in pos_err], default=0.0)
    fail = bool(problems) or max_node > tol or max_pos > tol
    notes = ''
    if ref.get('clip') != oth.get('clip'):
        notes = ' note: clip field REF=%r OTHER=%r' % (ref.get('clip'), oth.get('clip'))
    print('%s nodes=%d prims=%d diag=%.6g(%s) max_rel_world=%.3e max_rel_pos=%.3e%s'
          % ('FAIL' if fail else 'PASS', len(rn), len(rp), d, src, max_node, max_pos, notes))
    if fail:
        for p in problems:
            print('  ' + p)
        offenders = sorted([x for x in node_err + pos_err if x[0] > tol], key=lambda x: -x[0])
        for e, desc in offenders[:top]:
            print('  rel %.3e  %s' % (e, desc))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
