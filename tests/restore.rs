//! A restore names itself (docs/TOOL.md#restore): the version it writes carries
//! `restored_from` in its `created_by`, beside the actor, so a history can tell a restore
//! from an edit.

use memory_tool_wasm::{Config, MemStore, Operation};

#[test]
fn a_restores_version_says_which_version_it_brings_back() {
    let mut store = MemStore::new(Config::default());
    store.actor = r#"{"type":"api"}"#.to_string();
    store.execute(r#"{"command":"create","path":"/memories/a.md","file_text":"one"}"#);
    store.execute(
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"one","new_str":"two"}"#,
    );
    let first = store.versions.keys().next().cloned().unwrap_or_default();
    let restored = store.run(Operation::host(&format!(
        r#"{{"call":"versions.restore","id":"{first}"}}"#
    )));
    assert!(!restored.is_error(), "{}", restored.text_content());
    let newest = store
        .versions
        .values()
        .next_back()
        .cloned()
        .expect("a version");
    assert_eq!(
        newest.created_by,
        format!(r#"{{"type":"api","restored_from":"{first}"}}"#)
    );
    // An ordinary edit after it carries no such member.
    store.execute(
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"one","new_str":"three"}"#,
    );
    let edit = store
        .versions
        .values()
        .next_back()
        .cloned()
        .expect("a version");
    assert_eq!(edit.created_by, r#"{"type":"api"}"#);
    // Restoring a deleted memory names it too.
    store.execute(r#"{"command":"delete","path":"/memories/a.md"}"#);
    store.run(Operation::host(&format!(
        r#"{{"call":"versions.restore","id":"{first}"}}"#
    )));
    let back = store
        .versions
        .values()
        .next_back()
        .cloned()
        .expect("a version");
    assert!(back
        .created_by
        .contains(&format!(r#""restored_from":"{first}""#)));
    assert_eq!(store.text_at("/a.md"), Some("one"));
}
