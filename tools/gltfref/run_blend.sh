#!/usr/bin/env bash
# Cross-checks the viewer's -blend / -additive (-dump-pose) against gltfref.py's
# --blend / --additive (an independent Python implementation, standard library only).
# Usage: run_blend.sh [CORPUS_VALID_DIR]   (default: ../shared/gltf-corpus/valid)
# Env: VIEWER (default bin/viewer), REF (default gltfref.py), TOL (default 1e-4),
#      TOP (offenders listed per failure, default 4)
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
VIEWER="${VIEWER:-$HERE/../../bin/viewer}"
REF="${REF:-$HERE/gltfref.py}"
CMP="$HERE/compare.py"
TOL="${TOL:-1e-4}"
TOP="${TOP:-4}"
CORPUS="${1:-$HERE/../../../shared/gltf-corpus/valid}"
WORK="$(mktemp -d /tmp/gltfref_blend.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
pass=0; fail=0; hdrfail=0
FAILED=()

# run_case MODEL LABEL BASE BLEND ADDITIVE TIMES...
#   BASE: clip name for -clip/--clip, or - ; BLEND / ADDITIVE: spec, or -
run_case() {
  local model="$1" label="$2" base="$3" blend="$4" add="$5"; shift 5
  local t mode
  for t in "$@"; do
    local line_status=PASS detail="" extra="" posefail=0
    for mode in joints all; do
      local rargs=(--time "$t") vargs=(-time "$t")
      [ "$base" != "-" ] && { rargs+=(--clip "$base"); vargs+=(-clip "$base"); }
      [ "$blend" != "-" ] && { rargs+=(--blend "$blend"); vargs+=(-blend "$blend"); }
      [ "$add" != "-" ] && { rargs+=(--additive "$add"); vargs+=(-additive "$add"); }
      [ $mode = all ] && { rargs+=(--all-nodes); vargs+=(-all-nodes); }
      local r="$WORK/ref.json" v="$WORK/viewer.json"; rm -f "$r" "$v"
      if ! python3 "$REF" "$model" "${rargs[@]}" > "$r" 2> "$WORK/ref.err"; then
        line_status=FAIL; posefail=1; detail+=" [$mode: reference error: $(tail -1 "$WORK/ref.err")]"; continue
      fi
      if ! "$VIEWER" -dump-pose "$v" "${vargs[@]}" "$model" > "$WORK/viewer.out" 2>&1; then
        line_status=FAIL; posefail=1; detail+=" [$mode: viewer error: $(tail -1 "$WORK/viewer.out")]"; continue
      fi
      local out rc first rw rp hdr
      out="$(python3 "$CMP" "$r" "$v" --tol "$TOL" --top "$TOP")"; rc=$?
      [ $rc -ne 0 ] && posefail=1
      first="$(printf '%s\n' "$out" | head -1)"
      rw="$(printf '%s' "$first" | sed -n 's/.*max_rel_world=\([^ ]*\).*/\1/p')"
      rp="$(printf '%s' "$first" | sed -n 's/.*max_rel_pos=\([^ ]*\).*/\1/p')"
      detail+=" $mode:world=$rw,pos=$rp"
      # header fields: "clip" must be null and "time" must be T in these modes
      hdr="$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); t = float(sys.argv[2])
bad = []
if d.get("clip") is not None: bad.append("clip=%r (want null)" % d.get("clip"))
if not isinstance(d.get("time"), (int, float)) or abs(d["time"] - t) > 1e-6: bad.append("time=%r (want %r)" % (d.get("time"), t))
print("; ".join(bad))' "$v" "$t" 2>&1)"
      if [ -n "$hdr" ]; then
        rc=1; out+=$'\n'"  viewer header: $hdr"
      fi
      if [ $rc -ne 0 ]; then
        line_status=FAIL
        extra+="$(printf '%s\n' "$out" | sed "s/^/      [$mode] /")"$'\n'
      fi
    done
    local why=""
    if [ $line_status = FAIL ] && [ $posefail -eq 0 ]; then why="(header only)"; hdrfail=$((hdrfail+1)); fi
    printf '%s%s  %s  %s  t=%s %s\n' "$line_status" "$why" "$(basename "$model")" "$label" "$t" "$detail"
    [ -n "$extra" ] && printf '%s' "$extra"
    if [ $line_status = PASS ]; then pass=$((pass+1)); else fail=$((fail+1)); FAILED+=("$(basename "$model") $label t=$t $why"); fi
  done
}

# ---------------------------------------------------------------- Fox
# 4.0 is past every Fox clip (Survey lasts 3.417 s): all clips clamped at their ends
FOX_T=(0 0.3 0.55 1.0 2.5 4.0)
for fox in "$CORPUS/Fox/Fox.glb" "$CORPUS/Fox/Fox_embedded.gltf"; do
  [ -f "$fox" ] || { echo "ERROR  missing $fox"; fail=$((fail+1)); FAILED+=("missing $fox"); continue; }
  run_case "$fox" "blend=Walk:0.7,Run:0.3" - "Walk:0.7,Run:0.3" - "${FOX_T[@]}"
  run_case "$fox" "blend=Survey:1,Walk:1" - "Survey:1,Walk:1" - "${FOX_T[@]}"
  run_case "$fox" "blend=Survey:0.2,Walk:0.3,Run:0.5" - "Survey:0.2,Walk:0.3,Run:0.5" - "${FOX_T[@]}"
  for base in Walk Survey; do
    for add in "Survey:1" "Walk:0.5@0.2" "Run:1@0.5"; do
      run_case "$fox" "clip=$base additive=$add" "$base" - "$add" "${FOX_T[@]}"
    done
  done
  # additive weights other than 0, 0.5 and 1 tell slerp(identity, delta, w) from nlerp
  run_case "$fox" "clip=Walk additive=Survey:0.3" Walk - "Survey:0.3" "${FOX_T[@]}"
  run_case "$fox" "clip=Survey additive=Run:0.7@0.5" Survey - "Run:0.7@0.5" "${FOX_T[@]}"
  run_case "$fox" "blend=Walk:0.7,Run:0.3 additive=Survey:0.5@0.25" - "Walk:0.7,Run:0.3" "Survey:0.5@0.25" "${FOX_T[@]}"
  run_case "$fox" "blend=Survey:0.2,Walk:0.3,Run:0.5 additive=Run:1@0.5" - "Survey:0.2,Walk:0.3,Run:0.5" "Run:1@0.5" "${FOX_T[@]}"
done

# ---------------------------------------------------------------- InterpolationTest
# 9 clips, each animating a different node (no skins: only -all-nodes output has
# nodes). 1.69 lies between the two clip durations (1.667 / 1.708): per-clip clamping.
IT="$CORPUS/InterpolationTest/InterpolationTest.glb"
IT_T=(0 0.3 0.55 1.0 1.69 2.5)
if [ -f "$IT" ]; then
  # joints-only output is empty here, so both modes compare; "all" is the real check
  run_case "$IT" "blend=LinRot:1,StepRot:1" - "Linear Rotation:1,Step Rotation:1" - "${IT_T[@]}"
  run_case "$IT" "blend=LinRot:0.25,CubicRot:0.75" - "Linear Rotation:0.25,CubicSpline Rotation:0.75" - "${IT_T[@]}"
  run_case "$IT" "blend=LinTr:1,CubicTr:2,StepTr:1" - "Linear Translation:1,CubicSpline Translation:2,Step Translation:1" - "${IT_T[@]}"
  run_case "$IT" "blend=LinSc:1,StepSc:1,CubicSc:1" - "Linear Scale:1,Step Scale:1,CubicSpline Scale:1" - "${IT_T[@]}"
  run_case "$IT" "blend=LinRot:1,LinTr:1,LinSc:1" - "Linear Rotation:1,Linear Translation:1,Linear Scale:1" - "${IT_T[@]}"
  run_case "$IT" "clip=StepRot additive=LinRot:0.5" "Step Rotation" - "Linear Rotation:0.5" "${IT_T[@]}"
  run_case "$IT" "clip=StepRot additive=LinRot:0.3" "Step Rotation" - "Linear Rotation:0.3" "${IT_T[@]}"
  run_case "$IT" "clip=LinRot additive=LinRot:0.5@0.875" "Linear Rotation" - "Linear Rotation:0.5@0.875" "${IT_T[@]}"
  run_case "$IT" "clip=StepRot additive=LinSc:0.5@0.42" "Step Rotation" - "Linear Scale:0.5@0.42" "${IT_T[@]}"
  run_case "$IT" "clip=StepSc additive=CubicSc:0.7@0.42" "Step Scale" - "CubicSpline Scale:0.7@0.42" "${IT_T[@]}"
  run_case "$IT" "clip=LinTr additive=CubicTr:1@0.5" "Linear Translation" - "CubicSpline Translation:1@0.5" "${IT_T[@]}"
  run_case "$IT" "blend=LinRot:1,StepRot:1 additive=CubicRot:0.6@0.3" - "Linear Rotation:1,Step Rotation:1" "CubicSpline Rotation:0.6@0.3" "${IT_T[@]}"
else
  echo "ERROR  missing $IT"; fail=$((fail+1)); FAILED+=("missing $IT")
fi

echo "SUMMARY: $pass passed, $fail failed ($((fail-hdrfail)) pose/run failures, $hdrfail header-only: viewer's \"clip\"/\"time\" fields) ($((pass+fail)) (file,combination,time) cases, each checked joints-only and -all-nodes)"
for f in "${FAILED[@]+"${FAILED[@]}"}"; do echo "  FAILED: $f"; done
[ $fail -eq 0 ]
