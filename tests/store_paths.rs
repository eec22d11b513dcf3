//! docs/TOOL.md#store-paths natively: the host's memory API names memories by store path, so a
//! tool path given to it (`/memories/notes/todo.md`) is refused with the store path meant, not
//! stored where the model would see `/memories/memories/notes/todo.md`; a hosted store's own
//! paths (a sync pull) are taken as they are.
#![cfg(not(target_arch = "wasm32"))]

use memory_tool_wasm::Json;
use memory_tool_wasm::{Config, MemStore, Operation, Outcome};

const APP: &str = r#"{"type":"api"}"#;
const SYNC: &str =
    r#"{"type":"api","memory_store_id":"memstore_01","memory_version_id":"memver_01"}"#;

fn host(store: &mut MemStore, actor: &str, json: &str) -> Outcome {
    store.actor = actor.into();
    store.run(Operation::host(json))
}

fn value(outcome: &Outcome) -> Json {
    Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null)
}

fn refusal(outcome: &Outcome) -> (&str, &str) {
    assert!(
        outcome.is_error(),
        "{:?} should be refused",
        outcome.content
    );
    (
        outcome.error.map(|c| c.as_str()).unwrap_or_default(),
        outcome.text_content(),
    )
}

#[test]
fn a_tool_path_given_to_the_host_api_is_refused_naming_the_store_path() {
    let mut store = MemStore::new(Config::default());
    let before = (store.files.clone(), store.versions.clone());
    let outcome = host(
        &mut store,
        APP,
        r#"{"call":"memories.create","path":"/memories/notes/todo.md","content":"x"}"#,
    );
    assert_eq!(
        refusal(&outcome),
        (
            "INVALID_PATH",
            "Invalid path /memories/notes/todo.md: a store path leaves out the tool's /memories (the tool's /memories/notes/todo.md is the store path /notes/todo.md)"
        )
    );
    let outcome = host(
        &mut store,
        APP,
        r#"{"call":"memories.create","path":"/memories","content":"x"}"#,
    );
    assert_eq!(
        refusal(&outcome),
        (
            "INVALID_PATH",
            "Invalid path /memories: a store path leaves out the tool's /memories, this store's folder"
        )
    );
    assert_eq!(
        (store.files.clone(), store.versions.clone()),
        before,
        "nothing was written"
    );

    // The store path meant works; a name that only starts with "memories" is an ordinary name.
    for path in ["/notes/todo.md", "/memories-old/x.md", "/memoriesx"] {
        let json = format!(r#"{{"call":"memories.create","path":"{path}","content":"x"}}"#);
        let outcome = host(&mut store, APP, &json);
        assert!(!outcome.is_error(), "{path}: {:?}", outcome.content);
    }

    // A move there is refused the same way; the lookup says what was meant.
    let id = value(&host(
        &mut store,
        APP,
        r#"{"call":"memories.getByPath","path":"/notes/todo.md"}"#,
    ))
    .get("id")
    .and_then(Json::as_str)
    .map(str::to_string)
    .unwrap_or_default();
    let json =
        format!(r#"{{"call":"memories.update","id":"{id}","path":"/memories/notes/done.md"}}"#);
    assert_eq!(
        refusal(&host(&mut store, APP, &json)),
        (
            "INVALID_PATH",
            "Invalid path /memories/notes/done.md: a store path leaves out the tool's /memories (the tool's /memories/notes/done.md is the store path /notes/done.md)"
        )
    );
    let outcome = host(
        &mut store,
        APP,
        r#"{"call":"memories.getByPath","path":"/memories/notes/todo.md"}"#,
    );
    assert_eq!(
        refusal(&outcome),
        (
            "NOT_FOUND",
            "No memory is at /memories/notes/todo.md; a store path leaves out the tool's /memories (the tool's /memories/notes/todo.md is the store path /notes/todo.md)"
        )
    );
}

#[test]
fn what_the_model_or_a_hosted_store_put_under_a_folder_named_memories_stays_reachable() {
    let mut store = MemStore::new(Config::default());
    // The model may make a folder named memories; the host reads and edits it by its store path.
    let outcome = store.execute(
        r#"{"command":"create","path":"/memories/memories/x.md","file_text":"from the model"}"#,
    );
    assert!(!outcome.is_error(), "{:?}", outcome.content);
    let found = value(&host(
        &mut store,
        APP,
        r#"{"call":"memories.getByPath","path":"/memories/x.md"}"#,
    ));
    let id = found
        .get("id")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string();
    assert!(id.starts_with("mem_"), "{found:?}");
    let json = format!(r#"{{"call":"memories.update","id":"{id}","content":"edited"}}"#);
    assert!(!host(&mut store, APP, &json).is_error());
    let json = format!(
        r#"{{"call":"memories.update","id":"{id}","path":"/memories/x.md","content":"again"}}"#
    );
    assert!(
        !host(&mut store, APP, &json).is_error(),
        "its own path is no move"
    );

    // A sync pull writes a hosted memory at the hosted store's own path.
    let outcome = host(
        &mut store,
        SYNC,
        r#"{"call":"memories.create","path":"/memories/hosted.md","content":"pulled"}"#,
    );
    assert!(!outcome.is_error(), "{:?}", outcome.content);
    assert_eq!(
        store.text_at("/memories/hosted.md"),
        Some("pulled"),
        "stored where the hosted store has it"
    );
}
