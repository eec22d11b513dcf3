//! Store names in any script, strict RFC 3339 times, and host-call flags checked like tool
//! parameters (docs/TOOL.md#stores-and-slugs, docs/TOOL.md#host-api-messages).
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{q, result};
use memory_tool_wasm::{plan_mounts, slug, Json, MemMounts, MemStore, MemoryPath, Session};
use memory_tool_wasm::{Config, Operation};
use proptest::prelude::*;
use unicode_normalization::{is_nfc, UnicodeNormalization};

/// The code (or `ok`) and the text of a host call's outcome.
fn call(store: &mut MemStore, json: &str) -> (String, String) {
    let outcome = store.run(Operation::host(json));
    let code = outcome
        .error
        .map(|c| c.as_str().to_string())
        .unwrap_or_else(|| "ok".into());
    let text = match (&outcome.value, result(&outcome)) {
        (Some(value), _) => value.clone(),
        (None, (text, _)) => text,
    };
    (code, text)
}

// --- Store names and slugs -------------------------------------------------------------------

#[test]
fn slugs_keep_letters_and_digits_of_every_script() {
    let cases = [
        ("Café Ideas", "café-ideas"),
        ("Cafe\u{301} Ideas", "café-ideas"),
        ("メモ", "メモ"),
        ("Заметки", "заметки"),
        ("笔记 2026", "笔记-2026"),
        ("Demo Memory", "demo-memory"),
        ("  Team -- Handbook!! 2026 ", "team-handbook-2026"),
        ("--Q3 / Q4 Plans--", "q3-q4-plans"),
        ("Ünïcode Notes", "ünïcode-notes"),
        ("ΟΔΟΣ", "οδοσ"),
        ("नमस्ते दुनिया", "नमस्ते-दुनिया"),
        ("مرحبا بالعالم", "مرحبا-بالعالم"),
        ("٣ ملاحظات", "٣-ملاحظات"),
        ("한국어 메모", "한국어-메모"),
        ("Ⅻ Chapters", "ⅻ-chapters"),
        ("q\u{301}!", "q\u{301}"),
        ("!\u{301}a", "a"),
        ("a/b\\c", "a-b-c"),
        ("..", ""),
        ("a\u{200b}b\u{202e}c\u{0}d", "a-b-c-d"),
        ("***", ""),
        ("", ""),
    ];
    for (name, want) in cases {
        assert_eq!(slug(name), want, "{name:?}");
    }
}

#[test]
fn a_slug_is_a_valid_folder_under_memories() {
    for name in [
        "Café Ideas",
        "メモ",
        "Заметки",
        "笔记 2026",
        "नमस्ते दुनिया",
        "ΟΔΟΣ",
    ] {
        let slug = slug(name);
        let path = format!("/memories/{slug}/x");
        let parsed = MemoryPath::parse(&path, false).map(|p| p.key().to_string());
        assert_eq!(parsed, Ok(format!("/{slug}/x")), "{name:?}");
    }
}

#[test]
fn a_slug_is_at_most_255_bytes_and_cut_at_a_character() {
    // 255 characters of 4 bytes each would make a 1,020-byte folder name: no file would fit
    // under it in a 1,024-byte path.
    let name = "𠀀".repeat(255);
    let slug = slug(&name);
    assert_eq!(slug, "𠀀".repeat(63));
    assert!(MemoryPath::parse(&format!("/memories/{slug}/notes.md"), false).is_ok());
    // A cut never leaves a trailing `-`.
    let name = format!("{} b", "a".repeat(254));
    assert_eq!(self::slug(&name), "a".repeat(254));
}

#[test]
fn store_names_in_any_script_are_accepted() {
    let mut registry = MemStore::new(Config::default());
    for (name, want) in [
        ("メモ", "メモ"),
        ("Заметки", "заметки"),
        ("笔记 2026", "笔记-2026"),
        ("Café Ideas", "café-ideas"),
    ] {
        let (code, text) = call(
            &mut registry,
            &format!(r#"{{"call":"stores.create","name":{}}}"#, q(name)),
        );
        assert_eq!(code, "ok", "{name}: {text}");
        let record = Json::parse(&text).unwrap_or(Json::Null);
        assert_eq!(record.get("slug").and_then(Json::as_str), Some(want));
        assert_eq!(record.get("name").and_then(Json::as_str), Some(name));
    }
}

#[test]
fn a_name_without_a_letter_or_digit_is_refused_in_words_for_every_script() {
    let mut registry = MemStore::new(Config::default());
    let message = "a store's name is 1 to 255 characters and holds a letter or digit of any script (it names the store's folder)";
    for name in ["***", " - ", "\u{301}", "😀"] {
        assert_eq!(
            call(
                &mut registry,
                &format!(r#"{{"call":"stores.create","name":{}}}"#, q(name))
            ),
            ("INVALID_INPUT".to_string(), message.to_string()),
            "{name:?}"
        );
    }
    let long = "メ".repeat(256);
    assert_eq!(
        call(
            &mut registry,
            &format!(r#"{{"call":"stores.create","name":{}}}"#, q(&long))
        ),
        ("INVALID_INPUT".to_string(), message.to_string())
    );
}

#[test]
fn stores_named_in_other_scripts_mount_and_route() {
    let store = |id: &str, name: &str| {
        format!(
            r#"{{"store":{{"type":"memory_store","id":"{id}","name":{},"description":"","created_at":"2026-11-29T00:00:00.000Z","updated_at":"2026-11-29T00:00:00.000Z","archived_at":null,"limits":{{}}}},"access":"read_write"}}"#,
            q(name)
        )
    };
    let plan = plan_mounts(&format!(
        r#"{{"mounts":[{},{}],"config":{{}}}}"#,
        store("memstore_a", "メモ"),
        store("memstore_b", "Заметки")
    ))
    .map_err(|e| e.message);
    let plan = plan.map(|p| Json::parse(&p).unwrap_or(Json::Null));
    let engine = plan
        .as_ref()
        .ok()
        .and_then(|p| p.get("engine"))
        .map(memory_tool_wasm::write_value)
        .unwrap_or_default();
    let session = Session::from_json(&engine);
    assert!(session.is_ok(), "{plan:?}: {session:?}");
    let mut mounts = MemMounts::new(session.unwrap_or_else(|_| Session::single(Config::default())));
    let created =
        mounts.execute(r#"{"command":"create","path":"/memories/メモ/a.md","file_text":"hi"}"#);
    assert_eq!(
        result(&created),
        (
            "File created successfully at: /memories/メモ/a.md".into(),
            false
        )
    );
    let listed = mounts.execute(r#"{"command":"view","path":"/memories"}"#);
    assert_eq!(
        result(&listed).0,
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n2B\t/memories\n0B\t/memories/заметки/\n2B\t/memories/メモ/\n2B\t/memories/メモ/a.md"
    );
}

#[test]
fn a_configured_mount_slug_must_already_be_a_slug() {
    for (slug, ok) in [
        ("メモ", true),
        ("café-ideas", true),
        ("Café", false),
        ("cafe\u{301}", false),
        ("a--b", false),
        ("-a", false),
    ] {
        let config = format!(r#"{{"mounts":[{{"slug":{}}},{{"slug":"b"}}]}}"#, q(slug));
        assert_eq!(Session::from_json(&config).is_ok(), ok, "{slug:?}");
    }
}

/// Pieces of names across scripts, marks, separators and characters the path rules refuse.
fn name_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "a",
            "Z",
            "0",
            "9",
            " ",
            "-",
            "--",
            "/",
            "\\",
            ".",
            "..",
            "%2e",
            "_",
            "!",
            "é",
            "e\u{301}",
            "\u{301}",
            "\u{5b0}",
            "\u{93f}",
            "\u{94d}",
            "İ",
            "Σ",
            "ς",
            "ß",
            "ẞ",
            "ǅ",
            "ﬃ",
            "Å",
            "\u{212b}",
            "\u{958}",
            "\u{fb2c}",
            "\u{1109a}",
            "ᄀ",
            "ᅡ",
            "ᆨ",
            "가",
            "メ",
            "モ",
            "Ж",
            "ж",
            "ω",
            "ά",
            "\u{345}",
            "٣",
            "Ⅻ",
            "𝔘",
            "😀",
            "\u{0}",
            "\u{7f}",
            "\u{85}",
            "\u{200b}",
            "\u{200d}",
            "\u{202e}",
            "\u{2028}",
            "\u{feff}",
            "\u{e0041}",
            "\u{fe0f}",
            "\u{ad}",
        ])
        .prop_map(str::to_string),
        any::<char>().prop_map(String::from),
    ]
}

fn name() -> impl Strategy<Value = String> {
    prop::collection::vec(name_piece(), 0..12).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn slugs_are_idempotent_nfc_and_valid_folders(name in name()) {
        let once = slug(&name);
        prop_assert_eq!(slug(&once), once.clone());
        prop_assert!(is_nfc(&once), "{:?} → {:?}", name, once);
        prop_assert!(once.len() <= 255);
        prop_assert!(!once.starts_with('-') && !once.ends_with('-') && !once.contains("--"));
        // Canonically equivalent names share a slug.
        prop_assert_eq!(slug(&name.nfd().collect::<String>()), once.clone());
        if !once.is_empty() {
            let path = format!("/memories/{}/x", once);
            let parsed = MemoryPath::parse(&path, false).map(|p| p.key().to_string());
            prop_assert_eq!(parsed, Ok(format!("/{}/x", once)));
        }
    }

    #[test]
    fn long_names_give_slugs_that_fit(name in prop::collection::vec(name_piece(), 200..400)) {
        let name: String = name.concat().chars().take(255).collect();
        let once = slug(&name);
        prop_assert!(once.len() <= 255);
        prop_assert_eq!(slug(&once), once.clone());
        if !once.is_empty() {
            let path = format!("/memories/{}/notes.md", once);
            prop_assert!(MemoryPath::parse(&path, false).is_ok(), "{}", path);
        }
    }
}

// --- RFC 3339 times --------------------------------------------------------------------------

/// What `versions.list` says of a `created_at_gte` time: `ok` or the error text.
fn time_check(registry: &mut MemStore, time: &str) -> String {
    let (code, text) = call(
        registry,
        &format!(r#"{{"call":"versions.list","created_at_gte":{}}}"#, q(time)),
    );
    if code == "ok" {
        code
    } else {
        format!("{code}: {text}")
    }
}

#[test]
fn host_times_are_strict_rfc_3339() {
    let mut store = MemStore::new(Config::default());
    let refused =
        "INVALID_INPUT: `created_at_gte` must be an RFC 3339 time, like 2026-11-29T21:41:14Z";
    for good in [
        "2026-11-29T21:41:14Z",
        "2026-11-29T21:41:14.123Z",
        "2026-11-29t21:41:14z",
        "2026-11-29T21:41:14+01:00",
        "2024-02-29T00:00:00Z",
        "2000-02-29T00:00:00Z",
        "2026-12-31T23:59:60Z",
    ] {
        assert_eq!(time_check(&mut store, good), "ok", "{good}");
    }
    for bad in [
        "2026-02-31T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2100-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-1-5T1:2:3Z",
        "+2026-11-29T21:41:14Z",
        "2026-11-29T21:41:14",
        "2026-11-29 21:41:14Z",
        "2026-11-29T24:00:00Z",
        "2026-11-29T21:41:14.Z",
        "2026-11-29T21:41:14+24:00",
        "2026-11-29T12:00:60Z",
    ] {
        assert_eq!(time_check(&mut store, bad), refused, "{bad}");
    }
}

#[test]
fn bundle_times_are_strict_rfc_3339() {
    let bundle = |created: &str| {
        format!(
            r#"{{"call":"import","bundle":{{"format":"memory-tool-wasm/bundle","format_version":1,"memories":[{{"id":"mem_aaaaaaaaaaaaaaaaaaaaaaaa","path":"/a.md","content":"x","content_sha256":"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881","content_size_bytes":1,"created_at":{},"updated_at":"2026-11-29T00:00:00.000Z"}}]}}}}"#,
            q(created)
        )
    };
    let mut store = MemStore::new(Config::default());
    assert_eq!(
        call(&mut store, &bundle("2026-02-31T00:00:00.000Z")),
        (
            "INVALID_BUNDLE".to_string(),
            "memory 0 (/a.md): `created_at` is not an RFC 3339 time".to_string()
        )
    );
    assert_eq!(
        call(&mut store, &bundle("2026-02-28T00:00:00.000Z")).0,
        "ok"
    );
}

// --- Host-call flags and arguments -----------------------------------------------------------

#[test]
fn host_call_flags_must_be_booleans() {
    let mut store = MemStore::new(Config::default());
    let cases = [
        (
            r#"{"call":"export","include_versions":"yes"}"#,
            "`include_versions` must be a boolean",
        ),
        (
            r#"{"call":"export","include_versions":1}"#,
            "`include_versions` must be a boolean",
        ),
        (
            r#"{"call":"stores.list","include_archived":1}"#,
            "`include_archived` must be a boolean",
        ),
        (
            r#"{"call":"stores.list","include_archived":"true"}"#,
            "`include_archived` must be a boolean",
        ),
    ];
    for (json, message) in cases {
        assert_eq!(
            call(&mut store, json),
            ("INVALID_INPUT".to_string(), message.to_string()),
            "{json}"
        );
    }
    for json in [
        r#"{"call":"export","include_versions":true}"#,
        r#"{"call":"export","include_versions":false}"#,
        r#"{"call":"export","include_versions":null}"#,
        r#"{"call":"export"}"#,
        r#"{"call":"stores.list","include_archived":true}"#,
        r#"{"call":"stores.list"}"#,
    ] {
        assert_eq!(call(&mut store, json).0, "ok", "{json}");
    }
}

#[test]
fn other_host_call_arguments_are_checked_not_coerced() {
    let mut store = MemStore::new(Config::default());
    let cases = [
        (
            r#"{"call":"memories.update","id":"mem_x","content":"x","precondition":{"type":"content_sha256","content_sha256":5}}"#,
            "`precondition.content_sha256` must be a string",
        ),
        (
            r#"{"call":"memories.update","id":"mem_x","content":"x","precondition":"abc"}"#,
            "`precondition` must be an object",
        ),
        (
            r#"{"call":"stores.create","name":"x","limits":5}"#,
            "`limits` must be an object",
        ),
        (
            r#"{"call":"stores.create","name":"x","limits":[1]}"#,
            "`limits` must be an object",
        ),
    ];
    for (json, message) in cases {
        assert_eq!(
            call(&mut store, json),
            ("INVALID_INPUT".to_string(), message.to_string()),
            "{json}"
        );
    }
}
