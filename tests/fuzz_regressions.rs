//! Fuzz inputs replayed on stable `cargo test`: every committed crash input under
//! `tests/fuzz-regressions/<target>/` and every seed under `fuzz/seeds/<target>/` runs through
//! the same target body and invariants that libFuzzer runs (`fuzz/src/lib.rs`, included here as
//! a module). A crash found by `scripts/fuzz.sh` is committed by copying its minimised input
//! (`cargo fuzz tmin`) into `tests/fuzz-regressions/<target>/`.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/src/lib.rs"]
mod targets;

use std::path::Path;

fn files_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

#[test]
fn committed_fuzz_inputs_replay_without_a_failure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let (mut regressions, mut seeds) = (0, 0);
    for (name, run) in targets::TARGETS {
        for (dir, count) in [
            (
                root.join("tests/fuzz-regressions").join(name),
                &mut regressions,
            ),
            (root.join("fuzz/seeds").join(name), &mut seeds),
        ] {
            for file in files_in(&dir) {
                let data = std::fs::read(&file).expect("readable input");
                *count += 1;
                if std::panic::catch_unwind(|| run(&data)).is_err() {
                    failures.push(format!("{name}: {}", file.display()));
                }
            }
        }
    }
    assert!(
        seeds >= 40,
        "only {seeds} seed inputs found under fuzz/seeds/"
    );
    assert!(
        failures.is_empty(),
        "inputs that fail:\n{}",
        failures.join("\n")
    );
    println!("fuzz replay: {regressions} regression inputs and {seeds} seeds passed");
}
