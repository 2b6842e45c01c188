#!/usr/bin/env bash
# Installs the system packages the viewer builds and tests with (cgo
# headers for GLFW, Mesa's software OpenGL, Xvfb, and the Draco and
# meshoptimizer decoders the loader links). Quiet and quick when
# everything is already there.
set -euo pipefail

pkgs=(libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev
      libxi-dev libxxf86vm-dev xvfb xauth libgl1-mesa-dri
      libdraco-dev libmeshoptimizer-dev)
# "setup.sh oracle": also what the reference renderer (make oracle) runs
# on, headless Chromium and Node.
if [ "${1:-}" = oracle ]; then
	pkgs+=(chromium-headless-shell)
	# Node may come from elsewhere than Debian; take Debian's only when
	# there is none.
	command -v npm >/dev/null 2>&1 || pkgs+=(nodejs npm)
fi

# The loader's decoders need these headers; without them the build stops
# in cgo with a longer message, so name the package here first.
check_headers() {
	local inc
	for inc in draco/compression/decode.h:libdraco-dev meshoptimizer.h:libmeshoptimizer-dev; do
		if ! echo "#include <${inc%%:*}>" | ${CXX:-c++} -std=c++17 -x c++ -fsyntax-only - >/dev/null 2>&1; then
			echo "setup: ${inc%%:*} is missing: install ${inc##*:}" >&2
			return 1
		fi
	done
}

if ! command -v dpkg >/dev/null 2>&1; then
	echo "setup: not a Debian-like system; install the equivalents of: ${pkgs[*]}" >&2
	command -v xvfb-run >/dev/null 2>&1 || echo "setup: xvfb-run is missing; GL tests need it" >&2
	check_headers
	exit $?
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	check_headers
	exit $?
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "setup: missing system packages: ${missing[*]}" >&2
	echo "setup: install them with: sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
check_headers
echo "setup: done"
