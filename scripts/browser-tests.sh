#!/usr/bin/env bash
# The wasm-bindgen tests in headless Chromium (tests/web.rs, tests/web_nfc.rs):
# `wasm-pack test --headless --chrome -- --features wasm`, with three guards around the runner.
#
# - tests/web.rs's page loads the adapter modules it drives as one file (target/web-modules.js,
#   bundled here from tests/web-modules.js): the runner's page server now and then leaves one
#   of many concurrent module requests unanswered, and Chromium then waits 300 s for it.
# - The runner gives a test file 20 s in the browser by default; a slow 2-core machine can need
#   more for the Unicode comparison, and a timeout there says nothing about the code.
# - Should the page still never finish loading ("Loading scripts...", then ChromeDriver's
#   "Timed out receiving message from renderer" after 300 s; the open wasm-pack issue
#   rustwasm/wasm-pack#783), a run the runner reports as never started ("Failed to detect test
#   as having been run") with no test failed is tried once more, said loudly. A test that
#   fails is never retried.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}"

# tests/web.rs imports the shipped adapter modules as one bundle (see tests/web-modules.js).
node_modules/.bin/esbuild tests/web-modules.js --bundle --format=esm --platform=browser \
  --log-level=warning --outfile=target/web-modules.js

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for attempt in 1 2; do
  status=0
  wasm-pack test --headless --chrome -- --features wasm 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
  [ "$status" -eq 0 ] && exit 0
  if [ "$attempt" -eq 1 ] && grep -q "Failed to detect test as having been run" "$log" &&
    ! grep -qE "^test .* \.\.\. FAILED|test result: FAILED|panicked at" "$log"; then
    echo "!!!!!!!! browser-tests: the runner never saw the tests start (none failed); running them once more !!!!!!!!"
    continue
  fi
  exit "$status"
done
