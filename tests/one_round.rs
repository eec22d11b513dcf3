//! A file's view and edit in one round of reads (docs/ARCHITECTURE.md#one-round-per-file): the record
//! and, found by the file key alone, its head's bytes. The bytes are believed only when the
//! record names their key: a head a rename moved, a restored version, or a path whose earlier
//! file left restorable versions behind all read the right text, in a second round at worst.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::q;
use memory_tool_wasm::{Config, MemStore, Operation, Outcome};

fn run(store: &mut MemStore, json: &str) -> Outcome {
    let outcome = store.execute(json);
    assert!(!outcome.is_error(), "{json}: {}", outcome.text_content());
    outcome
}

fn view(store: &mut MemStore, path: &str) -> (String, usize) {
    let outcome = run(
        store,
        &format!(r#"{{"command":"view","path":{}}}"#, q(path)),
    );
    (outcome.text_content().to_string(), store.last.rounds)
}

fn create(store: &mut MemStore, path: &str, text: &str) {
    run(
        store,
        &format!(
            r#"{{"command":"create","path":{},"file_text":{}}}"#,
            q(path),
            q(text)
        ),
    );
}

fn numbered(path: &str, line: &str) -> String {
    format!("Here's the content of {path} with line numbers:\n     1\t{line}")
}

#[test]
fn a_created_or_edited_file_is_viewed_and_edited_in_one_round() {
    let mut store = MemStore::new(Config::default());
    create(&mut store, "/memories/a.md", "alpha");
    assert_eq!(
        view(&mut store, "/memories/a.md"),
        (numbered("/memories/a.md", "alpha"), 1)
    );
    run(
        &mut store,
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"alpha","new_str":"beta"}"#,
    );
    assert_eq!(store.last.rounds, 1, "an edit within budget: one round");
    assert_eq!(
        view(&mut store, "/memories/a.md"),
        (numbered("/memories/a.md", "beta"), 1)
    );
    run(
        &mut store,
        r#"{"command":"insert","path":"/memories/a.md","insert_line":0,"insert_text":"zero"}"#,
    );
    assert_eq!(store.last.rounds, 1, "an insert within budget: one round");
    // Each text is stored once: the head's bytes under its key, and no other copy of them.
    let record = store.files.get("/a.md").cloned().expect("the record");
    assert!(
        record.content.starts_with("/a.md\u{0}"),
        "{}",
        record.content
    );
    let holding: Vec<&String> = store
        .contents
        .iter()
        .filter(|(_, bytes)| bytes.as_slice() == b"zero\nbeta")
        .map(|(key, _)| key)
        .collect();
    assert_eq!(holding, vec![&record.content]);
}

#[test]
fn bytes_found_under_the_path_are_believed_only_when_the_record_names_them() {
    let mut store = MemStore::new(Config::default());
    // /b.md's first file is deleted: its text stays restorable, under its key at /b.md.
    create(&mut store, "/memories/b.md", "old b");
    run(
        &mut store,
        r#"{"command":"delete","path":"/memories/b.md"}"#,
    );
    create(&mut store, "/memories/a.md", "moved a");
    // A rename keeps the head's key (under /a.md): at /b.md the newest key found is the
    // deleted file's, which the record does not name. The right text, in a second round.
    run(
        &mut store,
        r#"{"command":"rename","old_path":"/memories/a.md","new_path":"/memories/b.md"}"#,
    );
    assert_eq!(
        view(&mut store, "/memories/b.md"),
        (numbered("/memories/b.md", "moved a"), 2)
    );
    run(
        &mut store,
        r#"{"command":"str_replace","path":"/memories/b.md","old_str":"moved a","new_str":"edited"}"#,
    );
    assert_eq!(
        store.last.rounds, 2,
        "the moved head's bytes: a second round"
    );
    // Edited, the head is under its path again: one round.
    assert_eq!(
        view(&mut store, "/memories/b.md"),
        (numbered("/memories/b.md", "edited"), 1)
    );
    // A restore of the first text (its key under /b.md, older than the head's): the record
    // names the old key, the newest found is the edit's. The restored text, in two rounds.
    let id = store
        .files
        .get("/b.md")
        .map(|r| r.id.clone())
        .unwrap_or_default();
    let first = store
        .versions
        .values()
        .find(|v| v.memory_id == id)
        .map(|v| v.id.clone())
        .expect("the oldest version of the moved memory");
    let restored = store.run(Operation::host(&format!(
        r#"{{"call":"versions.restore","id":{}}}"#,
        q(&first)
    )));
    assert!(!restored.is_error(), "{}", restored.text_content());
    assert_eq!(
        view(&mut store, "/memories/b.md"),
        (numbered("/memories/b.md", "moved a"), 2)
    );
}

#[test]
fn a_file_imported_with_its_history_is_viewed_in_one_round() {
    let mut source = MemStore::new(Config::default());
    create(&mut source, "/memories/a.md", "alpha");
    run(
        &mut source,
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"alpha","new_str":"beta"}"#,
    );
    let export = source.run(Operation::host(
        r#"{"call":"export","include_versions":true}"#,
    ));
    assert!(!export.is_error(), "{}", export.text_content());
    let bundle = export.value.unwrap_or_default();
    let mut store = MemStore::new(Config::default());
    let imported = store.run(Operation::host(&format!(
        r#"{{"call":"import","bundle":{bundle}}}"#
    )));
    assert!(!imported.is_error(), "{}", imported.text_content());
    assert_eq!(
        view(&mut store, "/memories/a.md"),
        (numbered("/memories/a.md", "beta"), 1)
    );
    // The head's bytes under the key a head of that path writes, and the version names it.
    let record = store.files.get("/a.md").cloned().expect("the record");
    let head = record.version.clone().expect("a head version");
    assert_eq!(record.content, format!("/a.md\u{0}{head}"));
    assert_eq!(
        store.versions.get(&head).and_then(|v| v.content.clone()),
        Some(record.content.clone())
    );
}
