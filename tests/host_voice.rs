//! A host write (`writeFile`) runs the tool's rules at tool paths and tells its refusals to
//! the host: the core says them without the model's `Error: ` mark
//! (docs/TOOL.md#host-api-messages), so the adapter throws them as they are. Its path comes as
//! JSON text, which keeps half a surrogate pair for the core to refuse.

mod common;

use common::result;
use memory_tool_wasm::{refuse_unknown, storage_failure_text, Config, MemStore, Operation};

fn write_json(store: &mut MemStore, path_json: &str) -> (String, bool, Option<&'static str>) {
    let outcome = store.run(Operation::host_write_json(path_json, b"x".to_vec()));
    let (text, error) = result(&outcome);
    (text, error, outcome.error.map(|code| code.as_str()))
}

#[test]
fn a_host_writes_refusals_have_no_model_mark() {
    let mut store = MemStore::new(Config {
        max_file_bytes: 1,
        ..Config::default()
    });
    // The path rules, the tool's texts at the tool's paths, without `Error: `.
    let (text, error, code) = write_json(&mut store, "\"/etc/passwd\"");
    assert!(error);
    assert_eq!(code, Some("INVALID_PATH"));
    assert!(text.starts_with("Path must be /memories"), "{text}");
    // Half a surrogate pair, kept by JSON: refused as the tool refuses it.
    let (text, error, code) = write_json(&mut store, "\"/memories/a\\ud800.md\"");
    assert!(error);
    assert_eq!(code, Some("INVALID_PATH"));
    assert!(!text.starts_with("Error: "), "{text}");
    assert!(text.contains("control character"), "{text}");
    // A path that is not a string.
    let (text, _, code) = write_json(&mut store, "42");
    assert_eq!(code, Some("INVALID_INPUT"));
    assert_eq!(text, "writeFile(path, content): `path` must be a string.");
    // A limit, in the host's voice at the tool path.
    let outcome = store.run(Operation::host_write_json(
        "\"/memories/big.md\"",
        b"xy".to_vec(),
    ));
    let (text, _) = result(&outcome);
    assert!(
        text.starts_with("Cannot write /memories/big.md: 2 bytes"),
        "{text}"
    );
    // A good write is the same as before.
    let (text, error, _) = write_json(&mut MemStore::new(Config::default()), "\"/memories/a.md\"");
    assert!(!error, "{text}");
}

#[test]
fn the_same_refusals_still_reach_the_model_marked() {
    let mut store = MemStore::new(Config::default());
    let outcome = store.run(Operation::tool(
        r#"{"command":"create","path":"/etc/passwd","file_text":""}"#,
    ));
    let (text, error) = result(&outcome);
    assert!(error);
    assert!(text.starts_with("Error: Path must be /memories"), "{text}");
}

#[test]
fn storage_failures_and_unknown_options_are_the_cores_texts() {
    assert_eq!(
        storage_failure_text("QUOTA_EXCEEDED"),
        "Error: The memory could not be saved: the browser's storage quota is full. Nothing was changed."
    );
    assert_eq!(
        storage_failure_text("anything else"),
        "Error: The memory store could not be reached. Nothing was changed."
    );
    assert_eq!(
        refuse_unknown("memories.get", ["id"]).as_deref(),
        Some("memories.get: unknown option `id`; the only option is store.")
    );
}
