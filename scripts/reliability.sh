#!/usr/bin/env bash
# Longer reliability runs than `npm test` makes (docs/RELIABILITY.md): the browser suites
# tests/e2e/reliability-*.test.mjs (many tabs, killed browser, full disk, lost connections)
# REPEAT times, the killed-browser test with KILL_ROUNDS SIGKILLs per run instead of 20.
#
#   bash scripts/reliability.sh                   5 runs, 100 kills each
#   REPEAT=20 KILL_ROUNDS=200 bash scripts/reliability.sh
#   RELIABILITY_SEED=123456 bash scripts/reliability.sh   replays the kill moments of a run
#
# Needs the built wasm (npm run build) and Chromium (/usr/bin/chromium or $CHROMIUM_PATH).
# Prints each run's figures (the tests' "# …" lines) and a summary; the full output of every
# run goes to test-artifacts/reliability/run-N.log. Fails if any run failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

repeat=${REPEAT:-5}
export RELIABILITY_KILL_ROUNDS=${KILL_ROUNDS:-100}
[ -f pkg/memory_tool_wasm_bg.wasm ] || { echo "reliability: pkg/ is not built: run npm run build first" >&2; exit 1; }

out=test-artifacts/reliability
mkdir -p "$out"
failed=0
start=$SECONDS
for run in $(seq 1 "$repeat"); do
  log="$out/run-$run.log"
  t=$SECONDS
  printf '\n==> reliability run %d of %d (%d kills)\n' "$run" "$repeat" "$RELIABILITY_KILL_ROUNDS"
  status=0
  node --test --test-reporter=tap --test-concurrency=1 tests/e2e/reliability-*.test.mjs >"$log" 2>&1 || status=$?
  # The figures each test prints, and the runner's totals.
  grep -E '^# \\# |^# (tests|pass|fail|todo) ' "$log" | sed -e 's/^# \\# /  /' -e 's/^# /  /' || true
  if [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    printf '==> run %d FAILED (status %d, %ds): see %s\n' "$run" "$status" $((SECONDS - t)) "$log"
  else
    printf '==> run %d passed (%ds)\n' "$run" $((SECONDS - t))
  fi
done
printf '\nreliability: %d of %d runs passed in %ds\n' $((repeat - failed)) "$repeat" $((SECONDS - start))
[ "$failed" -eq 0 ]
