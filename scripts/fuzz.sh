#!/usr/bin/env bash
# Fuzzes the core with cargo-fuzz (libFuzzer), on stable Rust.
#
#   bash scripts/fuzz.sh [SECONDS]     each target for SECONDS (default 300); the corpus grows in
#                                      fuzz/corpus/<target>/ (git-ignored) and is kept between runs
#   bash scripts/fuzz.sh --runs N      each target for N executions from the committed seeds only,
#                                      with a fixed random seed (what scripts/fuzz-smoke.sh runs)
#
# Targets (fuzz/fuzz_targets/, bodies and invariants in fuzz/src/lib.rs):
#   tool_input  arbitrary bytes as tool input: parsed, then run on a small store
#   path        MemoryPath::parse against an independent reading of docs/TOOL.md#path-rules
#   engine      bytes as up to 64 commands over a small path universe, invariants after each
#   json        the JSON reader against serde_json
#   bundle      real exports mutated and made-up bundles imported: a refusal writes nothing, a
#               success keeps every store invariant and its export re-imports identically
# FUZZ_TARGETS="path engine" picks some; FUZZ_SEED sets libFuzzer's seed for --runs (default 1).
#
# Stable Rust: cargo-fuzz's coverage flags (-Cpasses=sancov-module, -Cllvm-args=...) are stable;
# only its default AddressSanitizer needs the nightly-only -Zsanitizer. The core has no unsafe
# code, so the targets build with `--sanitizer none` (plus -O for speed and -a for debug
# assertions and overflow checks). SANITIZER=address builds with ASan anyway, through
# RUSTC_BOOTSTRAP=1 (which lets stable rustc take -Z flags; slower, for an occasional deep run).
#
# A crash leaves its input in fuzz/artifacts/<target>/; the script prints how to minimise it and
# commit it as a regression test (tests/fuzz-regressions/<target>/, replayed by `cargo test`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

CARGO_FUZZ_VERSION=0.13.2
seconds=300
runs=""
case "${1:-}" in
  --runs) runs=${2:?--runs needs a number} ;;
  "") ;;
  *[!0-9]*) echo "usage: bash scripts/fuzz.sh [SECONDS] | --runs N" >&2; exit 2 ;;
  *) seconds=$1 ;;
esac
read -r -a targets <<<"${FUZZ_TARGETS:-tool_input path engine json bundle}"

log() { printf 'fuzz: %s\n' "$*"; }

if [ "$(cargo fuzz --version 2>/dev/null || true)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  log "installing cargo-fuzz $CARGO_FUZZ_VERSION (crates.io)"
  cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

build=(-O -a)
if [ "${SANITIZER:-none}" = none ]; then
  build+=(--sanitizer none)
else
  build+=(--sanitizer "$SANITIZER")
  export RUSTC_BOOTSTRAP=1
fi

start=$SECONDS
cargo fuzz build "${build[@]}"
log "built ${#targets[@]} targets in $((SECONDS - start))s (${build[*]})"

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
passed=0
failed=0
total_execs=0
summary=()
for target in "${targets[@]}"; do
  dict=fuzz/dict/tool_input.dict
  [ "$target" = path ] && dict=fuzz/dict/path.dict
  args=(-dict="$dict" -max_len=4096 -timeout=10 -print_final_stats=1)
  if [ -n "$runs" ]; then
    corpus="$logs/corpus-$target" # a throwaway corpus: the run starts from the seeds alone
    args+=(-runs="$runs" -seed="${FUZZ_SEED:-1}" -max_total_time=120)
  else
    corpus=fuzz/corpus/$target
    args+=(-max_total_time="$seconds")
  fi
  mkdir -p "$corpus" "fuzz/artifacts/$target"
  began=$SECONDS
  status=0
  cargo fuzz run "${build[@]}" "$target" "$corpus" "fuzz/seeds/$target" -- "${args[@]}" \
    >"$logs/$target.log" 2>&1 || status=$?
  took=$((SECONDS - began))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target.log" | tail -1)
  rate=$((${execs:-0} / (took > 0 ? took : 1)))
  units=$(find "$corpus" -type f | wc -l)
  total_execs=$((total_execs + ${execs:-0}))
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    summary+=("$(printf '%-11s %10s execs %5ss %8s/s  corpus %5s  ok' "$target" "${execs:-?}" "$took" "${rate:-?}" "$units")")
  else
    failed=$((failed + 1))
    summary+=("$(printf '%-11s %10s execs %5ss %8s/s  corpus %5s  FAILED (%s)' "$target" "${execs:-?}" "$took" "${rate:-?}" "$units" "$status")")
    echo "---- $target failed; the end of its log:"
    tail -n 60 "$logs/$target.log"
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$logs/$target.log" | tail -1)
    if [ -n "$artifact" ]; then
      echo "---- to keep it as a regression test:"
      echo "  cargo fuzz tmin ${build[*]} $target $artifact"
      echo "  mkdir -p tests/fuzz-regressions/$target && cp <minimised input> tests/fuzz-regressions/$target/"
      echo "  cargo test --test fuzz_regressions"
    fi
  fi
done

echo
for line in "${summary[@]}"; do log "$line"; done
log "$total_execs executions in $((SECONDS - start))s including the build"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
