#!/usr/bin/env python3
"""Re-run the mutants a mutation run left alive against today's tests.

    scripts/mutants-again.py PKG LOG...      (make mutate writes the logs:
                                              mutate-out/PKG-N.log)

For each mutant a gremlins log reports LIVED (MUTATOR at file:line:column,
columns in bytes), apply the same one change to a scratch worktree of HEAD
and run `go test PKG` there: KILLED when the tests fail, LIVED when they
pass, SKIP when the line no longer holds the operator (the file moved on
since the run). The product files of the checkout are never touched. GL
packages (scene) need an X display: run it under xvfb-run -a.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

FLIP = {
    'CONDITIONALS_BOUNDARY': {'<=': '<', '>=': '>', '<': '<=', '>': '>='},
    'CONDITIONALS_NEGATION': {'==': '!=', '!=': '==', '<=': '>', '>=': '<', '<': '>=', '>': '<='},
    'ARITHMETIC_BASE': {'+': '-', '-': '+', '*': '/', '/': '*', '%': '*'},
    'INVERT_NEGATIVES': {'-': ''},
    'INCREMENT_DECREMENT': {'++': '--', '--': '++'},
}


def mutate(line, kind, col):
    """line with the operator at byte column col changed as kind does, or
    None where no such operator starts there."""
    b = line.encode()
    c = col - 1
    for op, to in sorted(FLIP.get(kind, {}).items(), key=lambda kv: -len(kv[0])):
        if b[c:c + len(op)] == op.encode():
            return (b[:c] + to.encode() + b[c + len(op):]).decode()
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pkg, logs = sys.argv[1].rstrip('/'), sys.argv[2:]
    if not pkg.startswith('internal/'):
        pkg = 'internal/' + pkg
    seen, muts = set(), []
    for log in logs:
        for text in open(log):
            m = re.match(r'\s*LIVED (\S+) at (\S+):(\d+):(\d+)', text)
            if m and m.groups() not in seen:
                seen.add(m.groups())
                muts.append(m.groups())
    # Stopped (SIGTERM, ^C), it still removes its worktree.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    wt = tempfile.mkdtemp(prefix='mutants-again-')
    subprocess.run(['git', 'worktree', 'add', '-q', '--detach', wt, 'HEAD'], check=True)
    counts = {'KILLED': 0, 'LIVED': 0, 'SKIP': 0}
    try:
        for kind, f, ln, col in muts:
            path = os.path.join(wt, pkg, f)
            orig = open(path, encoding='utf-8').read()
            lines = orig.split('\n')
            src = lines[int(ln) - 1]
            new = mutate(src, kind, int(col))
            res = 'SKIP'
            if new is not None:
                lines[int(ln) - 1] = new
                open(path, 'w', encoding='utf-8').write('\n'.join(lines))
                try:
                    r = subprocess.run(['timeout', '600', 'go', 'test', '-count=1', '-vet=off', '-failfast', './' + pkg],
                                       cwd=wt, capture_output=True, text=True)
                    res = 'KILLED' if r.returncode != 0 else 'LIVED'
                finally:
                    open(path, 'w', encoding='utf-8').write(orig)
            counts[res] += 1
            print(f'{res:6} {kind} {f}:{ln}:{col} | {src.strip()}', flush=True)
    finally:
        subprocess.run(['git', 'worktree', 'remove', '--force', wt], check=False)
    print(f"{counts['KILLED']} killed, {counts['LIVED']} lived, {counts['SKIP']} no longer there, of {len(muts)}")


if __name__ == '__main__':
    main()
