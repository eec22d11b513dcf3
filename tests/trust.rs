//! Imports trust nothing a bundle says about its history (docs/TOOL.md#bundles): every
//! version's content is there or explicitly redacted, a redacted one carries none, each
//! memory's head holds its content, and version ids are well formed and not from the future.
//! A refused bundle writes nothing.

use memory_tool_wasm::{write_value, Config, Json, MemStore, Operation};

/// A store with one memory of two versions, and its export with history (as JSON).
fn exported() -> (MemStore, Json) {
    let mut store = MemStore::new(Config::default());
    store.execute(r#"{"command":"create","path":"/memories/a.md","file_text":"one"}"#);
    store.execute(
        r#"{"command":"str_replace","path":"/memories/a.md","old_str":"one","new_str":"two"}"#,
    );
    let outcome = store.run(Operation::host(
        r#"{"call":"export","include_versions":true}"#,
    ));
    let bundle = Json::parse(outcome.value.as_deref().unwrap_or("")).expect("an export is JSON");
    (store, bundle)
}

fn versions(bundle: &mut Json) -> &mut Vec<Json> {
    match bundle {
        Json::Object(members) => match members.iter_mut().find(|(k, _)| k == "versions") {
            Some((_, Json::Array(items))) => items,
            _ => panic!("the export has versions"),
        },
        _ => panic!("a bundle is an object"),
    }
}

fn set(item: &mut Json, key: &str, value: Option<Json>) {
    if let Json::Object(members) = item {
        members.retain(|(k, _)| k != key);
        if let Some(value) = value {
            members.push((key.to_string(), value));
        }
    }
}

/// Imports `bundle` into a fresh store; the error's code and text, and the store after.
fn import(bundle: &Json) -> (Option<&'static str>, String, MemStore) {
    let mut store = MemStore::new(Config::default());
    let call = format!(
        r#"{{"call":"import","bundle":{},"on_conflict":"overwrite"}}"#,
        write_value(bundle)
    );
    let outcome = store.run(Operation::host(&call));
    (
        outcome.error.map(|c| c.as_str()),
        outcome.text_content().to_string(),
        store,
    )
}

#[test]
fn the_unchanged_export_imports() {
    let (_, bundle) = exported();
    let (code, text, store) = import(&bundle);
    assert_eq!(code, None, "{text}");
    assert_eq!(store.text_at("/a.md"), Some("two"));
    assert_eq!(store.versions.len(), 2);
}

#[test]
fn a_head_with_a_hash_but_no_content_is_refused() {
    let (_, mut bundle) = exported();
    let head = versions(&mut bundle).last_mut().expect("a head");
    set(head, "content", None);
    let (code, text, store) = import(&bundle);
    assert_eq!(code, Some("INVALID_BUNDLE"), "{text}");
    assert!(
        text.contains("it has no content and is not redacted"),
        "{text}"
    );
    assert!(store.files.is_empty() && store.versions.is_empty());
}

#[test]
fn a_redacted_version_with_content_is_refused() {
    let (_, mut bundle) = exported();
    let head = versions(&mut bundle).last_mut().expect("a head");
    set(
        head,
        "redacted_at",
        Some(Json::string("2026-01-01T00:00:00Z")),
    );
    let (code, text, store) = import(&bundle);
    assert_eq!(code, Some("INVALID_BUNDLE"), "{text}");
    assert!(
        text.contains("it is redacted but still carries content"),
        "{text}"
    );
    assert!(store.files.is_empty() && store.versions.is_empty());
}

#[test]
fn version_ids_from_the_future_or_of_any_other_shape_are_refused() {
    // Around the year 2200; the largest stamp (which wrapped); `~`; a short id.
    let y2200 = {
        let ms: u64 = 7_258_118_400_000;
        let stamp = ms << 20;
        let digits: Vec<u8> = (0..13)
            .rev()
            .map(|i| b"0123456789abcdefghjkmnpqrstvwxyz"[((stamp >> (5 * i)) & 31) as usize])
            .collect();
        format!(
            "memver_{}abcdefgh",
            String::from_utf8(digits).unwrap_or_default()
        )
    };
    for id in [
        y2200.as_str(),
        "memver_zzzzzzzzzzzzzzzzzzzzz",
        "memver_~",
        "memver_0",
    ] {
        let (_, mut bundle) = exported();
        let first = versions(&mut bundle).first_mut().expect("a version");
        set(first, "id", Some(Json::string(id)));
        let (code, text, store) = import(&bundle);
        assert_eq!(code, Some("INVALID_BUNDLE"), "{id}: {text}");
        assert!(store.files.is_empty() && store.versions.is_empty(), "{id}");
    }
}
