//! The library's own code builds its texts with `render::fill`/`cat`/`decimal`, not with
//! `format!`: each `format!` links `core::fmt` code into the wasm (kilobytes, for texts that
//! `fill` writes byte for byte the same). Tests (after `#[cfg(test)]`) may format freely.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn library_code_has_no_formatting_macros() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 10, "found the sources");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (i, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            for banned in [
                "format!(",
                "write!(",
                "writeln!(",
                "format_args!(",
                "panic!(",
            ] {
                if line.contains(banned) {
                    found.push(format!("{}:{}: {line}", file.display(), i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "use crate::render::{{fill, cat, decimal}} instead:\n{}",
        found.join("\n")
    );
}
