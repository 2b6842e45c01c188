#!/usr/bin/env bash
# Compares the viewer's picture with the reference renderer's (three.js in
# headless Chromium, ../shared/imgoracle) on every model under the folders
# given: the base colour view at the reference's camera, at 37 % of the
# first clip, by silhouette IoU (at least 0.98) and mean CIE76 ΔE over the
# pixels both cover (at most 3).
#
# Usage: tools/oracle/compare.sh [DIR ...]   (default: ../shared/gltf-corpus/valid)
# Needs: bin/viewer, xvfb-run, node, chromium-headless-shell and the
# oracle's npm packages (ORACLE=dir with node_modules; the script copies
# ../shared/imgoracle to a scratch folder and runs npm install there when
# ORACLE is not set).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$HERE/../.."
VIEWER="${VIEWER:-$ROOT/bin/viewer}"
DIRS=("$@")
[ ${#DIRS[@]} -eq 0 ] && DIRS=("$ROOT/../shared/gltf-corpus/valid")
WORK="$(mktemp -d /tmp/oracle_cmp.XXXXXX)"
SIZE=320 BG=255,0,255 FOV=45
# MODE=lit compares -lighting three with the reference's lit frame
# (mean ΔE at most 6); the default, the base colour views (IoU at least
# 0.98, mean ΔE at most 3).
MODE=${MODE:-basecolor}
if [ "$MODE" = lit ]; then
	VIEW=(-lighting three); MIN_IOU=${MIN_IOU:-0.98} MAX_DE=${MAX_DE:-6}
else
	VIEW=(-view basecolor); MIN_IOU=${MIN_IOU:-0.98} MAX_DE=${MAX_DE:-3}
fi

if [ -z "${ORACLE:-}" ]; then
	ORACLE="$WORK/imgoracle"
	cp -r "$ROOT/../shared/imgoracle" "$ORACLE" || { echo "oracle: ../shared/imgoracle is missing" >&2; exit 2; }
	(cd "$ORACLE" && npm install --silent >/dev/null 2>&1) || { echo "oracle: npm install failed in $ORACLE" >&2; exit 2; }
fi
command -v chromium-headless-shell >/dev/null 2>&1 || { echo "oracle: chromium-headless-shell is missing (apt-get install chromium-headless-shell)" >&2; exit 2; }
go build -o "$WORK/imgcompare" "$ROOT/tools/imgcompare" || exit 2

pass=0 fail=0 skipped=0
FAILED=()
printf '%-44s %7s %7s %6s  %s\n' model time iou de verdict
while IFS= read -r model; do
	name="${model#*/gltf-corpus/}"; name="${name#"$(realpath "$ROOT")/"}"
	info="$("$VIEWER" -info "$model" 2>&1)" || { printf '%-44s refused: %s\n' "$name" "$(echo "$info" | head -1)"; skipped=$((skipped+1)); continue; }
	if ! echo "$info" | grep -q ' triangles'; then
		printf '%-44s no mesh\n' "$name"; skipped=$((skipped+1)); continue
	fi
	dur="$(echo "$info" | sed -n 's/^clip 0 .*: \([0-9.]*\) s,.*/\1/p' | head -1)"
	t="$(python3 -c "print(round(0.37*float('${dur:-0}'), 4))")"
	clip=0; [ -z "$dur" ] && clip=-1
	ref="$WORK/ref.png" out="$WORK/out.png"
	cam="$(cd "$ORACLE" && node render.mjs --model "$model" --out "$ref" --clip $clip --time "$t" --w $SIZE --h $SIZE --fov $FOV --mode "$MODE" --bg $BG --aa 1 2>&1 | grep '"camera"' | tail -1)"
	if [ -z "$cam" ]; then
		printf '%-44s reference renderer failed\n' "$name"; fail=$((fail+1)); FAILED+=("$name"); continue
	fi
	eye="$(echo "$cam" | python3 -c 'import json,sys; c=json.load(sys.stdin)["camera"]; print(",".join(repr(v) for v in c["eye"]))')"
	target="$(echo "$cam" | python3 -c 'import json,sys; c=json.load(sys.stdin)["camera"]; print(",".join(repr(v) for v in c["target"]))')"
	if ! xvfb-run -a "$VIEWER" -screenshot "$out" -size ${SIZE}x$SIZE -time "$t" "${VIEW[@]}" -eye "$eye" -target "$target" -fov $FOV -bg $BG "$model" >"$WORK/viewer.log" 2>&1; then
		printf '%-44s viewer failed: %s\n' "$name" "$(tail -1 "$WORK/viewer.log")"; fail=$((fail+1)); FAILED+=("$name"); continue
	fi
	res="$("$WORK/imgcompare" "$out" $BG "$ref" $BG)"
	read -r iou de <<<"$(echo "$res" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["iou"], r["mean_de"])')"
	verdict="$(python3 -c "print('ok' if $iou >= $MIN_IOU and $de <= $MAX_DE else 'FAIL')")"
	known="$(grep -v '^#' "$HERE/known.txt" | while IFS=$'\t' read -r suffix why; do case "$model" in *"$suffix") echo "$why";; esac; done)"
	if [ "$verdict" = FAIL ] && [ -n "$known" ]; then
		printf '%-44s %7s %7.4f %6.2f  known: %s\n' "$name" "$t" "$iou" "$de" "$known"
		skipped=$((skipped+1)); continue
	fi
	printf '%-44s %7s %7.4f %6.2f  %s\n' "$name" "$t" "$iou" "$de" "$verdict"
	if [ "$verdict" = ok ]; then pass=$((pass+1)); else fail=$((fail+1)); FAILED+=("$name"); cp "$out" "$WORK/$(basename "$model").viewer.png"; cp "$ref" "$WORK/$(basename "$model").ref.png"; fi
done < <(find "${DIRS[@]}" -type f \( -name '*.gltf' -o -name '*.glb' \) -exec realpath {} + | sort)
echo "oracle: $pass passed, $fail failed, $skipped without a comparison (no mesh, or a known difference of the reference) (pictures of failures in $WORK)"
[ $fail -eq 0 ]
