//! Every result is bounded (docs/TOOL.md#result-shape): whatever the model sends, no command
//! answers more than the view limit plus a small constant. Inputs echoed in results are cut at
//! 2,000 characters with their length; `MULTIPLE_MATCHES` lists at most 100 lines.

use memory_tool_wasm::{quote, Config, MemStore};

/// Two echoed inputs of 2,000 characters, 100 line numbers and the longest template.
const SLACK: usize = 5_000;

fn store(max_view_chars: usize) -> MemStore {
    let mut store = MemStore::new(Config {
        max_view_chars,
        max_file_bytes: 1_000_000,
        ..Config::default()
    });
    let one_line = "abcdefg ".repeat(12_000);
    let many_lines = "ab\n".repeat(30_000);
    for (path, text) in [
        ("/memories/one.md", one_line),
        ("/memories/many.md", many_lines),
    ] {
        let outcome = store.execute(&format!(
            r#"{{"command":"create","path":"{path}","file_text":{}}}"#,
            quote(&text)
        ));
        assert!(!outcome.is_error(), "{}", outcome.text_content());
    }
    // Many files with long names, for the directory listing.
    for i in 0..300 {
        let name = format!("{}{i}", "n".repeat(900));
        store.execute(&format!(
            r#"{{"command":"create","path":"/memories/d/{name}","file_text":"x"}}"#
        ));
    }
    store
}

fn inputs() -> Vec<String> {
    let huge = "q".repeat(1_000_000);
    let digits = format!("1{}", "0".repeat(100_000));
    vec![
        r#"{"command":"str_replace","path":"/memories/many.md","old_str":"ab","new_str":"X"}"#.into(),
        format!(r#"{{"command":"str_replace","path":"/memories/many.md","old_str":{},"new_str":"X"}}"#, quote(&huge)),
        format!(r#"{{"command":"str_replace","path":"/memories/{huge}","old_str":"a","new_str":"X"}}"#),
        format!(r#"{{"command":"view","path":"/memories/{huge}"}}"#),
        format!(r#"{{"command":"view","path":"/{huge}"}}"#),
        format!(r#"{{"command":"view","path":"/memories/../{huge}"}}"#),
        format!(r#"{{"command":"view","path":"/memories/a\\{huge}"}}"#),
        format!(r#"{{"command":"{huge}","path":"/memories"}}"#),
        format!(r#"{{"command":"insert","path":"/memories/many.md","insert_line":{digits},"insert_text":"x"}}"#),
        format!(r#"{{"command":"view","path":"/memories/many.md","view_range":[{digits},1]}}"#),
        format!(r#"{{"command":"view","path":"/memories/many.md","view_range":[5,-{digits}]}}"#),
        r#"{"command":"view","path":"/memories/one.md"}"#.into(),
        r#"{"command":"view","path":"/memories/many.md"}"#.into(),
        r#"{"command":"view","path":"/memories"}"#.into(),
        r#"{"command":"view","path":"/memories/d"}"#.into(),
        r#"{"command":"str_replace","path":"/memories/one.md","old_str":"abcdefg a","new_str":"X"}"#.into(),
        format!(r#"{{"command":"insert","path":"/memories/one.md","insert_line":0,"insert_text":{}}}"#, quote(&"z ".repeat(20_000))),
        format!(r#"{{"command":"rename","old_path":"/memories/{huge}","new_path":"/memories/x"}}"#),
        format!(r#"{{"command":"create","path":"/memories/{huge}","file_text":"x"}}"#),
    ]
}

#[test]
fn no_result_is_over_the_view_limit_plus_a_constant() {
    for max_view_chars in [16_000, 100] {
        let mut store = store(max_view_chars);
        for input in inputs() {
            let outcome = store.execute(&input);
            let length = outcome.text_content().chars().count();
            assert!(
                length <= max_view_chars + SLACK,
                "{length} characters (limit {max_view_chars}) for {}…: {}…",
                input.chars().take(120).collect::<String>(),
                outcome.text_content().chars().take(300).collect::<String>(),
            );
        }
    }
}

#[test]
fn many_matches_list_a_hundred_lines_and_how_many_there_are() {
    let mut store = store(16_000);
    let outcome = store.execute(
        r#"{"command":"str_replace","path":"/memories/many.md","old_str":"ab","new_str":"X"}"#,
    );
    let lines: Vec<String> = (1..=100).map(|n| n.to_string()).collect();
    assert_eq!(
        outcome.text_content(),
        format!(
            "No replacement was performed. Multiple occurrences of old_str `ab` in lines: {}, … (30,000 in all). Please ensure it is unique",
            lines.join(", ")
        )
    );
}

#[test]
fn a_long_old_str_is_echoed_cut_with_its_length() {
    let mut store = store(16_000);
    let old = "q".repeat(2_500);
    let outcome = store.execute(&format!(
        r#"{{"command":"str_replace","path":"/memories/many.md","old_str":{},"new_str":"X"}}"#,
        quote(&old)
    ));
    assert_eq!(
        outcome.text_content(),
        format!(
            "No replacement was performed, old_str `{}… [2,500 characters in all]` did not appear verbatim in /memories/many.md.",
            "q".repeat(2_000)
        )
    );
}

#[test]
fn a_long_listing_is_cut_after_a_whole_entry_with_a_note() {
    let mut store = MemStore::new(Config {
        max_view_chars: 300,
        ..Config::default()
    });
    for i in 0..20 {
        store.execute(&format!(
            r#"{{"command":"create","path":"/memories/note-{i:02}.md","file_text":"x"}}"#
        ));
    }
    let outcome = store.execute(r#"{"command":"view","path":"/memories"}"#);
    let mut want = String::from("Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n20B\t/memories");
    for i in 0..7 {
        want.push_str(&format!("\n1B\t/memories/note-{i:02}.md"));
    }
    want.push_str(
        "\n[Truncated: showing 7 of 20 entries. View a directory inside it to list the rest.]",
    );
    assert_eq!(outcome.text_content(), want);
}
