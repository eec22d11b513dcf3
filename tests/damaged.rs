//! A store degrades per record, not per store (docs/TOOL.md#damaged-records): a memory whose
//! content is missing fails with `DAMAGED` naming it (never reads as an empty file), the rest
//! stays usable, listed and exportable, and `check` / `repair` find and take out the damage.
//! (A malformed record cannot be built in the typed harness; the Node and Chromium tests
//! write one into real storage: tests/node/damaged.test.mjs.)

use memory_tool_wasm::{Config, Json, MemStore, Operation};

fn damaged_store() -> MemStore {
    let mut store = MemStore::new(Config::default());
    for (name, text) in [("a", "alpha\n"), ("b", "beta\n"), ("c", "gamma\n")] {
        let input =
            format!(r#"{{"command":"create","path":"/memories/{name}.md","file_text":"{text}"}}"#);
        assert!(!store.execute(&input.replace('\n', "\\n")).is_error());
    }
    let key = store
        .files
        .get("/b.md")
        .map(|r| r.content.clone())
        .unwrap_or_default();
    store.contents.remove(&key);
    store
}

fn host(store: &mut MemStore, call: &str) -> (Option<&'static str>, String, Json) {
    let outcome = store.run(Operation::host(call));
    let value = Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null);
    (
        outcome.error.map(|c| c.as_str()),
        outcome.text_content().to_string(),
        value,
    )
}

#[test]
fn a_memory_without_content_is_damaged_not_empty_and_the_rest_works() {
    let mut store = damaged_store();
    let view = store.execute(r#"{"command":"view","path":"/memories/b.md"}"#);
    assert_eq!(
        view.text_content(),
        "Error: The memory /memories/b.md is damaged: its content is missing from storage. Nothing was changed; the app can check and repair the store"
    );
    assert_eq!(view.error.map(|c| c.as_str()), Some("DAMAGED"));
    let edit = store.execute(
        r#"{"command":"str_replace","path":"/memories/b.md","old_str":"beta","new_str":"x"}"#,
    );
    assert_eq!(edit.error.map(|c| c.as_str()), Some("DAMAGED"));
    assert!(edit.writes.is_empty());
    // The others read and change as ever.
    let other = store.execute(r#"{"command":"view","path":"/memories/a.md"}"#);
    assert!(!other.is_error(), "{}", other.text_content());
    let listing = store.execute(r#"{"command":"view","path":"/memories"}"#);
    assert!(listing.text_content().contains("/memories/b.md"));
    let (code, _, listed) = host(&mut store, r#"{"call":"memories.list"}"#);
    assert_eq!(code, None);
    assert!(matches!(listed, Json::Array(ref items) if items.len() == 3));
    let id = store
        .files
        .get("/b.md")
        .map(|r| r.id.clone())
        .unwrap_or_default();
    let (code, text, _) = host(
        &mut store,
        &format!(r#"{{"call":"memories.get","id":"{id}"}}"#),
    );
    assert_eq!(code, Some("DAMAGED"));
    assert_eq!(text, "The memory /b.md is damaged: its content is missing from storage. Nothing was changed; the app can check and repair the store");
}

#[test]
fn export_leaves_out_what_cannot_be_read_and_says_so() {
    let mut store = damaged_store();
    let (code, _, bundle) = host(&mut store, r#"{"call":"export","include_versions":true}"#);
    assert_eq!(code, None);
    let paths: Vec<&str> = match bundle.get("memories") {
        Some(Json::Array(items)) => items
            .iter()
            .filter_map(|m| m.get("path").and_then(Json::as_str))
            .collect(),
        _ => vec![],
    };
    assert_eq!(paths, vec!["/a.md", "/c.md"]);
    let skipped = match bundle.get("skipped") {
        Some(Json::Array(items)) => items.len(),
        _ => 0,
    };
    // The memory, and its one version, whose content is the missing one.
    assert_eq!(skipped, 2);
    // What was exported imports into a fresh store.
    let mut other = MemStore::new(Config::default());
    let text = memory_tool_wasm::write_value(&bundle);
    let (code, message, _) = host(
        &mut other,
        &format!(r#"{{"call":"import","bundle":{text}}}"#),
    );
    assert_eq!(code, None, "{message}");
    assert_eq!(other.files.len(), 2);
}

#[test]
fn check_reports_and_repair_takes_out_the_damage_as_a_version() {
    let mut store = damaged_store();
    let before = (store.files.clone(), store.versions.clone());
    let (code, _, report) = host(&mut store, r#"{"call":"check"}"#);
    assert_eq!(code, None);
    assert_eq!(
        memory_tool_wasm::write_value(report.get("damaged").unwrap_or(&Json::Null)),
        format!(
            r#"[{{"path":"/b.md","problem":"content","memory_id":"{}"}}]"#,
            store
                .files
                .get("/b.md")
                .map(|r| r.id.clone())
                .unwrap_or_default()
        )
    );
    assert_eq!(
        (store.files.clone(), store.versions.clone()),
        before,
        "check writes nothing"
    );
    let (code, _, repaired) = host(&mut store, r#"{"call":"repair"}"#);
    assert_eq!(code, None);
    assert_eq!(repaired.get("repaired").and_then(Json::as_bool), Some(true));
    assert!(!store.files.contains_key("/b.md"));
    assert_eq!(
        store
            .versions
            .values()
            .next_back()
            .map(|v| v.operation.as_str()),
        Some("deleted")
    );
    let (_, _, clean) = host(&mut store, r#"{"call":"check"}"#);
    assert!(matches!(clean.get("damaged"), Some(Json::Array(items)) if items.is_empty()));
    store.config.read_only = true;
    let (code, _, _) = host(&mut store, r#"{"call":"repair"}"#);
    assert_eq!(code, Some("READ_ONLY"));
}

/// A text changed outside the package under a head's key: repair keeps it as the memory's
/// new text under a key of its own, and the versions that named the old key (whose size and
/// hash are the lost text's) then read as versions whose content is missing — so the store's
/// export with its history imports, and a restore of such a version is refused rather than
/// bringing back bytes that are not its text.
#[test]
fn after_a_changed_text_is_repaired_the_export_with_history_imports() {
    let mut store = MemStore::new(Config::default());
    let create = r#"{"command":"create","path":"/memories/a.md","file_text":"alpha\n"}"#;
    assert!(!store.execute(create).is_error());
    let first = store.versions.keys().next().cloned().unwrap_or_default();
    let key = store
        .files
        .get("/a.md")
        .map(|r| r.content.clone())
        .unwrap_or_default();
    store
        .contents
        .insert(key.clone(), b"changed outside\n".to_vec());
    let (code, _, report) = host(&mut store, r#"{"call":"repair"}"#);
    assert_eq!(code, None);
    assert!(
        matches!(report.get("damaged"), Some(Json::Array(d)) if d.len() == 1),
        "{report:?}"
    );
    assert!(
        !store.contents.contains_key(&key),
        "the old key's bytes are not its versions' text"
    );
    assert_eq!(store.text_at("/a.md"), Some("changed outside\n"));

    let (code, _, _) = host(
        &mut store,
        &format!(r#"{{"call":"versions.restore","id":"{first}"}}"#),
    );
    assert_eq!(
        code,
        Some("DAMAGED"),
        "a version whose text is gone is not restored"
    );

    let exported = store.run(Operation::host(
        r#"{"call":"export","include_versions":true}"#,
    ));
    let bundle = exported.value.unwrap_or_default();
    assert!(
        bundle.contains(r#""reason":"its content is missing""#),
        "{bundle}"
    );
    let mut fresh = MemStore::new(Config::default());
    let imported = fresh.run(Operation::host(&format!(
        r#"{{"call":"import","bundle":{bundle},"on_conflict":"fail"}}"#
    )));
    assert!(!imported.is_error(), "{}", imported.text_content());
    assert_eq!(fresh.text_at("/a.md"), Some("changed outside\n"));
}
