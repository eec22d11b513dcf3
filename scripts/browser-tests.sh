#!/usr/bin/env bash
# The wasm-bindgen tests (tests/web.rs, tests/web_nfc.rs) in every engine: headless Chromium
# (chromedriver), Firefox (geckodriver, Debian's firefox-esr) and WebKit (WebKitWebDriver's
# MiniBrowser under xvfb-run), the two test files only (the other test files compile to nothing
# for wasm32, and each would still start a browser). `BROWSERS="chrome firefox safari"` (wasm-pack's names) picks
# some. One build of the tests serves the three; each engine's run is timed, and a failing
# engine does not stop the others (the script fails if any failed).
#
# Guards around the runner:
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
# - WebKit: `--headless` is needed even with WebKitWebDriver, or the runner serves an
#   interactive page for ever; MiniBrowser needs an X display (xvfb-run -a picks a free one).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}"
GECKODRIVER="${GECKODRIVER:-$(command -v geckodriver || true)}"
SAFARIDRIVER="${SAFARIDRIVER:-/usr/bin/WebKitWebDriver}"

# tests/web.rs imports the shipped adapter modules as one bundle (see tests/web-modules.js).
node_modules/.bin/esbuild tests/web-modules.js --bundle --format=esm --platform=browser \
  --log-level=warning --outfile=target/web-modules.js

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run_engine NAME COMMAND... — the tests in one engine, with the one retry described above.
run_engine() {
  local name=$1 attempt status
  shift
  for attempt in 1 2; do
    status=0
    "$@" 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
    [ "$status" -eq 0 ] && return 0
    if [ "$attempt" -eq 1 ] && grep -q "Failed to detect test as having been run" "$log" &&
      ! grep -qE "^test .* \.\.\. FAIL|test result: FAILED|panicked at" "$log"; then
      echo "!!!!!!!! browser-tests ($name): the runner never saw the tests start (none failed); running them once more !!!!!!!!"
      continue
    fi
    return "$status"
  done
}

failed=()
summary=()
for browser in ${BROWSERS:-chrome firefox safari}; do
  start=$SECONDS
  echo "==> browser-tests: $browser"
  status=0
  case "$browser" in
    chrome) run_engine chrome wasm-pack test --headless --chrome -- --features wasm --test web --test web_nfc || status=$? ;;
    firefox)
      [ -n "$GECKODRIVER" ] || { echo "browser-tests: geckodriver is not installed (bash scripts/setup.sh)" >&2; status=1; }
      [ "$status" -ne 0 ] || run_engine firefox wasm-pack test --headless --firefox --geckodriver "$GECKODRIVER" -- --features wasm --test web --test web_nfc || status=$?
      ;;
    safari)
      [ -x "$SAFARIDRIVER" ] || { echo "browser-tests: $SAFARIDRIVER is missing (apt-get install webkit2gtk-driver)" >&2; status=1; }
      [ "$status" -ne 0 ] || run_engine webkit xvfb-run -a wasm-pack test --headless --safari --safaridriver "$SAFARIDRIVER" -- --features wasm --test web --test web_nfc || status=$?
      ;;
    *) echo "browser-tests: unknown browser $browser (chrome, firefox, safari)" >&2; status=2 ;;
  esac
  if [ "$status" -eq 0 ]; then
    summary+=("$browser passed ($((SECONDS - start))s)")
  else
    summary+=("$browser FAILED ($((SECONDS - start))s)")
    failed+=("$browser")
  fi
done
printf 'browser-tests: %s\n' "${summary[@]}"
[ ${#failed[@]} -eq 0 ] || { echo "browser-tests: FAILED in ${failed[*]}"; exit 1; }
