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
    ("bundle", bundle),
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
    } else if segments.iter().any(|s| s.chars().any(spec_uneven)) {
        Some("characters that browsers may normalise differently are not allowed".to_string())
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
    // Groups of three digits from the right, joined with `,`.
    let reversed: Vec<char> = n.to_string().chars().rev().collect();
    let groups: Vec<String> = reversed
        .chunks(3)
        .map(|g| g.iter().rev().collect())
        .rev()
        .collect();
    groups.join(",")
}

/// docs/TOOL.md#names-every-browser-normalises-alike, from the Unicode Character Database (Age
/// from `regex-syntax`, NFC from `unicode-normalization`), not from the core's table: a code
/// point Unicode 16.0 leaves unassigned, or one Unicode 15.1 or 16.0 added that has a combining
/// class, a decomposition, or a place in the decomposition of a character 16.0 assigns.
pub fn spec_uneven(c: char) -> bool {
    use unicode_normalization::char::{canonical_combining_class, decompose_canonical};
    struct Ucd {
        v15: Vec<(u32, u32)>,
        v16: Vec<(u32, u32)>,
        parts: std::collections::HashSet<u32>,
    }
    fn age(version: &str) -> Vec<(u32, u32)> {
        use regex_syntax::hir::{Class, HirKind};
        let hir = regex_syntax::ParserBuilder::new()
            .build()
            .parse(&format!(r"\p{{Age={version}}}"))
            .expect("Age parses");
        match hir.kind() {
            HirKind::Class(Class::Unicode(class)) => class
                .ranges()
                .iter()
                .map(|r| (r.start() as u32, r.end() as u32))
                .collect(),
            _ => unreachable!("a class"),
        }
    }
    fn holds(ranges: &[(u32, u32)], c: u32) -> bool {
        let at = ranges.partition_point(|&(_, to)| to < c);
        ranges.get(at).is_some_and(|&(from, _)| from <= c)
    }
    static UCD: std::sync::OnceLock<Ucd> = std::sync::OnceLock::new();
    let ucd = UCD.get_or_init(|| {
        let v16 = age("16.0");
        let mut parts = std::collections::HashSet::new();
        for d in (0..=0x10_ffffu32).filter_map(char::from_u32) {
            if holds(&v16, d as u32) {
                let mut own = Vec::new();
                decompose_canonical(d, |p| own.push(p));
                if own != [d] {
                    parts.extend(own.iter().map(|&p| p as u32));
                }
            }
        }
        Ucd {
            v15: age("15.0"),
            v16,
            parts,
        }
    });
    let u = c as u32;
    if u < 0x80 {
        return false;
    }
    let mut own = Vec::new();
    decompose_canonical(c, |p| own.push(p));
    let changeable = canonical_combining_class(c) > 0 || own != [c] || ucd.parts.contains(&u);
    !holds(&ucd.v16, u) || (!holds(&ucd.v15, u) && changeable)
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

// ---------------------------------------------------------------------------------------------
// Target 5: bundles. An import either refuses with nothing written, or leaves a store whose every
// invariant holds and whose export imports again into an identical store (docs/TOOL.md#bundles).

/// The first byte picks the input's shape: even, a real export (one of `real_bundles`) put
/// through the mutations the rest of the bytes spell; odd, a bundle made up from the bytes
/// (`made_up_bundle`). Bit 1 imports into an empty store rather than a seeded one; bits 2-3 pick
/// `on_conflict`.
pub fn bundle(data: &[u8]) {
    bundle_imported(data);
}

/// `bundle`, saying what happened: `Some(true)` imported, `Some(false)` refused, `None` for no
/// input.
pub fn bundle_imported(data: &[u8]) -> Option<bool> {
    let (&flags, rest) = data.split_first()?;
    let bundle = if flags & 1 == 0 {
        let reals = real_bundles();
        let pick = rest.first().map_or(0, |b| usize::from(*b) % reals.len());
        let mut bundle = reals[pick].clone();
        for op in rest.get(1..).unwrap_or_default().chunks(3) {
            mutate(&mut bundle, op);
        }
        bundle
    } else {
        made_up_bundle(rest)
    };
    let on_conflict = ["skip", "overwrite", "fail", "skip"][usize::from(flags >> 2 & 3)];
    let mut store = if flags & 2 == 0 {
        seeded_history_store()
    } else {
        MemStore::new(Config::default())
    };
    Some(check_import(&mut store, &bundle, on_conflict))
}

/// Imports `bundle` into `store` and checks the outcome: a refusal writes nothing; a success
/// leaves every invariant holding, and the store's export imports into a fresh store that
/// exports the same bundle again.
pub fn check_import(store: &mut MemStore, bundle: &Json, on_conflict: &str) -> bool {
    let before = store.clone();
    let call = format!(
        r#"{{"call":"import","bundle":{},"on_conflict":{}}}"#,
        memory_tool_wasm::write_value(bundle),
        quote(on_conflict)
    );
    let outcome = store.run(Operation::host(&call));
    if outcome.is_error() {
        assert!(outcome.error.is_some(), "a refusal without a code");
        assert_eq!(store.files, before.files, "a refused import wrote files");
        assert_eq!(
            store.versions, before.versions,
            "a refused import wrote versions"
        );
        assert_eq!(
            store.contents, before.contents,
            "a refused import wrote contents"
        );
        return false;
    }
    check_store(store);
    let first = export_of(store);
    let mut again = MemStore::new(Config::default());
    again.clock = store.clock;
    let call = format!(
        r#"{{"call":"import","bundle":{},"on_conflict":"fail"}}"#,
        memory_tool_wasm::write_value(&first)
    );
    let reimported = again.run(Operation::host(&call));
    assert!(
        !reimported.is_error(),
        "an export does not import again: {}",
        reimported.text_content()
    );
    check_store(&again);
    // The same memories, heads and times (where the bytes are kept is the store's own choice).
    let shape = |s: &MemStore| -> Vec<_> {
        s.files
            .values()
            .map(|r| {
                (
                    r.path.clone(),
                    r.id.clone(),
                    r.size,
                    r.sha256.clone(),
                    r.created_at,
                    r.updated_at,
                    r.version.clone(),
                )
            })
            .collect()
    };
    assert_eq!(
        shape(store),
        shape(&again),
        "the re-import holds other files"
    );
    assert_eq!(
        export_of(&again),
        first,
        "the re-import exports another bundle"
    );
    true
}

/// The store's export with its history, as JSON.
fn export_of(store: &MemStore) -> Json {
    let mut reader = store.clone();
    let outcome = reader.run(Operation::host(
        r#"{"call":"export","include_versions":true}"#,
    ));
    assert!(
        !outcome.is_error(),
        "export failed: {}",
        outcome.text_content()
    );
    Json::parse(outcome.value.as_deref().unwrap_or("")).expect("an export is JSON")
}

/// A store with history: edits, a rename, a binary file, a deletion and a redacted version.
pub fn seeded_history_store() -> MemStore {
    static SEEDED: std::sync::OnceLock<MemStore> = std::sync::OnceLock::new();
    SEEDED
        .get_or_init(|| {
            let mut store = MemStore::new(Config::default());
            for input in [
                r#"{"command":"create","path":"/memories/a.md","file_text":"one\ntwo\n"}"#,
                r#"{"command":"str_replace","path":"/memories/a.md","old_str":"one","new_str":"uno"}"#,
                r#"{"command":"create","path":"/memories/notes/b.md","file_text":"b"}"#,
                r#"{"command":"rename","old_path":"/memories/notes/b.md","new_path":"/memories/notes/c.md"}"#,
                r#"{"command":"create","path":"/memories/gone.md","file_text":"bye"}"#,
                r#"{"command":"delete","path":"/memories/gone.md"}"#,
                r#"{"command":"create","path":"/memories/caf\u00e9.md","file_text":"caf\u00e9"}"#,
            ] {
                let outcome = store.execute(input);
                assert!(!outcome.is_error(), "seeding: {input}");
            }
            let outcome = store.run(Operation::host_write("/memories/img.bin", vec![0xff, 0, 1, 2]));
            assert!(!outcome.is_error(), "seeding the binary file");
            let first = store.versions.keys().next().cloned().unwrap_or_default();
            let outcome = store.run(Operation::host(&format!(
                r#"{{"call":"versions.redact","id":{}}}"#,
                quote(&first)
            )));
            assert!(!outcome.is_error(), "seeding a redaction: {}", outcome.text_content());
            check_store(&store);
            store
        })
        .clone()
}

/// Real exports: of the seeded store with history, without it, and of an empty store.
pub fn real_bundles() -> &'static [Json] {
    static REAL: std::sync::OnceLock<Vec<Json>> = std::sync::OnceLock::new();
    REAL.get_or_init(|| {
        let store = seeded_history_store();
        let mut plain = store.clone();
        let without = plain.run(Operation::host(
            r#"{"call":"export","include_versions":false}"#,
        ));
        let without = Json::parse(without.value.as_deref().unwrap_or("")).expect("JSON");
        vec![
            export_of(&store),
            without,
            export_of(&MemStore::new(Config::default())),
        ]
    })
}

/// Values a mutation writes in place of another: what a hostile or broken bundle holds.
fn pool(i: u8, bundle: &Json) -> Json {
    let strings = [
        "",
        "memver_~",
        "memver_0",
        "memver_zzzzzzzzzzzzzzzzzzzzz",
        "mem_0",
        "/memories/../x",
        "/a/../b",
        "/a.md",
        "/notes/c.md/d",
        "/x\u{0}y",
        "2200-01-01T00:00:00Z",
        "2026-01-01T00:00:00.001Z",
        "not a time",
        "created",
        "modified",
        "deleted",
        "renamed",
        "one\ntwo\n",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "/wAB",
        "!!",
        "memory-tool-wasm/bundle",
    ];
    match i % 8 {
        0 => Json::Null,
        1 => Json::Bool(i & 8 != 0),
        2 => Json::int(i64::from(i) - 128),
        3 => Json::int(if i & 8 == 0 { i64::MAX } else { 1 << 53 }),
        4 => Json::Array(Vec::new()),
        5 => Json::Object(Vec::new()),
        6 => {
            // A copy of some node of the bundle: ids, paths and contents in the wrong place.
            let nodes = count_nodes(bundle);
            node_at(bundle, usize::from(i) % nodes.max(1))
                .cloned()
                .unwrap_or(Json::Null)
        }
        _ => Json::string(strings[usize::from(i >> 3) % strings.len()]),
    }
}

fn count_nodes(json: &Json) -> usize {
    1 + match json {
        Json::Array(items) => items.iter().map(count_nodes).sum(),
        Json::Object(members) => members.iter().map(|(_, v)| count_nodes(v)).sum(),
        _ => 0,
    }
}

fn node_at(json: &Json, mut index: usize) -> Option<&Json> {
    if index == 0 {
        return Some(json);
    }
    index -= 1;
    let children: Vec<&Json> = match json {
        Json::Array(items) => items.iter().collect(),
        Json::Object(members) => members.iter().map(|(_, v)| v).collect(),
        _ => Vec::new(),
    };
    for child in children {
        let size = count_nodes(child);
        if index < size {
            return node_at(child, index);
        }
        index -= size;
    }
    None
}

fn node_at_mut(json: &mut Json, mut index: usize) -> Option<&mut Json> {
    if index == 0 {
        return Some(json);
    }
    index -= 1;
    let children: Vec<&mut Json> = match json {
        Json::Array(items) => items.iter_mut().collect(),
        Json::Object(members) => members.iter_mut().map(|(_, v)| v).collect(),
        _ => Vec::new(),
    };
    for child in children {
        let size = count_nodes(child);
        if index < size {
            return node_at_mut(child, index);
        }
        index -= size;
    }
    None
}

/// One mutation, spelled by up to three bytes: what to do, to which node, with which value.
fn mutate(bundle: &mut Json, op: &[u8]) {
    let (what, at, value) = match op {
        [a, b, c] => (*a, *b, *c),
        [a, b] => (*a, *b, 0),
        [a] => (*a, 0, 0),
        _ => return,
    };
    let nodes = count_nodes(bundle);
    // Most mutations aim at the leaves of memories and versions: spread `at` over every node.
    let index = (usize::from(at) * 7 + usize::from(value)) % nodes;
    let replacement = pool(value, bundle);
    let Some(node) = node_at_mut(bundle, index) else {
        return;
    };
    match what % 6 {
        // Replace the node.
        0 | 1 => *node = replacement,
        // Drop a member or an item.
        2 => match node {
            Json::Object(members) if !members.is_empty() => {
                members.remove(usize::from(value) % members.len());
            }
            Json::Array(items) if !items.is_empty() => {
                items.remove(usize::from(value) % items.len());
            }
            _ => *node = Json::Null,
        },
        // Duplicate an item or a member (twice the same id or path; a key given twice).
        3 => match node {
            Json::Array(items) if !items.is_empty() => {
                let copy = items[usize::from(value) % items.len()].clone();
                items.push(copy);
            }
            Json::Object(members) if !members.is_empty() => {
                let copy = members[usize::from(value) % members.len()].clone();
                members.push(copy);
            }
            _ => {}
        },
        // Reorder: swap two items, or reverse a list.
        4 => {
            if let Json::Array(items) = node {
                if items.len() > 1 {
                    let (i, j) = (
                        usize::from(value) % items.len(),
                        usize::from(at) % items.len(),
                    );
                    items.swap(i, j);
                } else {
                    items.reverse();
                }
            }
        }
        // Edit a string: cut it, or add a character.
        _ => {
            if let Json::Str(s) = node {
                let chars: Vec<char> = s.text.chars().collect();
                let keep = usize::from(value) % (chars.len() + 1);
                let mut text: String = chars[..keep].iter().collect();
                if value & 1 == 1 {
                    text.push(['0', 'z', '~', '/', '\u{301}', 'é'][usize::from(at) % 6]);
                }
                *node = Json::string(&text);
            }
        }
    }
}

/// A bundle made up from bytes: up to 4 memories and 8 versions over a small universe of ids,
/// paths and contents, hashes right or wrong, heads named or not.
pub fn made_up_bundle(data: &[u8]) -> Json {
    let mut bytes = data.iter().copied();
    let mut next = move || bytes.next().unwrap_or(0);
    let paths = [
        "/a.md",
        "/b.md",
        "/d/a.md",
        "/d",
        "/caf\u{e9}.md",
        "/cafe\u{301}.md",
        "/x/../y",
    ];
    let contents = ["", "one", "two\n", "caf\u{e9}", "k"];
    let ids = [
        "mem_aaaaaaaaaaaaaaaaaaaaaaaa",
        "mem_bbbbbbbbbbbbbbbbbbbbbbbb",
        "mem_cccccccccccccccccccccccc",
    ];
    let version_ids = [
        "memver_1kdvdna0100004rs9c9j5",
        "memver_1kdvdna020000rxfezwgr",
        "memver_1kdvdna030000b5g7ffac",
        "memver_1kdvdna040000akrafkq5",
        "memver_1kdvdna050000ywbwh8wj",
        "memver_1kdvdna0600000dsn2p36",
    ];
    let times = [
        "2026-01-01T00:00:00.001Z",
        "2026-01-01T00:00:00.002Z",
        "2025-12-31T23:59:59Z",
    ];
    let pick = |b: u8, n: usize| usize::from(b) % n;
    let sha = |text: &str, right: bool| {
        if right {
            memory_tool_wasm::sha256_hex(text.as_bytes())
        } else {
            memory_tool_wasm::sha256_hex(b"something else")
        }
    };
    let mut versions = Vec::new();
    for _ in 0..(next() % 9) {
        let (b1, b2, b3, b4) = (next(), next(), next(), next());
        let content = contents[pick(b2, contents.len())];
        let operation = ["created", "modified", "deleted", "modified"][pick(b3, 4)];
        let redacted = b4 & 1 == 1 && operation != "deleted";
        let holds = operation != "deleted" && !redacted;
        let text = |v: &str| if holds { Json::string(v) } else { Json::Null };
        versions.push(Json::Object(vec![
            (
                "id".into(),
                Json::string(version_ids[pick(b1, version_ids.len())]),
            ),
            (
                "memory_id".into(),
                Json::string(ids[pick(b1 >> 4, ids.len())]),
            ),
            ("operation".into(), Json::string(operation)),
            (
                "path".into(),
                if redacted {
                    Json::Null
                } else {
                    Json::string(paths[pick(b2 >> 4, paths.len())])
                },
            ),
            ("content".into(), text(content)),
            (
                "content_sha256".into(),
                if holds {
                    Json::string(&sha(content, b4 & 2 == 0))
                } else {
                    Json::Null
                },
            ),
            (
                "content_size_bytes".into(),
                if holds {
                    Json::int(content.len() as i64 + i64::from(b4 >> 7))
                } else {
                    Json::Null
                },
            ),
            (
                "created_at".into(),
                Json::string(times[pick(b3 >> 4, times.len())]),
            ),
            (
                "created_by".into(),
                Json::Object(vec![("type".into(), Json::string("import"))]),
            ),
            (
                "redacted_at".into(),
                if redacted {
                    Json::string(times[0])
                } else {
                    Json::Null
                },
            ),
        ]));
    }
    let mut memories = Vec::new();
    for _ in 0..(next() % 5) {
        let (b1, b2, b3, b4) = (next(), next(), next(), next());
        let content = contents[pick(b2, contents.len())];
        let mut members = vec![
            ("id".into(), Json::string(ids[pick(b1, ids.len())])),
            (
                "path".into(),
                Json::string(paths[pick(b1 >> 4, paths.len())]),
            ),
            ("content".into(), Json::string(content)),
            (
                "content_sha256".into(),
                Json::string(&sha(content, b4 & 1 == 0)),
            ),
            ("content_size_bytes".into(), Json::int(content.len() as i64)),
            (
                "created_at".into(),
                Json::string(times[pick(b3, times.len())]),
            ),
            (
                "updated_at".into(),
                Json::string(times[pick(b3 >> 2, times.len())]),
            ),
        ];
        if b4 & 2 == 0 {
            members.push((
                "memory_version_id".into(),
                Json::string(version_ids[pick(b4 >> 2, version_ids.len())]),
            ));
        }
        memories.push(Json::Object(members));
    }
    let mut members = vec![
        ("format".into(), Json::string("memory-tool-wasm/bundle")),
        ("format_version".into(), Json::int(1)),
        ("memories".into(), Json::Array(memories)),
    ];
    if !versions.is_empty() || next() & 1 == 1 {
        members.push(("versions".into(), Json::Array(versions)));
    }
    Json::Object(members)
}
