//! docs/TOOL.md#history-budget and docs/TOOL.md#delete-at-full-quota natively: each memory
//! keeps a bounded history, pruned oldest first in the write's own transaction; a write that
//! cannot fit fails with `HISTORY_LIMIT_EXCEEDED` and changes nothing; a delete in the compact
//! form takes the memory with its whole history and puts nothing.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::q;
use memory_tool_wasm::{Change, Config, HistoryCount, Json, MemStore, Operation, Outcome};
use std::collections::BTreeSet;

fn exec(store: &mut MemStore, json: &str) -> Outcome {
    let outcome = store.execute(json);
    assert!(!outcome.is_error(), "{json}: {}", outcome.text_content());
    outcome
}

fn host(store: &mut MemStore, json: &str) -> Outcome {
    let before = store.actor.clone();
    store.actor = r#"{"type":"api"}"#.into();
    let outcome = store.run(Operation::host(json));
    store.actor = before;
    outcome
}

fn value(store: &mut MemStore, json: &str) -> Json {
    let outcome = host(store, json);
    assert!(!outcome.is_error(), "{json}: {}", outcome.text_content());
    Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null)
}

fn create(path: &str, text: &str) -> String {
    format!(
        r#"{{"command":"create","path":{},"file_text":{}}}"#,
        q(path),
        q(text)
    )
}

/// Overwrites `path` with `text` (a `create` with `create_overwrites`).
fn put(store: &mut MemStore, path: &str, text: &str) -> Outcome {
    store.config.create_overwrites = true;
    store.execute(&create(path, text))
}

/// The versions of the memory at store key `key`, oldest first.
fn history_of(store: &MemStore, memory_id: &str) -> Vec<memory_tool_wasm::VersionRecord> {
    store
        .versions
        .values()
        .filter(|v| v.memory_id == memory_id)
        .cloned()
        .collect()
}

fn id_at(store: &MemStore, key: &str) -> String {
    store
        .files
        .get(key)
        .map(|r| r.id.clone())
        .unwrap_or_default()
}

/// Bytes held by the content store.
fn content_bytes(store: &MemStore) -> u64 {
    store.contents.values().map(|b| b.len() as u64).sum()
}

/// The store holds what its records name and nothing else: each file's head is the newest
/// version of its memory and holds its content; every version's content is stored; every
/// stored content is held by a version; a memory with no file ends in a deletion.
fn assert_consistent(store: &MemStore) {
    let held: BTreeSet<&str> = store
        .versions
        .values()
        .filter_map(|v| v.content.as_deref())
        .collect();
    let stored: BTreeSet<&str> = store.contents.keys().map(String::as_str).collect();
    assert_eq!(held, stored, "contents are exactly what versions hold");
    let memories: BTreeSet<&str> = store
        .versions
        .values()
        .map(|v| v.memory_id.as_str())
        .collect();
    for memory in memories {
        let newest = store
            .versions
            .values()
            .rev()
            .find(|v| v.memory_id == memory);
        let live = store.files.values().find(|f| f.id == memory);
        match (live, newest) {
            (Some(file), Some(newest)) => {
                assert_eq!(
                    file.version.as_deref(),
                    Some(newest.id.as_str()),
                    "{memory}"
                );
                assert_eq!(newest.content.as_deref(), Some(file.content.as_str()));
                // A history count is a bound of what is stored, never below it.
                if let Some(count) = file.history {
                    let own: Vec<_> = store
                        .versions
                        .values()
                        .filter(|v| v.memory_id == memory)
                        .collect();
                    let keys: BTreeSet<&str> =
                        own.iter().filter_map(|v| v.content.as_deref()).collect();
                    let bytes: u64 = keys
                        .iter()
                        .filter_map(|k| store.contents.get(*k))
                        .map(|b| b.len() as u64)
                        .sum();
                    assert!(count.versions >= own.len() as u64, "{memory}: {count:?}");
                    assert!(count.bytes >= bytes, "{memory}: {count:?} < {bytes} bytes");
                }
            }
            (None, Some(newest)) => assert_eq!(newest.operation, Change::Deleted, "{memory}"),
            (_, None) => {}
        }
    }
}

#[test]
fn three_hundred_edits_of_a_100_kb_file_keep_a_bounded_history() {
    let text = |i: usize| format!("{i:06} ").repeat(102_400 / 7);
    let mut unbounded = MemStore::new(Config {
        max_versions_per_memory: u64::MAX,
        max_history_bytes_per_memory: u64::MAX,
        ..Config::default()
    });
    let mut bounded = MemStore::new(Config::default());
    for i in 0..300 {
        for store in [&mut unbounded, &mut bounded] {
            let outcome = put(store, "/memories/big.md", &text(i));
            assert!(!outcome.is_error(), "{}", outcome.text_content());
        }
    }
    let (before_versions, before_bytes) = (unbounded.versions.len(), content_bytes(&unbounded));
    let (after_versions, after_bytes) = (bounded.versions.len(), content_bytes(&bounded));
    println!(
        "# 300 edits of a {} B file: unbounded {before_versions} versions, {before_bytes} B of \
         content; default budget {after_versions} versions, {after_bytes} B",
        text(0).len()
    );
    assert_eq!(before_versions, 300);
    assert!(after_bytes <= 4 * 1024 * 1024, "{after_bytes}");
    // 4 MiB holds 40 versions of 102,396 bytes.
    assert_eq!(after_versions, 40);
    // The newest 40 are the ones kept, and the head is the last edit.
    let kept: Vec<String> = bounded.versions.keys().cloned().collect();
    let newest: Vec<String> = unbounded.versions.keys().skip(260).cloned().collect();
    assert_eq!(kept, newest);
    assert_eq!(bounded.text_at("/big.md"), Some(text(299).as_str()));
    assert_consistent(&bounded);
}

#[test]
fn the_version_budget_prunes_the_oldest_and_never_the_head() {
    let mut store = MemStore::new(Config {
        max_versions_per_memory: 3,
        ..Config::default()
    });
    exec(&mut store, &create("/memories/other.md", "other"));
    for i in 0..10 {
        assert!(!put(&mut store, "/memories/a.md", &format!("take {i}")).is_error());
    }
    let id = id_at(&store, "/a.md");
    let history = history_of(&store, &id);
    assert_eq!(history.len(), 3);
    let texts: Vec<String> = history
        .iter()
        .filter_map(|v| store.contents.get(v.content.as_deref()?))
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect();
    assert_eq!(texts, ["take 7", "take 8", "take 9"]);
    assert_eq!(
        store.files.get("/a.md").and_then(|f| f.version.clone()),
        history.last().map(|v| v.id.clone())
    );
    // The other memory's history is its own.
    assert_eq!(history_of(&store, &id_at(&store, "/other.md")).len(), 1);
    assert_consistent(&store);

    // Edits, renames and host updates count the same way.
    exec(
        &mut store,
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"9","new_str":"nine"}"#,
    );
    exec(
        &mut store,
        r#"{"command":"rename","old_path":"/memories/a.md","new_path":"/memories/b.md"}"#,
    );
    value(
        &mut store,
        &format!(
            r#"{{"call":"memories.update","id":{},"content":"by host"}}"#,
            q(&id)
        ),
    );
    assert_eq!(history_of(&store, &id).len(), 3);
    assert_eq!(store.text_at("/b.md"), Some("by host"));
    assert_consistent(&store);
}

#[test]
fn a_write_whose_history_cannot_fit_fails_and_changes_nothing() {
    let mut store = MemStore::new(Config {
        max_history_bytes_per_memory: 10,
        ..Config::default()
    });
    exec(&mut store, &create("/memories/a.md", "0123456789"));
    assert!(!put(&mut store, "/memories/a.md", "abcdefghij").is_error());
    let id = id_at(&store, "/a.md");
    // The older version went: 10 + 10 bytes is over 10.
    assert_eq!(history_of(&store, &id).len(), 1);
    let before = (
        store.files.clone(),
        store.versions.clone(),
        store.contents.clone(),
    );
    let outcome = put(&mut store, "/memories/a.md", "0123456789A");
    assert_eq!(
        outcome.error.map(|c| c.as_str()),
        Some("HISTORY_LIMIT_EXCEEDED")
    );
    assert_eq!(
        outcome.text_content(),
        "Error: Cannot write /memories/a.md: its history would hold 11 bytes even with every \
         older version pruned, over the limit of 10 bytes of history per memory. Nothing was changed"
    );
    assert_eq!(
        (
            store.files.clone(),
            store.versions.clone(),
            store.contents.clone()
        ),
        before
    );
    // A new memory too; the host hears it without `Error: `, with the store path.
    let outcome = store.execute(&create("/memories/new.md", "01234567890"));
    assert_eq!(
        outcome.error.map(|c| c.as_str()),
        Some("HISTORY_LIMIT_EXCEEDED")
    );
    let outcome = host(
        &mut store,
        r#"{"call":"memories.create","path":"/host.md","content":"01234567890"}"#,
    );
    assert_eq!(
        outcome.error.map(|c| c.as_str()),
        Some("HISTORY_LIMIT_EXCEEDED")
    );
    assert!(
        outcome
            .text_content()
            .starts_with("Cannot write /host.md: its history would hold 11 bytes"),
        "{}",
        outcome.text_content()
    );
    assert_eq!(
        (
            store.files.clone(),
            store.versions.clone(),
            store.contents.clone()
        ),
        before
    );
    // A delete is never refused.
    exec(
        &mut store,
        r#"{"command":"delete","path":"/memories/a.md"}"#,
    );
    assert_consistent(&store);
}

#[test]
fn a_restore_keeps_the_version_it_brought_back_and_the_budget_takes_another() {
    let mut store = MemStore::new(Config {
        max_versions_per_memory: 2,
        ..Config::default()
    });
    exec(&mut store, &create("/memories/a.md", "first"));
    let id = id_at(&store, "/a.md");
    let first = history_of(&store, &id)[0].id.clone();
    assert!(!put(&mut store, "/memories/a.md", "second").is_error());
    let second = history_of(&store, &id)[1].id.clone();
    // Restoring `first` writes a third version that points at it (docs/TOOL.md#retention):
    // the budget takes `second`, never the version a restore points at.
    value(
        &mut store,
        &format!(r#"{{"call":"versions.restore","id":{}}}"#, q(&first)),
    );
    let history = history_of(&store, &id);
    assert_eq!(history.len(), 2);
    assert!(history.iter().any(|v| v.id == first));
    assert!(history.iter().all(|v| v.id != second));
    assert_eq!(store.text_at("/a.md"), Some("first"));
    assert_consistent(&store);
    // A deletion is one version over the budget until the memory's next write, a restore.
    exec(
        &mut store,
        r#"{"command":"delete","path":"/memories/a.md"}"#,
    );
    let history = history_of(&store, &id);
    assert_eq!(history.len(), 3);
    assert_eq!(history.last().map(|v| v.operation), Some(Change::Deleted));
    let before_delete = history[1].id.clone();
    value(
        &mut store,
        &format!(
            r#"{{"call":"versions.restore","id":{}}}"#,
            q(&before_delete)
        ),
    );
    assert_eq!(store.text_at("/a.md"), Some("first"));
    // The deletion goes; both versions restores point at stay, one over the budget, until
    // retention lets them go.
    let history = history_of(&store, &id);
    assert_eq!(history.len(), 3);
    assert!(history.iter().all(|v| v.operation != Change::Deleted));
    assert_consistent(&store);
}

#[test]
fn the_budget_reads_a_history_only_when_the_record_has_not_counted_it() {
    let mut store = MemStore::new(Config::default());
    exec(&mut store, &create("/memories/a.md", "a"));
    let history_reads = |store: &MemStore| store.last.history;
    let count = |store: &MemStore, path: &str| store.files.get(path).and_then(|f| f.history);
    assert_eq!(
        history_reads(&store),
        0,
        "a new memory has no history to read"
    );
    assert_eq!(
        count(&store, "/a.md"),
        Some(HistoryCount {
            versions: 1,
            bytes: 1
        })
    );
    // Counted and within budget: an edit and a file rename read no history.
    exec(
        &mut store,
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"a","new_str":"bb"}"#,
    );
    assert_eq!(history_reads(&store), 0);
    assert_eq!(
        count(&store, "/a.md"),
        Some(HistoryCount {
            versions: 2,
            bytes: 3
        })
    );
    exec(
        &mut store,
        r#"{"command":"rename","old_path":"/memories/a.md","new_path":"/memories/dir/a.md"}"#,
    );
    assert_eq!(history_reads(&store), 0);
    assert_consistent(&store);
    // A directory rename moves each file with no new content and is not checked (no read per
    // file): the records it writes have not counted their versions.
    exec(&mut store, &create("/memories/dir/b.md", "b"));
    exec(
        &mut store,
        r#"{"command":"rename","old_path":"/memories/dir","new_path":"/memories/moved"}"#,
    );
    assert_eq!(history_reads(&store), 0);
    assert_eq!(count(&store, "/moved/a.md"), None);
    // So the next edit of one reads its history once, and counts it again.
    let edit =
        r#"{"command":"str_replace","path":"/memories/moved/a.md","old_str":"bb","new_str":"c"}"#;
    exec(&mut store, edit);
    assert_eq!(history_reads(&store), 1);
    assert_eq!(
        count(&store, "/moved/a.md"),
        Some(HistoryCount {
            versions: 5,
            bytes: 4
        })
    );
    exec(
        &mut store,
        r#"{"command":"str_replace","path":"/memories/moved/a.md","old_str":"c","new_str":"d"}"#,
    );
    assert_eq!(history_reads(&store), 0);
    assert_consistent(&store);
    // A delete adds a version with no content: no budget read, whatever it deletes.
    exec(
        &mut store,
        r#"{"command":"delete","path":"/memories/moved"}"#,
    );
    assert_eq!(history_reads(&store), 0);
}

#[test]
fn a_counted_memory_at_its_budget_reads_its_history_and_is_pruned_as_before() {
    let config = Config {
        max_versions_per_memory: 3,
        ..Config::default()
    };
    let mut store = MemStore::new(config);
    exec(&mut store, &create("/memories/a.md", "v0"));
    for i in 1..=2 {
        exec(
            &mut store,
            &format!(
                r#"{{"command":"str_replace","path":"/memories/a.md","old_str":"v{}","new_str":"v{i}"}}"#,
                i - 1
            ),
        );
        assert_eq!(
            store.last.history, 0,
            "edit {i}: within budget by its count"
        );
        assert_eq!(
            store.last.rounds, 1,
            "edit {i}: the record and its bytes (found by its key) in one round"
        );
    }
    for i in 3..=6 {
        exec(
            &mut store,
            &format!(
                r#"{{"command":"str_replace","path":"/memories/a.md","old_str":"v{}","new_str":"v{i}"}}"#,
                i - 1
            ),
        );
        // At the budget: the count says one more would not fit, so the history is read (the
        // record and its bytes, then the history, then whether the pruned version's bytes are
        // held elsewhere) and the oldest version pruned; the count is then exact again (three
        // versions).
        assert_eq!(store.last.history, 1, "edit {i}");
        assert_eq!(store.last.rounds, 3, "edit {i}");
        let file = store.files.get("/a.md").cloned();
        let id = file.as_ref().map(|f| f.id.clone()).unwrap_or_default();
        assert_eq!(history_of(&store, &id).len(), 3);
        assert_eq!(
            file.and_then(|f| f.history),
            Some(HistoryCount {
                versions: 3,
                bytes: 6
            })
        );
        assert_consistent(&store);
    }
    // A byte budget the count would pass: read, and the oldest version pruned as before.
    let mut tight = MemStore::new(Config {
        max_history_bytes_per_memory: 10,
        ..Config::default()
    });
    exec(&mut tight, &create("/memories/b.md", "12345"));
    let edit = exec(
        &mut tight,
        r#"{"command":"str_replace","path":"/memories/b.md","old_str":"5","new_str":"56"}"#,
    );
    assert!(!edit.is_error(), "{}", edit.text_content());
    assert_eq!(tight.last.history, 1);
    let id = tight
        .files
        .get("/b.md")
        .map(|f| f.id.clone())
        .unwrap_or_default();
    assert_eq!(history_of(&tight, &id).len(), 1);
    assert_consistent(&tight);
}

#[test]
fn a_compact_delete_takes_the_memory_with_its_history_and_puts_nothing() {
    let mut store = MemStore::new(Config::default());
    exec(&mut store, &create("/memories/a.md", "a1"));
    assert!(!put(&mut store, "/memories/a.md", "a2").is_error());
    exec(&mut store, &create("/memories/dir/x.md", "x"));
    exec(&mut store, &create("/memories/dir/y.md", "y"));
    exec(&mut store, &create("/memories/keep.md", "keep"));
    let keep = id_at(&store, "/keep.md");
    let x = id_at(&store, "/dir/x.md");
    store.compact = true;
    let outcome = exec(
        &mut store,
        r#"{"command":"delete","path":"/memories/a.md"}"#,
    );
    assert_eq!(
        outcome.text_content(),
        "Successfully deleted /memories/a.md"
    );
    let puts = |outcome: &Outcome| {
        outcome
            .writes
            .iter()
            .filter(|w| {
                matches!(
                    w,
                    memory_tool_wasm::Write::PutFile { .. }
                        | memory_tool_wasm::Write::PutContent { .. }
                        | memory_tool_wasm::Write::PutVersion(_)
                )
            })
            .count()
    };
    assert_eq!(puts(&outcome), 0);
    assert!(!store.files.contains_key("/a.md"));
    assert_eq!(store.versions.len(), 3, "x, y and keep keep theirs");
    assert_consistent(&store);
    // A directory, and the host's delete by id.
    let outcome = exec(&mut store, r#"{"command":"delete","path":"/memories/dir"}"#);
    assert_eq!(puts(&outcome), 0);
    assert!(history_of(&store, &x).is_empty());
    let outcome = host(
        &mut store,
        &format!(r#"{{"call":"memories.delete","id":{}}}"#, q(&keep)),
    );
    assert!(!outcome.is_error(), "{}", outcome.text_content());
    assert_eq!(puts(&outcome), 0);
    assert!(store.files.is_empty() && store.versions.is_empty() && store.contents.is_empty());
}

#[test]
fn a_lowered_budget_prunes_a_long_history_at_the_next_write() {
    let mut store = MemStore::new(Config {
        max_versions_per_memory: u64::MAX,
        ..Config::default()
    });
    for i in 0..500 {
        assert!(!put(&mut store, "/memories/a.md", &format!("take {i}")).is_error());
    }
    assert_eq!(store.versions.len(), 500);
    store.config.max_versions_per_memory = 10;
    assert!(!put(&mut store, "/memories/a.md", "take 500").is_error());
    assert_eq!(store.versions.len(), 10);
    assert_eq!(
        store.contents.len(),
        10,
        "the pruned versions' bytes are freed"
    );
    assert_eq!(store.last.history, 1, "one read of the history");
    assert_consistent(&store);
}

#[test]
fn bytes_shared_by_versions_count_once() {
    let mut store = MemStore::new(Config {
        max_history_bytes_per_memory: 10,
        ..Config::default()
    });
    exec(&mut store, &create("/memories/a.md", "123456"));
    // A rename keeps the bytes: two versions, one content of 6 bytes, within 10.
    exec(
        &mut store,
        r#"{"command":"rename","old_path":"/memories/a.md","new_path":"/memories/b.md"}"#,
    );
    let id = id_at(&store, "/b.md");
    assert_eq!(history_of(&store, &id).len(), 2);
    // New bytes: 6 + 6 is over 10, so both older versions go (they share one content).
    assert!(!put(&mut store, "/memories/b.md", "abcdef").is_error());
    assert_eq!(history_of(&store, &id).len(), 1);
    assert_eq!(store.contents.len(), 1);
    assert_consistent(&store);
}
