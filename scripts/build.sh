#!/usr/bin/env bash
# Builds the wasm core into pkg/ (wasm-bindgen --target web output, optimised by npm's wasm-opt),
# then the browser entry as one ESM file, dist/memory-tool-wasm.js (scripts/bundle.mjs).
# Runs setup first unless SKIP_SETUP=1. The package itself is the repository root (package.json);
# pkg/ holds only build output.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ "${SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh

# npm's binaryen first: wasm-pack runs the first wasm-opt on PATH, and Debian's is broken.
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

echo "build: wasm-pack build --profile wasm --target web --out-dir pkg --no-pack --no-gitignore -- --features wasm"
wasm-pack build --profile wasm --target web --out-dir pkg --no-pack --no-gitignore -- --features wasm

# wasm-pack's packaging files would make pkg/ look like a second package.
rm -f pkg/.gitignore pkg/package.json pkg/README.md pkg/LICENSE pkg/LICENSE-*

wasm=pkg/memory_tool_wasm_bg.wasm
[ -f "$wasm" ] || { echo "build: error: $wasm was not written" >&2; exit 1; }
raw=$(wc -c <"$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
printf 'build: %s  %d bytes raw, %d bytes gzip -9\n' "$wasm" "$raw" "$gz"

# The one-file browser build: what package.json's "." gives a browser or a bundler, and "./bundle".
node scripts/bundle.mjs
