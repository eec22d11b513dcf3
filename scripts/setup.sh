#!/usr/bin/env bash
# Installs what building and testing need, and only what is missing.
# Safe to re-run: when everything is present it checks, prints one line and exits in well under
# a second. Expects Debian 12 with rustup (Rust) and Node 20 + npm already installed.
#
# `setup.sh --serve` (what `npm start` runs) installs only what building and serving the demo
# need: the wasm target, wasm-pack, wasm-bindgen-cli and the npm packages; not the browsers,
# their drivers or cargo-fuzz, which only the tests use.
#
# The tests run in three engines: Debian's chromium (+ chromium-driver), firefox-esr (+
# geckodriver, built from the crates registry: about 4 CPU-minutes, once; cargo keeps it in
# ~/.cargo/bin) and WebKitGTK (webkit2gtk-driver's WebKitWebDriver and MiniBrowser, which need
# an X display: xvfb).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=test
case "${1:-}" in
  "") ;;
  --serve) mode=serve ;;
  *) printf 'setup: error: unknown option %s (the only one is --serve)\n' "$1" >&2; exit 2 ;;
esac

WASM_TARGET=wasm32-unknown-unknown
WASM_PACK_VERSION=0.15.1
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH" # where `cargo install` puts binaries

log() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }
installed_anything=0
run() { log "+ $*"; installed_anything=1; "$@"; }

# Two setups at once (say `npm test` while `npm start` builds) would race on cargo and apt.
if command -v flock >/dev/null; then
  exec 9>"${TMPDIR:-/tmp}/memory-tool-wasm-setup.lock"
  flock 9
fi

for tool in rustup cargo rustc node npm; do
  command -v "$tool" >/dev/null || die "$tool is not installed (needs Rust via rustup, and Node 20 with npm)"
done

# 1. The WebAssembly target of the Rust standard library.
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$WASM_TARGET" ]; then
  run rustup target add "$WASM_TARGET"
fi

# 2. Debian's Chromium and its WebDriver (browser tests and end-to-end tests).
#    And Firefox ESR, WebKitGTK's WebDriver (with MiniBrowser) and Xvfb for the other engines.
#    Never Debian's binaryen: its wasm-opt 108 writes modules that fail to load (see TOOLCHAIN).
#    wasm-opt comes from the npm devDependency `binaryen`, via node_modules/.bin.
missing_debs=()
if [ "$mode" = test ]; then
  [ -x /usr/bin/chromium ] || missing_debs+=(chromium)
  [ -x /usr/bin/chromedriver ] || missing_debs+=(chromium-driver)
  [ -x /usr/bin/firefox-esr ] || missing_debs+=(firefox-esr)
  [ -x /usr/bin/WebKitWebDriver ] || missing_debs+=(webkit2gtk-driver)
  { [ -x /usr/bin/Xvfb ] && [ -x /usr/bin/xvfb-run ]; } || missing_debs+=(xvfb)
fi
if [ ${#missing_debs[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: install ${missing_debs[*]} with apt-get, then re-run"
    sudo=(sudo)
  fi
  run "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  run "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing_debs[@]}"
fi

# 3. wasm-pack, pinned.
if [ "$(wasm-pack --version 2>/dev/null || true)" != "wasm-pack $WASM_PACK_VERSION" ]; then
  run cargo install --locked wasm-pack --version "$WASM_PACK_VERSION"
fi

# 3b. cargo-fuzz, for the fuzz smoke run of the test command (runs on stable Rust with
#     `--sanitizer none`; see scripts/fuzz.sh).
CARGO_FUZZ_VERSION=0.13.2
if [ "$mode" = test ] && [ "$(cargo fuzz --version 2>/dev/null || true)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  run cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

# 3c. geckodriver, for the wasm-bindgen tests in Firefox (wasm-pack test --firefox speaks classic
#     WebDriver to it). Pinned; built once (a few CPU-minutes), then found in ~/.cargo/bin.
GECKODRIVER_VERSION=0.37.1
gecko_said=$(geckodriver --version 2>/dev/null || true)
if [ "$mode" = test ] && [ "${gecko_said%%$'\n'*}" != "geckodriver $GECKODRIVER_VERSION" ]; then
  run cargo install --locked geckodriver --version "$GECKODRIVER_VERSION"
fi

# 4. wasm-bindgen-cli at exactly Cargo.lock's wasm-bindgen: wasm-pack only uses the one on PATH
#    when the versions are equal (otherwise it tries to download from GitHub).
lock_bindgen_version() {
  [ -f Cargo.lock ] || return 0
  awk '/^\[\[package\]\]/ { name = "" }
       /^name = / { name = $3 }
       /^version = / && name == "\"wasm-bindgen\"" { gsub(/"/, "", $3); print $3 }' Cargo.lock
}
bindgen_version=$(lock_bindgen_version)
if [ -z "$bindgen_version" ]; then
  # No Cargo.lock yet (or it predates wasm-bindgen): let cargo resolve and fetch the dependencies.
  run cargo fetch
  bindgen_version=$(lock_bindgen_version)
fi
[ -n "$bindgen_version" ] || die "Cargo.lock has no wasm-bindgen package"
[ "$(printf '%s\n' "$bindgen_version" | wc -l)" -eq 1 ] ||
  die "Cargo.lock holds several wasm-bindgen versions: $(echo $bindgen_version)"
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $bindgen_version" ] ||
  [ "$(wasm-bindgen-test-runner --version 2>/dev/null || true)" != "wasm-bindgen-test-runner $bindgen_version" ]; then
  # Without --locked: one of its locked dependencies is missing from the registry mirror.
  run cargo install --force wasm-bindgen-cli --version "$bindgen_version"
  [ "$(wasm-bindgen --version)" = "wasm-bindgen $bindgen_version" ] ||
    die "installed wasm-bindgen-cli $bindgen_version, but '$(command -v wasm-bindgen)' reports '$(wasm-bindgen --version)'"
fi

# 5. npm dev dependencies (binaryen's wasm-opt, typescript, playwright-core, …).
#    npm writes node_modules/.package-lock.json on every install: older than the lock = stale.
if [ -f package-lock.json ]; then
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    run npm ci --no-audit --no-fund
    touch node_modules/.package-lock.json
  fi
elif [ ! -d node_modules ]; then
  run npm install --no-audit --no-fund
fi
[ -x node_modules/.bin/wasm-opt ] || die "node_modules/.bin/wasm-opt is missing (npm devDependency binaryen)"
if dpkg-query -W -f='${Status}' binaryen 2>/dev/null | grep -q 'install ok installed'; then
  log "warning: Debian's binaryen is installed; its wasm-opt breaks the module. Build only through"
  log "warning: npm run build / scripts/build.sh (they put node_modules/.bin first), or apt-get remove binaryen"
fi

if [ "$installed_anything" -eq 0 ] && [ "$mode" = serve ]; then
  log "everything present to build and serve ($WASM_TARGET, wasm-pack $WASM_PACK_VERSION, wasm-bindgen-cli $bindgen_version, node_modules)"
elif [ "$installed_anything" -eq 0 ]; then
  log "everything present ($WASM_TARGET, chromium, chromedriver, firefox-esr, geckodriver $GECKODRIVER_VERSION, WebKitWebDriver, xvfb, wasm-pack $WASM_PACK_VERSION, cargo-fuzz $CARGO_FUZZ_VERSION, wasm-bindgen-cli $bindgen_version, node_modules)"
else
  log "done"
fi
