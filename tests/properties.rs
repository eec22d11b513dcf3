//! Invariants over arbitrary input (proptest): accepted paths stay inside /memories, a failed
//! command changes nothing, the tree stays a tree, and listings and views agree with storage.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::q;
use memory_tool_wasm::{tool_path, MemoryPath};
use memory_tool_wasm::{Config, Content, MemStore};
use proptest::prelude::*;

/// Path pieces that probe the rules: separators, dots, encodings, look-alikes, controls.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "/",
        "/",
        "/",
        "a",
        "b",
        "notes",
        ".",
        "..",
        "...",
        "%2e",
        "%2E%2e",
        "%25",
        "%",
        "%2f",
        "%5c",
        "%c0%ae",
        "\\",
        "é",
        "e\u{301}",
        "\u{0}",
        "\u{2028}",
        "\u{200b}",
        "\u{200d}",
        "\u{ff0e}",
        "\u{2024}",
        "memories",
        "/memories",
        "node_modules",
        ".hidden",
    ])
}

fn raw_path() -> impl Strategy<Value = String> {
    (any::<bool>(), prop::collection::vec(piece(), 0..8)).prop_map(|(rooted, pieces)| {
        let body = pieces.concat();
        if rooted {
            format!("/memories{body}")
        } else {
            body
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn accepted_paths_stay_inside(raw in raw_path()) {
        if let Ok(path) = MemoryPath::parse(&raw, false) {
            let key = path.key();
            prop_assert!(tool_path(key).starts_with("/memories"));
            prop_assert!(key.is_empty() || key.starts_with('/'));
            for segment in key.split('/').skip(1) {
                prop_assert!(!segment.is_empty(), "empty segment in {key:?}");
                prop_assert!(segment != "." && segment != "..", "dot segment in {key:?}");
                prop_assert!(!segment.contains('\\'));
                let lower = segment.to_ascii_lowercase();
                prop_assert!(lower != "%2e%2e" && lower != "%2e" , "encoded dots in {key:?}");
                prop_assert!(!lower.contains("%2f") && !lower.contains("%5c"));
            }
        }
    }
}

/// A random command over a small universe of paths, so that commands collide often.
fn command() -> impl Strategy<Value = String> {
    let path = prop::sample::select(vec![
        "/memories",
        "/memories/",
        "/memories/a",
        "/memories/a/",
        "/memories/a/x.md",
        "/memories/a/y.md",
        "/memories/a/b/z.md",
        "/memories/b",
        "/memories/b/x.md",
        "/memories/a-b",
        "/memories/.h/k",
        "/memories/x.md/q",
        "/memories/../a",
    ]);
    let text = prop::sample::select(vec!["", "x", "x\n", "one\ntwo\nthree", "xx xx", "\n\n"]);
    prop_oneof![
        (path.clone(), prop::option::of((-3i64..6, -3i64..6))).prop_map(|(p, r)| match r {
            Some((s, e)) => format!(
                r#"{{"command":"view","path":{},"view_range":[{s},{e}]}}"#,
                q(p)
            ),
            None => format!(r#"{{"command":"view","path":{}}}"#, q(p)),
        }),
        (path.clone(), text.clone()).prop_map(|(p, t)| format!(
            r#"{{"command":"create","path":{},"file_text":{}}}"#,
            q(p),
            q(t)
        )),
        (path.clone(), text.clone(), prop::option::of(text.clone())).prop_map(|(p, o, n)| {
            let new = n
                .map(|n| format!(r#","new_str":{}"#, q(n)))
                .unwrap_or_default();
            format!(
                r#"{{"command":"str_replace","path":{},"old_str":{}{new}}}"#,
                q(p),
                q(o)
            )
        }),
        (path.clone(), -1i64..5, text.clone()).prop_map(|(p, l, t)| format!(
            r#"{{"command":"insert","path":{},"insert_line":{l},"insert_text":{}}}"#,
            q(p),
            q(t)
        )),
        path.clone()
            .prop_map(|p| format!(r#"{{"command":"delete","path":{}}}"#, q(p))),
        (path.clone(), path).prop_map(|(a, b)| format!(
            r#"{{"command":"rename","old_path":{},"new_path":{}}}"#,
            q(a),
            q(b)
        )),
    ]
}

fn check_tree(store: &MemStore) -> Result<(), TestCaseError> {
    let keys: Vec<&String> = store.files.keys().collect();
    for key in &keys {
        // No file has another file below it: a path is never a file and a directory at once.
        let below = format!("{key}/");
        prop_assert!(
            !keys.iter().any(|k| k.starts_with(&below)),
            "{key} is a file and a directory"
        );
        let record = &store.files[*key];
        prop_assert_eq!(&record.path, *key);
        let content = store.contents.get(&record.content);
        prop_assert!(content.is_some(), "{key} has no content");
        prop_assert_eq!(content.map(|c| c.len() as u64), Some(record.size));
        prop_assert_eq!(
            &record.sha256,
            &memory_tool_wasm::sha256_hex(content.map(Vec::as_slice).unwrap_or_default())
        );
    }
    // Every stored byte string is referenced by a version; the head of each file is one.
    for (key, _) in store.contents.iter() {
        prop_assert!(
            store
                .versions
                .values()
                .any(|v| v.content.as_ref() == Some(key)),
            "orphan content {key}"
        );
    }
    for record in store.files.values() {
        let head = record.version.as_ref().and_then(|v| store.versions.get(v));
        prop_assert_eq!(head.map(|v| v.memory_id.clone()), Some(record.id.clone()));
        prop_assert_eq!(head.and_then(|v| v.path.clone()), Some(record.path.clone()));
    }
    Ok(())
}

fn check_views(store: &mut MemStore) -> Result<(), TestCaseError> {
    let files: Vec<(String, u64)> = store
        .files
        .values()
        .map(|r| (r.path.clone(), r.size))
        .collect();
    let listing = store.execute(r#"{"command":"view","path":"/memories"}"#);
    let Content::Text(listing) = listing.content else {
        return Err(TestCaseError::fail("image listing"));
    };
    let mut lines = listing.lines().skip(1);
    let total: u64 = files.iter().map(|(_, s)| s).sum();
    prop_assert_eq!(
        lines.next().map(str::to_string),
        Some(format!(
            "{}\t/memories",
            memory_tool_wasm::format_size(total)
        ))
    );
    let listed: Vec<&str> = lines.collect();
    for (key, size) in &files {
        let depth = key.matches('/').count();
        let hidden = key
            .split('/')
            .any(|s| s.starts_with('.') || s == "node_modules");
        let line = format!("{}\t/memories{key}", memory_tool_wasm::format_size(*size));
        prop_assert_eq!(
            listed.contains(&line.as_str()),
            depth <= 2 && !hidden,
            "{} in {}",
            line,
            listing
        );
        // The file view shows exactly the stored lines.
        let view = store.execute(&format!(
            r#"{{"command":"view","path":{}}}"#,
            q(&tool_path(key))
        ));
        let text = store.text_at(key).unwrap_or_default().to_string();
        let numbered: Vec<String> = text
            .split('\n')
            .enumerate()
            .map(|(i, l)| format!("{:>6}\t{l}", i + 1))
            .collect();
        prop_assert_eq!(
            view.text_content(),
            format!(
                "Here's the content of /memories{key} with line numbers:\n{}",
                numbered.join("\n")
            )
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn failures_change_nothing_and_the_tree_holds(commands in prop::collection::vec(command(), 1..40)) {
        let mut store = MemStore::new(Config { max_file_bytes: 30, max_files: 6, ..Config::default() });
        for input in &commands {
            let (files, contents) = (store.files.clone(), store.contents.clone());
            let outcome = store.execute(input);
            if outcome.is_error() {
                prop_assert_eq!(&store.files, &files, "{} changed files", input);
                prop_assert_eq!(&store.contents, &contents, "{} changed contents", input);
            }
            if input.contains(r#""command":"view""#) {
                prop_assert!(outcome.writes.is_empty());
            }
            check_tree(&store)?;
        }
        check_views(&mut store)?;
    }
}

/// Rebuilds the live files from the version log alone, in id order: path → (memory id, sha,
/// content key, head version).
fn replay(
    store: &MemStore,
) -> std::collections::BTreeMap<String, (String, String, String, String)> {
    use memory_tool_wasm::Change;
    let mut by_memory: std::collections::HashMap<String, String> = Default::default();
    let mut files = std::collections::BTreeMap::new();
    for version in store.versions.values() {
        if let Some(old) = by_memory.remove(&version.memory_id) {
            files.remove(&old);
        }
        if version.operation != Change::Deleted {
            let path = version.path.clone().unwrap_or_default();
            by_memory.insert(version.memory_id.clone(), path.clone());
            files.insert(
                path,
                (
                    version.memory_id.clone(),
                    version.sha256.clone().unwrap_or_default(),
                    version.content.clone().unwrap_or_default(),
                    version.id.clone(),
                ),
            );
        }
    }
    files
}

/// A host call over the same small universe (ids are looked up from the store when run).
fn host_call() -> impl Strategy<Value = (u8, usize, &'static str)> {
    let path = prop::sample::select(vec!["/a/x.md", "/a/y.md", "/b", "/a/b/z.md", "/c.md"]);
    (0u8..5, 0usize..8, path)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn replaying_the_version_log_reproduces_the_store(
        steps in prop::collection::vec(prop_oneof![
            command().prop_map(Ok),
            host_call().prop_map(Err),
        ], 1..40)
    ) {
        let mut store = MemStore::new(Config { max_file_bytes: 30, max_files: 6, ..Config::default() });
        for step in &steps {
            match step {
                Ok(input) => {
                    store.execute(input);
                }
                Err((kind, pick, path)) => {
                    let ids: Vec<String> = store.files.values().map(|r| r.id.clone()).collect();
                    let versions: Vec<String> = store.versions.keys().cloned().collect();
                    let id = ids.get(pick % ids.len().max(1)).cloned().unwrap_or_default();
                    let version = versions.get(pick % versions.len().max(1)).cloned().unwrap_or_default();
                    let json = match kind {
                        0 => format!(r#"{{"call":"memories.create","path":{},"content":"h"}}"#, q(path)),
                        1 => format!(r#"{{"call":"memories.update","id":{},"path":{}}}"#, q(&id), q(path)),
                        2 => format!(r#"{{"call":"memories.delete","id":{}}}"#, q(&id)),
                        3 => format!(r#"{{"call":"versions.restore","id":{}}}"#, q(&version)),
                        _ => format!(r#"{{"call":"versions.redact","id":{}}}"#, q(&version)),
                    };
                    let (files, contents) = (store.files.clone(), store.contents.clone());
                    let outcome = store.run(memory_tool_wasm::Operation::host(&json));
                    if outcome.is_error() {
                        prop_assert_eq!(&store.files, &files, "{} changed files", json);
                        prop_assert_eq!(&store.contents, &contents, "{} changed contents", json);
                    }
                }
            }
            check_tree(&store)?;
            // Time stands still (two tabs in one millisecond, or a clock set back): the order
            // of the log must come from the store's newest version id, not from the clock.
            store.clock -= 1;
        }
        let live: std::collections::BTreeMap<_, _> = store
            .files
            .values()
            .map(|r| (r.path.clone(), (r.id.clone(), r.sha256.clone(), r.content.clone(), r.version.clone().unwrap_or_default())))
            .collect();
        prop_assert_eq!(replay(&store), live);
    }
}
