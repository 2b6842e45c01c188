# The project's front door: make run, make test.
GO      ?= go
BIN     := bin/viewer
XVFB    := xvfb-run -a -s "-screen 0 1280x1024x24"
CORPUS  ?= ../shared/gltf-corpus

.PHONY: all setup build run test bench golden lint assets corpus crosscheck crosscheck-blend clean fuzz

all: build

setup:
	@./scripts/setup.sh

build:
	$(GO) build -o $(BIN) ./cmd/viewer

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
	@# The fuzzers briefly, by execution count: a time limit can end a run
	@# in the middle of minimizing an input and fail it (context deadline).
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 60000x -fuzzminimizetime 200x ./internal/gltfload
	$(GO) test -run '^$$' -fuzz '^FuzzSample$$' -fuzztime 150000x -fuzzminimizetime 200x ./internal/anim

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...

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

# Longer fuzzing runs: FUZZTIME per target (default 2m).
FUZZTIME ?= 2m
fuzz:
	$(GO) test ./internal/gltfload -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./internal/anim -run '^$$' -fuzz '^FuzzSample$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s

# The same for -blend and -additive on the corpus's Fox and InterpolationTest
# (several minutes).
crosscheck-blend: build
	./tools/gltfref/run_blend.sh
