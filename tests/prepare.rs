//! `Task::prepare` (work done while the host waits on storage for the first reads) changes
//! nothing in the outcome: the same writes, records and hashes with or without it, for every
//! kind of operation, big or small.

use memory_tool_wasm::{Config, MemStore, Operation, Outcome};

/// Runs `operation` against an empty store through the harness, with `prepare` called after
/// the first round's reads or not at all.
fn run(operation: Operation, prepare: bool) -> Outcome {
    let mut store = MemStore::new(Config::default());
    store.prepare = Some(prepare);
    store.run(operation)
}

#[test]
fn prepare_changes_no_outcome() {
    let big = "line of a big note\n".repeat(2_000);
    let inputs = [
        format!(
            r#"{{"command":"create","path":"/memories/big.md","file_text":{}}}"#,
            memory_tool_wasm::quote(&big)
        ),
        r#"{"command":"create","path":"/memories/small.md","file_text":"hi"}"#.to_string(),
        r#"{"command":"view","path":"/memories"}"#.to_string(),
        r#"{"command":"create","path":"/bad","file_text":"x"}"#.to_string(),
    ];
    for input in &inputs {
        let with = run(Operation::tool(input), true);
        let without = run(Operation::tool(input), false);
        assert_eq!(with.to_json(), without.to_json(), "{input}");
    }
    let bytes = big.clone().into_bytes();
    let with = run(
        Operation::host_write("/memories/bin.md", bytes.clone()),
        true,
    );
    let without = run(Operation::host_write("/memories/bin.md", bytes), false);
    assert_eq!(with.to_json(), without.to_json());
    // The big create's record carries the text's real hash.
    assert!(run(Operation::tool(&inputs[0]), true)
        .to_json()
        .contains(&memory_tool_wasm::sha256_hex(big.as_bytes())));
}
