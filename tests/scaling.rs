//! Scaling by counting, not timing: the rounds, reads and records each operation asks of
//! storage at 1,000 and 8,000 files, and 300 and 3,000 versions. An operation whose storage
//! work grows faster than its data (a replayed scan, a read per round of everything read
//! before) fails here on any machine, however fast.

use memory_tool_wasm::{quote, sha256_hex, Config, Counts, MemStore, Operation};

/// A store of `files` files of about 1 KB in 10 directories, made by one import.
fn store_with(files: usize) -> MemStore {
    let mut store = MemStore::new(Config::default());
    let body = "a line of a note about something learned\n".repeat(25);
    let sha = sha256_hex(body.as_bytes());
    let memories: Vec<String> = (0..files)
        .map(|i| {
            format!(
                r#"{{"id":"mem_{i:08}","path":"/dir{}/note{i}.md","content":{},"content_sha256":"{sha}","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#,
                i % 10,
                quote(&body)
            )
        })
        .collect();
    let bundle = format!(
        r#"{{"format":"memory-tool-wasm/bundle","format_version":1,"memories":[{}]}}"#,
        memories.join(",")
    );
    let outcome = store.run(Operation::host(&format!(
        r#"{{"call":"import","bundle":{bundle}}}"#
    )));
    assert!(!outcome.is_error(), "{}", outcome.text_content());
    assert_eq!(store.files.len(), files);
    store
}

/// `versions` more versions, by editing one file over and over.
fn add_versions(store: &mut MemStore, versions: usize) {
    for i in 0..versions {
        let input = format!(
            r#"{{"command":"create","path":"/memories/edited.md","file_text":"take {i}"}}"#
        );
        store.config.create_overwrites = true;
        // One memory with this many versions: past the history budget's default
        // (docs/TOOL.md#history-budget), which would prune them.
        store.config.max_versions_per_memory = versions as u64;
        let outcome = store.execute(&input);
        assert!(!outcome.is_error(), "{}", outcome.text_content());
    }
}

fn counts(store: &mut MemStore, call: &str) -> Counts {
    let outcome = store.run(Operation::host(call));
    assert!(!outcome.is_error(), "{call}: {}", outcome.text_content());
    store.last
}

/// The counts of `call` on a small and a big store.
fn both(small: &mut MemStore, big: &mut MemStore, call: &str) -> (Counts, Counts) {
    (counts(small, call), counts(big, call))
}

#[test]
fn storage_work_grows_with_the_data_not_faster() {
    let mut small = store_with(1_000);
    let mut big = store_with(8_000);
    // The import itself: a constant number of rounds.
    assert!(small.last.rounds <= 4, "import took {:?}", small.last);

    for call in [
        r#"{"call":"export"}"#,
        r#"{"call":"export","include_versions":true}"#,
        r#"{"call":"memories.list"}"#,
        r#"{"call":"memories.list","path_prefix":"/dir3/","depth":1}"#,
    ] {
        let (s, b) = both(&mut small, &mut big, call);
        assert!(
            b.rounds <= 3 && b.rounds == s.rounds,
            "{call}: rounds {s:?} → {b:?}"
        );
        assert!(b.reads <= 10 * s.reads, "{call}: reads {s:?} → {b:?}");
        assert!(b.records <= 10 * s.records, "{call}: records {s:?} → {b:?}");
    }

    // Re-importing what was exported: rounds stay constant, work stays linear.
    let export = |store: &mut MemStore| {
        let outcome = store.run(Operation::host(r#"{"call":"export"}"#));
        outcome.value.unwrap_or_default()
    };
    let (bundle_small, bundle_big) = (export(&mut small), export(&mut big));
    let import = |bundle: &str| {
        format!(r#"{{"call":"import","bundle":{bundle},"on_conflict":"overwrite"}}"#)
    };
    let s = counts(&mut small, &import(&bundle_small));
    let b = counts(&mut big, &import(&bundle_big));
    assert!(
        b.rounds <= 4 && b.rounds == s.rounds,
        "import: {s:?} → {b:?}"
    );
    assert!(b.records <= 10 * s.records, "import: {s:?} → {b:?}");

    let view = r#"{"command":"view","path":"/memories"}"#;
    small.execute(view);
    let s = small.last;
    big.execute(view);
    let b = big.last;
    assert!(b.rounds == s.rounds && b.rounds <= 2, "view: {s:?} → {b:?}");
}

#[test]
fn a_filtered_version_scan_pages_in_few_rounds() {
    let mut few = MemStore::new(Config::default());
    add_versions(&mut few, 300);
    let mut many = MemStore::new(Config::default());
    add_versions(&mut many, 3_000);
    // A filter that matches nothing scans every version.
    let call = r#"{"call":"versions.list","operation":"deleted"}"#;
    let (s, b) = both(&mut few, &mut many, call);
    assert!(s.records >= 300 && b.records >= 3_000, "{s:?} {b:?}");
    // Pages double: 200, 400, 800, 1,600 and an empty last page: 5 rounds for 3,000 versions
    // (with pages of 200 it took 16).
    assert!(s.rounds <= 2, "300 versions: {s:?}");
    assert!(b.rounds <= 5, "3,000 versions: {b:?}");
    assert!(
        b.records <= 2 * 3_001,
        "each version read about once: {b:?}"
    );
}
