# The project's front door: make run, make test.
GO      ?= go
BIN     := bin/viewer
XVFB    := xvfb-run -a -s "-screen 0 1280x1024x24"
CORPUS  ?= ../shared/gltf-corpus

.PHONY: all setup build run test bench golden lint assets corpus crosscheck crosscheck-blend clean fuzz mutate oracle

all: build

setup:
	@./scripts/setup.sh

# The viewer is built with Go's SIMD experiment on amd64 (Go 1.26 has it):
# the engine then picks AVX2 or AVX-512 kernels at start-up where they
# measure faster. Elsewhere, or where that build fails (its first errors
# are shown), it builds portable.
build:
	@arch=$$($(GO) env GOARCH) || exit 1; \
	if [ "$$arch" != amd64 ]; then \
		$(GO) build -o $(BIN) ./cmd/viewer && echo "built $(BIN) (portable kernels: the SIMD ones are for amd64, this is $$arch)"; \
		exit $$?; \
	fi; \
	log=$$(mktemp) || exit 1; \
	if GOEXPERIMENT=simd $(GO) build -o $(BIN) ./cmd/viewer 2>"$$log"; then \
		echo "built $(BIN) with GOEXPERIMENT=simd (AVX2/AVX-512 kernels where the CPU has them)"; \
	else \
		echo "the GOEXPERIMENT=simd build failed; building portable:"; head -5 "$$log"; \
		$(GO) build -o $(BIN) ./cmd/viewer && echo "built $(BIN) (portable kernels)"; \
	fi; \
	st=$$?; rm -f "$$log"; exit $$st

# With a display: the interactive viewer on the built-in character.
# Without one: a screenshot rendered under Xvfb, and its path.
run: setup build
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then \
		./$(BIN) $(MODEL); \
	else \
		mkdir -p screenshots; \
		$(XVFB) ./$(BIN) -screenshot screenshots/run.png -time 0.5 $(MODEL) && \
		echo "no display: rendered the viewer offscreen to $$(pwd)/screenshots/run.png"; \
	fi

# GL tests run under Xvfb on Mesa's software rasterizer, so they behave the
# same on every machine.
test: setup
	$(GO) vet ./...
	$(XVFB) $(GO) test -count=1 ./...
	@# Again as make build builds the viewer on amd64: GOEXPERIMENT=simd,
	@# the SIMD kernels (AVX2/AVX-512 picked at run time) against the
	@# portable ones, the workload's checksums, and every viewer test on
	@# them. (On other architectures this run repeats the portable one.)
	GOEXPERIMENT=simd $(GO) vet ./internal/anim/...
	GOEXPERIMENT=simd $(XVFB) $(GO) test -count=1 ./...
	@# The fuzzers briefly, by execution count: a time limit can end a run
	@# in the middle of minimizing an input and fail it (context deadline).
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 60000x -fuzzminimizetime 200x ./internal/gltfload
	$(GO) test -run '^$$' -fuzz '^FuzzSample$$' -fuzztime 150000x -fuzzminimizetime 200x ./internal/anim
	$(GO) test -run '^$$' -fuzz '^FuzzWebPTexture$$' -fuzztime 20000x -fuzzminimizetime 200x ./internal/gltfload
	$(GO) test -run '^$$' -fuzz '^FuzzDraco$$' -fuzztime 30000x -fuzzminimizetime 200x ./internal/gltfload/codec
	$(GO) test -run '^$$' -fuzz '^FuzzMeshopt$$' -fuzztime 30000x -fuzzminimizetime 200x ./internal/gltfload/codec

bench:
	$(XVFB) $(GO) test -run '^$$' -bench . -benchmem ./internal/...
	@# Blend2Palette-100 and Crowd-1000 (../shared/bench/BLEND2PALETTE-100.md):
	@# 5 runs of 1 s each, portable build then GOEXPERIMENT=simd (kernels
	@# chosen at run time), and the median of each figure.
	@for exp in default simd; do \
		x=$$exp; [ $$x = default ] && x=; out=$$(mktemp); \
		echo "== Blend2Palette-100 and Crowd-1000, GOEXPERIMENT=$$exp"; \
		GOEXPERIMENT=$$x $(GO) test -run '^$$' -bench 'Blend2Palette100$$|Crowd1000' -benchmem -count 5 ./internal/anim/... | tee $$out | grep -E '^(Benchmark|cpu)'; \
		echo "-- median of 5 (GOEXPERIMENT=$$exp):"; \
		awk '/^Benchmark/ { v = ""; a = "?"; for (i = 3; i <= NF; i++) { if ($$i == "ns/joint" || $$i == "ms/frame") { v = $$(i-1); u = $$i } if ($$i == "allocs/op") a = $$(i-1) } if (v != "") print $$1, v, u, a }' $$out | \
			sort -k1,1 -k2,2g | \
			awk '{ n[$$1]++; v[$$1, n[$$1]] = $$2; u[$$1] = $$3; a[$$1] = $$4 } END { for (k in n) printf "%-50s %10s %-8s %s allocs/op\n", k, v[k, int((n[k] + 1) / 2)], u[k], a[k] }' | sort; \
		rm -f $$out; \
	done

# Rewrites every golden image; look at each before committing it.
golden: setup
	GOLDEN_UPDATE=1 $(XVFB) $(GO) test -count=1 ./...

lint:
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...

# Regenerates the built-in assets byte for byte.
assets:
	$(GO) generate ./assets/...

clean:
	rm -rf bin screenshots

# Loads, poses and renders every model under CORPUS (files under an
# "invalid" folder must be refused); screenshots land in corpus-out/.
corpus: setup build
	$(XVFB) ./$(BIN) -corpus $(CORPUS) -out corpus-out -size 480x480

# Compares -dump-pose, clip by clip and at six times each, with an
# independent Python implementation of the glTF specification.
crosscheck: build
	./tools/gltfref/run_all.sh $(CORPUS)/valid

# The base colour view and -lighting three against the reference renderer
# (three.js in headless Chromium, ../shared/imgoracle) on every corpus model
# and edge asset, at the reference's camera: silhouette IoU >= 0.98, mean
# CIE76 colour difference <= 3 (base colour) and <= 6 (lit)
# (tools/oracle/compare.sh; tools/oracle/known.txt lists where the reference
# is wrong).
oracle: setup build
	@./scripts/setup.sh oracle
	./tools/oracle/compare.sh $(CORPUS)/valid assets/edge
	MODE=lit ./tools/oracle/compare.sh $(CORPUS)/valid assets/edge

# Longer fuzzing runs: FUZZTIME per target (default 2m).
FUZZTIME ?= 2m
fuzz:
	$(GO) test ./internal/gltfload -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./internal/gltfload -run '^$$' -fuzz '^FuzzWebPTexture$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./internal/gltfload/codec -run '^$$' -fuzz '^FuzzDraco$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./internal/gltfload/codec -run '^$$' -fuzz '^FuzzMeshopt$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./internal/anim -run '^$$' -fuzz '^FuzzSample$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s

# Mutation testing of internal/anim, anim/graph, skin, gltfload, ui,
# asset, character and scene (gremlins' mutants, installed on first use;
# each mutant against the tests that reach it): the kill ratio per
# package, and the surviving mutants in mutate-out/survivors.txt. Long:
# some 9000 mutants at 2 to 5 s of a core each; JOBS, PKGS and RESUME=1
# (go on after a stop) narrow it. Under Xvfb: scene's tests draw.
mutate:
	@$(XVFB) ./scripts/mutate.sh

# The same for -blend and -additive on the corpus's Fox and InterpolationTest
# (several minutes).
crosscheck-blend: build
	./tools/gltfref/run_blend.sh
