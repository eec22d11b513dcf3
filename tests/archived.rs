//! An archived store is read-only for good, in the core (docs/TOOL.md#read-only-access): every
//! write, by the model or the host, however the store was opened and whenever, is refused with
//! `ARCHIVED` and writes nothing; reads go on as before.

use memory_tool_wasm::{Config, MemStore, Operation};

fn archived_store() -> MemStore {
    let mut store = MemStore::new(Config::default());
    for input in [
        r#"{"command":"create","path":"/memories/a.md","file_text":"alpha\n"}"#,
        r#"{"command":"create","path":"/memories/dir/b.md","file_text":"beta\n"}"#,
    ] {
        assert!(!store.execute(input).is_error());
    }
    store.archived = true;
    store
}

#[test]
fn every_tool_write_is_refused_in_the_models_voice_and_reads_go_on() {
    let mut store = archived_store();
    let before = (
        store.files.clone(),
        store.versions.clone(),
        store.contents.clone(),
    );
    let cases = [
        (
            r#"{"command":"create","path":"/memories/c.md","file_text":"x"}"#,
            "Error: Cannot create /memories/c.md: this memory store is archived and read-only",
        ),
        (
            r#"{"command":"str_replace","path":"/memories/a.md","old_str":"alpha","new_str":"x"}"#,
            "Error: Cannot str_replace /memories/a.md: this memory store is archived and read-only",
        ),
        (
            r#"{"command":"insert","path":"/memories/a.md","insert_line":0,"insert_text":"x"}"#,
            "Error: Cannot insert /memories/a.md: this memory store is archived and read-only",
        ),
        (
            r#"{"command":"delete","path":"/memories/dir"}"#,
            "Error: Cannot delete /memories/dir: this memory store is archived and read-only",
        ),
        (
            r#"{"command":"rename","old_path":"/memories/a.md","new_path":"/memories/z.md"}"#,
            "Error: Cannot rename /memories/a.md: this memory store is archived and read-only",
        ),
        // Refused before the read that would have said the file is missing.
        (
            r#"{"command":"str_replace","path":"/memories/missing.md","old_str":"a","new_str":"b"}"#,
            "Error: Cannot str_replace /memories/missing.md: this memory store is archived and read-only",
        ),
    ];
    for (input, expected) in cases {
        let outcome = store.execute(input);
        assert_eq!(outcome.text_content(), expected, "{input}");
        assert_eq!(
            outcome.error.map(|c| c.as_str()),
            Some("ARCHIVED"),
            "{input}"
        );
        assert!(outcome.writes.is_empty(), "{input}");
    }
    assert_eq!(
        (
            store.files.clone(),
            store.versions.clone(),
            store.contents.clone()
        ),
        before
    );
    let view = store.execute(r#"{"command":"view","path":"/memories/a.md"}"#);
    assert!(!view.is_error(), "{}", view.text_content());
    assert!(view.text_content().contains("     1\talpha"));
}

#[test]
fn every_host_write_is_refused_with_archived() {
    let mut store = archived_store();
    let id = store
        .files
        .get("/a.md")
        .map(|r| r.id.clone())
        .unwrap_or_default();
    let version = store.versions.keys().next().cloned().unwrap_or_default();
    let export = store.run(Operation::host(r#"{"call":"export"}"#));
    assert!(!export.is_error());
    let bundle = export.value.unwrap_or_default();
    let calls = [
        r#"{"call":"memories.create","path":"/n.md","content":"x"}"#.to_string(),
        format!(r#"{{"call":"memories.update","id":"{id}","content":"x"}}"#),
        format!(r#"{{"call":"memories.update","id":"{id}","path":"/moved.md"}}"#),
        format!(r#"{{"call":"memories.delete","id":"{id}"}}"#),
        format!(r#"{{"call":"versions.restore","id":"{version}"}}"#),
        format!(r#"{{"call":"versions.redact","id":"{version}"}}"#),
        r#"{"call":"versions.prune"}"#.to_string(),
        format!(r#"{{"call":"import","bundle":{bundle},"on_conflict":"overwrite"}}"#),
    ];
    for call in &calls {
        let outcome = store.run(Operation::host(call));
        assert_eq!(
            outcome.error.map(|c| c.as_str()),
            Some("ARCHIVED"),
            "{call}: {}",
            outcome.text_content()
        );
        assert!(outcome.text_content().contains("archived and read-only"));
        assert!(outcome.writes.is_empty());
    }
    let written = store.run(Operation::host_write("/memories/w.md", b"x".to_vec()));
    assert_eq!(written.error.map(|c| c.as_str()), Some("ARCHIVED"));
    // Reads of the host API go on.
    let list = store.run(Operation::host(r#"{"call":"memories.list"}"#));
    assert!(!list.is_error(), "{}", list.text_content());
}

#[test]
fn unarchived_the_same_writes_succeed() {
    let mut store = archived_store();
    store.archived = false;
    let outcome = store.execute(r#"{"command":"create","path":"/memories/c.md","file_text":"x"}"#);
    assert!(!outcome.is_error(), "{}", outcome.text_content());
}
