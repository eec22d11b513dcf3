//! docs/TOOL.md#memory-stores and docs/TOOL.md#versions natively: memory records, versions per change, the host memory API with
//! preconditions, history (list, get, redact, restore, retention), export and import.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::q;
use memory_tool_wasm::Change;
use memory_tool_wasm::Json;
use memory_tool_wasm::{Config, MemStore, Operation, Outcome};

fn store() -> MemStore {
    MemStore::new(Config::default())
}

/// Runs a host call; returns its value (or panics with the error).
fn call(store: &mut MemStore, json: &str) -> Json {
    let outcome = host(store, json);
    assert!(!outcome.is_error(), "{json}: {:?}", outcome.content);
    Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null)
}

fn host(store: &mut MemStore, json: &str) -> Outcome {
    let before = store.actor.clone();
    store.actor = r#"{"type":"api"}"#.into();
    let outcome = store.run(Operation::host(json));
    store.actor = before;
    outcome
}

/// The error code and detail of a failing host call.
fn refused(store: &mut MemStore, json: &str) -> (String, String, Json) {
    let (files, versions) = (store.files.clone(), store.versions.clone());
    let outcome = host(store, json);
    assert!(outcome.is_error(), "{json} should fail");
    assert_eq!(store.files, files, "a refused call changed files");
    assert_eq!(store.versions, versions, "a refused call changed versions");
    let code = outcome
        .error
        .map(|c| c.as_str().to_string())
        .unwrap_or_default();
    let detail = Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null);
    (code, outcome.text_content().to_string(), detail)
}

fn s<'j>(json: &'j Json, key: &str) -> &'j str {
    json.get(key).and_then(Json::as_str).unwrap_or("<missing>")
}

fn tool(store: &mut MemStore, input: &str) {
    let outcome = store.execute(input);
    assert!(!outcome.is_error(), "{input}: {:?}", outcome.content);
}

#[test]
fn ids_survive_renames_and_every_change_is_a_version() {
    let mut st = store();
    st.actor = r#"{"type":"tool","tool_use_id":"toolu_1"}"#.into();
    tool(
        &mut st,
        r#"{"command":"create","path":"/memories/a/x.md","file_text":"one"}"#,
    );
    let id = st.files["/a/x.md"].id.clone();
    assert!(id.starts_with("mem_"));
    tool(
        &mut st,
        r#"{"command":"str_replace","path":"/memories/a/x.md","old_str":"one","new_str":"two"}"#,
    );
    tool(
        &mut st,
        r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/b"}"#,
    );
    assert_eq!(
        st.files["/b/x.md"].id, id,
        "the id is kept across a directory rename"
    );
    call(
        &mut st,
        &format!(r#"{{"call":"memories.update","id":"{id}","path":"/c.md"}}"#),
    );
    assert_eq!(st.files["/c.md"].id, id, "and across a host rename");
    tool(&mut st, r#"{"command":"delete","path":"/memories/c.md"}"#);

    let history: Vec<_> = st.versions.values().collect();
    let ops: Vec<(Change, Option<&str>)> = history
        .iter()
        .map(|v| (v.operation, v.path.as_deref()))
        .collect();
    assert_eq!(
        ops,
        [
            (Change::Created, Some("/a/x.md")),
            (Change::Modified, Some("/a/x.md")),
            (Change::Modified, Some("/b/x.md")),
            (Change::Modified, Some("/c.md")),
            (Change::Deleted, Some("/c.md")),
        ]
    );
    assert!(history.iter().all(|v| v.memory_id == id));
    assert_eq!(
        history[0].created_by,
        r#"{"type":"tool","tool_use_id":"toolu_1"}"#
    );
    assert_eq!(history[3].created_by, r#"{"type":"api"}"#);
    // The rename shares the bytes of the edit before it: no copy.
    assert_eq!(history[2].content, history[1].content);
    assert_eq!(history[4].content, None);
    assert_eq!(history[4].sha256, None);
    assert_eq!(
        st.contents.len(),
        2,
        "bytes outlive the memory, for its history"
    );
}

#[test]
fn directory_changes_write_one_version_per_memory_and_no_change_writes_none() {
    let mut st = store();
    for name in ["a", "b", "c"] {
        tool(
            &mut st,
            &format!(r#"{{"command":"create","path":"/memories/d/{name}","file_text":"{name}"}}"#),
        );
    }
    let before = st.versions.len();
    tool(
        &mut st,
        r#"{"command":"rename","old_path":"/memories/d","new_path":"/memories/e"}"#,
    );
    assert_eq!(st.versions.len(), before + 3);
    tool(&mut st, r#"{"command":"delete","path":"/memories/e"}"#);
    assert_eq!(st.versions.len(), before + 6);
    tool(
        &mut st,
        r#"{"command":"create","path":"/memories/same","file_text":"x"}"#,
    );
    let count = st.versions.len();
    tool(
        &mut st,
        r#"{"command":"str_replace","path":"/memories/same","old_str":"x","new_str":"x"}"#,
    );
    assert_eq!(
        st.versions.len(),
        count,
        "an edit that changes nothing adds no version"
    );
}

#[test]
fn host_memory_api() {
    let mut st = store();
    let created = call(
        &mut st,
        r#"{"call":"memories.create","path":"/notes/todo.md","content":"buy milk"}"#,
    );
    let id = s(&created, "id").to_string();
    assert_eq!(s(&created, "type"), "memory");
    assert_eq!(s(&created, "content"), "buy milk");
    assert_eq!(
        s(&created, "content_sha256"),
        memory_tool_wasm::sha256_hex(b"buy milk")
    );
    assert_eq!(
        created.get("content_size_bytes").and_then(Json::as_integer),
        Some(8)
    );
    assert!(s(&created, "memory_version_id").starts_with("memver_"));
    assert!(s(&created, "created_at").ends_with('Z'));

    let got = call(
        &mut st,
        &format!(r#"{{"call":"memories.get","id":"{id}"}}"#),
    );
    assert_eq!(s(&got, "path"), "/notes/todo.md");
    let by_path = call(
        &mut st,
        r#"{"call":"memories.getByPath","path":"/notes/todo.md"}"#,
    );
    assert_eq!(s(&by_path, "id"), id);
    // The tool sees the same file under /memories.
    let view = st.execute(r#"{"command":"view","path":"/memories/notes/todo.md"}"#);
    assert_eq!(
        view.text_content(),
        "Here's the content of /memories/notes/todo.md with line numbers:\n     1\tbuy milk"
    );

    // Never overwrites; conflicts name what is in the way.
    let (code, _, detail) = refused(
        &mut st,
        r#"{"call":"memories.create","path":"/notes/todo.md","content":"x"}"#,
    );
    assert_eq!(
        (code.as_str(), s(&detail, "conflicting_memory_id")),
        ("PATH_CONFLICT", id.as_str())
    );
    let (code, _, detail) = refused(
        &mut st,
        r#"{"call":"memories.create","path":"/notes","content":"x"}"#,
    );
    assert_eq!(
        (code.as_str(), s(&detail, "conflicting_path")),
        ("PATH_CONFLICT", "/notes")
    );
    let (code, _, detail) = refused(
        &mut st,
        r#"{"call":"memories.create","path":"/notes/todo.md/x","content":"x"}"#,
    );
    assert_eq!(
        (code.as_str(), s(&detail, "conflicting_memory_id")),
        ("PATH_CONFLICT", id.as_str())
    );

    // Preconditions.
    let sha = s(&created, "content_sha256").to_string();
    let wrong = "0".repeat(64);
    let (code, message, detail) = refused(
        &mut st,
        &format!(
            r#"{{"call":"memories.update","id":"{id}","content":"new","precondition":{{"type":"content_sha256","content_sha256":"{wrong}"}}}}"#
        ),
    );
    assert_eq!(code, "PRECONDITION_FAILED");
    assert_eq!(s(&detail, "current_content_sha256"), sha);
    assert!(message.contains(&sha), "{message}");
    let updated = call(
        &mut st,
        &format!(
            r#"{{"call":"memories.update","id":"{id}","content":"new","precondition":{{"type":"content_sha256","content_sha256":"{sha}"}}}}"#
        ),
    );
    assert_eq!(s(&updated, "content"), "new");
    // A retry of the same update finds the requested state already there: success, no version.
    let versions = st.versions.len();
    let again = call(
        &mut st,
        &format!(
            r#"{{"call":"memories.update","id":"{id}","content":"new","precondition":{{"type":"content_sha256","content_sha256":"{sha}"}}}}"#
        ),
    );
    assert_eq!(s(&again, "content"), "new");
    assert_eq!(st.versions.len(), versions);

    // Path updates obey the placement rules; the precondition refers to the content.
    call(
        &mut st,
        r#"{"call":"memories.create","path":"/other.md","content":"o"}"#,
    );
    let (code, _, _) = refused(
        &mut st,
        &format!(r#"{{"call":"memories.update","id":"{id}","path":"/other.md"}}"#),
    );
    assert_eq!(code, "PATH_CONFLICT");
    let moved = call(
        &mut st,
        &format!(r#"{{"call":"memories.update","id":"{id}","path":"/moved/todo.md"}}"#),
    );
    assert_eq!(
        (s(&moved, "path"), s(&moved, "content")),
        ("/moved/todo.md", "new")
    );

    // Delete with an expected hash.
    let new_sha = memory_tool_wasm::sha256_hex(b"new");
    let (code, _, _) = refused(
        &mut st,
        &format!(r#"{{"call":"memories.delete","id":"{id}","expected_content_sha256":"{sha}"}}"#),
    );
    assert_eq!(code, "PRECONDITION_FAILED");
    let deleted = call(
        &mut st,
        &format!(
            r#"{{"call":"memories.delete","id":"{id}","expected_content_sha256":"{new_sha}"}}"#
        ),
    );
    assert_eq!(
        (s(&deleted, "type"), s(&deleted, "id")),
        ("memory_deleted", id.as_str())
    );
    let (code, _, _) = refused(
        &mut st,
        &format!(r#"{{"call":"memories.get","id":"{id}"}}"#),
    );
    assert_eq!(code, "NOT_FOUND");

    // Bad input.
    for (json, want) in [
        (
            r#"{"call":"memories.create","path":"notes/x","content":"x"}"#,
            "INVALID_PATH",
        ),
        (
            r#"{"call":"memories.create","path":"/a/../b","content":"x"}"#,
            "INVALID_PATH",
        ),
        (
            r#"{"call":"memories.create","path":"/a/","content":"x"}"#,
            "INVALID_PATH",
        ),
        (r#"{"call":"memories.create","path":"/a"}"#, "INVALID_INPUT"),
        (
            r#"{"call":"memories.update","id":"mem_x"}"#,
            "INVALID_INPUT",
        ),
        (
            r#"{"call":"memories.update","id":"mem_x","content":"a","precondition":{"type":"etag"}}"#,
            "INVALID_INPUT",
        ),
        (
            r#"{"call":"memories.list","path_prefix":"/notes"}"#,
            "INVALID_PATH",
        ),
        (r#"{"call":"memories.list","depth":2}"#, "INVALID_INPUT"),
        (r#"{"call":"nope"}"#, "INVALID_INPUT"),
    ] {
        assert_eq!(refused(&mut st, json).0, want, "{json}");
    }
}

#[test]
fn listing_by_prefix_and_depth() {
    let mut st = store();
    for path in [
        "/notes/todo.md",
        "/notes/sub/a.md",
        "/notes/sub/deep/b.md",
        "/notes-archive/todo.md",
        "/z.md",
    ] {
        call(
            &mut st,
            &format!(
                r#"{{"call":"memories.create","path":{},"content":"x"}}"#,
                q(path)
            ),
        );
    }
    let paths = |value: &Json| -> Vec<String> {
        match value {
            Json::Array(items) => items
                .iter()
                .map(|i| format!("{} {}", s(i, "type"), s(i, "path")))
                .collect(),
            _ => vec![],
        }
    };
    let all = call(
        &mut st,
        r#"{"call":"memories.list","path_prefix":"/notes/"}"#,
    );
    assert_eq!(
        paths(&all),
        [
            "memory /notes/sub/a.md",
            "memory /notes/sub/deep/b.md",
            "memory /notes/todo.md"
        ]
    );
    let direct = call(
        &mut st,
        r#"{"call":"memories.list","path_prefix":"/notes/","depth":1}"#,
    );
    assert_eq!(
        paths(&direct),
        ["memory_prefix /notes/sub/", "memory /notes/todo.md"]
    );
    let root = call(&mut st, r#"{"call":"memories.list","depth":1}"#);
    assert_eq!(
        paths(&root),
        [
            "memory_prefix /notes-archive/",
            "memory_prefix /notes/",
            "memory /z.md"
        ]
    );
}

#[test]
fn history_list_get_redact_restore() {
    let mut st = store();
    let created = call(
        &mut st,
        r#"{"call":"memories.create","path":"/s.md","content":"password: hunter2"}"#,
    );
    let id = s(&created, "id").to_string();
    let v1 = s(&created, "memory_version_id").to_string();
    let v2 = {
        let m = call(
            &mut st,
            &format!(r#"{{"call":"memories.update","id":"{id}","content":"clean"}}"#),
        );
        s(&m, "memory_version_id").to_string()
    };
    call(
        &mut st,
        r#"{"call":"memories.create","path":"/other.md","content":"o"}"#,
    );

    let listed = call(
        &mut st,
        &format!(r#"{{"call":"versions.list","memory_id":"{id}"}}"#),
    );
    let ids: Vec<&str> = match listed.get("data") {
        Some(Json::Array(items)) => items.iter().map(|i| s(i, "id")).collect(),
        _ => vec![],
    };
    assert_eq!(ids, [v2.as_str(), v1.as_str()], "newest first");
    let all = call(&mut st, r#"{"call":"versions.list","limit":2}"#);
    let next = s(&all, "next_page").to_string();
    let rest = call(
        &mut st,
        &format!(r#"{{"call":"versions.list","limit":2,"page":"{next}"}}"#),
    );
    match (all.get("data"), rest.get("data")) {
        (Some(Json::Array(first)), Some(Json::Array(second))) => {
            assert_eq!(first.len(), 2);
            assert_eq!(second.len(), 1);
            assert_eq!(s(&second[0], "id"), v1);
        }
        other => panic!("{other:?}"),
    }
    let modified = call(
        &mut st,
        r#"{"call":"versions.list","operation":"modified"}"#,
    );
    assert!(matches!(modified.get("data"), Some(Json::Array(items)) if items.len() == 1));
    let by_prefix = call(
        &mut st,
        r#"{"call":"versions.list","path_prefix":"/nothing/"}"#,
    );
    assert!(matches!(by_prefix.get("data"), Some(Json::Array(items)) if items.is_empty()));

    let old = call(
        &mut st,
        &format!(r#"{{"call":"versions.get","id":"{v1}"}}"#),
    );
    assert_eq!(
        (s(&old, "type"), s(&old, "content")),
        ("memory_version", "password: hunter2")
    );

    // The head of a live memory cannot be redacted.
    let (code, _, detail) = refused(
        &mut st,
        &format!(r#"{{"call":"versions.redact","id":"{v2}"}}"#),
    );
    assert_eq!(
        (code.as_str(), s(&detail, "memory_id")),
        ("REDACT_HEAD", id.as_str())
    );
    let redacted = call(
        &mut st,
        &format!(r#"{{"call":"versions.redact","id":"{v1}"}}"#),
    );
    assert!(s(&redacted, "redacted_at").ends_with('Z'));
    assert_eq!(redacted.get("path"), Some(&Json::Null));
    assert_eq!(redacted.get("content_sha256"), Some(&Json::Null));
    assert!(
        !st.contents.contains_key(&v1),
        "the secret's bytes are gone"
    );
    let fetched = call(
        &mut st,
        &format!(r#"{{"call":"versions.get","id":"{v1}"}}"#),
    );
    assert!(fetched.get("content").is_none() || fetched.get("content") == Some(&Json::Null));
    let (code, _, _) = refused(
        &mut st,
        &format!(r#"{{"call":"versions.restore","id":"{v1}"}}"#),
    );
    assert_eq!(code, "REDACTED");

    // Restore over a live memory, then of a deleted one to a free path, then to a taken one.
    call(
        &mut st,
        &format!(r#"{{"call":"memories.update","id":"{id}","content":"third"}}"#),
    );
    let restored = call(
        &mut st,
        &format!(r#"{{"call":"versions.restore","id":"{v2}"}}"#),
    );
    assert_eq!(s(&restored, "id"), id);
    assert_eq!(st.text_at("/s.md"), Some("clean"));
    call(
        &mut st,
        &format!(r#"{{"call":"memories.delete","id":"{id}"}}"#),
    );
    call(
        &mut st,
        &format!(r#"{{"call":"versions.restore","id":"{v2}"}}"#),
    );
    assert_eq!(
        st.files["/s.md"].id, id,
        "a deleted memory comes back with its id"
    );
    call(
        &mut st,
        &format!(r#"{{"call":"memories.delete","id":"{id}"}}"#),
    );
    call(
        &mut st,
        r#"{"call":"memories.create","path":"/s.md","content":"squatter"}"#,
    );
    let (code, _, _) = refused(
        &mut st,
        &format!(r#"{{"call":"versions.restore","id":"{v2}"}}"#),
    );
    assert_eq!(code, "PATH_CONFLICT");
    let deletion = st
        .versions
        .values()
        .rev()
        .find(|v| v.operation == Change::Deleted)
        .map(|v| v.id.clone())
        .unwrap_or_default();
    let (code, _, _) = refused(
        &mut st,
        &format!(r#"{{"call":"versions.restore","id":"{deletion}"}}"#),
    );
    assert_eq!(code, "INVALID_INPUT");
}

#[test]
fn redaction_keeps_bytes_other_versions_share() {
    let mut st = store();
    tool(
        &mut st,
        r#"{"command":"create","path":"/memories/a","file_text":"shared"}"#,
    );
    let first = st.files["/a"].version.clone().unwrap_or_default();
    tool(
        &mut st,
        r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/b"}"#,
    );
    call(
        &mut st,
        &format!(r#"{{"call":"versions.redact","id":"{first}"}}"#),
    );
    assert_eq!(
        st.text_at("/b"),
        Some("shared"),
        "the rename's version still holds the bytes"
    );
}

#[test]
fn retention_prunes_old_versions_but_never_a_live_head() {
    let mut st = store();
    tool(
        &mut st,
        r#"{"command":"create","path":"/memories/keep","file_text":"1"}"#,
    );
    tool(
        &mut st,
        r#"{"command":"str_replace","path":"/memories/keep","old_str":"1","new_str":"2"}"#,
    );
    tool(
        &mut st,
        r#"{"command":"create","path":"/memories/gone","file_text":"g"}"#,
    );
    tool(&mut st, r#"{"command":"delete","path":"/memories/gone"}"#);
    let nothing = call(&mut st, r#"{"call":"versions.prune"}"#);
    assert_eq!(
        nothing.get("pruned_versions").and_then(Json::as_integer),
        Some(0)
    );
    st.clock += 31 * 24 * 60 * 60 * 1000;
    let pruned = call(&mut st, r#"{"call":"versions.prune"}"#);
    assert_eq!(
        pruned.get("pruned_versions").and_then(Json::as_integer),
        Some(3)
    );
    assert_eq!(
        pruned.get("freed_contents").and_then(Json::as_integer),
        Some(2)
    );
    assert_eq!(st.versions.len(), 1, "the live memory's head stays");
    assert_eq!(st.text_at("/keep"), Some("2"));
    assert_eq!(st.contents.len(), 1);
}

#[test]
fn limits_and_read_only_apply_to_host_calls() {
    let mut st = MemStore::new(Config {
        max_file_bytes: 4,
        max_files: 1,
        ..Config::default()
    });
    assert_eq!(
        refused(
            &mut st,
            r#"{"call":"memories.create","path":"/a","content":"12345"}"#
        )
        .0,
        "LIMIT_EXCEEDED"
    );
    let m = call(
        &mut st,
        r#"{"call":"memories.create","path":"/a","content":"1234"}"#,
    );
    assert_eq!(
        refused(
            &mut st,
            r#"{"call":"memories.create","path":"/b","content":"1"}"#
        )
        .0,
        "LIMIT_EXCEEDED"
    );
    let id = s(&m, "id").to_string();
    assert_eq!(
        refused(
            &mut st,
            &format!(r#"{{"call":"memories.update","id":"{id}","content":"12345"}}"#)
        )
        .0,
        "LIMIT_EXCEEDED"
    );
    st.config.read_only = true;
    for json in [
        r#"{"call":"memories.create","path":"/c","content":"1"}"#.to_string(),
        format!(r#"{{"call":"memories.update","id":"{id}","content":"1"}}"#),
        format!(r#"{{"call":"memories.delete","id":"{id}"}}"#),
        r#"{"call":"versions.prune"}"#.to_string(),
    ] {
        assert_eq!(refused(&mut st, &json).0, "READ_ONLY", "{json}");
    }
    call(
        &mut st,
        &format!(r#"{{"call":"memories.get","id":"{id}"}}"#),
    );
}

fn bundle_of(st: &mut MemStore, versions: bool) -> String {
    let outcome = host(
        st,
        &format!(r#"{{"call":"export","include_versions":{versions}}}"#),
    );
    assert!(!outcome.is_error());
    outcome.value.unwrap_or_default()
}

#[test]
fn export_import_round_trips() {
    for versions in [false, true] {
        let mut st = store();
        tool(
            &mut st,
            r#"{"command":"create","path":"/memories/a/one.md","file_text":"1"}"#,
        );
        tool(
            &mut st,
            r#"{"command":"create","path":"/memories/two.md","file_text":"2"}"#,
        );
        tool(
            &mut st,
            r#"{"command":"str_replace","path":"/memories/two.md","old_str":"2","new_str":"22"}"#,
        );
        st.run(Operation::host_write(
            "/memories/pic.png",
            b"\x89PNG\r\n\x1a\n\xff".to_vec(),
        ));
        let bundle = bundle_of(&mut st, versions);
        assert!(
            bundle.contains(r#""content_base64":"iVBORw0KGgr/""#),
            "{bundle}"
        );
        let mut fresh = store();
        fresh.actor = r#"{"type":"import"}"#.into();
        let result = fresh.run(Operation::host(&format!(
            r#"{{"call":"import","bundle":{bundle}}}"#
        )));
        assert!(!result.is_error(), "{:?}", result.content);
        assert_eq!(
            bundle_of(&mut fresh, versions),
            bundle,
            "with versions: {versions}"
        );
        // Importing again changes nothing.
        let again = call(
            &mut fresh,
            &format!(r#"{{"call":"import","bundle":{bundle}}}"#),
        );
        assert_eq!(again.get("unchanged").and_then(Json::as_integer), Some(3));
    }
}

#[test]
fn import_policies_and_checks() {
    let mut source = store();
    tool(
        &mut source,
        r#"{"command":"create","path":"/memories/x.md","file_text":"from bundle"}"#,
    );
    tool(
        &mut source,
        r#"{"command":"create","path":"/memories/y.md","file_text":"y"}"#,
    );
    let bundle = bundle_of(&mut source, false);

    let target = || {
        let mut t = store();
        tool(
            &mut t,
            r#"{"command":"create","path":"/memories/x.md","file_text":"mine"}"#,
        );
        t
    };
    let mut t = target();
    let (code, _, detail) = refused(&mut t, &format!(r#"{{"call":"import","bundle":{bundle}}}"#));
    assert_eq!(
        (code.as_str(), s(&detail, "conflicting_path")),
        ("PATH_CONFLICT", "/x.md")
    );
    assert!(!t.files.contains_key("/y.md"), "all or nothing");

    let mut t = target();
    let skipped = call(
        &mut t,
        &format!(r#"{{"call":"import","bundle":{bundle},"on_conflict":"skip"}}"#),
    );
    assert_eq!(
        (
            skipped.get("skipped").and_then(Json::as_integer),
            skipped.get("imported").and_then(Json::as_integer)
        ),
        (Some(1), Some(1))
    );
    assert_eq!(t.text_at("/x.md"), Some("mine"));

    let mut t = target();
    let over = call(
        &mut t,
        &format!(r#"{{"call":"import","bundle":{bundle},"on_conflict":"overwrite"}}"#),
    );
    assert_eq!(over.get("overwritten").and_then(Json::as_integer), Some(1));
    assert_eq!(t.text_at("/x.md"), Some("from bundle"));
    assert_eq!(
        t.files["/x.md"].id, source.files["/x.md"].id,
        "the bundle's memory, with its id"
    );

    // A bundle whose hash does not match its content is refused whole.
    let tampered = bundle.replace("from bundle", "from elsewhere");
    let mut t = store();
    let (code, message, _) = refused(
        &mut t,
        &format!(r#"{{"call":"import","bundle":{tampered}}}"#),
    );
    assert_eq!(code, "INVALID_BUNDLE");
    assert!(
        message.contains("content_sha256 does not match"),
        "{message}"
    );
    assert!(t.files.is_empty());
    for bad in [
        r#"{}"#,
        r#"{"format":"memory-tool-wasm/bundle","format_version":2,"memories":[]}"#,
    ] {
        assert_eq!(
            refused(
                &mut store(),
                &format!(r#"{{"call":"import","bundle":{bad}}}"#)
            )
            .0,
            "INVALID_BUNDLE"
        );
    }
    let mut small = MemStore::new(Config {
        max_files: 1,
        ..Config::default()
    });
    assert_eq!(
        refused(
            &mut small,
            &format!(r#"{{"call":"import","bundle":{bundle}}}"#)
        )
        .0,
        "LIMIT_EXCEEDED"
    );
}

#[test]
fn history_of_deleted_memories_survives_a_round_trip() {
    let mut st = store();
    tool(
        &mut st,
        r#"{"command":"create","path":"/memories/kept.md","file_text":"k"}"#,
    );
    tool(
        &mut st,
        r#"{"command":"create","path":"/memories/gone.md","file_text":"g"}"#,
    );
    tool(
        &mut st,
        r#"{"command":"delete","path":"/memories/gone.md"}"#,
    );
    let bundle = bundle_of(&mut st, true);
    let mut fresh = store();
    call(
        &mut fresh,
        &format!(r#"{{"call":"import","bundle":{bundle}}}"#),
    );
    assert_eq!(fresh.versions.len(), 3);
    assert_eq!(bundle_of(&mut fresh, true), bundle);
}

#[test]
fn host_paths_refuse_lone_surrogates() {
    let mut st = store();
    let (code, message, _) = refused(
        &mut st,
        r#"{"call":"memories.create","path":"/a\ud800.md","content":"x"}"#,
    );
    assert_eq!(code, "INVALID_PATH");
    assert!(
        message.ends_with("control characters are not allowed"),
        "{message}"
    );
}

#[test]
fn records_from_before_versions_join_the_history() {
    let mut st = store();
    // A store written before versions: no head version, bytes under the memory id.
    st.files.insert(
        "/old.md".into(),
        memory_tool_wasm::FileRecord {
            path: "/old.md".into(),
            id: "mem_legacy".into(),
            size: 3,
            sha256: memory_tool_wasm::sha256_hex(b"old"),
            created_at: 1,
            updated_at: 2,
            version: None,
            content: "mem_legacy".into(),
            accessed_at: None,
            history: None,
        },
    );
    st.contents.insert("mem_legacy".into(), b"old".to_vec());
    tool(
        &mut st,
        r#"{"command":"str_replace","path":"/memories/old.md","old_str":"old","new_str":"new"}"#,
    );
    let ops: Vec<_> = st
        .versions
        .values()
        .map(|v| (v.operation, v.content.clone()))
        .collect();
    assert_eq!(ops.len(), 2, "the old state is recorded, then the change");
    assert_eq!(ops[0], (Change::Created, Some("mem_legacy".to_string())));
    tool(&mut st, r#"{"command":"delete","path":"/memories/old.md"}"#);
    st.clock += 31 * 24 * 60 * 60 * 1000;
    call(&mut st, r#"{"call":"versions.prune"}"#);
    assert!(
        st.contents.is_empty(),
        "retention frees the legacy bytes too: {:?}",
        st.contents.keys()
    );
}
