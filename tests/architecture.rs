//! The layers of docs/ARCHITECTURE.md, checked from the sources: each module of `src/` may use
//! only modules of its own layer or the layers below it, and no module uses itself through
//! others (no cycle). Edges are the `crate::…` and `super::…` paths a file names, except
//! `mod` declarations and `pub use` re-exports (plumbing, not use).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom to top. A module may use any layer at or before its own.
const LAYERS: &[&str] = &[
    "format", "model", "protocol", "commands", "session", "bindings",
];

fn layer_of(module: &str) -> usize {
    let top = module.split("::").next().unwrap_or("");
    let name = match top {
        "wasm" | "harness" | "lib" => "bindings",
        other => other,
    };
    LAYERS
        .iter()
        .position(|l| *l == name)
        .unwrap_or_else(|| panic!("module {module} is in no layer: add it to LAYERS"))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "js") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/commands/create.rs` → `commands::create`; `src/commands/mod.rs` → `commands`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file
        .strip_prefix(src)
        .expect("below src/")
        .with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The module a path names: the longest prefix of `segments` that is a known module.
fn resolve(segments: &[&str], modules: &BTreeSet<String>) -> Option<String> {
    (1..=segments.len())
        .rev()
        .map(|n| segments[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// Every module the file names, but not in its test module, `mod` lines or `pub use` lines.
fn uses(module: &str, text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let parent: Vec<&str> = {
        let mut p: Vec<&str> = module.split("::").collect();
        p.pop();
        p
    };
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim();
        if line.starts_with("//")
            || line.starts_with("mod ")
            || line.starts_with("pub(crate) mod ")
            || line.starts_with("pub mod ")
            || line.starts_with("pub use ")
            || line.starts_with("pub(crate) use ")
        {
            continue;
        }
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent.clone())] {
            let mut rest = line;
            while let Some(at) = rest.find(prefix) {
                let after = &rest[at + prefix.len()..];
                let path: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let mut segments: Vec<&str> = base.clone();
                segments.extend(path.split("::").filter(|s| !s.is_empty()));
                // `use super::{a, b}` / `use crate::x::{a, b}`: each item may be a module.
                if after[path.len()..].starts_with('{') {
                    let inner = &after[path.len() + 1..];
                    let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
                    for item in inner.split(',') {
                        let item = item.trim().split("::").next().unwrap_or("");
                        let mut s = segments.clone();
                        s.push(item);
                        if let Some(m) = resolve(&s, modules) {
                            out.insert(m);
                        }
                    }
                } else if let Some(m) = resolve(&segments, modules) {
                    out.insert(m);
                }
                rest = &after[path.len()..];
            }
        }
    }
    out.remove(module);
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    // ARCHITECTURE_SRC points the check at another tree (to see it fail on an old one).
    let src = std::env::var_os("ARCHITECTURE_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();
    files
        .iter()
        .map(|f| {
            let module = module_of(&src, f);
            let text = std::fs::read_to_string(f).expect("a source file");
            let used = uses(&module, &text, &modules);
            (module, used)
        })
        .collect()
}

#[test]
fn each_module_uses_only_its_layer_and_those_below() {
    let graph = graph();
    assert!(
        graph.len() > 30,
        "the scan found the sources: {:?}",
        graph.keys()
    );
    let mut wrong = Vec::new();
    for (module, used) in &graph {
        for target in used {
            if layer_of(target) > layer_of(module) {
                wrong.push(format!("{module} → {target}"));
            }
        }
    }
    assert!(wrong.is_empty(), "uses against the layers: {wrong:#?}");
}

#[test]
fn no_module_cycle() {
    let graph = graph();
    // Depth-first search; a back edge is a cycle.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|n| n == next).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, graph, state, stack) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(cycle) = visit(node, &graph, &mut state, &mut Vec::new()) {
                panic!("module cycle: {}", cycle.join(" → "));
            }
        }
    }
}

#[test]
fn the_check_sees_a_cycle_when_there_is_one() {
    let modules: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let a = uses(
        "a",
        "use crate::b::Thing;\nfn f() { crate::c::g(); }",
        &modules,
    );
    assert_eq!(a, ["b", "c"].iter().map(|s| s.to_string()).collect());
    let skipped = uses(
        "a",
        "pub use crate::b::Thing;\nmod c;\n// crate::c::x",
        &modules,
    );
    assert!(skipped.is_empty());
}

#[test]
fn every_error_text_for_the_model_is_in_the_texts_module() {
    // Model-facing errors start with `Error: `; each must be a template in format/texts.rs
    // (docs/TOOL.md lists them). `commands::rules` adds the prefix to shared rules.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut strays = Vec::new();
    for file in files {
        if file.ends_with("format/texts.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if !line.starts_with("//")
                && line.contains("\"Error: ")
                && !line.contains("\"Error: \"")
            {
                strays.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    assert!(
        strays.is_empty(),
        "texts outside format/texts.rs: {strays:#?}"
    );
}
