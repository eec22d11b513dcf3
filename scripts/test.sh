#!/usr/bin/env bash
# Runs every test: sets up what is missing, then lint, native tests, build, browser tests of the
# bindings (Chromium, Firefox, WebKit), typecheck, Node tests over the built package, end-to-end
# tests (Chromium), the cross-engine suite (Chromium, Firefox, WebKit) and the consumers. Each
# step's time is printed as it ends and again in the summary. A failing step
# does not stop the later ones; the script fails if any step failed and ends with a summary.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

total=0
last_status=0
passed=()
failed=()
skipped=()
times=()

# Each step's output is also kept, so the summary can repeat the end of a failed one: a CI log
# that shows only its last lines still says why.
logs=$(mktemp -d "${TMPDIR:-/tmp}/memory-tool-wasm-test.XXXXXX")
trap 'rm -rf "$logs"' EXIT

# step NAME COMMAND — runs COMMAND in its own `bash -euo pipefail` (so `set -e` holds inside it
# even though the step's status is tested here), timed, under a header line.
step() {
  local name=$1 cmd=$2 start=$SECONDS status=0
  total=$((total + 1))
  printf '\n==> [%d] %s: %s\n' "$total" "$name" "$cmd"
  bash -euo pipefail -c "$cmd" 2>&1 | tee "$logs/$(printf %02d "$total")-$name.log" || status=${PIPESTATUS[0]}
  last_status=$status
  times+=("$(printf '%-10s %5ds  %s' "$name" $((SECONDS - start)) "$([ "$status" -eq 0 ] && echo passed || echo FAILED)")")
  if [ "$status" -eq 0 ]; then
    passed+=("$name")
    printf '==> [%d] %s: passed (%ds)\n' "$total" "$name" $((SECONDS - start))
  else
    failed+=("$name")
    printf '==> [%d] %s: FAILED with status %d (%ds)\n' "$total" "$name" "$status" $((SECONDS - start))
  fi
}

# skip NAME WHY — a step that has nothing to run yet; said loudly, listed in the summary.
skip() {
  total=$((total + 1))
  skipped+=("$1")
  printf '\n==> [%d] %s: SKIPPED — %s\n' "$total" "$1" "$2"
  printf '!!!!!!!! %s tests did NOT run: %s !!!!!!!!\n' "$1" "$2"
}

# not_run NAME WHY — a step that cannot mean anything because an earlier one failed.
not_run() {
  total=$((total + 1))
  failed+=("$1 (not run)")
  printf '\n==> [%d] %s: NOT RUN — %s\n' "$total" "$1" "$2"
}

# Files node's test runner picks up from a directory (Node 20 defaults).
node_test_files() {
  [ -d "$1" ] || return 0
  find "$1" -type f \( -name '*.test.js' -o -name '*.test.mjs' -o -name '*.test.cjs' \
    -o -name '*-test.js' -o -name '*-test.mjs' -o -name '*-test.cjs' \
    -o -name '*_test.js' -o -name '*_test.mjs' -o -name '*_test.cjs' \
    -o -name 'test-*.js' -o -name 'test-*.mjs' -o -name 'test-*.cjs' \
    -o -name 'test.js' -o -name 'test.mjs' -o -name 'test.cjs' \) -not -path '*/node_modules/*'
}

step setup "bash scripts/setup.sh"

step fmt "cargo fmt --check"

# Twice: natively, and for wasm32, where the bindings and the browser tests live (they are
# compiled out of the native build).
step clippy "cargo clippy --all-targets -- -D warnings && cargo clippy --all-targets --target wasm32-unknown-unknown --features wasm -- -D warnings"

step native "cargo test"

step fuzz "bash scripts/fuzz-smoke.sh"

step build "SKIP_SETUP=1 bash scripts/build.sh"
build_ok=$((last_status == 0))

if grep -rlq --include='*.rs' 'wasm_bindgen_test' src tests 2>/dev/null; then
  step browser "bash scripts/browser-tests.sh"
else
  skip browser "no wasm_bindgen_test in src/ or tests/*.rs"
fi

if [ -n "$(find src/js -type f \( -name '*.js' -o -name '*.ts' \) 2>/dev/null)" ]; then
  # The JS imports pkg/, so its types come from the build. Then the type test: the
  # hand-written .d.ts against the JSDoc types of the code, in both directions.
  if [ "$build_ok" -eq 1 ]; then
    step typecheck "tsc -p tsconfig.json && tsc -p tests/types/tsconfig.json"
  else
    not_run typecheck "build failed"
  fi
else
  skip typecheck "no .js or .ts files in src/js"
fi

if [ -n "$(node_test_files tests/node)" ]; then
  if [ "$build_ok" -eq 1 ]; then
    step node "node --test --test-reporter=spec tests/node/"
  else
    not_run node "build failed (pkg/ would be stale)"
  fi
else
  skip node "no test files in tests/node"
fi

if [ -n "$(node_test_files tests/e2e)" ]; then
  if [ "$build_ok" -eq 1 ]; then
    step e2e "node --test --test-reporter=spec --test-concurrency=1 tests/e2e/"
  else
    not_run e2e "build failed (pkg/ would be stale)"
  fi
else
  skip e2e "no test files in tests/e2e"
fi

# The package in Firefox and WebKit as well as Chromium, each driven the way it allows: the
# commands' texts against Chromium's, tabs, reloads, bundles, storage APIs (and each taken
# away), the sync's hand-over, the demo's first scenario (tests/engines/).
if [ -n "$(node_test_files tests/engines)" ]; then
  if [ "$build_ok" -eq 1 ]; then
    step engines "node --test --test-reporter=spec --test-concurrency=1 tests/engines/"
  else
    not_run engines "build failed (pkg/ would be stale)"
  fi
else
  skip engines "no test files in tests/engines"
fi

# The package as users get it: the declarations in a Node-only project (no DOM lib), then
# `npm pack` installed into fresh Vite, webpack, esbuild, Node ESM and CommonJS projects, built
# and run in headless Chromium or Node (tests/consumers/; npm's cache in tests/consumers/.cache).
if [ "$build_ok" -eq 1 ]; then
  step consumers "tsc -p tests/types/node-only/tsconfig.json && tsc -p tests/types/node-only/tsconfig.bare.json && node --test --test-reporter=spec --test-concurrency=1 tests/consumers/"
else
  not_run consumers "build failed (the tarball would ship a stale pkg/)"
fi

echo
echo "test.sh: step times"
printf '  %s\n' "${times[@]}"
printf '  %-10s %5ds\n' total "$SECONDS"
if [ ${#skipped[@]} -gt 0 ]; then
  echo "test.sh: SKIPPED ${#skipped[@]} step(s) with nothing to run: ${skipped[*]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
  for log in "$logs"/*.log; do
    name=$(basename "$log" .log)
    case " ${failed[*]} " in *" ${name#*-} "*) ;; *) continue ;; esac
    printf '\n==> the last 40 lines of the failed step %s:\n' "$name"
    tail -n 40 "$log"
  done
  list=$(printf '%s, ' "${failed[@]}")
  echo "test.sh: ${#passed[@]} of $total steps passed; FAILED: ${list%, }"
  exit 1
fi
if [ ${#skipped[@]} -gt 0 ]; then
  echo "test.sh: all ${#passed[@]} steps that ran passed (${#skipped[@]} skipped)"
else
  echo "test.sh: all $total steps passed"
fi
