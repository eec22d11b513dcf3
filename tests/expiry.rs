//! Last use and expiry (docs/TOOL.md#last-use-and-expiry): a view reports the memories whose
//! last use is a day old or more (never more often), the host records them with
//! `memories.touch`, `memories.keep` resets a last use, and `memories.expire` deletes exactly
//! the memories past the limit as normal versions, their text kept in the history; a dry run
//! writes nothing.

use memory_tool_wasm::{Config, Json, MemStore, Operation};

const DAY: i64 = 86_400_000;

fn host(store: &mut MemStore, call: &str) -> Json {
    let outcome = store.run(Operation::host(call));
    assert!(!outcome.is_error(), "{call}: {}", outcome.text_content());
    Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null)
}

fn paths(value: &Json) -> Vec<String> {
    match value.get("data") {
        Some(Json::Array(items)) => items
            .iter()
            .filter_map(|m| m.get("path").and_then(Json::as_str).map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

fn store_with_three() -> MemStore {
    let mut store = MemStore::new(Config::default());
    for name in ["a", "b", "c"] {
        let input = format!(
            r#"{{"command":"create","path":"/memories/{name}.md","file_text":"{name}\n"}}"#
        );
        assert!(!store.execute(&input).is_error());
    }
    store
}

#[test]
fn a_view_reports_a_use_at_most_once_a_day_and_a_change_is_a_use() {
    let mut store = store_with_three();
    let view = r#"{"command":"view","path":"/memories/a.md"}"#;
    // Just created: used today, nothing to record.
    assert!(store.execute(view).touched.is_empty());
    store.clock += DAY;
    let outcome = store.execute(view);
    assert_eq!(outcome.touched, vec!["/a.md".to_string()]);
    // The view itself wrote nothing: the host records it later.
    assert!(outcome.writes.is_empty());
    host(
        &mut store,
        r#"{"call":"memories.touch","paths":["/a.md","/gone.md"]}"#,
    );
    assert_eq!(
        store.files.get("/a.md").and_then(|r| r.accessed_at),
        Some(store.clock)
    );
    assert!(store.execute(view).touched.is_empty());
    // A directory view uses no memory.
    store.clock += 2 * DAY;
    assert!(store
        .execute(r#"{"command":"view","path":"/memories"}"#)
        .touched
        .is_empty());
    // A failed view uses none either.
    assert!(store
        .execute(r#"{"command":"view","path":"/memories/a.md","view_range":[9,10]}"#)
        .touched
        .is_empty());
    // An edit is a use: its record says now.
    store.execute(
        r#"{"command":"str_replace","path":"/memories/b.md","old_str":"b","new_str":"B"}"#,
    );
    assert_eq!(
        store.files.get("/b.md").and_then(|r| r.accessed_at),
        Some(store.clock)
    );
    let listed = host(&mut store, r#"{"call":"memories.list"}"#);
    let Json::Array(items) = listed else {
        panic!("a list")
    };
    let last: Vec<&str> = items
        .iter()
        .filter_map(|m| m.get("last_accessed_at").and_then(Json::as_str))
        .collect();
    assert_eq!(last.len(), 3);
}

#[test]
fn expire_deletes_exactly_the_memories_past_the_limit_and_keeps_their_history() {
    let mut store = store_with_three();
    store.clock += 10 * DAY;
    // b is used on day 10, c is kept by the host on day 10; a is not touched.
    store.execute(r#"{"command":"view","path":"/memories/b.md"}"#);
    host(&mut store, r#"{"call":"memories.touch","paths":["/b.md"]}"#);
    let c = store
        .files
        .get("/c.md")
        .map(|r| r.id.clone())
        .unwrap_or_default();
    host(
        &mut store,
        &format!(r#"{{"call":"memories.keep","id":"{c}"}}"#),
    );
    store.clock += 25 * DAY;
    // 35 days after creation, 25 after b's and c's last use.
    let before = (store.files.clone(), store.versions.clone());
    let dry = host(
        &mut store,
        r#"{"call":"memories.expire","older_than_days":30,"dry_run":true}"#,
    );
    assert_eq!(paths(&dry), vec!["/a.md".to_string()]);
    assert_eq!((store.files.clone(), store.versions.clone()), before);
    let wider = host(
        &mut store,
        r#"{"call":"memories.expire","older_than_days":20,"dry_run":true}"#,
    );
    assert_eq!(paths(&wider), vec!["/a.md", "/b.md", "/c.md"]);

    store.actor = r#"{"type":"expiry"}"#.to_string();
    let done = host(
        &mut store,
        r#"{"call":"memories.expire","older_than_days":30}"#,
    );
    assert_eq!(paths(&done), vec!["/a.md".to_string()]);
    assert!(!store.files.contains_key("/a.md"));
    assert!(store.files.contains_key("/b.md") && store.files.contains_key("/c.md"));
    // Deleted as a version by the expiry actor; its text is still in the history.
    let tombstone = store
        .versions
        .values()
        .next_back()
        .cloned()
        .expect("a version");
    assert_eq!(tombstone.operation.as_str(), "deleted");
    assert_eq!(tombstone.created_by, r#"{"type":"expiry"}"#);
    let created = store
        .versions
        .values()
        .find(|v| v.memory_id == tombstone.memory_id && v.operation.as_str() == "created")
        .cloned()
        .expect("the creation");
    let restored = store.run(Operation::host(&format!(
        r#"{{"call":"versions.restore","id":"{}"}}"#,
        created.id
    )));
    assert!(!restored.is_error(), "{}", restored.text_content());
    assert_eq!(store.text_at("/a.md"), Some("a\n"));
    // Nothing left past the limit.
    let again = host(
        &mut store,
        r#"{"call":"memories.expire","older_than_days":30}"#,
    );
    assert!(paths(&again).is_empty());
}

#[test]
fn expire_refuses_bad_limits_and_read_only_stores_but_a_dry_run_reads() {
    let mut store = store_with_three();
    for call in [
        r#"{"call":"memories.expire","older_than_days":0}"#,
        r#"{"call":"memories.expire","older_than_days":36501}"#,
        r#"{"call":"memories.expire"}"#,
        r#"{"call":"memories.expire","older_than_days":3,"dry_run":"yes"}"#,
        r#"{"call":"memories.expire","older_than_days":3,"dryRun":true}"#,
    ] {
        let outcome = store.run(Operation::host(call));
        assert_eq!(
            outcome.error.map(|c| c.as_str()),
            Some("INVALID_INPUT"),
            "{call}"
        );
    }
    store.clock += 40 * DAY;
    store.config.read_only = true;
    let refused = store.run(Operation::host(
        r#"{"call":"memories.expire","older_than_days":30}"#,
    ));
    assert_eq!(refused.error.map(|c| c.as_str()), Some("READ_ONLY"));
    let dry = host(
        &mut store,
        r#"{"call":"memories.expire","older_than_days":30,"dry_run":true}"#,
    );
    assert_eq!(paths(&dry).len(), 3);
    store.config.read_only = false;
    store.archived = true;
    let archived = store.run(Operation::host(
        r#"{"call":"memories.expire","older_than_days":30}"#,
    ));
    assert_eq!(archived.error.map(|c| c.as_str()), Some("ARCHIVED"));
}

#[test]
fn bundles_carry_last_use_and_an_import_cannot_set_it_in_the_future() {
    let mut store = store_with_three();
    store.clock += 3 * DAY;
    let export = store.run(Operation::host(r#"{"call":"export"}"#));
    let bundle = export.value.unwrap_or_default();
    assert!(bundle.contains("\"last_accessed_at\""));
    let future = bundle.replacen(
        "\"last_accessed_at\":\"2026",
        "\"last_accessed_at\":\"2199",
        1,
    );
    assert_ne!(future, bundle);
    let mut other = MemStore::new(Config::default());
    let imported = other.run(Operation::host(&format!(
        r#"{{"call":"import","bundle":{future}}}"#
    )));
    assert!(!imported.is_error(), "{}", imported.text_content());
    let now = other.clock;
    assert!(other
        .files
        .values()
        .all(|r| r.accessed_at.is_some_and(|at| at <= now)));
}
