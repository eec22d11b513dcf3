//! docs/TOOL.md#input to docs/TOOL.md#atomicity-and-concurrency, string for string: each row is a store, one tool input, and the exact result.

mod common;
use common::{q, result, store_with};
use memory_tool_wasm::Config;

struct Case {
    files: &'static [(&'static str, &'static str)],
    input: String,
    text: String,
    is_error: bool,
}

fn ok(
    files: &'static [(&'static str, &'static str)],
    input: impl Into<String>,
    text: impl Into<String>,
) -> Case {
    Case {
        files,
        input: input.into(),
        text: text.into(),
        is_error: false,
    }
}

fn err(
    files: &'static [(&'static str, &'static str)],
    input: impl Into<String>,
    text: impl Into<String>,
) -> Case {
    Case {
        files,
        input: input.into(),
        text: text.into(),
        is_error: true,
    }
}

fn check(cases: Vec<Case>, config: Config) {
    let mut failures = Vec::new();
    for case in cases {
        let mut store = store_with(config.clone(), case.files);
        let before = store.clone();
        let (text, is_error) = result(&store.execute(&case.input));
        if text != case.text || is_error != case.is_error {
            failures.push(format!(
                "input: {}\n  want ({}): {:?}\n  got  ({}): {:?}",
                case.input, case.is_error, case.text, is_error, text
            ));
        }
        if is_error {
            let mut after = store.clone();
            after.clock = before.clock;
            assert_eq!(
                after.files, before.files,
                "an error changed the store: {}",
                case.input
            );
            assert_eq!(
                after.contents, before.contents,
                "an error changed contents: {}",
                case.input
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

const NONE: &[(&str, &str)] = &[];
const NOTES: &[(&str, &str)] = &[("/memories/notes.md", "alpha\nbeta\ngamma\n")];

#[test]
fn section_1_input() {
    let valid = "view, create, str_replace, insert, delete, rename";
    check(
        vec![
            err(NONE, "null", "Error: Tool input must be a JSON object"),
            err(NONE, "5", "Error: Tool input must be a JSON object"),
            err(NONE, r#""view""#, "Error: Tool input must be a JSON object"),
            err(NONE, "[]", "Error: Tool input must be a JSON object"),
            err(NONE, "not json", "Error: Tool input must be a JSON object"),
            err(NONE, "{}", "Error: Missing required parameter `command`"),
            err(NONE, r#"{"command":null}"#, "Error: Missing required parameter `command`"),
            err(NONE, r#"{"command":5}"#, "Error: Parameter `command` must be a string"),
            err(NONE, r#"{"command":"list"}"#, format!("Error: Unknown command `list`. Valid commands are: {valid}")),
            err(NONE, r#"{"command":"toString"}"#, format!("Error: Unknown command `toString`. Valid commands are: {valid}")),
            err(NONE, r#"{"command":"__proto__"}"#, format!("Error: Unknown command `__proto__`. Valid commands are: {valid}")),
            err(NONE, r#"{"command":"view"}"#, "Error: Missing required parameter `path` for command `view`"),
            err(NONE, r#"{"command":"view","path":null}"#, "Error: Missing required parameter `path` for command `view`"),
            err(NONE, r#"{"command":"view","path":7}"#, "Error: Parameter `path` must be a string"),
            err(NONE, r#"{"command":"create","path":"/memories/a"}"#, "Error: Missing required parameter `file_text` for command `create`"),
            err(NONE, r#"{"command":"create","path":"/memories/a","file_text":["a","b"]}"#, "Error: Parameter `file_text` must be a string"),
            // Parameters are checked in table order, all before the path rules.
            err(NONE, r#"{"command":"create","path":"/etc/x"}"#, "Error: Missing required parameter `file_text` for command `create`"),
            err(NONE, r#"{"command":"str_replace","path":"/memories/a"}"#, "Error: Missing required parameter `old_str` for command `str_replace`"),
            err(NONE, r#"{"command":"str_replace","path":"/memories/a","old_str":"","new_str":5}"#, "Error: Parameter `old_str` must not be empty"),
            err(NONE, r#"{"command":"str_replace","path":"/memories/a","old_str":"x","new_str":5}"#, "Error: Parameter `new_str` must be a string"),
            err(NONE, r#"{"command":"insert","path":"/memories/a","insert_text":"x"}"#, "Error: Missing required parameter `insert_line` for command `insert`"),
            err(NONE, r#"{"command":"insert","path":"/memories/a","insert_line":"1","insert_text":"x"}"#, "Error: Parameter `insert_line` must be an integer"),
            err(NONE, r#"{"command":"insert","path":"/memories/a","insert_line":1.5,"insert_text":"x"}"#, "Error: Parameter `insert_line` must be an integer"),
            err(NONE, r#"{"command":"insert","path":"/memories/a","insert_line":true,"insert_text":"x"}"#, "Error: Parameter `insert_line` must be an integer"),
            err(NONE, r#"{"command":"insert","path":"/memories/a","insert_line":1}"#, "Error: Missing required parameter `insert_text` for command `insert`"),
            err(NONE, r#"{"command":"delete"}"#, "Error: Missing required parameter `path` for command `delete`"),
            err(NONE, r#"{"command":"rename","old_path":"/memories/a"}"#, "Error: Missing required parameter `new_path` for command `rename`"),
            err(NONE, r#"{"command":"rename","new_path":"/memories/a"}"#, "Error: Missing required parameter `old_path` for command `rename`"),
            err(NONE, r#"{"command":"rename","old_path":1,"new_path":"/memories/a"}"#, "Error: Parameter `old_path` must be a string"),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[1]}"#, "Error: Invalid `view_range`. It should be a list of two integers."),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[1,2,3]}"#, "Error: Invalid `view_range`. It should be a list of two integers."),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[1,"2"]}"#, "Error: Invalid `view_range`. It should be a list of two integers."),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[1.5,2]}"#, "Error: Invalid `view_range`. It should be a list of two integers."),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":"1,2"}"#, "Error: Invalid `view_range`. It should be a list of two integers."),
            // Unknown fields are ignored; null counts as absent; 2.0 is 2.
            ok(NOTES, r#"{"command":"view","path":"/memories/notes.md","extra":1,"view_range":null}"#, "Here's the content of /memories/notes.md with line numbers:\n     1\talpha\n     2\tbeta\n     3\tgamma\n     4\t"),
            ok(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[2.0,2]}"#, "Here's the content of /memories/notes.md with line numbers:\n     2\tbeta"),
            ok(NOTES, r#"{"command":"insert","path":"/memories/notes.md","insert_line":2.0,"insert_text":"x"}"#, "The file /memories/notes.md has been edited."),
        ],
        Config::default(),
    );
}

#[test]
fn section_2_paths() {
    let escape = |p: &str| {
        err(
            NONE,
            format!(r#"{{"command":"view","path":{}}}"#, q(p)),
            format!("Error: Path {p} would escape /memories directory"),
        )
    };
    let outside = |p: &str| {
        err(
            NONE,
            format!(r#"{{"command":"view","path":{}}}"#, q(p)),
            format!("Error: Path must be /memories or start with /memories/, got: {p}"),
        )
    };
    let invalid = |p: &str, why: &str| {
        err(
            NONE,
            format!(r#"{{"command":"create","path":{},"file_text":"x"}}"#, q(p)),
            format!("Error: Invalid path {p}: {why}"),
        )
    };
    // A refused character is echoed escaped (docs/TOOL.md#result-shape): the path as shown.
    let invalid_shown = |p: &str, shown: &str, why: &str| {
        err(
            NONE,
            format!(r#"{{"command":"create","path":{},"file_text":"x"}}"#, q(p)),
            format!("Error: Invalid path {shown}: {why}"),
        )
    };
    let pct = "percent-encoded '.', '/', '\\' or control characters are not allowed";
    let long = format!("/memories/{}", "é".repeat(508)); // 10 + 1,016 bytes
    check(
        vec![
            outside("/memories_backup/x"),
            outside("/Memories"),
            outside("memories/x"),
            outside("//memories"),
            outside("/etc/passwd"),
            outside(""),
            escape("/memories/.."),
            escape("/memories/a/../b"),
            escape("/memories/../memories/a"),
            escape("/memories/a/.."),
            invalid("/memories//a", "empty segment"),
            invalid("/memories/a/./b", "'.' segments are not allowed"),
            invalid("/memories/a\\..\\b", "backslashes are not allowed"),
            invalid_shown("/memories/a\tb", "/memories/a\\tb", "control characters are not allowed"),
            invalid_shown("/memories/a\u{7f}", "/memories/a\\u{007F}", "control characters are not allowed"),
            invalid_shown("/memories/a\u{9f}", "/memories/a\\u{009F}", "control characters are not allowed"),
            invalid_shown("/memories/a\u{2029}", "/memories/a\\u{2029}", "control characters are not allowed"),
            invalid_shown("/memories/\u{ad}a", "/memories/\\u{00AD}a", "invisible formatting characters are not allowed"),
            invalid_shown("/memories/a\u{200b}", "/memories/a\\u{200B}", "invisible formatting characters are not allowed"),
            invalid_shown("/memories/a\u{2066}", "/memories/a\\u{2066}", "invisible formatting characters are not allowed"),
            invalid_shown("/memories/\u{feff}a", "/memories/\\u{FEFF}a", "invisible formatting characters are not allowed"),
            invalid("/memories/%2e%2e", pct),
            invalid("/memories/%2E", pct),
            invalid("/memories/%252e%252e", pct),
            invalid("/memories/a%2fb", pct),
            invalid("/memories/a%5cb", pct),
            invalid("/memories/a%00", pct),
            invalid("/memories/a%0A", pct),
            invalid(&long, "longer than 1,024 bytes"),
            // Lone surrogates in a path are control characters; the message shows U+FFFD.
            err(NONE, r#"{"command":"create","path":"/memories/a\ud800","file_text":"x"}"#, "Error: Invalid path /memories/a\u{FFFD}: control characters are not allowed"),
            ok(NONE, r#"{"command":"create","path":"/memories/100%.md","file_text":"x"}"#, "File created successfully at: /memories/100%.md"),
            ok(NONE, r#"{"command":"create","path":"/memories/%c0%ae","file_text":"x"}"#, "File created successfully at: /memories/%c0%ae"),
            ok(NONE, r#"{"command":"create","path":"/memories/a..b","file_text":"x"}"#, "File created successfully at: /memories/a..b"),
            ok(NONE, r#"{"command":"create","path":"/memories/...","file_text":"x"}"#, "File created successfully at: /memories/..."),
            ok(NONE, r#"{"command":"create","path":"/memories/\u0645\u200c\u06cc","file_text":"x"}"#, "File created successfully at: /memories/\u{645}\u{200c}\u{6cc}"),
            // One trailing slash is set aside.
            ok(NOTES, r#"{"command":"view","path":"/memories/"}"#, "Here're the files and directories up to 2 levels deep in /memories/, excluding hidden items and node_modules:\n17B\t/memories\n17B\t/memories/notes.md"),
            // NFC: either spelling names one file, listed in NFC; messages echo the raw input.
            ok(&[("/memories/cafe\u{301}.md", "x")], r#"{"command":"view","path":"/memories"}"#, "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n1B\t/memories\n1B\t/memories/café.md"),
            err(&[("/memories/cafe\u{301}.md", "x")], r#"{"command":"create","path":"/memories/caf\u00e9.md","file_text":"y"}"#, "Error: File /memories/café.md already exists"),
            ok(&[("/memories/café.md", "x")], r#"{"command":"view","path":"/memories/cafe\u0301.md"}"#, "Here's the content of /memories/cafe\u{301}.md with line numbers:\n     1\tx"),
            // Case-sensitive.
            ok(&[("/memories/A.md", "x")], r#"{"command":"create","path":"/memories/a.md","file_text":"y"}"#, "File created successfully at: /memories/a.md"),
        ],
        Config::default(),
    );
}

const TREE: &[(&str, &str)] = &[
    ("/memories/b.md", "0123456789"),
    ("/memories/a/x.md", "hello"),
    ("/memories/a/deep/er/z.md", "zzz"),
    ("/memories/.hidden/h.md", "hidden!"),
    ("/memories/node_modules/m.js", "mm"),
    ("/memories/a/.secret", "s"),
    ("/memories/B.md", ""),
    ("/memories/a-b.md", "1"),
];

#[test]
fn section_3_view() {
    let header = |p: &str| {
        format!("Here're the files and directories up to 2 levels deep in {p}, excluding hidden items and node_modules:")
    };
    let big = "x".repeat(1280);
    let _ = big;
    check(
        vec![
            ok(NONE, r#"{"command":"view","path":"/memories"}"#, format!("{}\n0B\t/memories", header("/memories"))),
            ok(TREE, r#"{"command":"view","path":"/memories"}"#, format!(
                "{}\n29B\t/memories\n0B\t/memories/B.md\n9B\t/memories/a/\n3B\t/memories/a/deep/\n5B\t/memories/a/x.md\n1B\t/memories/a-b.md\n10B\t/memories/b.md",
                header("/memories"))),
            ok(TREE, r#"{"command":"view","path":"/memories/a/","view_range":[1,2]}"#, format!(
                "{}\n9B\t/memories/a\n3B\t/memories/a/deep/\n3B\t/memories/a/deep/er/\n5B\t/memories/a/x.md",
                header("/memories/a/"))),
            ok(TREE, r#"{"command":"view","path":"/memories/.hidden"}"#, format!("{}\n7B\t/memories/.hidden\n7B\t/memories/.hidden/h.md", header("/memories/.hidden"))),
            err(TREE, r#"{"command":"view","path":"/memories/nope"}"#, "The path /memories/nope does not exist. Please provide a valid path."),
            err(TREE, r#"{"command":"view","path":"/memories/a/x"}"#, "The path /memories/a/x does not exist. Please provide a valid path."),
            ok(&[("/memories/e.md", "")], r#"{"command":"view","path":"/memories/e.md"}"#, "Here's the content of /memories/e.md with line numbers:\n     1\t"),
            ok(&[("/memories/r.md", "a\r\nb")], r#"{"command":"view","path":"/memories/r.md"}"#, "Here's the content of /memories/r.md with line numbers:\n     1\ta\r\n     2\tb"),
            ok(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[2,-1]}"#, "Here's the content of /memories/notes.md with line numbers:\n     2\tbeta\n     3\tgamma\n     4\t"),
            ok(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[0,1]}"#, "Here's the content of /memories/notes.md with line numbers:\n     1\talpha"),
            ok(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[1,-2]}"#, "Here's the content of /memories/notes.md with line numbers:\n     1\talpha\n     2\tbeta"),
            ok(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[3,99]}"#, "Here's the content of /memories/notes.md with line numbers:\n     3\tgamma\n     4\t"),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[5,6]}"#, "Error: Invalid `view_range`: [5, 6]. Its first element `5` should be within the range of lines of the file: [1, 4]"),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[3,2]}"#, "Error: Invalid `view_range`: [3, 2]. Its second element `2` should be larger or equal than its first `3`"),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[0,0]}"#, "Error: Invalid `view_range`: [0, 0]. Its second element `0` (line 0) should be larger or equal than its first `0` (line 1)"),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[4,-3]}"#, "Error: Invalid `view_range`: [4, -3]. Its second element `-3` (line 1) should be larger or equal than its first `4`"),
            err(NOTES, r#"{"command":"view","path":"/memories/notes.md","view_range":[-5,-9]}"#, "Error: Invalid `view_range`: [-5, -9]. Its second element `-9` (line 0) should be larger or equal than its first `-5` (line 1)"),
        ],
        Config::default(),
    );
}

#[test]
fn section_3_sizes_in_listings() {
    let mut store = store_with(Config::default(), &[]);
    for (name, size) in [("a", 1024usize), ("b", 1280), ("c", 5632), ("d", 100_000)] {
        let text = "x".repeat(size);
        let input = format!(
            r#"{{"command":"create","path":"/memories/s/{name}","file_text":{}}}"#,
            q(&text)
        );
        assert!(!store.execute(&input).is_error());
    }
    let (text, _) = result(&store.execute(r#"{"command":"view","path":"/memories/s"}"#));
    assert_eq!(text, "Here're the files and directories up to 2 levels deep in /memories/s, excluding hidden items and node_modules:\n105.4K\t/memories/s\n1.0K\t/memories/s/a\n1.3K\t/memories/s/b\n5.5K\t/memories/s/c\n97.7K\t/memories/s/d");
}

#[test]
fn section_3_long_views_are_cut() {
    // 3,001 lines of 10 characters: each numbered line costs 17, 18 with its separator.
    let text: String = (0..3001)
        .map(|_| "abcdefghij")
        .collect::<Vec<_>>()
        .join("\n");
    let mut store = store_with(Config::default(), &[]);
    store.run(memory_tool_wasm::Operation::host_write(
        "/memories/long.txt",
        text.into_bytes(),
    ));
    let (view, is_error) =
        result(&store.execute(r#"{"command":"view","path":"/memories/long.txt"}"#));
    assert!(!is_error);
    // k lines cost 18k - 1 characters: 888 fit in 16,000, 889 would take 16,001.
    let body = view
        .strip_prefix("Here's the content of /memories/long.txt with line numbers:\n")
        .unwrap_or_default();
    let (lines, note) = body.rsplit_once('\n').unwrap_or_default();
    assert_eq!(
        note,
        "[Truncated: showing lines 1-888 of 3,001. Use view_range [889, -1] to read on.]"
    );
    assert_eq!(lines.chars().count(), 888 * 18 - 1);
    assert!(lines.ends_with("   888\tabcdefghij"));
    let (ranged, _) = result(
        &store.execute(r#"{"command":"view","path":"/memories/long.txt","view_range":[2990,-1]}"#),
    );
    assert!(ranged.ends_with("  3001\tabcdefghij"), "{ranged}");

    let huge = "y".repeat(20_000);
    store.run(memory_tool_wasm::Operation::host_write(
        "/memories/wide.txt",
        format!("{huge}\nz").into_bytes(),
    ));
    let (wide, _) = result(&store.execute(r#"{"command":"view","path":"/memories/wide.txt"}"#));
    let want = format!(
        "Here's the content of /memories/wide.txt with line numbers:\n     1\t{}\n[Truncated: line 1 is 20,000 characters long and was cut after 15,993; lines longer than 16,000 characters cannot be shown whole.]",
        "y".repeat(15_993)
    );
    assert_eq!(wide, want);

    let config = Config {
        max_view_chars: 100,
        ..Config::default()
    };
    let mut small = store_with(
        config,
        &[(
            "/memories/n.md",
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13",
        )],
    );
    let (cut, _) =
        result(&small.execute(r#"{"command":"view","path":"/memories/n.md","view_range":[3,-1]}"#));
    assert_eq!(cut, "Here's the content of /memories/n.md with line numbers:\n     3\t3\n     4\t4\n     5\t5\n     6\t6\n     7\t7\n     8\t8\n     9\t9\n    10\t10\n    11\t11\n    12\t12\n[Truncated: showing lines 3-12 of 13. Use view_range [13, -1] to read on.]");
}

#[test]
fn section_3_too_many_lines() {
    let text = "\n".repeat(999_999); // 1,000,000 lines
    let mut store = store_with(
        Config {
            max_file_bytes: 2_000_000,
            ..Config::default()
        },
        &[],
    );
    store.run(memory_tool_wasm::Operation::host_write(
        "/memories/many",
        text.into_bytes(),
    ));
    let (t, e) =
        result(&store.execute(r#"{"command":"view","path":"/memories/many","view_range":[1,2]}"#));
    assert_eq!(
        (t.as_str(), e),
        (
            "File /memories/many exceeds maximum line limit of 999,999 lines.",
            true
        )
    );
}

#[test]
fn section_3_binary_and_images() {
    let png: Vec<u8> = [b"\x89PNG\r\n\x1a\n".as_slice(), &[0, 0, 0, 13, 0xff]].concat();
    let jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x80];
    let gif: Vec<u8> = [b"GIF89a".as_slice(), &[0xff, 0xfe]].concat();
    let webp: Vec<u8> = [b"RIFF\x10\0\0\0WEBPVP8 ".as_slice(), &[0xff]].concat();
    let blob = vec![0x00, 0xff, 0xfe, 0x41];
    let mut store = store_with(Config::default(), &[]);
    for (path, bytes) in [
        ("/memories/i.dat", &png),
        ("/memories/j", &jpeg),
        ("/memories/g.txt", &gif),
        ("/memories/w", &webp),
        ("/memories/blob.bin", &blob),
    ] {
        assert!(!store
            .run(memory_tool_wasm::Operation::host_write(path, bytes.clone()))
            .is_error());
    }
    let image = |path: &str, store: &mut memory_tool_wasm::MemStore| {
        let out = store.execute(&format!(
            r#"{{"command":"view","path":"{path}","view_range":[5,1]}}"#
        ));
        (out.to_json(), out.is_error())
    };
    let (png_json, e) = image("/memories/i.dat", &mut store);
    assert!(!e);
    assert!(png_json.starts_with(r#"{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAAN/w=="}}],"isError":false"#), "{png_json}");
    assert!(image("/memories/j", &mut store)
        .0
        .contains(r#""media_type":"image/jpeg""#));
    assert!(image("/memories/g.txt", &mut store)
        .0
        .contains(r#""media_type":"image/gif""#));
    assert!(image("/memories/w", &mut store)
        .0
        .contains(r#""media_type":"image/webp""#));
    let cases = [
        (
            r#"{"command":"view","path":"/memories/blob.bin"}"#,
            "Error: The file /memories/blob.bin is binary (4B) and cannot be shown as text",
        ),
        (
            r#"{"command":"str_replace","path":"/memories/blob.bin","old_str":"A","new_str":"B"}"#,
            "Error: The file /memories/blob.bin is not a text file",
        ),
        (
            r#"{"command":"insert","path":"/memories/i.dat","insert_line":0,"insert_text":"B"}"#,
            "Error: The file /memories/i.dat is not a text file",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(
            result(&store.execute(input)),
            (want.to_string(), true),
            "{input}"
        );
    }
}

#[test]
fn section_3_create() {
    check(
        vec![
            ok(
                NONE,
                r#"{"command":"create","path":"/memories/a/b/c.md","file_text":"x"}"#,
                "File created successfully at: /memories/a/b/c.md",
            ),
            err(
                NOTES,
                r#"{"command":"create","path":"/memories/notes.md","file_text":"x"}"#,
                "Error: File /memories/notes.md already exists",
            ),
            err(
                NOTES,
                r#"{"command":"create","path":"/memories/notes.md/","file_text":"x"}"#,
                "Error: File /memories/notes.md/ already exists",
            ),
            err(
                TREE,
                r#"{"command":"create","path":"/memories/a","file_text":"x"}"#,
                "Error: File /memories/a already exists",
            ),
            err(
                NONE,
                r#"{"command":"create","path":"/memories","file_text":"x"}"#,
                "Error: File /memories already exists",
            ),
            err(
                NONE,
                r#"{"command":"create","path":"/memories/","file_text":"x"}"#,
                "Error: File /memories/ already exists",
            ),
            err(
                NONE,
                r#"{"command":"create","path":"/memories/new/","file_text":"x"}"#,
                "Error: Cannot create /memories/new/: a file path must not end with '/'",
            ),
            err(
                NOTES,
                r#"{"command":"create","path":"/memories/notes.md/x/y","file_text":"x"}"#,
                "Error: Cannot create /memories/notes.md/x/y: /memories/notes.md is a file",
            ),
            err(
                &[("/memories/café", "x")],
                r#"{"command":"create","path":"/memories/cafe\u0301/y","file_text":"x"}"#,
                "Error: Cannot create /memories/cafe\u{301}/y: /memories/cafe\u{301} is a file",
            ),
        ],
        Config::default(),
    );
}

#[test]
fn section_3_str_replace() {
    const F: &[(&str, &str)] = &[("/memories/f.md", "l1\nl2\nl3 foo\nl4\nl5\nl6\nl7")];
    let snip = "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n";
    check(
        vec![
            ok(F, r#"{"command":"str_replace","path":"/memories/f.md","old_str":"foo","new_str":"bar"}"#, format!("{snip}     1\tl1\n     2\tl2\n     3\tl3 bar\n     4\tl4\n     5\tl5")),
            ok(F, r#"{"command":"str_replace","path":"/memories/f.md","old_str":"l1","new_str":"a\nb\nc"}"#, format!("{snip}     1\ta\n     2\tb\n     3\tc\n     4\tl2\n     5\tl3 foo")),
            ok(F, r#"{"command":"str_replace","path":"/memories/f.md","old_str":"l6\nl7"}"#, format!("{snip}     4\tl4\n     5\tl5\n     6\t")),
            ok(F, r#"{"command":"str_replace","path":"/memories/f.md","old_str":"l2\nl3","new_str":"$&$1"}"#, format!("{snip}     1\tl1\n     2\t$&$1 foo\n     3\tl4\n     4\tl5")),
            err(F, r#"{"command":"str_replace","path":"/memories/f.md","old_str":"zzz","new_str":"y"}"#, "No replacement was performed, old_str `zzz` did not appear verbatim in /memories/f.md."),
            err(F, r#"{"command":"str_replace","path":"/memories/f.md","old_str":"l","new_str":"y"}"#, "No replacement was performed. Multiple occurrences of old_str `l` in lines: 1, 2, 3, 4, 5, 6, 7. Please ensure it is unique"),
            err(&[("/memories/t", "ab ab\nx")], r#"{"command":"str_replace","path":"/memories/t","old_str":"ab","new_str":"y"}"#, "No replacement was performed. Multiple occurrences of old_str `ab` in lines: 1, 1. Please ensure it is unique"),
            ok(&[("/memories/t", "aaa")], r#"{"command":"str_replace","path":"/memories/t","old_str":"aa","new_str":"b"}"#, format!("{snip}     1\tba")),
            err(F, r#"{"command":"str_replace","path":"/memories/none","old_str":"a","new_str":"b"}"#, "Error: The path /memories/none does not exist. Please provide a valid path."),
            err(TREE, r#"{"command":"str_replace","path":"/memories/a","old_str":"a","new_str":"b"}"#, "Error: The path /memories/a does not exist. Please provide a valid path."),
            err(TREE, r#"{"command":"str_replace","path":"/memories","old_str":"a","new_str":"b"}"#, "Error: The path /memories does not exist. Please provide a valid path."),
        ],
        Config::default(),
    );
}

#[test]
fn section_3_insert() {
    const F: &[(&str, &str)] = &[("/memories/f.md", "a\nb\n")];
    let edited = "The file /memories/f.md has been edited.";
    check(
        vec![
            ok(F, r#"{"command":"insert","path":"/memories/f.md","insert_line":0,"insert_text":"top\n"}"#, edited),
            ok(F, r#"{"command":"insert","path":"/memories/f.md","insert_line":3,"insert_text":"end"}"#, edited),
            err(F, r#"{"command":"insert","path":"/memories/f.md","insert_line":4,"insert_text":"x"}"#, "Error: Invalid `insert_line` parameter: 4. It should be within the range of lines of the file: [0, 3]"),
            err(F, r#"{"command":"insert","path":"/memories/f.md","insert_line":-1,"insert_text":"x"}"#, "Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 3]"),
            err(F, r#"{"command":"insert","path":"/memories/f.md","insert_line":1e+21,"insert_text":"x"}"#, "Error: Invalid `insert_line` parameter: 1e+21. It should be within the range of lines of the file: [0, 3]"),
            err(F, r#"{"command":"insert","path":"/memories/g.md","insert_line":0,"insert_text":"x"}"#, "Error: The path /memories/g.md does not exist"),
            err(TREE, r#"{"command":"insert","path":"/memories/a","insert_line":0,"insert_text":"x"}"#, "Error: The path /memories/a does not exist"),
        ],
        Config::default(),
    );
    let mut store = store_with(Config::default(), F);
    store.execute(
        r#"{"command":"insert","path":"/memories/f.md","insert_line":0,"insert_text":"top\n"}"#,
    );
    store.execute(
        r#"{"command":"insert","path":"/memories/f.md","insert_line":2,"insert_text":"mid\nmid2"}"#,
    );
    store.execute(
        r#"{"command":"insert","path":"/memories/f.md","insert_line":5,"insert_text":"end"}"#,
    );
    assert_eq!(store.text_at("/f.md"), Some("top\na\nmid\nmid2\nb\nend\n"));
}

#[test]
fn section_3_delete() {
    check(
        vec![
            ok(
                NOTES,
                r#"{"command":"delete","path":"/memories/notes.md"}"#,
                "Successfully deleted /memories/notes.md",
            ),
            ok(
                TREE,
                r#"{"command":"delete","path":"/memories/a/"}"#,
                "Successfully deleted /memories/a/",
            ),
            err(
                NOTES,
                r#"{"command":"delete","path":"/memories/x"}"#,
                "Error: The path /memories/x does not exist",
            ),
            err(
                NOTES,
                r#"{"command":"delete","path":"/memories"}"#,
                "Error: Cannot delete the /memories directory itself",
            ),
            err(
                NOTES,
                r#"{"command":"delete","path":"/memories/"}"#,
                "Error: Cannot delete the /memories directory itself",
            ),
        ],
        Config::default(),
    );
    let mut store = store_with(Config::default(), TREE);
    store.execute(r#"{"command":"delete","path":"/memories/a"}"#);
    let left: Vec<&str> = store.files.keys().map(String::as_str).collect();
    assert_eq!(
        left,
        [
            "/.hidden/h.md",
            "/B.md",
            "/a-b.md",
            "/b.md",
            "/node_modules/m.js"
        ]
    );
    // The bytes stay for the history: every deleted file has a `deleted` version.
    let deleted = store
        .versions
        .values()
        .filter(|v| v.operation == memory_tool_wasm::Change::Deleted)
        .count();
    assert_eq!(deleted, 3, "one version per deleted file");
}

#[test]
fn section_3_rename() {
    check(
        vec![
            ok(
                NOTES,
                r#"{"command":"rename","old_path":"/memories/notes.md","new_path":"/memories/x/y.md"}"#,
                "Successfully renamed /memories/notes.md to /memories/x/y.md",
            ),
            ok(
                TREE,
                r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/c/d"}"#,
                "Successfully renamed /memories/a to /memories/c/d",
            ),
            err(
                NOTES,
                r#"{"command":"rename","old_path":"/memories","new_path":"/memories/x"}"#,
                "Error: Cannot rename the /memories directory itself",
            ),
            err(
                NOTES,
                r#"{"command":"rename","old_path":"/memories/","new_path":"/memories/x"}"#,
                "Error: Cannot rename the /memories directory itself",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/a/x.md","new_path":"/memories/b.md"}"#,
                "Error: The destination /memories/b.md already exists",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/b.md","new_path":"/memories/a"}"#,
                "Error: The destination /memories/a already exists",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/b.md","new_path":"/memories"}"#,
                "Error: The destination /memories already exists",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/b.md","new_path":"/memories/b.md/"}"#,
                "Error: The destination /memories/b.md/ already exists",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/zz","new_path":"/memories/yy"}"#,
                "Error: The path /memories/zz does not exist",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/zz","new_path":"/memories/zz"}"#,
                "Error: The path /memories/zz does not exist",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/a/sub"}"#,
                "Error: Cannot move /memories/a into itself",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/b.md","new_path":"/memories/b.md/c"}"#,
                "Error: Cannot move /memories/b.md into itself",
            ),
            err(
                TREE,
                r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/b.md/c"}"#,
                "Error: Cannot create /memories/b.md/c: /memories/b.md is a file",
            ),
        ],
        Config::default(),
    );
    let mut store = store_with(Config::default(), TREE);
    let id_before = store.files.get("/a/x.md").map(|r| r.id.clone());
    store.execute(r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/c/d"}"#);
    assert_eq!(
        store.files.get("/c/d/x.md").map(|r| r.id.clone()),
        id_before,
        "ids survive renames"
    );
    assert_eq!(store.text_at("/c/d/deep/er/z.md"), Some("zzz"));
    assert!(!store.files.keys().any(|k| k.starts_with("/a/")));
}

#[test]
fn section_4_limits_and_access() {
    let config = Config {
        max_file_bytes: 10,
        max_files: 2,
        ..Config::default()
    };
    const ONE: &[(&str, &str)] = &[("/memories/one", "12345")];
    const TWO: &[(&str, &str)] = &[("/memories/one", "12345"), ("/memories/two", "1")];
    check(
        vec![
            err(NONE, r#"{"command":"create","path":"/memories/big","file_text":"12345678901"}"#, "Error: Cannot write /memories/big: 11 bytes is over the limit of 10 bytes per file"),
            ok(NONE, r#"{"command":"create","path":"/memories/fits","file_text":"1234567890"}"#, "File created successfully at: /memories/fits"),
            err(ONE, r#"{"command":"str_replace","path":"/memories/one","old_str":"5","new_str":"5678901"}"#, "Error: Cannot write /memories/one: 11 bytes is over the limit of 10 bytes per file"),
            err(ONE, r#"{"command":"insert","path":"/memories/one","insert_line":1,"insert_text":"12345"}"#, "Error: Cannot write /memories/one: 11 bytes is over the limit of 10 bytes per file"),
            err(TWO, r#"{"command":"create","path":"/memories/three","file_text":"1"}"#, "Error: Cannot create /memories/three: the store already holds 2 files, its limit"),
            ok(TWO, r#"{"command":"rename","old_path":"/memories/two","new_path":"/memories/2"}"#, "Successfully renamed /memories/two to /memories/2"),
        ],
        config,
    );
    let defaults = Config {
        max_files: 10_000,
        ..Config::default()
    };
    let mut store = store_with(defaults, &[]);
    let big = "x".repeat(102_401);
    let (t, _) = result(&store.execute(&format!(
        r#"{{"command":"create","path":"/memories/b","file_text":"{big}"}}"#
    )));
    assert_eq!(t, "Error: Cannot write /memories/b: 102,401 bytes is over the limit of 102,400 bytes per file");
    for i in 0..10_000 {
        store.files.insert(
            format!("/f{i}"),
            memory_tool_wasm::FileRecord {
                path: format!("/f{i}"),
                id: format!("mem_{i}"),
                size: 0,
                sha256: String::new(),
                created_at: 0,
                updated_at: 0,
                version: None,
                content: format!("mem_{i}"),
                accessed_at: None,
                history: None,
            },
        );
    }
    let (t, _) =
        result(&store.execute(r#"{"command":"create","path":"/memories/more","file_text":""}"#));
    assert_eq!(
        t,
        "Error: Cannot create /memories/more: the store already holds 10,000 files, its limit"
    );

    let read_only = Config {
        read_only: true,
        ..Config::default()
    };
    check(
        vec![
            err(
                NOTES,
                r#"{"command":"create","path":"/memories/x","file_text":"x"}"#,
                "Error: Cannot create /memories/x: this memory is read-only",
            ),
            err(
                NOTES,
                r#"{"command":"str_replace","path":"/memories/notes.md","old_str":"alpha","new_str":"b"}"#,
                "Error: Cannot str_replace /memories/notes.md: this memory is read-only",
            ),
            err(
                NOTES,
                r#"{"command":"insert","path":"/memories/nope","insert_line":0,"insert_text":"b"}"#,
                "Error: Cannot insert /memories/nope: this memory is read-only",
            ),
            err(
                NOTES,
                r#"{"command":"delete","path":"/memories"}"#,
                "Error: Cannot delete /memories: this memory is read-only",
            ),
            err(
                NOTES,
                r#"{"command":"rename","old_path":"/memories/notes.md","new_path":"/memories/n"}"#,
                "Error: Cannot rename /memories/notes.md: this memory is read-only",
            ),
            // Input and path checks come first.
            err(
                NOTES,
                r#"{"command":"delete","path":"/memories/../x"}"#,
                "Error: Path /memories/../x would escape /memories directory",
            ),
            err(
                NOTES,
                r#"{"command":"create","path":"/memories/x"}"#,
                "Error: Missing required parameter `file_text` for command `create`",
            ),
            ok(
                NOTES,
                r#"{"command":"view","path":"/memories/notes.md","view_range":[1,1]}"#,
                "Here's the content of /memories/notes.md with line numbers:\n     1\talpha",
            ),
        ],
        read_only,
    );
}

#[test]
fn create_overwrites_when_the_host_allows_it() {
    let config = Config {
        create_overwrites: true,
        ..Config::default()
    };
    let mut store = store_with(config, NOTES);
    let id = store.files.get("/notes.md").map(|r| r.id.clone());
    let (t, e) = result(
        &store.execute(r#"{"command":"create","path":"/memories/notes.md","file_text":"new"}"#),
    );
    assert_eq!(
        (t.as_str(), e),
        ("File created successfully at: /memories/notes.md", false)
    );
    assert_eq!(store.text_at("/notes.md"), Some("new"));
    assert_eq!(store.files.get("/notes.md").map(|r| r.id.clone()), id);
    let (t, _) =
        result(&store.execute(r#"{"command":"create","path":"/memories","file_text":"new"}"#));
    assert_eq!(t, "Error: File /memories already exists");
}

#[test]
fn lone_surrogates_in_content_become_replacement_characters() {
    let mut store = store_with(Config::default(), &[]);
    store.execute(r#"{"command":"create","path":"/memories/s","file_text":"a\ud800b"}"#);
    assert_eq!(store.text_at("/s"), Some("a\u{FFFD}b"));
}
