#!/usr/bin/env bash
# npm run bench [-- --json FILE] [-- --only native,node,chromium,size] [-- --runs N]
# Sets up what is missing (unless SKIP_SETUP=1), builds the wasm and the native bench, then
# runs bench/run.mjs: the native core, Node with in-memory storage, headless Chromium with
# IndexedDB, and the sizes, printed as one table (and written as JSON with --json FILE).
# It prints numbers; it is not a test and judges no time.
set -euo pipefail
# --json FILE is relative to where the command was started (npm's INIT_CWD, else here).
export BENCH_CWD="${INIT_CWD:-$PWD}"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ "${SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

SKIP_SETUP=1 bash scripts/build.sh
echo "bench: cargo build --release --example bench_core"
cargo build --release --example bench_core

exec node bench/run.mjs "$@"
