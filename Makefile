# SPDX-License-Identifier: Apache-2.0
# `make run` and `make test` do the whole set-up: packages, configure, build, then run or test.
BUILD ?= build
JOBS ?= $(shell nproc)
# SANITIZE=address,undefined (any -fsanitize list): the same targets in a build of their own,
# build-address-undefined, every error fatal (docs/reliability.md).
SANITIZE ?=
CMAKE_FLAGS ?=
ifneq ($(SANITIZE),)
comma := ,
BUILD := build-$(subst $(comma),-,$(SANITIZE))
CMAKE_FLAGS += "-DCMAKE_CXX_FLAGS=-fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer"
endif
IRRGPU = $(BUILD)/apps/irrgpu/irrgpu

.PHONY: all deps configure build run test test-slow fuzz docs waveforms clean pgo

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@[ -f $(BUILD)/build.ninja ] || cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The default simulation: the data-driven BFS on an R-MAT graph, timed on the gtx480 preset (all
# statistics in $(BUILD)/run/stats.json; the summary, the check and the speed on stdout).
run: build
	$(IRRGPU) run --config gtx480 --workload bfs --variant data --graph rmat:scale=14 --output-dir $(BUILD)/run

test: build
	cd $(BUILD) && ctest -LE slow -j $(JOBS) --output-on-failure

test-slow: build
	cd $(BUILD) && ctest -L slow -j $(JOBS) --output-on-failure

# A profile-guided build in build-pgo, for long sweeps: instrument, train, rebuild with the profile,
# check the statistics unchanged (scripts/pgo-build.sh; docs/performance.md).
pgo: deps
	@scripts/pgo-build.sh build-pgo

# Coverage-guided fuzzing of every parser (clang's libFuzzer; docs/reliability.md):
# FUZZ_SECONDS a target, in its own build folder.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
fuzz: deps
	scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Regenerates docs/configuration.md from the schema.
docs: build
	$(IRRGPU) config doc > docs/configuration.md
	$(IRRGPU) stats doc > docs/statistics.md

# Regenerates the GTKWave save files under waveforms/ from the models' probes.
# The graph-memory policies' probes, at an L1 and an L2 slice (docs/memory.md).
GRAPHMEM_POLICIES = -s l1.granularity=nap -s l1.bypass=obm -s l2.granularity=lamar -s l2.bypass=obm
GPU_WAVE_UNITS = hwwl dac spref cae
waveforms: build
	$(IRRGPU) gtkw -s sim.top=example --trace 'example.*' -o waveforms/example.gtkw
	$(IRRGPU) gtkw -c kim4x16 --trace 'memory.*' -o waveforms/memory.gtkw
	$(IRRGPU) gtkw -s sim.top=hwwl --trace 'hwwl_tb.hwwl.*' -o waveforms/hwwl.gtkw
	$(IRRGPU) gtkw --gpu -s gpu.cta_scheduler=dats --trace 'gpu.dats.*' -o waveforms/dats.gtkw
	$(IRRGPU) gtkw -s sim.top=iru --trace 'iru_tb.iru.*' -o waveforms/iru.gtkw
	$(IRRGPU) gtkw --gpu -c gtx980 -s iru.enabled=true --trace 'iru.*' -o waveforms/iru_gpu.gtkw
	# Each unit's waveform group on the timed GPU (gtx480), from the unit registry.
	for u in $(GPU_WAVE_UNITS); do $(IRRGPU) gtkw --unit $$u -o waveforms/$${u}_gpu.gtkw || exit 1; done
	$(IRRGPU) gtkw -c graphmem $(GRAPHMEM_POLICIES) --trace 'memory.partition0.*' --trace 'memory.sm0_l1.*' -o waveforms/graphmem.gtkw

clean:
	rm -rf $(BUILD)
