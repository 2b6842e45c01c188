#!/usr/bin/env bash
# Mutation testing (make mutate): each package's code is changed one
# operator at a time (gremlins v0.6.0's mutants: arithmetic, comparisons,
# boundaries, signs, ++/--) and the tests that reach the change run; a
# mutant no test notices "lived". The kill ratio is killed / (killed +
# lived); mutants no test reaches (not covered), that time out or that do
# not build are counted apart. scripts/mutate-run.py runs one package and
# says how.
#
#   JOBS=2 make mutate           mutants at once (default: the CPU count)
#   PKGS="anim" make mutate      the packages (default: anim anim/graph skin gltfload ui asset character scene)
#   OUT=dir                      where logs, JSON and survivors go (mutate-out)
#   MEM_GB=6                     address space each test process may use
#   RESUME=1 make mutate         keep a stopped run's outcomes for unchanged code, run the rest
set -euo pipefail
GO=${GO:-go}
if [ -z "${DISPLAY:-}" ]; then
	echo "mutate: scene's tests need an X display: run it as make mutate (under Xvfb) or xvfb-run -a $0" >&2
	exit 1
fi
version=v0.6.0
bin=$($GO env GOPATH)/bin/gremlins
# A go-installed gremlins says "version dev"; its module version is in the
# binary's build information.
if ! $GO version -m "$bin" 2>/dev/null | grep -q "mod[[:space:]]*github.com/go-gremlins/gremlins[[:space:]]*$version"; then
	echo "installing gremlins $version"
	$GO install github.com/go-gremlins/gremlins/cmd/gremlins@$version
fi
jobs=${JOBS:-$(nproc)}
pkgs=${PKGS:-anim anim/graph skin gltfload ui asset character scene}
out=${OUT:-mutate-out}
mkdir -p "$out"
: >"$out/survivors.txt"

for p in $pkgs; do
	# A package below another in the list is measured on its own.
	skip=()
	for q in $pkgs; do
		if [[ $q == "$p"/* ]]; then
			skip+=(--skip "${q#"$p"/}")
		fi
	done
	resume=()
	if [ -n "${RESUME:-}" ]; then
		resume=(--resume)
	fi
	name=${p//\//-}
	rm -f "$out/$name.json"
	echo "== internal/$p"
	scripts/mutate-run.py "$p" "${skip[@]}" "${resume[@]}" --jobs "$jobs" --out "$out" \
		--mem-gb "${MEM_GB:-6}" --gremlins "$bin" || echo "mutate: internal/$p did not finish"
	cat "$out/$name-survivors.txt" >>"$out/survivors.txt" 2>/dev/null || true
done

echo
printf '%-20s %8s %8s %10s %11s %12s %10s\n' package killed lived "timed out" "not viable" "not covered" "kill ratio"
for p in $pkgs; do
	j=$out/${p//\//-}.json
	[ -f "$j" ] || continue
	python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
r = "-" if s["kill_ratio"] is None else "%.1f %%" % s["kill_ratio"]
print("%-20s %8d %8d %10d %11d %12d %10s" % (s["package"], s["killed"], s["lived"], s["timed_out"],
      s["not_viable"], s["not_covered"], r))' "$j"
done
echo "surviving mutants: $out/survivors.txt"
