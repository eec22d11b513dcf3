#!/usr/bin/env bash
# Fuzz smoke run for the test command: every fuzz target (tool_input, path, engine, json,
# bundle) for a bounded number of executions (FUZZ_RUNS, default 20000) from the committed
# seeds, with a fixed random seed, so a run is repeatable. Installs cargo-fuzz if it is
# missing; works on stable Rust (see scripts/fuzz.sh).
# Longer runs: `bash scripts/fuzz.sh [seconds per target]`.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/fuzz.sh" --runs "${FUZZ_RUNS:-20000}"
