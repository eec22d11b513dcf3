//! The fuzz targets' bodies and the invariants they check, in one file shared by the libFuzzer
//! targets (`fuzz/fuzz_targets/*.rs`) and by the stable replay of committed inputs
//! (`tests/fuzz_regressions.rs`, which includes this file as a module). Only `std`, the core
//! and `unicode-normalization` are used here, so both builds compile it.
//!
//! A failed invariant panics: libFuzzer reports it as a crash and saves the input.

use memory_tool_wasm::{parse_tool_input, ToolCommand};
use memory_tool_wasm::{quote, Json};
use memory_tool_wasm::{tool_path, MemoryPath};
use memory_tool_wasm::{Config, MemStore, Operation, Outcome};
use unicode_normalization::UnicodeNormalization;

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// The fuzz targets by name: the names of `fuzz/fuzz_targets/*.rs` and of the folders under
/// `tests/fuzz-regressions/` and `fuzz/seeds/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("tool_input", tool_input),
    ("path", path),
    ("engine", engine),
    ("json", json_no_panic),
];

// ---------------------------------------------------------------------------------------------
// Target 1: tool input. Arbitrary bytes as text: parse, then run on a small store.

/// Parses the bytes (read as UTF-8, invalid sequences as U+FFFD) as tool input, checks the
/// parse, then runs the same input on a store holding a few files.
pub fn tool_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_tool_input(&text);
    match &parsed {
        Ok(command) => {
            // Accepted only as a JSON object whose `command` is the command parsed.
            let json = Json::parse(&text).expect("accepted input is JSON");
            assert!(matches!(json, Json::Object(_)), "accepted a non-object");
            assert_eq!(
                json.field("command").and_then(Json::as_str),
                Some(command.name())
            );
            for path in command_paths(command) {
                check_accepted_path(path.raw(), path.key());
            }
        }
        Err(error) => assert!(
            error.message.starts_with("Error: "),
            "an input error without the `Error: ` prefix: {:?}",
            error.message
        ),
    }
    let mut store = seeded_store();
    let before = store.clone();
    let outcome = store.execute(&text);
    if let Err(error) = &parsed {
        assert!(outcome.is_error());
        assert_eq!(outcome.text_content(), error.message);
    }
    check_step(&before, &store, &outcome, &Step::Other, &text);
}

fn command_paths(command: &ToolCommand) -> Vec<&MemoryPath> {
    match command {
        ToolCommand::View { path, .. }
        | ToolCommand::Create { path, .. }
        | ToolCommand::StrReplace { path, .. }
        | ToolCommand::Insert { path, .. }
        | ToolCommand::Delete { path } => vec![path],
        ToolCommand::Rename { old_path, new_path } => vec![old_path, new_path],
    }
}

/// A store with a few files, built once per process and cloned for each input.
fn seeded_store() -> MemStore {
    static SEEDED: std::sync::OnceLock<MemStore> = std::sync::OnceLock::new();
    SEEDED
        .get_or_init(|| {
            let mut store = MemStore::new(Config {
                max_file_bytes: 64,
                max_files: 8,
                ..Config::default()
            });
            for (path, bytes) in [
                ("/memories/notes.md", &b"alpha\nbeta\ngamma\n"[..]),
                ("/memories/a/b/c.md", b"one\ntwo"),
                ("/memories/caf\u{e9}.md", b"x"),
                ("/memories/.hidden/k", b""),
                ("/memories/img.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
                ("/memories/bin", b"\xff\xfe\x00"),
            ] {
                let outcome = store.run(Operation::host_write(path, bytes.to_vec()));
                assert!(!outcome.is_error(), "seeding {path}");
            }
            store
        })
        .clone()
}

// ---------------------------------------------------------------------------------------------
// Target 2: path validation, against an independent reading of docs/TOOL.md#path-rules.

/// The first byte picks the lone-surrogate flag and whether `/memories/` is put in front (so
/// that most inputs reach the segment rules); the rest is the path.
pub fn path(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let lone = flags & 1 == 1;
    let body = String::from_utf8_lossy(rest);
    let raw = match flags >> 1 & 3 {
        0 => body.into_owned(),
        1 => format!("/memories/{body}"),
        2 => format!("/memories{body}"),
        _ => format!("/memories/{body}/"),
    };
    let got = MemoryPath::parse(&raw, lone)
        .map(|p| p.key().to_string())
        .map_err(|e| e.message);
    let want = spec_path(&raw, lone);
    assert_eq!(
        got, want,
        "MemoryPath::parse({raw:?}, {lone}) disagrees with docs/TOOL.md#path-rules"
    );
    if let Ok(key) = got {
        check_accepted_path(&raw, &key);
    }
}

/// docs/TOOL.md#path-rules, written apart from `src/path.rs`: the key (`""` or `/a/b`, NFC) or the message.
pub fn spec_path(raw: &str, lone_surrogate: bool) -> Result<String, String> {
    let rest = if raw == "/memories" || raw.starts_with("/memories/") {
        &raw["/memories".len()..]
    } else {
        return Err(format!(
            "Error: Path must be /memories or start with /memories/, got: {}",
            spec_echo(raw)
        ));
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let segments: Vec<&str> = if rest.is_empty() {
        Vec::new()
    } else {
        rest[1..].split('/').collect()
    };
    if segments.contains(&"..") {
        return Err(format!(
            "Error: Path {} would escape /memories directory",
            spec_echo(raw)
        ));
    }
    let reason = if segments.iter().any(|s| s.is_empty()) {
        Some("empty segment".to_string())
    } else if segments.contains(&".") {
        Some("'.' segments are not allowed".to_string())
    } else if segments.iter().any(|s| s.contains('\\')) {
        Some("backslashes are not allowed".to_string())
    } else if lone_surrogate || segments.iter().any(|s| s.chars().any(spec_control)) {
        Some("control characters are not allowed".to_string())
    } else if segments.iter().any(|s| s.chars().any(spec_invisible)) {
        Some("invisible formatting characters are not allowed".to_string())
    } else if segments.iter().any(|s| !decoded_forms_safe(s)) {
        Some("percent-encoded '.', '/', '\\' or control characters are not allowed".to_string())
    } else if raw.len() > 1024 {
        Some("longer than 1,024 bytes".to_string())
    } else {
        None
    };
    let key: String = segments
        .iter()
        .map(|s| format!("/{s}"))
        .collect::<String>()
        .nfc()
        .collect();
    // The stored (NFC) spelling obeys the limit too: NFC can lengthen a name, and a listed
    // spelling that could not be used again would strand its file.
    let reason = reason.or_else(|| {
        ("/memories".len() + key.len() > 1024).then(|| "longer than 1,024 bytes".to_string())
    });
    match reason {
        Some(reason) => Err(format!("Error: Invalid path {}: {reason}", spec_echo(raw))),
        None => Ok(key),
    }
}

/// docs/TOOL.md#result-shape: an echoed input with its controls and invisible formatting
/// characters escaped (`\t`, `\n`, `\r`, `\u{XXXX}`), cut after 2,000 characters as shown.
pub fn spec_echo(raw: &str) -> String {
    let pieces: Vec<String> = raw
        .chars()
        .map(|c| match c {
            '\t' => "\\t".to_string(),
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            c if spec_control(c) || spec_invisible(c) => format!("\\u{{{:04X}}}", c as u32),
            c => c.to_string(),
        })
        .collect();
    let mut out = String::new();
    let mut shown = 0;
    for piece in &pieces {
        let width = piece.chars().count();
        if shown + width > 2_000 {
            return format!("{out}… [{} characters in all]", group(raw.chars().count()));
        }
        shown += width;
        out.push_str(piece);
    }
    out
}

fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// docs/TOOL.md#path-rules: C0, DEL and C1 controls, and the line and paragraph separators.
pub fn spec_control(c: char) -> bool {
    let n = c as u32;
    n <= 0x1f || (0x7f..=0x9f).contains(&n) || n == 0x2028 || n == 0x2029
}

/// The invisible formatting characters of docs/TOOL.md#path-rules (ZWNJ and ZWJ are allowed).
pub fn spec_invisible(c: char) -> bool {
    let n = c as u32;
    [0xad, 0x61c, 0x180e, 0x200b, 0x200e, 0x200f, 0xfeff].contains(&n)
        || (0x202a..=0x202e).contains(&n)
        || (0x2060..=0x2064).contains(&n)
        || (0x2066..=0x2069).contains(&n)
        || (0xe0000..=0xe007f).contains(&n)
}

/// `%XX` (either case) decoded, other `%` kept, the bytes read as UTF-8 with U+FFFD.
pub fn spec_percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let hex = |i: usize| b.get(i).and_then(|c| (*c as char).to_digit(16));
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let (b'%', Some(h), Some(l)) = (b[i], hex(i + 1), hex(i + 2)) {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Neither the segment decoded once nor twice is a dot segment or holds `/`, `\` or a control.
fn decoded_forms_safe(segment: &str) -> bool {
    let once = spec_percent_decode(segment);
    let twice = spec_percent_decode(&once);
    [once, twice].iter().all(|d| {
        d != "."
            && d != ".."
            && !d.contains('/')
            && !d.contains('\\')
            && !d.chars().any(spec_control)
    })
}

/// What holds for every accepted path, whatever the rules' details: the raw path is under the
/// mount and at most 1,024 bytes; the key's segments are plain names that no decoding turns into
/// a way out; the key names itself when given back as a tool path.
pub fn check_accepted_path(raw: &str, key: &str) {
    assert!(
        raw == "/memories" || raw.starts_with("/memories/"),
        "accepted {raw:?} outside /memories"
    );
    assert!(raw.len() <= 1024, "accepted {} bytes: {raw:?}", raw.len());
    check_key(key);
    // The stored spelling obeys the limit as well, so every listed path can be used again.
    assert!(
        tool_path(key).len() <= 1024,
        "key of {} bytes from {raw:?}",
        key.len()
    );
}

/// A store key is `""` or `/seg/seg…` of safe NFC segments, and names itself as a tool path.
pub fn check_key(key: &str) {
    assert!(key.is_empty() || key.starts_with('/'), "key {key:?}");
    assert!(key.nfc().eq(key.chars()), "key {key:?} is not in NFC");
    for segment in key.split('/').skip(1) {
        assert!(!segment.is_empty(), "empty segment in key {key:?}");
        assert!(
            segment != "." && segment != "..",
            "dot segment in key {key:?}"
        );
        assert!(!segment.contains('\\'), "backslash in key {key:?}");
        assert!(!segment.chars().any(spec_control), "control in key {key:?}");
        assert!(
            !segment.chars().any(spec_invisible),
            "invisible in key {key:?}"
        );
        assert!(
            decoded_forms_safe(segment),
            "decodes to a way out: key {key:?}"
        );
    }
    let as_tool_path = tool_path(key);
    assert!(as_tool_path.starts_with("/memories"));
    let again = MemoryPath::parse(&as_tool_path, false).map(|p| p.key().to_string());
    assert_eq!(
        again.as_deref(),
        Ok(key),
        "key {key:?} does not name itself"
    );
}

// ---------------------------------------------------------------------------------------------
// Target 3: the command engine. Bytes become a sequence of commands over a small universe of
// paths (so that they collide), each checked against the invariants.

/// Paths that commands draw from: real names, near-misses and hostile spellings.
const PATHS: &[&str] = &[
    "/memories",
    "/memories/",
    "/memories/a",
    "/memories/a/",
    "/memories/a/x.md",
    "/memories/a/y.md",
    "/memories/a/b/z.md",
    "/memories/a/b",
    "/memories/b",
    "/memories/b/x.md",
    "/memories/a-b",
    "/memories/a0",
    "/memories/.h/k",
    "/memories/node_modules/m.md",
    "/memories/x.md",
    "/memories/x.md/q",
    "/memories/caf\u{e9}.md",
    "/memories/cafe\u{301}.md",
    "/memories/\u{ff0e}\u{ff0e}",
    "/memories/../a",
    "/memories/a/../b",
    "/memories/%2e%2e/a",
    "/memories_backup/a",
    "/Memories/a",
    "/memories/a\\b",
    "/memories//a",
];

/// Pieces of composed paths: separators, dots, encodings, look-alikes, controls.
const PIECES: &[&str] = &[
    "/",
    "/",
    "/",
    "a",
    "b",
    "x.md",
    ".",
    "..",
    "...",
    "%2e",
    "%2E%2e",
    "%25",
    "%",
    "%2f",
    "%5c",
    "%c0%ae",
    "\\",
    "\u{e9}",
    "e\u{301}",
    "\u{0}",
    "\u{2028}",
    "\u{200b}",
    "\u{200d}",
    "\u{ff0e}",
    "\u{2024}",
    "memories",
    "node_modules",
    ".h",
    "\u{202e}",
];

const TEXTS: &[&str] = &[
    "",
    "x",
    "x\n",
    "one\ntwo\nthree",
    "xx xx",
    "\n\n",
    "caf\u{e9}",
    "cafe\u{301}",
    "a\r\nb",
    "0123456789012345678901234567890123456789",
    "$& $1 $$",
];

const BYTES: &[&[u8]] = &[
    b"",
    b"x\n",
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    b"\xff\xd8\xff\xe0",
    b"\xff\xfe\x00",
    b"GIF89a",
];

/// Integers and near-integers as JSON lexemes (and a few non-numbers).
const NUMBERS: &[&str] = &[
    "-3",
    "-2",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "2.0",
    "1.5",
    "1e0",
    "-0",
    "1E2",
    "9007199254740993",
    "-9223372036854775808",
    "99999999999999999999999",
    "\"1\"",
    "true",
    "null",
    "[]",
];

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn done(&self) -> bool {
        self.pos >= self.data.len()
    }
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.byte() as usize % items.len()]
    }
    fn path(&mut self) -> String {
        let b = self.byte();
        if b < 0xc0 {
            return PATHS[b as usize % PATHS.len()].to_string();
        }
        // Composed: /memories then up to 7 pieces.
        let mut out = String::from("/memories");
        for _ in 0..(b & 7) {
            out.push_str(self.pick(PIECES));
        }
        out
    }
    fn text(&mut self) -> &'static str {
        self.pick(TEXTS)
    }
}

/// What a step was, for the checks that depend on it.
#[derive(Debug)]
enum Step {
    View,
    Create { path: String, text: String },
    Delete { path: String },
    Rename { from: String, to: String },
    Write { path: String, bytes: Vec<u8> },
    Edit,
    Other,
}

/// The first byte sets the limits and the create-overwrites option; each further command reads
/// its own bytes. At most 64 commands per input.
pub fn engine(data: &[u8]) {
    let mut r = Reader { data, pos: 0 };
    let setup = r.byte();
    let mut store = MemStore::new(Config {
        max_file_bytes: if setup & 1 == 1 { 30 } else { 102_400 },
        max_files: if setup & 2 == 2 { 6 } else { 10_000 },
        create_overwrites: setup & 4 == 4,
        ..Config::default()
    });
    let mut steps = 0;
    while !r.done() && steps < 64 {
        steps += 1;
        let op = r.byte();
        let noise = r.byte();
        // Unknown fields are ignored and `null` is absent: vary the JSON without changing
        // what it means.
        let extra = match noise & 3 {
            0 => "",
            1 => r#","x":1"#,
            2 => r#","view_range":null,"new_str":null"#,
            _ => r#","command":"view""#, // a repeated key: the last one counts, so a view
        };
        let (input, step) = match op % 10 {
            0 => {
                let p = r.path();
                let range = if noise & 4 == 4 {
                    format!(r#","view_range":[{},{}]"#, r.pick(NUMBERS), r.pick(NUMBERS))
                } else {
                    String::new()
                };
                (
                    format!(r#"{{"command":"view","path":{}{range}{extra}}}"#, quote(&p)),
                    Step::View,
                )
            }
            1 => {
                let (p, t) = (r.path(), r.text());
                let input = format!(
                    r#"{{"command":"create","path":{},"file_text":{}{extra}}}"#,
                    quote(&p),
                    quote(t)
                );
                (
                    input,
                    Step::Create {
                        path: p,
                        text: t.to_string(),
                    },
                )
            }
            2 => {
                let (p, old) = (r.path(), r.text());
                let new = if noise & 4 == 4 {
                    format!(r#","new_str":{}"#, quote(r.text()))
                } else {
                    String::new()
                };
                let input = format!(
                    r#"{{"command":"str_replace","path":{},"old_str":{}{new}{extra}}}"#,
                    quote(&p),
                    quote(old)
                );
                (input, Step::Edit)
            }
            3 => {
                let (p, line, t) = (r.path(), r.pick(NUMBERS), r.text());
                let input = format!(
                    r#"{{"command":"insert","path":{},"insert_line":{line},"insert_text":{}{extra}}}"#,
                    quote(&p),
                    quote(t)
                );
                (input, Step::Edit)
            }
            4 => {
                let p = r.path();
                let input = format!(r#"{{"command":"delete","path":{}{extra}}}"#, quote(&p));
                (input, Step::Delete { path: p })
            }
            5 => {
                let (a, b) = (r.path(), r.path());
                let input = format!(
                    r#"{{"command":"rename","old_path":{},"new_path":{}{extra}}}"#,
                    quote(&a),
                    quote(&b)
                );
                (input, Step::Rename { from: a, to: b })
            }
            6 => {
                let p = r.path();
                let bytes = r.pick(BYTES).to_vec();
                let before = store.clone();
                let outcome = store.run(Operation::host_write(&p, bytes.clone()));
                let label = format!("host write {p:?}");
                check_step(
                    &before,
                    &store,
                    &outcome,
                    &Step::Write { path: p, bytes },
                    &label,
                );
                continue;
            }
            7 => {
                // Raw bytes as input: whatever they are, nothing breaks.
                let n = (noise & 31) as usize;
                let end = (r.pos + n).min(data.len());
                let text = String::from_utf8_lossy(&data[r.pos.min(end)..end]).into_owned();
                r.pos = end;
                (text, Step::Other)
            }
            8 => {
                store.config.read_only = !store.config.read_only;
                continue;
            }
            _ => {
                // A tool path of the store given back: listings show keys the model may echo.
                let keys: Vec<String> = store.files.keys().cloned().collect();
                let p = match keys.len() {
                    0 => "/memories".to_string(),
                    n => tool_path(&keys[noise as usize % n]),
                };
                let input = format!(r#"{{"command":"view","path":{}}}"#, quote(&p));
                (input, Step::View)
            }
        };
        let step = if noise & 3 == 3 && op % 10 <= 5 {
            Step::View
        } else {
            step
        };
        let before = store.clone();
        let outcome = store.execute(&input);
        check_step(&before, &store, &outcome, &step, &input);
    }
}

/// The store key of a tool path, if the path is valid.
fn key_of(path: &str) -> Option<String> {
    MemoryPath::parse(path, false)
        .ok()
        .map(|p| p.key().to_string())
}

/// The content of a file record (the one place that knows where contents are kept).
fn content_of<'a>(store: &'a MemStore, key: &str) -> Option<&'a [u8]> {
    let record = store.files.get(key)?;
    store.contents.get(&record.content).map(Vec::as_slice)
}

/// Invariants after one step: a failure (or a read-only store, or a view) changes nothing;
/// the store is a tree of valid keys, each file with its content and hash; successes did what
/// they said; no result names a storage id.
fn check_step(before: &MemStore, after: &MemStore, outcome: &Outcome, step: &Step, input: &str) {
    let unchanged = after.files == before.files
        && after.contents == before.contents
        && after.versions == before.versions;
    // Versions are immutable: a command only appends (redaction and pruning are host calls
    // that these targets never make).
    for (id, version) in &before.versions {
        assert_eq!(
            after.versions.get(id),
            Some(version),
            "version {id} changed: {input}"
        );
    }
    if outcome.is_error() {
        assert!(unchanged, "a failed command changed the store: {input}");
        assert!(outcome.writes.is_empty(), "a failed command wrote: {input}");
    }
    if before.config.read_only {
        assert!(unchanged, "a read-only store changed: {input}");
    }
    if matches!(step, Step::View) {
        assert!(
            unchanged && outcome.writes.is_empty(),
            "a view wrote: {input}"
        );
    }
    check_store(after);
    let text = outcome.text_content();
    // Storage ids never reach the model (unless the model itself wrote them).
    let leaks = |id: &str| text.contains(id) && !input.contains(id);
    for record in before.files.values().chain(after.files.values()) {
        assert!(!leaks(&record.id), "the result names a memory id: {input}");
        assert!(
            !leaks(&record.content),
            "the result names a content key: {input}"
        );
    }
    for id in after.versions.keys() {
        assert!(!leaks(id), "the result names a version id: {input}");
    }
    if outcome.is_error() {
        return;
    }
    let subtree = |store: &MemStore, key: &str| {
        let below = format!("{key}/");
        store
            .files
            .keys()
            .filter(|k| *k == key || k.starts_with(&below))
            .count()
    };
    match step {
        Step::Create { path, text } => {
            let key = key_of(path).expect("created at a valid path");
            assert_eq!(
                after.text_at(&key),
                Some(text.as_str()),
                "created file holds other text: {input}"
            );
            if !before.config.create_overwrites {
                assert!(
                    !before.files.contains_key(&key),
                    "create overwrote: {input}"
                );
            }
        }
        Step::Write { path, bytes } => {
            let key = key_of(path).expect("wrote at a valid path");
            assert_eq!(content_of(after, &key), Some(bytes.as_slice()), "{input}");
        }
        Step::Delete { path } => {
            let key = key_of(path).expect("deleted a valid path");
            assert!(!key.is_empty(), "deleted the root: {input}");
            assert!(subtree(before, &key) > 0, "deleted nothing: {input}");
            assert_eq!(subtree(after, &key), 0, "delete left files behind: {input}");
        }
        Step::Rename { from, to } => {
            let (from, to) = (key_of(from).expect("valid"), key_of(to).expect("valid"));
            let moved = subtree(before, &from);
            assert!(moved > 0 && subtree(before, &to) == 0, "{input}");
            assert_eq!(subtree(after, &from), 0, "rename left the source: {input}");
            assert_eq!(subtree(after, &to), moved, "rename lost files: {input}");
            assert_eq!(after.files.len(), before.files.len(), "{input}");
        }
        Step::Edit => {
            let keys = |s: &MemStore| s.files.keys().cloned().collect::<Vec<_>>();
            assert_eq!(
                keys(after),
                keys(before),
                "an edit added or removed files: {input}"
            );
        }
        Step::View | Step::Other => {}
    }
}

/// The store is a tree of valid keys; each file has its content, size and hash; the version
/// log, replayed in id order, gives exactly the files; every stored byte string belongs to a
/// version.
pub fn check_store(store: &MemStore) {
    check_files(store);
    check_versions(store);
}

/// Replays the version log (ids sort in write order) and compares it with the files.
fn check_versions(store: &MemStore) {
    use memory_tool_wasm::Change;
    let mut live: std::collections::BTreeMap<&str, &memory_tool_wasm::VersionRecord> =
        std::collections::BTreeMap::new();
    for version in store.versions.values() {
        match version.operation {
            Change::Deleted => {
                live.remove(version.memory_id.as_str());
            }
            Change::Created | Change::Modified => {
                live.insert(&version.memory_id, version);
            }
        }
    }
    assert_eq!(
        live.len(),
        store.files.len(),
        "the version log holds other memories"
    );
    for (key, record) in &store.files {
        let head = live
            .get(record.id.as_str())
            .unwrap_or_else(|| panic!("{key}: no version of {}", record.id));
        assert_eq!(
            record.version.as_deref(),
            Some(head.id.as_str()),
            "{key}: head"
        );
        assert_eq!(head.path.as_deref(), Some(key.as_str()), "{key}: head path");
        assert_eq!(
            head.content.as_deref(),
            Some(record.content.as_str()),
            "{key}: content"
        );
        assert_eq!(
            head.sha256.as_deref(),
            Some(record.sha256.as_str()),
            "{key}: sha256"
        );
        assert_eq!(head.size, Some(record.size), "{key}: size");
    }
    for key in store.contents.keys() {
        assert!(
            store
                .versions
                .values()
                .any(|v| v.content.as_ref() == Some(key)),
            "orphan content {key}"
        );
    }
}

fn check_files(store: &MemStore) {
    for (key, record) in &store.files {
        check_key(key);
        assert!(!key.is_empty(), "a file at the root key");
        assert_eq!(&record.path, key);
        // No ancestor directory of a file is itself a file.
        for (i, _) in key.match_indices('/').skip(1) {
            let ancestor = &key[..i];
            assert!(
                !store.files.contains_key(ancestor),
                "{ancestor} is a file and a directory"
            );
        }
        let content = content_of(store, key).unwrap_or_else(|| panic!("{key} has no content"));
        assert_eq!(content.len() as u64, record.size, "{key}: size");
        assert_eq!(
            record.sha256,
            memory_tool_wasm::sha256_hex(content),
            "{key}: sha256"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Target 4 (replayed here without its differential half): the JSON parser never panics.

/// `Json::parse` on the bytes read as UTF-8. The fuzz target also compares with serde_json.
pub fn json_no_panic(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = Json::parse(&text);
}
