#!/usr/bin/env bash
# The long runs of the model-based tests of the whole (docs/RELIABILITY.md#12-nothing-lost):
# the core's (tests/whole.rs, release build) and sync's with everything else
# (tests/node/whole-sync.test.mjs), with more sequences than `npm test` runs. Prints each
# figure. Sizes: WHOLE_SEQUENCES (10,000), WHOLE_STEPS (60), WHOLE_SYNC_SEQUENCES (200),
# WHOLE_SYNC_STEPS (60); WHOLE_FIRST_SEED / WHOLE_SYNC_FIRST_SEED to replay from a seed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
start=$SECONDS
WHOLE_SEQUENCES="${WHOLE_SEQUENCES:-10000}" WHOLE_STEPS="${WHOLE_STEPS:-60}" \
  cargo test --release --test whole -- --nocapture 2>&1 | grep -E "whole:|test result|panicked|sequence" || { echo "soak: the core's run failed" >&2; exit 1; }
echo "soak: the core's run took $((SECONDS - start)) s"
start=$SECONDS
[ -f pkg/memory_tool_wasm_bg.wasm ] || SKIP_SETUP=1 bash scripts/build.sh
WHOLE_SYNC_SEQUENCES="${WHOLE_SYNC_SEQUENCES:-200}" WHOLE_SYNC_STEPS="${WHOLE_SYNC_STEPS:-60}" \
  node --test --test-reporter=spec tests/node/whole-sync.test.mjs
echo "soak: sync's run took $((SECONDS - start)) s"
