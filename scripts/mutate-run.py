#!/usr/bin/env python3
"""Mutation testing of one package, each mutant against the tests that reach it.

    scripts/mutate-run.py PKG [--skip DIR]... [--only RE] [--again FILE] [--resume]
                              [--jobs N] [--out DIR] [--mem-gb G]

PKG is a folder under internal/ (anim, gltfload, ...); its files and those
of its folders below are mutated, less the folders named by --skip (packages
measured on their own, test-only helpers). The mutants are gremlins'
(`gremlins unleash --dry-run`, the operators it enables by default); this
script runs them:

1. Each test of PKG and of the test packages below it runs alone, once,
   with coverage of every mutated package: which blocks it reaches, and in
   how long.
2. Each mutant is applied to a worktree of HEAD (one per job), the test
   binaries are built, and the tests whose coverage reaches the mutant run,
   fastest first, stopping at the first failure: KILLED when one fails,
   LIVED when all pass, TIMED OUT when they run past 20 times their time
   (plus 10 s), NOT VIABLE when the mutant does not build.

A test that does not reach a mutated block runs exactly as it would
without the mutant (it ran alone for its coverage, so whatever it needs,
package state built on first use included, is in what it reached): leaving
it out changes no outcome, and a package whose tests take half a minute is
measured in a tenth of the time gremlins' run of every test takes. The
product files of the checkout are never touched.

Writes OUT/PKG.log (one line a mutant, after a first line naming the
code measured), OUT/PKG.json (counts) and OUT/PKG-survivors.txt, and
prints the counts. --again FILE runs only the mutants a survivors file or
log names (the figure after tests are written against survivors, in
minutes); --resume keeps the outcomes OUT/PKG.log already holds where the
code it names is today's (the package, every package its tests build
and go.mod unchanged) and runs the rest: a run stopped part-way goes on. GL packages (scene) need an
X display: run it under xvfb-run -a (make mutate does).
"""
import argparse
import concurrent.futures as cf
import json
import os
import queue
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

FLIP = {
    'CONDITIONALS_BOUNDARY': {'<=': '<', '>=': '>', '<': '<=', '>': '>='},
    'CONDITIONALS_NEGATION': {'==': '!=', '!=': '==', '<=': '>', '>=': '<', '<': '>=', '>': '<='},
    'ARITHMETIC_BASE': {'+': '-', '-': '+', '*': '/', '/': '*', '%': '*'},
    'INVERT_NEGATIVES': {'-': '+'},  # gremlins turns the token SUB into ADD
    'INCREMENT_DECREMENT': {'++': '--', '--': '++'},
}
# Tests under this many seconds run together in one process.
FAST = 1.0


def mutate(line, kind, col):
    """line with the operator at byte column col changed as kind does, or
    None where no such operator starts there."""
    b = line.encode()
    c = col - 1
    for op, to in sorted(FLIP.get(kind, {}).items(), key=lambda kv: -len(kv[0])):
        if b[c:c + len(op)] == op.encode():
            return (b[:c] + to.encode() + b[c + len(op):]).decode()
    return None


def covers(block, line, col):
    """gremlins' rule (internal/coverage/profile.go): a position is in a
    block when it lies on a line strictly inside it, or on its first line
    from its start column, or on its last line up to its end column."""
    sl, sc, el, ec = block
    if sl < line < el:
        return True
    if sl == el:
        return line == sl and sc <= col <= ec
    return (line == sl and col >= sc) or (line == el and col <= ec)


def skipped(rel, skips):
    return any(rel == d or rel.startswith(d + '/') for d in skips)


def limit(mem_gb):
    def f():
        os.setsid()
        if mem_gb:
            b = mem_gb << 30
            resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return f


def run(cmd, cwd, timeout, mem_gb=0):
    """(returncode, output); returncode None when it ran past timeout (its
    process group is killed)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, errors='replace', preexec_fn=limit(mem_gb))
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('pkg')
    ap.add_argument('--skip', action='append', default=[], help='a folder below PKG left out')
    ap.add_argument('--jobs', type=int, default=os.cpu_count())
    ap.add_argument('--out', default='mutate-out')
    ap.add_argument('--only', help='a regular expression: mutate only the files (below PKG) it finds')
    ap.add_argument('--again', help='run only the mutants this survivors file or log names')
    ap.add_argument('--resume', action='store_true', help='keep the outcomes OUT/PKG.log holds for today\'s code')
    ap.add_argument('--mem-gb', type=int, default=6, help='address space of each test process')
    ap.add_argument('--gremlins', default=os.path.join(
        subprocess.run(['go', 'env', 'GOPATH'], capture_output=True, text=True).stdout.strip(), 'bin', 'gremlins'))
    a = ap.parse_args()
    pkg = a.pkg.strip('/')
    if pkg.startswith('internal/'):
        pkg = pkg[len('internal/'):]
    root = subprocess.run(['git', 'rev-parse', '--show-toplevel'], capture_output=True, text=True,
                          check=True).stdout.strip()
    module = subprocess.run(['go', 'list', '-m'], cwd=root, capture_output=True, text=True,
                            check=True).stdout.strip()
    os.makedirs(a.out, exist_ok=True)
    name = pkg.replace('/', '-')
    t0 = time.time()

    # The packages below PKG that are mutated, and those with tests.
    pkgdir = os.path.join(root, 'internal', pkg)
    mutated, tested = [], []
    for d, _, files in sorted(os.walk(pkgdir)):
        rel = os.path.relpath(d, pkgdir)
        rel = '' if rel == '.' else rel
        if rel and (skipped(rel, a.skip) or any(x.endswith('test') or x == 'testdata' for x in rel.split('/'))):
            continue
        if any(f.endswith('.go') and not f.endswith('_test.go') for f in files):
            mutated.append(rel)
        if any(f.endswith('_test.go') for f in files):
            tested.append(rel)

    def imp(rel):
        return f'{module}/internal/{pkg}' + (f'/{rel}' if rel else '')

    def local(rel):
        return f'./internal/{pkg}' + (f'/{rel}' if rel else '')

    # The code measured: the tree of every folder of the module the test
    # packages build, and go.mod.
    dirs = subprocess.run(['go', 'list', '-deps', '-test', '-f', '{{.Dir}}', local('...')], cwd=root,
                          capture_output=True, text=True, check=True).stdout.split()
    dirs = sorted({os.path.relpath(d, root) for d in dirs if d.startswith(root + '/')} | {'go.mod'})
    state = ' '.join(subprocess.run(['git', 'rev-parse'] + ['HEAD:' + d for d in dirs], cwd=root,
                                    capture_output=True, text=True, check=True).stdout.split())
    state = subprocess.run(['git', 'hash-object', '--stdin'], input=state, cwd=root, capture_output=True,
                           text=True, check=True).stdout.strip()
    dirty = subprocess.run(['git', 'status', '--porcelain', '--'] + dirs, cwd=root, capture_output=True,
                           text=True).stdout.strip()
    if dirty:
        print(f'mutate-run: measuring HEAD; uncommitted changes are left out:\n{dirty}', flush=True)
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=root, capture_output=True,
                            text=True).stdout.strip()
    logpath = os.path.join(a.out, f'{name}.log')
    kept = {}
    if a.resume and os.path.exists(logpath):
        with open(logpath) as f:
            first = f.readline()
            if first.strip() == f'# code {state}':
                for text in f:
                    m = re.match(r'(KILLED|LIVED|TIMED OUT|NOT VIABLE|SKIP)\s+(\S+) at (\S+):(\d+):(\d+) ', text)
                    if m:
                        kept[(m[2], m[3], int(m[4]), int(m[5]))] = (m[1], text)
            else:
                print(f'mutate-run: {logpath} measured other code; starting again', flush=True)
    again = None
    if a.again:
        again = set()
        for text in open(a.again):
            m = re.match(r'internal/' + re.escape(pkg) + r'/(\S+):(\d+):(\d+) (\S+)', text)
            if m:
                again.add((m[4], m[1], int(m[2]), int(m[3])))
                continue
            m = re.search(r'(\S+) at (\S+):(\d+):(\d+)', text)
            if m:
                again.add((m[1], m[2], int(m[3]), int(m[4])))

    # Stopped (SIGTERM, ^C), it still removes its worktrees.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    trees = [tempfile.mkdtemp(prefix=f'mutate-{name}-') for _ in range(a.jobs)]
    for wt in trees:
        subprocess.run(['git', 'worktree', 'add', '-q', '--detach', '-f', wt, 'HEAD'], cwd=root, check=True)
    try:
        # The mutants, as gremlins finds them (its dry run also measures
        # coverage of the whole package: a position it calls not covered
        # no test reaches).
        env = dict(os.environ, GOFLAGS='-count=1 -vet=off')
        r = subprocess.run([a.gremlins, 'unleash', '--dry-run', local('')], cwd=trees[0], env=env,
                           capture_output=True, text=True)
        mutants, not_covered = [], 0
        for text in r.stdout.splitlines():
            m = re.match(r'\s*(RUNNABLE|NOT COVERED) (\S+) at (\S+):(\d+):(\d+)', text)
            if not m or skipped(os.path.dirname(m[3]), a.skip) or \
                    any(p.endswith('test') for p in os.path.dirname(m[3]).split('/') if p):
                continue
            if a.only and not re.search(a.only, m[3]):
                continue
            if again is not None and (m[2], m[3], int(m[4]), int(m[5])) not in again:
                continue
            if m[1] == 'NOT COVERED':
                not_covered += 1
            else:
                mutants.append((m[2], m[3], int(m[4]), int(m[5])))
        if not mutants:
            sys.exit(f'mutate-run: gremlins found no mutants in {local("")}:\n{r.stdout[-2000:]}{r.stderr[-2000:]}')
        print(f'{pkg}: {len(mutants)} mutants, {not_covered} not covered; measuring what each test reaches', flush=True)

        # 1. Each test alone, with coverage.
        coverpkg = ','.join(imp(m) for m in mutated)
        tests = []  # (test package, name, seconds, {file: [blocks]})
        cov = os.path.join(trees[0], '.mutate-cov')
        os.makedirs(cov, exist_ok=True)
        for tp in tested:
            exe = os.path.join(cov, (tp or 'pkg').replace('/', '-') + '.test')
            subprocess.run(['go', 'test', '-c', '-vet=off', '-covermode=set', '-coverpkg', coverpkg, '-o', exe,
                            local(tp)], cwd=trees[0], check=True)
            names = subprocess.run([exe, '-test.list', '.'], cwd=os.path.join(trees[0], local(tp)),
                                   capture_output=True, text=True, check=True).stdout.split()
            names = [n for n in names if not n.startswith('Benchmark')]

            def one(i_n):
                i, n = i_n
                prof = os.path.join(cov, f'{(tp or "pkg").replace("/", "-")}-{i}.out')
                s = time.time()
                rc, out = run([exe, '-test.run', f'^{n}$', '-test.count=1', '-test.coverprofile', prof],
                              os.path.join(trees[0], local(tp)), 1200, a.mem_gb)
                took = time.time() - s
                if rc != 0:
                    print(f'  {local(tp)} {n} fails without a mutant; left out:\n{out[-1500:]}', flush=True)
                    return None
                blocks = {}
                for ln in open(prof):
                    m = re.match(r'(\S+):(\d+)\.(\d+),(\d+)\.(\d+) \d+ (\d+)$', ln)
                    if m and m[6] != '0':
                        f = m[1][len(imp('')) + 1:]
                        blocks.setdefault(f, []).append(tuple(int(x) for x in m.group(2, 3, 4, 5)))
                return (tp, n, took, blocks)

            with cf.ThreadPoolExecutor(a.jobs) as ex:
                tests += [t for t in ex.map(one, enumerate(names)) if t]
        print(f'  {len(tests)} tests, {sum(t[2] for t in tests):.0f} s in all '
              f'({time.time() - t0:.0f} s so far)', flush=True)

        # 2. The mutants.
        free = queue.Queue()
        for wt in trees:
            free.put(wt)
        lock = threading.Lock()
        counts = {'KILLED': 0, 'LIVED': 0, 'TIMED OUT': 0, 'NOT VIABLE': 0, 'SKIP': 0}
        log = open(logpath, 'w')
        log.write(f'# code {state}\n')
        surv = open(os.path.join(a.out, f'{name}-survivors.txt'), 'w')
        done = [0]
        todo = []
        for mu in mutants:
            if mu in kept:
                res, text = kept[mu]
                counts[res] += 1
                log.write(text)
                if res == 'LIVED':
                    surv.write(f'internal/{pkg}/{mu[1]}:{mu[2]}:{mu[3]} {mu[0]} | {text.split(" | ")[1]}\n')
            else:
                todo.append(mu)
        if kept:
            print(f'  {len(mutants) - len(todo)} outcomes kept from {logpath}; {len(todo)} to run', flush=True)

        # A full disk (each mutant's build lands in Go's build cache) fails
        # builds and tests alike: not an outcome. The run stops, logging
        # none, and resumes once there is room.
        stop = []

        def one_mutant(mu):
            if stop:
                return
            kind, f, ln, col = mu
            reach = sorted((t for t in tests if any(covers(b, ln, col) for b in t[3].get(f, ()))),
                           key=lambda t: t[2])
            wt = free.get()
            began = time.time()
            path = os.path.join(wt, 'internal', pkg, f)
            orig = open(path, encoding='utf-8').read()
            lines = orig.split('\n')
            src = lines[ln - 1]
            new = mutate(src, kind, col)
            res, why, out = 'SKIP', '', ''
            try:
                if new is None:
                    why = 'no such operator there'
                elif not reach:
                    # Reached in gremlins' whole run, by no test alone
                    # (a test's leftovers): every test runs.
                    reach = sorted(tests, key=lambda t: t[2])
                if new is not None:
                    lines[ln - 1] = new
                    open(path, 'w', encoding='utf-8').write('\n'.join(lines))
                    res = 'LIVED'
                    exes = {}
                    for tp in dict.fromkeys(t[0] for t in reach):
                        exe = os.path.join(wt, '.mutate-bin', (tp or 'pkg').replace('/', '-') + '.test')
                        rc, out = run(['go', 'test', '-c', '-vet=off', '-o', exe, local(tp)], wt, 600)
                        if rc != 0:
                            res, why = 'NOT VIABLE', out.strip().split('\n')[-1][:200]
                            break
                        exes[tp] = exe
                    # Fast tests together, then the slow ones one by one.
                    groups = []
                    for tp in exes:
                        mine = [t for t in reach if t[0] == tp]
                        fast = [t for t in mine if t[2] < FAST]
                        if fast:
                            groups.append((tp, fast))
                        groups += [(tp, [t]) for t in mine if t[2] >= FAST]
                    groups.sort(key=lambda g: sum(t[2] for t in g[1]))
                    for tp, g in groups if res == 'LIVED' else ():
                        pat = '^(' + '|'.join(t[1] for t in g) + ')$'
                        rc, out = run([exes[tp], '-test.run', pat, '-test.failfast', '-test.count=1'],
                                      os.path.join(wt, local(tp)), 10 + 20 * sum(t[2] for t in g), a.mem_gb)
                        if rc is None:
                            res, why = 'TIMED OUT', g[0][1] if len(g) == 1 else f'{len(g)} tests'
                            break
                        if rc != 0:
                            failed = re.findall(r'^--- FAIL: (\S+)', out, re.M)
                            res, why = 'KILLED', failed[0] if failed else out.strip().split('\n')[-1][:120]
                            break
            finally:
                open(path, 'w', encoding='utf-8').write(orig)
                free.put(wt)
            if 'no space left on device' in out:
                stop.append(f'{f}:{ln}:{col}')
                return
            with lock:
                counts[res] += 1
                done[0] += 1
                log.write(f'{res:10} {kind} at {f}:{ln}:{col} | {src.strip()} | {len(reach)} tests, '
                          f'{time.time() - began:.1f} s | {why}\n')
                log.flush()
                if res == 'LIVED':
                    surv.write(f'internal/{pkg}/{f}:{ln}:{col} {kind} | {src.strip()}\n')
                    surv.flush()
                if done[0] % 100 == 0:
                    print(f'  {done[0]} of {len(mutants)} ({time.time() - t0:.0f} s): {counts}', flush=True)

        with cf.ThreadPoolExecutor(a.jobs) as ex:
            list(ex.map(one_mutant, todo))
        if stop:
            sys.exit(f'mutate-run: no space left on device (at {stop[0]}); stopped, {logpath} keeps the outcomes '
                     'before it: free some (go clean -cache) and run again with --resume')
        k, lv = counts['KILLED'], counts['LIVED']
        summary = {'package': f'internal/{pkg}', 'killed': k, 'lived': lv, 'timed_out': counts['TIMED OUT'],
                   'not_viable': counts['NOT VIABLE'], 'not_covered': not_covered, 'skipped': counts['SKIP'],
                   'kill_ratio': round(100 * k / (k + lv), 1) if k + lv else None,
                   'seconds': round(time.time() - t0), 'code': state, 'commit': commit}
        json.dump(summary, open(os.path.join(a.out, f'{name}.json'), 'w'), indent=1)
        print(json.dumps(summary), flush=True)
    finally:
        for wt in trees:
            subprocess.run(['git', 'worktree', 'remove', '--force', wt], cwd=root, check=False)
            shutil.rmtree(wt, ignore_errors=True)


if __name__ == '__main__':
    main()
