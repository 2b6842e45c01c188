#!/usr/bin/env python3
"""Checks -compress against the uncompressed clips from the joint world
matrices alone, as the Animation Compression Library judges error: for
every node (-all-nodes), the origin and points 3 cm along each axis (scaled by the
matrix, and at 3 cm whatever the scale), compared between

    viewer -dump-pose - -clip C -time T MODEL
    viewer -dump-pose - -clip C -time T -compress CM MODEL

at N times per clip (every key time is not known here: evenly spaced times
and random ones, before and after the clip too). Prints per clip the worst
and 99th-percentile error in cm, and the -info -compress -json report
beside it.

Usage: compress_check.py [--cm 0.01] [--times 60] MODEL...
Env VIEWER: the viewer binary (default bin/viewer).
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys

VIEWER = os.environ.get("VIEWER", os.path.join(os.path.dirname(__file__), "..", "..", "bin", "viewer"))


def run(*args):
    return subprocess.run([VIEWER, *args], check=True, capture_output=True, text=True).stdout


def points(world):
    # world: 16 floats, column-major.
    o = world[12:15]
    pts = [o]
    for axis in range(3):
        v = world[4 * axis:4 * axis + 3]
        length = math.sqrt(sum(x * x for x in v)) or 1.0
        pts.append([o[i] + 0.03 * v[i] for i in range(3)])
        pts.append([o[i] + 0.03 * v[i] / length for i in range(3)])
    return pts


def error(a, b):
    worst = 0.0
    for p, q in zip(points(a), points(b)):
        worst = max(worst, math.dist(p, q))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cm", type=float, default=0.01)
    ap.add_argument("--times", type=int, default=60)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    rng = random.Random(7)
    failed = False
    for model in args.models:
        reports = [json.loads(line) for line in run("-info", "-compress", str(args.cm), "-json", model).splitlines()]
        for index, rep in enumerate(reports):
            duration = 1.0
            for line in run("-info", model).splitlines():
                m = re.match(rf"clip {index} .*?: ([0-9.]+) s", line)
                if m:
                    duration = float(m.group(1))
            times = [duration * k / (args.times - 1) for k in range(args.times)]
            times += [rng.uniform(-0.1, duration + 0.1) for _ in range(args.times // 3)]
            errors = []
            for t in times:
                a = json.loads(run("-dump-pose", "-", "-all-nodes", "-clip", str(index), "-time", repr(t), model))
                b = json.loads(run("-dump-pose", "-", "-all-nodes", "-clip", str(index), "-time", repr(t), "-compress", str(args.cm), model))
                for na, nb in zip(a["nodes"], b["nodes"]):
                    errors.append(100 * error(na["world"], nb["world"]))
            errors.sort()
            if not errors:
                print(f"-    {os.path.basename(model)} clip {index}: no nodes")
                continue
            worst = errors[-1]
            p99 = errors[max(0, math.ceil(0.99 * len(errors)) - 1)]
            ok = worst <= args.cm
            failed |= not ok
            print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(model)} clip {index} {rep['clip']!r}: "
                  f"checked max {worst:.5f} cm p99 {p99:.5f} cm at {len(times)} times; "
                  f"reported max {rep['max_error_cm']:.5f} p99 {rep['p99_error_cm']:.5f}, "
                  f"{rep['raw_bytes']} → {rep['bytes']} bytes ({rep['ratio']:.2f}:1)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
