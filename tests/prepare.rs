//! `Task::prepare` (work done while the host waits on storage for the first reads) changes
//! nothing in the outcome: the same writes, records and hashes with or without it, for every
//! kind of operation, big or small.

use memory_tool_wasm::engine::{Answer, Context, Outcome, Task};
use memory_tool_wasm::{Config, Operation};

fn context() -> Context {
    Context {
        config: Config::default(),
        now: 1_700_000_000_000,
        seed: [7; 16],
        actor: r#"{"type":"tool","tool_use_id":null}"#.into(),
        mount_prefix: "/memories".into(),
    }
}

/// Runs `operation` against an empty store (every read answered as empty), calling `prepare`
/// after the first round's reads if `prepare` is set.
fn run(operation: Operation, prepare: bool) -> Outcome {
    let mut task = Task::new(operation, context());
    for round in 0..10 {
        let answers: Vec<Answer> = task
            .reads()
            .iter()
            .map(|read| match read.to_json().as_str() {
                r if r.contains("\"kind\":\"file\"") || r.contains("\"fileById\"") => {
                    Answer::File(None)
                }
                r if r.contains("\"listing\"") => Answer::Listing(Vec::new()),
                r if r.contains("\"subtree\"") => Answer::Subtree(Vec::new()),
                r if r.contains("\"hasChildren\"") => Answer::HasChildren(false),
                r if r.contains("\"count\"") => Answer::Count(0),
                r if r.contains("\"newestVersionId\"") => Answer::VersionId(None),
                _ => Answer::Content(None),
            })
            .collect();
        if round == 0 && prepare {
            task.prepare();
        }
        for (i, answer) in answers.into_iter().enumerate() {
            task.supply(i, answer);
        }
        if task.resume() {
            break;
        }
    }
    task.take_outcome().expect("the task finished")
}

#[test]
fn prepare_changes_no_outcome() {
    let big = "line of a big note\n".repeat(2_000);
    let inputs = [
        format!(
            r#"{{"command":"create","path":"/memories/big.md","file_text":{}}}"#,
            memory_tool_wasm::json::quote(&big)
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
        .contains(&memory_tool_wasm::record::sha256_hex(big.as_bytes())));
}
