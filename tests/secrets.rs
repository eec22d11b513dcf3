//! The secret filter against its published corpus (`tests/secrets-corpus/`): every credential
//! case is refused, as content or as a path, in the encoding it is written in; every ordinary
//! note is stored. And the paths of every kind of write are checked: create, rename
//! destinations, `memories.update` with a path, restores and imports (docs/TOOL.md#secret-filter).
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{q, result};
use memory_tool_wasm::{write_value, Config, Json, MemStore, Operation, Outcome};

/// One corpus case, as the JSON files hold it.
struct Case {
    name: String,
    /// `content` (the text is a file's content) or `path` (the text is a store path).
    as_path: bool,
    encoding: String,
    text: String,
    /// The kind the refusal names (credentials only).
    kind: Option<String>,
}

fn corpus(file: &str) -> Vec<Case> {
    let path = format!("{}/tests/secrets-corpus/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let Some(Json::Array(items)) = Json::parse(&text) else {
        panic!("{path} is a JSON array");
    };
    let field = |item: &Json, key: &str| item.get(key).and_then(Json::as_str).map(str::to_string);
    items
        .iter()
        .map(|item| Case {
            name: field(item, "name").unwrap_or_default(),
            as_path: field(item, "as").as_deref() == Some("path"),
            encoding: field(item, "encoding").unwrap_or_else(|| "utf-8".into()),
            text: field(item, "text").unwrap_or_default(),
            kind: field(item, "kind"),
        })
        .collect()
}

/// `text` in `encoding`: `utf-8`, `utf-16le`, `utf-16be` (`-bom` adds a byte-order mark) or
/// `latin-1` (every character below U+0100).
fn encode(text: &str, encoding: &str) -> Vec<u8> {
    let le = || text.encode_utf16().flat_map(u16::to_le_bytes);
    let be = || text.encode_utf16().flat_map(u16::to_be_bytes);
    match encoding {
        "utf-8" => text.as_bytes().to_vec(),
        "utf-16le" => le().collect(),
        "utf-16be" => be().collect(),
        "utf-16le-bom" => [0xFF, 0xFE].into_iter().chain(le()).collect(),
        "utf-16be-bom" => [0xFE, 0xFF].into_iter().chain(be()).collect(),
        "latin-1" => text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect(),
        other => panic!("unknown encoding {other}"),
    }
}

fn filtered() -> MemStore {
    MemStore::new(Config {
        secret_filter: true,
        ..Config::default()
    })
}

/// Writes the case into a filtered store: as content at a plain path, or as the path of a
/// small note.
fn write(store: &mut MemStore, i: usize, case: &Case) -> (String, Outcome) {
    if case.as_path {
        let path = format!("/memories{}", case.text);
        let input = format!(
            r#"{{"command":"create","path":{},"file_text":"a note\n"}}"#,
            q(&path)
        );
        (path, store.execute(&input))
    } else {
        let path = format!("/memories/case-{i}.md");
        let outcome = store.run(Operation::host_write(
            &path,
            encode(&case.text, &case.encoding),
        ));
        (path, outcome)
    }
}

#[test]
fn the_corpus_credentials_are_refused_and_its_notes_stored() {
    let credentials = corpus("credentials.json");
    let notes = corpus("notes.json");
    let mut failures = Vec::new();
    let mut caught = 0;
    for (i, case) in credentials.iter().enumerate() {
        let mut store = filtered();
        let (path, outcome) = write(&mut store, i, case);
        let kind = case.kind.as_deref().unwrap_or("?");
        let what = if case.as_path { "path" } else { "content" };
        // A path goes in by the tool (the model's mark), a content by writeFile (the host's).
        let mark = if case.as_path { "Error: " } else { "" };
        let want = format!(
            "{mark}Cannot write {path}: the {what} looks like it holds {kind}; memories must not store secrets"
        );
        let (text, is_error) = result(&outcome);
        if is_error && text == want && outcome.error.map(|c| c.as_str()) == Some("POLICY_REFUSED") {
            assert!(store.files.is_empty() && store.versions.is_empty());
            caught += 1;
        } else {
            failures.push(format!(
                "credential missed: {} ({}): {text}",
                case.name, case.encoding
            ));
        }
    }
    let mut allowed = 0;
    for (i, case) in notes.iter().enumerate() {
        let mut store = filtered();
        let (_, outcome) = write(&mut store, i, case);
        if outcome.is_error() {
            failures.push(format!(
                "note refused: {}: {}",
                case.name,
                result(&outcome).0
            ));
        } else {
            allowed += 1;
        }
    }
    println!(
        "secret corpus: {caught} of {} credentials caught, {allowed} of {} ordinary notes allowed",
        credentials.len(),
        notes.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The corpus is as large as its documentation says (docs/SECURITY.md).
    assert!(credentials.len() >= 46 && notes.len() >= 22);
}

const KEY: &str = "ghp_Qm7Rt2Vx9Zb4Nc6Lp1Hs8Kd3Jf5Wg0Ya2Teu";

/// The refusal the host hears (without the model's mark, docs/TOOL.md#host-api-messages).
fn path_refusal(shown: &str) -> String {
    format!("{shown}: the path looks like it holds a GitHub token; memories must not store secrets")
}

fn unchanged_after(store: &mut MemStore, operation: Operation) -> (String, Option<&'static str>) {
    let (files, versions) = (store.files.clone(), store.versions.clone());
    let outcome = store.run(operation);
    assert_eq!(store.files, files);
    assert_eq!(store.versions, versions);
    (result(&outcome).0, outcome.error.map(|c| c.as_str()))
}

#[test]
fn a_key_as_a_name_is_refused_on_every_write_that_places_a_path() {
    let mut st = filtered();
    st.execute(r#"{"command":"create","path":"/memories/dir/a.md","file_text":"a"}"#);
    let refused = Some("POLICY_REFUSED");
    // Rename destinations: a file, and a directory whose files would land below the key.
    assert_eq!(
        unchanged_after(
            &mut st,
            Operation::tool(&format!(
                r#"{{"command":"rename","old_path":"/memories/dir/a.md","new_path":"/memories/{KEY}.md"}}"#
            ))
        ),
        (
            format!(
                "Error: Cannot rename /memories/dir/a.md to /memories/{KEY}.md: the path looks like it holds a GitHub token; memories must not store secrets"
            ),
            refused
        )
    );
    assert_eq!(
        unchanged_after(
            &mut st,
            Operation::tool(&format!(
                r#"{{"command":"rename","old_path":"/memories/dir","new_path":"/memories/{KEY}"}}"#
            ))
        ),
        (
            format!(
                "Error: Cannot rename /memories/dir to /memories/{KEY}: the path looks like it holds a GitHub token; memories must not store secrets"
            ),
            refused
        )
    );
    // The host's writes: writeFile, memories.create, memories.update with a path.
    assert_eq!(
        unchanged_after(
            &mut st,
            Operation::host_write(&format!("/memories/k/{KEY}"), b"x".to_vec())
        ),
        (
            path_refusal(&format!("Cannot write /memories/k/{KEY}")),
            refused
        )
    );
    assert_eq!(
        unchanged_after(
            &mut st,
            Operation::host(&format!(
                r#"{{"call":"memories.create","path":"/{KEY}/n.md","content":"x"}}"#
            ))
        ),
        (path_refusal(&format!("Cannot write /{KEY}/n.md")), refused)
    );
    let id = st.files["/dir/a.md"].id.clone();
    assert_eq!(
        unchanged_after(
            &mut st,
            Operation::host(&format!(
                r#"{{"call":"memories.update","id":"{id}","path":"/{KEY}.md"}}"#
            ))
        ),
        (
            format!("Cannot rename /dir/a.md to /{KEY}.md: the path looks like it holds a GitHub token; memories must not store secrets"),
            refused
        )
    );
    // A delete of a file named by a key is how it goes away: never refused for its name.
    let mut plain = MemStore::new(Config::default());
    plain.execute(&format!(
        r#"{{"command":"create","path":"/memories/{KEY}.md","file_text":"x"}}"#
    ));
    plain.config.secret_filter = true;
    let deleted = plain.execute(&format!(
        r#"{{"command":"delete","path":"/memories/{KEY}.md"}}"#
    ));
    assert!(!deleted.is_error(), "{:?}", result(&deleted));
    assert!(plain.files.is_empty());
}

#[test]
fn restores_and_imports_check_the_paths_they_bring_back() {
    // A memory named by a key, deleted, then restored once the filter is on.
    let mut st = MemStore::new(Config::default());
    st.execute(&format!(
        r#"{{"command":"create","path":"/memories/{KEY}.md","file_text":"x"}}"#
    ));
    let export = st.run(Operation::host(
        r#"{"call":"export","include_versions":true}"#,
    ));
    let bundle = export.value.clone().unwrap_or_default();
    let version = st.versions.keys().next().cloned().unwrap_or_default();
    st.execute(&format!(
        r#"{{"command":"delete","path":"/memories/{KEY}.md"}}"#
    ));
    st.config.secret_filter = true;
    assert_eq!(
        unchanged_after(
            &mut st,
            Operation::host(&format!(
                r#"{{"call":"versions.restore","id":"{version}"}}"#
            ))
        ),
        (
            path_refusal(&format!("Cannot write /{KEY}.md")),
            Some("POLICY_REFUSED")
        )
    );
    // The same memory in a bundle: refused whole, nothing written.
    let mut fresh = filtered();
    let call = format!(
        r#"{{"call":"import","bundle":{},"on_conflict":"overwrite"}}"#,
        write_value(&Json::parse(&bundle).unwrap_or(Json::Null))
    );
    let (text, code) = unchanged_after(&mut fresh, Operation::host(&call));
    assert_eq!(code, Some("POLICY_REFUSED"), "{text}");
    assert_eq!(text, path_refusal(&format!("Cannot write /{KEY}.md")));
    assert!(fresh.files.is_empty());
}

#[test]
fn the_content_refusal_text_is_unchanged() {
    // The text the model reads for content is the one it always read.
    let mut st = filtered();
    let outcome = st.execute(&format!(
        r#"{{"command":"create","path":"/memories/k.md","file_text":"token {KEY}"}}"#
    ));
    assert_eq!(
        result(&outcome),
        (
            "Error: Cannot write /memories/k.md: the content looks like it holds a GitHub token; memories must not store secrets".to_string(),
            true
        )
    );
}

mod arbitrary_content {
    use super::*;
    use proptest::prelude::*;

    /// Pieces that reach every matcher: prefixes, armour lines, separators, random runs,
    /// NULs and bytes that are not UTF-8.
    fn piece() -> impl Strategy<Value = Vec<u8>> {
        let fixed = prop::sample::select(vec![
            "sk-",
            "sk-ant-",
            "sk-proj-",
            "AKIA",
            "ASIA",
            "AIza",
            "ghp_",
            "github_pat_",
            "glpat-",
            "npm_",
            "hf_",
            "xoxb-",
            "sk_live_",
            "rk_live_",
            "whsec_",
            "SG.",
            "eyJ",
            ".",
            "-",
            "_",
            "/",
            ":",
            "@",
            "://",
            "postgres://",
            "hooks.slack.com/services/",
            "discord.com/api/webhooks/",
            "-----BEGIN PRIVATE KEY-----",
            "-----END",
            "PuTTY-User-Key-File-3:",
            "Private-Lines: 1",
            "\n",
            "\\n",
            " ",
            "Authorization: Basic ",
            "Authorization: Bearer ",
            "AccountKey=",
            "aws_secret_access_key=",
            "%2D",
            "%",
            "EXAMPLE",
            "xxxx",
            "M",
            "N",
            "O",
        ])
        .prop_map(|s| s.as_bytes().to_vec());
        prop_oneof![
            fixed,
            "[A-Za-z0-9+/=_-]{1,60}".prop_map(String::into_bytes),
            prop::collection::vec(any::<u8>(), 1..8),
            Just(vec![0u8]),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Whatever the content, the filter answers without a panic: the write is stored, or
        /// refused with the one text and nothing written.
        #[test]
        fn any_content_is_stored_or_refused_with_the_one_text(
            pieces in prop::collection::vec(piece(), 0..24),
        ) {
            let bytes: Vec<u8> = pieces.concat();
            let mut store = filtered();
            let outcome = store.run(Operation::host_write("/memories/x.md", bytes));
            let (text, is_error) = result(&outcome);
            if is_error {
                prop_assert!(
                    text.starts_with("Cannot write /memories/x.md: the content looks like it holds ")
                        && text.ends_with("; memories must not store secrets"),
                    "{}", text
                );
                prop_assert!(store.files.is_empty() && store.versions.is_empty());
            }
        }

        /// The same for a path: created, refused by the filter with the path text, or refused
        /// by the path rules.
        #[test]
        fn any_name_is_created_or_refused_with_a_known_text(
            pieces in prop::collection::vec(piece(), 1..10),
        ) {
            let name = String::from_utf8_lossy(&pieces.concat()).into_owned();
            let path = format!("/memories/{name}");
            let mut store = filtered();
            let outcome = store.execute(&format!(
                r#"{{"command":"create","path":{},"file_text":"x"}}"#,
                q(&path)
            ));
            let (text, is_error) = result(&outcome);
            if is_error {
                prop_assert!(store.files.is_empty());
                prop_assert!(
                    text.contains(": the path looks like it holds ")
                        || text.starts_with("Error: Invalid path")
                        || text.starts_with("Error: Path ")
                        || text.starts_with("Error: Cannot create"),
                    "{}", text
                );
            }
        }
    }
}
