# The build OpenBench runs: `make -j EXE=<name> [EVALFILE=<net>]` in the
# source's root. cargo does the work; this file only chooses its inputs and
# copies the result. `make` alone leaves the engine in target/release/brokkr.
#
#   EXE       where the engine goes (default: target/release/brokkr)
#   EVALFILE  a net to embed instead of the one nets/DEFAULT names; its header
#             checksum is checked against its contents, as DEFAULT's net is
#   TUNE=1    list the search parameters as UCI options, for SPSA tunes
#             (fastchess sends only listed options; see docs/openbench.md)
#
# One binary serves every CPU (brokkr picks its paths at run time), so there
# is no -C target-cpu=native here.

CARGO    ?= cargo
# Where cargo leaves the engine (CARGO_TARGET_DIR moves it).
BUILT    := $(or $(CARGO_TARGET_DIR),target)/release/brokkr
EXE      ?= $(BUILT)
EVALFILE ?=
TUNE     ?=

ifneq ($(strip $(TUNE)),)
FEATURES := --features tune
endif

# Relative to where make runs, not to the build script's directory. Without
# EVALFILE the variable is left out of cargo's environment altogether: set but
# empty would count as a change and rebuild what `cargo build` just built.
ifneq ($(strip $(EVALFILE)),)
export BROKKR_EVALFILE := $(abspath $(EVALFILE))
else
unexport BROKKR_EVALFILE
endif

.PHONY: all build clean
all: build
ifneq ($(abspath $(EXE)),$(abspath $(BUILT)))
	cp $(BUILT) $(EXE)
endif

# Always handed to cargo, which knows whether anything changed.
build:
	$(CARGO) build --release --bin brokkr $(FEATURES)

clean:
	$(CARGO) clean
