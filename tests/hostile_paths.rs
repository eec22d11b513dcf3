//! Hostile paths (docs/TOOL.md#path-rules): every traversal and spoofing payload of `tests/hostile-paths.txt`
//! gets its exact text from docs/TOOL.md#path-rules from every command that takes a path, and none reaches storage;
//! the look-alikes docs/TOOL.md#path-rules accepts as ordinary names are stored as literal NFC segments inside
//! /memories. (`tests/node/hostile-paths.test.mjs` runs the same corpus through the package.)
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{q, result, store_with};
use memory_tool_wasm::tool_path;
use memory_tool_wasm::Json;
use memory_tool_wasm::{Config, MemStore, Operation};

const CORPUS: &str = include_str!("hostile-paths.txt");
const SEED: &[(&str, &str)] = &[
    ("/memories/notes.md", "alpha\nbeta\n"),
    ("/memories/a/b.md", "one\ntwo"),
];

struct Payload {
    /// The path as the model sent it (a lone surrogate reads as U+FFFD, as messages echo it).
    text: String,
    /// The path as a JSON string literal, as written in the corpus (lone surrogates intact).
    literal: String,
    lone_surrogate: bool,
    expect: String,
    key: Option<String>,
    why: String,
}

/// The JSON string literal that starts at byte `start` of `line`.
fn string_literal(line: &str, start: usize) -> &str {
    let bytes = line.as_bytes();
    assert_eq!(bytes[start], b'"');
    let mut i = start + 1;
    while bytes[i] != b'"' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    &line[start..=i]
}

fn load() -> Vec<Payload> {
    let mut payloads = Vec::new();
    for line in CORPUS.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let json = Json::parse(line).unwrap_or_else(|| panic!("not JSON: {line}"));
        let field = |name: &str| json.get(name).and_then(Json::as_str).map(str::to_string);
        let prefix = r#"{"path": "#;
        assert!(line.starts_with(prefix), "`path` must come first: {line}");
        let mut literal = string_literal(line, prefix.len()).to_string();
        let Some(Json::Str(path)) = json.get("path") else {
            panic!("no path: {line}")
        };
        let mut text = path.text.clone();
        if let Some(pad) = field("pad") {
            let to_bytes = json
                .get("to_bytes")
                .and_then(Json::as_integer)
                .expect("to_bytes") as usize;
            let then = field("then").unwrap_or_default();
            let room = to_bytes - text.len() - then.len();
            assert_eq!(room % pad.len(), 0, "padding does not fit: {line}");
            text = format!("{text}{}{then}", pad.repeat(room / pad.len()));
            assert_eq!(text.len(), to_bytes);
            literal = q(&text);
        }
        payloads.push(Payload {
            text,
            literal,
            lone_surrogate: path.lone_surrogate,
            expect: field("expect").expect("expect"),
            key: field("key"),
            why: field("why").expect("why"),
        });
    }
    payloads
}

/// A path as results echo it (docs/TOOL.md#result-shape): controls and invisible formatting
/// characters escaped (`\t`, `\n`, `\r`, `\u{XXXX}`), whole up to 2,000 characters as shown,
/// else cut there and followed by its length.
fn echoed(path: &str) -> String {
    let hidden = |n: u32| {
        n <= 0x1f
            || (0x7f..=0x9f).contains(&n)
            || [
                0x2028, 0x2029, 0xad, 0x61c, 0x180e, 0x200b, 0x200e, 0x200f, 0xfeff,
            ]
            .contains(&n)
            || (0x202a..=0x202e).contains(&n)
            || (0x2060..=0x2064).contains(&n)
            || (0x2066..=0x2069).contains(&n)
            || (0xe0000..=0xe007f).contains(&n)
    };
    let mut head = String::new();
    let mut shown = 0;
    for c in path.chars() {
        let piece = match c {
            '\t' => "\\t".to_string(),
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            c if hidden(c as u32) => format!("\\u{{{:04X}}}", c as u32),
            c => c.to_string(),
        };
        let width = piece.chars().count();
        if shown + width > 2_000 {
            let digits = path.chars().count().to_string();
            let mut grouped = String::new();
            for (i, d) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i) % 3 == 0 {
                    grouped.push(',');
                }
                grouped.push(d);
            }
            return format!("{head}… [{grouped} characters in all]");
        }
        shown += width;
        head.push_str(&piece);
    }
    head
}

/// The text of docs/TOOL.md#path-rules for a refused payload.
fn spec_text(kind: &str, path: &str) -> String {
    let path = &echoed(path);
    let reason = match kind {
        "outside" => {
            return format!("Error: Path must be /memories or start with /memories/, got: {path}")
        }
        "escape" => return format!("Error: Path {path} would escape /memories directory"),
        "empty" => "empty segment",
        "dot" => "'.' segments are not allowed",
        "backslash" => "backslashes are not allowed",
        "control" => "control characters are not allowed",
        "invisible" => "invisible formatting characters are not allowed",
        "percent" => "percent-encoded '.', '/', '\\' or control characters are not allowed",
        "long" => "longer than 1,024 bytes",
        other => panic!("unknown expectation {other:?}"),
    };
    format!("Error: Invalid path {path}: {reason}")
}

/// Every tool input that takes a path, with `literal` in each path parameter in turn.
fn inputs(literal: &str) -> Vec<(&'static str, String)> {
    vec![
        ("view", format!(r#"{{"command":"view","path":{literal}}}"#)),
        (
            "create",
            format!(r#"{{"command":"create","path":{literal},"file_text":"pwned"}}"#),
        ),
        (
            "str_replace",
            format!(
                r#"{{"command":"str_replace","path":{literal},"old_str":"alpha","new_str":"pwned"}}"#
            ),
        ),
        (
            "insert",
            format!(
                r#"{{"command":"insert","path":{literal},"insert_line":0,"insert_text":"pwned"}}"#
            ),
        ),
        (
            "delete",
            format!(r#"{{"command":"delete","path":{literal}}}"#),
        ),
        (
            "rename old_path",
            format!(
                r#"{{"command":"rename","old_path":{literal},"new_path":"/memories/moved.md"}}"#
            ),
        ),
        (
            "rename new_path",
            format!(
                r#"{{"command":"rename","old_path":"/memories/notes.md","new_path":{literal}}}"#
            ),
        ),
    ]
}

fn seeded() -> MemStore {
    store_with(Config::default(), SEED)
}

#[test]
fn the_corpus_has_at_least_100_payloads_of_every_kind() {
    let payloads = load();
    assert!(payloads.len() >= 100, "{} payloads", payloads.len());
    for kind in [
        "outside",
        "escape",
        "empty",
        "dot",
        "backslash",
        "control",
        "invisible",
        "percent",
        "long",
        "ok",
    ] {
        assert!(
            payloads.iter().any(|p| p.expect == kind),
            "no {kind} payload"
        );
    }
    let refused = payloads.iter().filter(|p| p.expect != "ok").count();
    println!(
        "hostile paths: {} payloads, {refused} refused, {} accepted as ordinary names",
        payloads.len(),
        payloads.len() - refused
    );
}

#[test]
fn every_refused_payload_gets_its_spec_text_from_every_command_and_writes_nothing() {
    let mut failures = Vec::new();
    let mut checks = 0;
    let pristine = seeded();
    for payload in load().iter().filter(|p| p.expect != "ok") {
        let want = spec_text(&payload.expect, &payload.text);
        let mut store = seeded();
        let mut attempts = inputs(&payload.literal);
        // The host's writeFile obeys the same rules (a &str holds no lone surrogate).
        if !payload.lone_surrogate {
            attempts.push(("host writeFile", String::new()));
        }
        for (command, input) in attempts {
            checks += 1;
            let outcome = if input.is_empty() {
                store.run(Operation::host_write(&payload.text, b"pwned".to_vec()))
            } else {
                store.execute(&input)
            };
            let (text, is_error) = result(&outcome);
            // writeFile tells the host, without the model's mark (docs/TOOL.md#host-api-messages).
            let want = if input.is_empty() {
                want.strip_prefix("Error: ").unwrap_or(&want)
            } else {
                &want
            };
            if !is_error || text != want {
                failures.push(format!(
                    "{command} {:?} ({}):\n  want {want:?}\n  got  {text:?} (is_error {is_error})",
                    payload.text, payload.why
                ));
            }
            if !outcome.writes.is_empty()
                || store.files != pristine.files
                || store.contents != pristine.contents
            {
                failures.push(format!(
                    "{command} {:?} ({}) reached storage",
                    payload.text, payload.why
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checks} checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("hostile paths: {checks} refusals checked, none reached storage");
}

/// Runs `input`; a failure's description unless it answered exactly `want` (an error only
/// for a view of the missing file).
fn step(store: &mut MemStore, input: String, want: String, why: &str) -> Option<String> {
    let (text, is_error) = result(&store.execute(&input));
    let want_error = want.ends_with("does not exist. Please provide a valid path.");
    (is_error != want_error || text != want).then(|| {
        format!("{input} ({why}):\n  want {want:?}\n  got  {text:?} (is_error {is_error})")
    })
}

#[test]
fn accepted_lookalikes_are_literal_names_inside_memories() {
    let mut failures = Vec::new();
    let pristine = seeded();
    for payload in load().iter().filter(|p| p.expect == "ok") {
        let key = payload.key.as_deref().expect("ok payloads name their key");
        let (raw, lit) = (&payload.text, &payload.literal);
        let mut store = seeded();
        let why = payload.why.as_str();
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"view","path":{lit}}}"#),
            format!("The path {raw} does not exist. Please provide a valid path."),
            why,
        ));
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"create","path":{lit},"file_text":"hostile\n"}}"#),
            format!("File created successfully at: {raw}"),
            why,
        ));
        // Exactly one new file, under the literal NFC key, inside the root.
        let added: Vec<&String> = store
            .files
            .keys()
            .filter(|k| !pristine.files.contains_key(*k))
            .collect();
        if added != [key] || !tool_path(key).starts_with("/memories/") {
            failures.push(format!(
                "create {raw:?} ({}) stored {added:?}, want [{key:?}]",
                payload.why
            ));
            continue;
        }
        if store.text_at(key) != Some("hostile\n") {
            failures.push(format!("{raw:?}: content not stored at {key:?}"));
        }
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"view","path":{lit}}}"#),
            format!("Here's the content of {raw} with line numbers:\n     1\thostile\n     2\t"),
            why,
        ));
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"str_replace","path":{lit},"old_str":"hostile","new_str":"kept"}}"#),
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tkept\n     2\t".to_string(),
            why,
        ));
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"insert","path":{lit},"insert_line":0,"insert_text":"top"}}"#),
            format!("The file {raw} has been edited."),
            why,
        ));
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"rename","old_path":{lit},"new_path":"/memories/moved.md"}}"#),
            format!("Successfully renamed {raw} to /memories/moved.md"),
            why,
        ));
        if store.files.contains_key(key) || store.text_at("/moved.md") != Some("top\nkept\n") {
            failures.push(format!("rename from {raw:?} did not move {key:?}"));
        }
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"rename","old_path":"/memories/moved.md","new_path":{lit}}}"#),
            format!("Successfully renamed /memories/moved.md to {raw}"),
            why,
        ));
        if store.text_at(key) != Some("top\nkept\n") {
            failures.push(format!("rename to {raw:?} did not store at {key:?}"));
        }
        failures.extend(step(
            &mut store,
            format!(r#"{{"command":"delete","path":{lit}}}"#),
            format!("Successfully deleted {raw}"),
            why,
        ));
        if store.files != pristine.files {
            failures.push(format!("delete {raw:?} left {:?}", store.files.keys()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
