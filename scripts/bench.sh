#!/usr/bin/env bash
# npm run bench [-- --json FILE] [-- --only native,node,chromium,scale,size] [-- --runs N] [-- --files N]
# Sets up what is missing (unless SKIP_SETUP=1), builds the wasm and the native bench, then
# runs bench/run.mjs: the native core, Node with in-memory storage, headless Chromium with
# IndexedDB (each command beside its floor, a raw IndexedDB transaction doing the same
# requests), opening stores of 1,000 and 10,000 files (time, JS heap, wasm memory), and the
# sizes, printed as one table (and written as JSON with --json FILE). About 2 minutes on 2
# cores after the build. `--only scale` (not in the default run: ~2 minutes more) times the host
# API at scale: export, import and memories.list of 1,000 / 8,000 / 10,000 files and a
# versions.list matching nothing over 300 / 3,000 versions, with the 8,000/1,000 and 3,000/300
# time ratios. It prints numbers; it is not a test and judges no time.
# docs/BENCHMARKS.md explains the table and holds the last results.
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
