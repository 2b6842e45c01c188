#!/usr/bin/env bash
# Cross-checks bin/viewer -dump-pose against gltfref.py, an independent
# Python implementation of glTF 2.0 animation and skinning (standard library only).
# Usage: run_all.sh [DIR ...]   (default: ../shared/gltf-corpus/valid)
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
VIEWER="${VIEWER:-$HERE/../../bin/viewer}"
REF="${REF:-$HERE/gltfref.py}"
CMP="$HERE/compare.py"
DIRS=("$@")
[ ${#DIRS[@]} -eq 0 ] && DIRS=("$HERE/../../../shared/gltf-corpus/valid")
WORK="$(mktemp -d /tmp/gltfref_run.XXXXXX)"
pass=0; fail=0; errs=0
FAILED=()

while IFS= read -r model; do
  # "clip<TAB>t1 t2 ..." per clip; clip-less files give "-<TAB>0 1"
  plan="$(python3 "$REF" "$model" --list-clips | python3 -c '
import json, sys
clips = json.load(sys.stdin)
def fmt(x):
    r = repr(float(x))
    return r
if not clips:
    print("-\t0 1")
for c in clips:
    d = c["duration"]
    ts = []
    for t in (0.0, 0.25*d, 0.5*d, 0.77*d, d, d+1.0):
        s = fmt(t)
        if s not in ts: ts.append(s)
    print("%d\t%s" % (c["index"], " ".join(ts)))
')"
  if [ -z "$plan" ]; then
    echo "ERROR  $model  (reference could not list clips)"; errs=$((errs+1)); continue
  fi
  while IFS=$'\t' read -r clip times; do
    for t in $times; do
      line_status=PASS; detail=""; extra=""
      for mode in joints all; do
        rargs=(--time "$t"); vargs=(-time "$t")
        if [ "$clip" != "-" ]; then rargs+=(--clip "$clip"); vargs+=(-clip "$clip"); fi
        if [ $mode = all ]; then rargs+=(--all-nodes); vargs+=(-all-nodes); fi
        r="$WORK/ref.json"; v="$WORK/viewer.json"; rm -f "$r" "$v"
        if ! python3 "$REF" "$model" "${rargs[@]}" > "$r" 2> "$WORK/ref.err"; then
          line_status=FAIL; detail+=" [$mode: reference error: $(tail -1 "$WORK/ref.err")]"; continue
        fi
        if ! "$VIEWER" -dump-pose "$v" "${vargs[@]}" "$model" > "$WORK/viewer.out" 2>&1; then
          line_status=FAIL; detail+=" [$mode: viewer error: $(tail -1 "$WORK/viewer.out")]"; continue
        fi
        out="$(python3 "$CMP" "$r" "$v")"; rc=$?
        first="$(printf '%s\n' "$out" | head -1)"
        rw="$(printf '%s' "$first" | sed -n 's/.*max_rel_world=\([^ ]*\).*/\1/p')"
        rp="$(printf '%s' "$first" | sed -n 's/.*max_rel_pos=\([^ ]*\).*/\1/p')"
        detail+=" $mode:world=$rw,pos=$rp"
        if [ $rc -ne 0 ]; then
          line_status=FAIL
          extra+="$(printf '%s\n' "$out" | sed "s/^/      [$mode] /")"$'\n'
        fi
      done
      printf '%s  %s  clip=%s  t=%s %s\n' "$line_status" "$model" "$clip" "$t" "$detail"
      [ -n "$extra" ] && printf '%s' "$extra"
      if [ $line_status = PASS ]; then pass=$((pass+1)); else fail=$((fail+1)); FAILED+=("$model clip=$clip t=$t"); fi
    done
  done <<< "$plan"
done < <(for d in "${DIRS[@]}"; do find "$d" -type f \( -name '*.gltf' -o -name '*.glb' \); done | sort)

echo "SUMMARY: $pass passed, $fail failed, $errs errors ($((pass+fail)) (file,clip,time) cases, each checked joints-only and -all-nodes)"
for f in "${FAILED[@]+"${FAILED[@]}"}"; do echo "  FAILED: $f"; done
rm -rf "$WORK"
[ $fail -eq 0 ] && [ $errs -eq 0 ]
