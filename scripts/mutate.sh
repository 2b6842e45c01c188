#!/usr/bin/env bash
# Mutation testing (make mutate): gremlins mutates internal/anim,
# anim/graph, skin, gltfload, ui, asset, character and scene one change at
# a time and runs each package's tests; a mutant the tests do not notice
# "lived". The kill ratio is killed / (killed + lived); mutants no test
# reaches are counted apart (not covered).
#
# gremlins v0.6.0 with --workers above 1 reports mutants killed that a
# single worker (and a hand-applied change) shows alive, so each gremlins
# runs one worker, and the files of a package are dealt to JOBS shards that
# run side by side, each in its own copy of the module.
#
#   JOBS=16 make mutate          shards at once (default: the CPU count)
#   PKGS="anim" make mutate      the packages (default: anim anim/graph skin gltfload ui asset character scene)
#   OUT=dir                      where logs, JSON and survivors go (mutate-out)
#   MEM_GB=6                     address space each shard (and its tests) may use
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
rm -rf "$out"
mkdir -p "$out"

# One line per shard: package, shard number, then the -E patterns that
# leave out every file of the package not dealt to it. A package's files
# are its own and those of its folders below (gltfload/codec, tested
# through the loader), less the packages below it that run on their own
# and the test-only packages (folders named *test: animtest, assettest,
# compresstest), whose mutants would be mutants of the tests.
for p in $pkgs; do
	skip=()
	for q in $pkgs; do
		if [[ $q == "$p"/* ]]; then
			skip+=("${q#"$p"/}")
		fi
	done
	mapfile -t testdirs < <(cd "internal/$p" && find . -mindepth 1 -type d -name '*test' | sed 's|^\./||')
	skip+=("${testdirs[@]}")
	mapfile -t files < <(cd "internal/$p" && find . -name '*.go' ! -name '*_test.go' | sed 's|^\./||' | sort |
		while read -r f; do
			keep=1
			for d in "${skip[@]}"; do
				if [[ $f == "$d"/* ]]; then keep=0; fi
			done
			if ((keep)); then echo "$f"; fi
		done)
	below=""
	for d in "${skip[@]}"; do
		below+=" -E (^|/)$d/"
	done
	for ((s = 0; s < jobs && s < ${#files[@]}; s++)); do
		line="$p $s$below"
		for i in "${!files[@]}"; do
			if ((i % jobs != s)); then
				line+=" -E (^|/)${files[$i]//./[.]}\$"
			fi
		done
		echo "$line"
	done
done >"$out/shards"

run_shard() {
	local p=$1 s=$2
	local name=${p//\//-} # anim/graph's files are anim-graph-*
	shift 2
	# A mutated size or loop bound can make a test allocate without end;
	# capped, it dies (and counts as killed) instead of swapping the
	# machine to a halt.
	ulimit -v $((${MEM_GB:-6} << 20))
	# go test's vet is off: a mutant vet complains of would count as
	# killed without a test failing, and vet takes a tenth of a mutant's
	# time.
	GOFLAGS="-count=1 -vet=off" "$bin" unleash --workers 1 --timeout-coefficient 40 "$@" \
		-o "$out/$name-$s.json" "./internal/$p" >"$out/$name-$s.log" 2>&1 || true
	echo "  $p shard $s done"
}
export -f run_shard
export bin out
echo "mutation testing $pkgs in $(wc -l <"$out/shards") shards, $jobs at a time (logs in $out/)"
xargs -P "$jobs" -L 1 bash -c 'run_shard "$@"' _ <"$out/shards"

# The report: per package, from the shards' JSON.
num() { grep -o "\"$1\": *[0-9]*" "$2" | grep -o '[0-9]*$' || echo 0; }
printf '%-10s %8s %8s %8s %12s %10s\n' package killed lived "timed out" "not covered" "kill ratio"
: >"$out/survivors.txt"
for p in $pkgs; do
	k=0 l=0 nc=0 to=0
	name=${p//\//-}
	for j in "$out/$name"-[0-9]*.json; do
		[ -f "$j" ] || continue
		k=$((k + $(num mutants_killed "$j")))
		l=$((l + $(num mutants_lived "$j")))
		nc=$((nc + $(num mutants_not_covered "$j")))
	done
	for g in "$out/$name"-[0-9]*.log; do
		to=$((to + $(tr '\r' '\n' <"$g" | grep -c 'TIMED OUT' || true)))
	done
	# gremlins runs the tests of a mutant's own package, so a sub-folder's
	# mutants (gltfload/codec, tested through the loader) that live there
	# are applied again, one at a time, and run against the package's
	# tests (scripts/mutants-again.py); those are what counts.
	lived=$(cat "$out/$name"-[0-9]*.log 2>/dev/null | tr '\r' '\n' | grep 'LIVED' || true)
	below=$(grep ' at [^ ]*/' <<<"$lived" || true)
	if [ -n "$below" ]; then
		echo "$below" >"$out/$name-below.log"
		echo "  $p: $(wc -l <<<"$below") mutants of its sub-folders lived in their own package; again against $p's tests"
		scripts/mutants-again.py "$p" "$out/$name-below.log" >"$out/$name-below.txt" 2>&1 || true
		again=$(grep -c '^KILLED' "$out/$name-below.txt" || true)
		k=$((k + again))
		l=$((l - again))
		lived=$(grep -v -w -F -f <(grep '^KILLED' "$out/$name-below.txt" | awk '{print $3}') <<<"$lived" || true)
	fi
	if [ -n "$lived" ]; then
		sed "s|.* at |internal/$p/|" <<<"$lived" >>"$out/survivors.txt"
	fi
	ratio=$(awk -v k=$k -v l=$l 'BEGIN { if (k + l > 0) printf "%.1f %%", 100 * k / (k + l); else print "-" }')
	printf '%-10s %8d %8d %8d %12d %10s\n' "$p" $k $l $to $nc "$ratio"
done
echo "surviving mutants: $out/survivors.txt"
