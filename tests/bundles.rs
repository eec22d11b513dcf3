//! Imports over random and mutated real bundles (proptest; the same bodies as the `bundle` fuzz
//! target, `fuzz/src/lib.rs`): an import either refuses with nothing written, or leaves a store
//! whose every invariant holds (a tree of valid paths; sizes and hashes that match the bytes;
//! a version log that replays to the files; no orphan contents) and whose export imports into a
//! fresh store that exports the same bundle (docs/TOOL.md#bundles).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code, unreachable_pub)]
mod targets;

use memory_tool_wasm::{write_value, Config, Json, MemStore, Operation};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

static IMPORTED: AtomicUsize = AtomicUsize::new(0);
static REFUSED: AtomicUsize = AtomicUsize::new(0);

fn tally(outcome: Option<bool>) {
    match outcome {
        Some(true) => IMPORTED.fetch_add(1, Ordering::Relaxed),
        Some(false) => REFUSED.fetch_add(1, Ordering::Relaxed),
        None => 0,
    };
}

#[test]
fn real_exports_import_whole_into_an_empty_store_and_again_identically() {
    for (i, bundle) in targets::real_bundles().iter().enumerate() {
        for on_conflict in ["skip", "overwrite", "fail"] {
            let mut store = MemStore::new(Config::default());
            assert!(
                targets::check_import(&mut store, bundle, on_conflict),
                "real export {i} was refused"
            );
        }
    }
    // Into the store it came from: nothing to do, nothing broken.
    let mut store = targets::seeded_history_store();
    let before = store.clone();
    assert!(targets::check_import(
        &mut store,
        &targets::real_bundles()[0],
        "fail"
    ));
    assert_eq!(store.files, before.files);
}

/// The seeded store's export (with history), and the import of a changed copy of it into an
/// empty store: the error code and text, and the store.
fn import_changed(
    change: impl FnOnce(&mut Vec<Json>, &mut Vec<Json>),
) -> (Option<&'static str>, String, MemStore) {
    let mut bundle = targets::real_bundles()[0].clone();
    if let Json::Object(members) = &mut bundle {
        let mut memories = Vec::new();
        let mut versions = Vec::new();
        for (key, value) in members.iter_mut() {
            match (key.as_str(), value) {
                ("memories", Json::Array(items)) => memories = std::mem::take(items),
                ("versions", Json::Array(items)) => versions = std::mem::take(items),
                _ => {}
            }
        }
        change(&mut memories, &mut versions);
        for (key, value) in members.iter_mut() {
            match key.as_str() {
                "memories" => *value = Json::Array(std::mem::take(&mut memories)),
                "versions" => *value = Json::Array(std::mem::take(&mut versions)),
                _ => {}
            }
        }
    }
    let mut store = MemStore::new(Config::default());
    let before = store.clone();
    let call = format!(
        r#"{{"call":"import","bundle":{},"on_conflict":"fail"}}"#,
        write_value(&bundle)
    );
    let outcome = store.run(Operation::host(&call));
    if outcome.is_error() {
        assert_eq!(
            (&store.files, &store.versions, &store.contents),
            (&before.files, &before.versions, &before.contents),
            "a refused import wrote something"
        );
    }
    (
        outcome.error.map(|c| c.as_str()),
        outcome.text_content().to_string(),
        store,
    )
}

fn set(item: &mut Json, key: &str, value: Json) {
    if let Json::Object(members) = item {
        members.retain(|(k, _)| k != key);
        members.push((key.to_string(), value));
    }
}

fn text<'a>(item: &'a Json, key: &str) -> &'a str {
    item.get(key).and_then(Json::as_str).unwrap_or_default()
}

#[test]
fn a_history_that_says_a_missing_memory_is_live_is_refused() {
    // The memory is dropped from `memories`, its versions stay: they end in a modification.
    let (code, message, _) = import_changed(|memories, _| {
        memories.retain(|m| text(m, "path") != "/a.md");
    });
    assert_eq!(code, Some("INVALID_BUNDLE"), "{message}");
    assert!(
        message.contains("its history ends in version")
            && message.contains("which is not a deletion"),
        "{message}"
    );
    // A memory's newest version must be its head.
    let (code, message, _) = import_changed(|_, versions| {
        let last = versions
            .iter()
            .rposition(|v| text(v, "path") == "/a.md")
            .unwrap_or(0);
        versions.remove(last);
    });
    assert_eq!(code, Some("INVALID_BUNDLE"), "{message}");
}

#[test]
fn a_head_without_its_memory_s_path_is_refused() {
    for path in [
        Json::Null,
        Json::Array(Vec::new()),
        Json::string("/elsewhere.md"),
    ] {
        let (code, message, _) = import_changed(|memories, versions| {
            let head = memories
                .iter()
                .find(|m| text(m, "path") == "/a.md")
                .map(|m| text(m, "memory_version_id").to_string())
                .unwrap_or_default();
            if let Some(v) = versions.iter_mut().find(|v| text(v, "id") == head) {
                set(v, "path", path.clone());
            }
        });
        assert_eq!(code, Some("INVALID_BUNDLE"), "{path:?}: {message}");
    }
}

#[test]
fn an_import_s_own_versions_sort_after_the_bundle_s() {
    // A bundle exported a few minutes ahead of this clock (within the slack allowed), whose
    // memory names no head: the version the import writes for it must be the newest.
    let mut ahead = targets::seeded_history_store();
    let mut behind = MemStore::new(Config::default());
    behind.clock = ahead.clock - 5 * 60 * 1000;
    let export = ahead.run(Operation::host(
        r#"{"call":"export","include_versions":true}"#,
    ));
    let mut bundle = Json::parse(export.value.as_deref().unwrap_or("")).unwrap_or(Json::Null);
    if let Json::Object(members) = &mut bundle {
        for (key, value) in members.iter_mut() {
            if let ("memories", Json::Array(items)) = (key.as_str(), value) {
                for m in items.iter_mut() {
                    if let Json::Object(fields) = m {
                        fields.retain(|(k, _)| k != "memory_version_id");
                    }
                }
            }
        }
    }
    assert!(targets::check_import(&mut behind, &bundle, "fail"));
}

#[test]
fn a_head_the_store_already_holds_gets_a_version_of_its_own() {
    // An old export of this very store, imported back over a later edit: the memory returns to
    // the bundle's content with a new head, not with the file pointing at the old version.
    let mut store = targets::seeded_history_store();
    let old = targets::real_bundles()[0].clone();
    store.execute(
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"uno","new_str":"eins"}"#,
    );
    assert!(targets::check_import(&mut store, &old, "overwrite"));
    assert_eq!(store.text_at("/a.md"), Some("uno\ntwo\n"));
    // A bundle that borrows the id of a version this store redacted, for another memory at
    // another path: the file must not point at the redacted version (it has no content).
    let mut store = targets::seeded_history_store();
    let redacted = store
        .versions
        .values()
        .find(|v| v.redacted_at.is_some())
        .map(|v| v.id.clone())
        .unwrap_or_default();
    let content = "borrowed";
    let bundle = format!(
        r#"{{"format":"memory-tool-wasm/bundle","format_version":1,"memories":[{{"id":"mem_zzzzzzzzzzzzzzzzzzzzzzzz","path":"/new.md","content":"{content}","content_sha256":"{sha}","content_size_bytes":8,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","memory_version_id":"{redacted}"}}],"versions":[{{"id":"{redacted}","memory_id":"mem_zzzzzzzzzzzzzzzzzzzzzzzz","operation":"created","path":"/new.md","content":"{content}","content_sha256":"{sha}","content_size_bytes":8,"created_at":"2026-01-01T00:00:00Z","created_by":{{"type":"import"}},"redacted_at":null}}]}}"#,
        sha = memory_tool_wasm::sha256_hex(content.as_bytes())
    );
    let bundle = Json::parse(&bundle).unwrap_or(Json::Null);
    assert!(targets::check_import(&mut store, &bundle, "fail"));
    assert_eq!(store.text_at("/new.md"), Some(content));
}

#[test]
fn a_damaged_store_s_export_leaves_out_the_history_of_what_it_left_out_and_imports() {
    // A memory whose content is missing from storage is left out of an export
    // (docs/TOOL.md#damaged-records); so is its history, which would say it is live.
    let mut store = targets::seeded_history_store();
    let key = store.files["/notes/c.md"].content.clone();
    store.contents.remove(&key);
    let export = store.run(Operation::host(
        r#"{"call":"export","include_versions":true}"#,
    ));
    assert!(!export.is_error(), "{}", export.text_content());
    let text = export.value.unwrap_or_default();
    assert!(
        text.contains(r#""reason":"its memory was left out""#),
        "{text}"
    );
    let bundle = Json::parse(&text).unwrap_or(Json::Null);
    let mut fresh = MemStore::new(Config::default());
    assert!(targets::check_import(&mut fresh, &bundle, "fail"));
    assert!(!fresh.files.contains_key("/notes/c.md") && fresh.files.contains_key("/a.md"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A real export (with history, heads only, or empty) put through up to 12 mutations:
    /// values replaced by hostile ones or by other nodes of the bundle, members and items
    /// dropped, duplicated or swapped, strings cut or lengthened.
    #[test]
    fn mutated_real_bundles_refuse_cleanly_or_import_whole(
        into_empty in any::<bool>(),
        on_conflict in 0u8..3,
        pick in 0u8..3,
        mutations in prop::collection::vec(any::<(u8, u8, u8)>(), 0..12),
    ) {
        let flags = (u8::from(into_empty) << 1) | (on_conflict << 2);
        let mut data = vec![flags, pick];
        for (a, b, c) in mutations {
            data.extend([a, b, c]);
        }
        tally(targets::bundle_imported(&data));
    }

    /// A bundle made up from bytes: up to 4 memories and 8 versions over a small universe of
    /// ids, paths (NFC and NFD spellings, a directory and a file below it, `..`), contents,
    /// right and wrong hashes and sizes, heads named or not, redactions.
    #[test]
    fn made_up_bundles_refuse_cleanly_or_import_whole(
        into_empty in any::<bool>(),
        on_conflict in 0u8..3,
        bytes in prop::collection::vec(any::<u8>(), 0..80),
    ) {
        let flags = 1 | (u8::from(into_empty) << 1) | (on_conflict << 2);
        let mut data = vec![flags];
        data.extend(bytes);
        tally(targets::bundle_imported(&data));
    }
}

#[test]
fn zz_report_the_count() {
    // Runs after the properties when the tests run one at a time (`--test-threads=1`); with
    // threads it may print a partial count, and asserts nothing about it.
    println!(
        "bundles: {} imported, {} refused",
        IMPORTED.load(Ordering::Relaxed),
        REFUSED.load(Ordering::Relaxed)
    );
}
