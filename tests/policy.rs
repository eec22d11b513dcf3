//! The write policy: the host's hook (allow, rewrite, refuse) and the opt-in credential filter
//! apply to every write of content, from the tool, the host API and imports.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::result;
use memory_tool_wasm::Decision;
use memory_tool_wasm::{Config, MemStore, Operation};
use memory_tool_wasm::{PendingWrite, WritePolicy};

const KEY: &str = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";

fn filtered() -> MemStore {
    let mut store = MemStore::new(Config {
        secret_filter: true,
        ..Config::default()
    });
    store.execute(r#"{"command":"create","path":"/memories/n.md","file_text":"note\n"}"#);
    store
}

fn refused(store: &mut MemStore, operation: Operation, want: &str) {
    let (files, versions) = (store.files.clone(), store.versions.clone());
    // The host hears the tool's refusals without the model's mark
    // (docs/TOOL.md#host-api-messages).
    let want = if matches!(operation, Operation::Tool(_)) {
        want
    } else {
        want.strip_prefix("Error: ").unwrap_or(want)
    };
    let outcome = store.run(operation);
    assert_eq!(result(&outcome), (want.to_string(), true));
    assert_eq!(outcome.error.map(|c| c.as_str()), Some("POLICY_REFUSED"));
    assert_eq!(store.files, files);
    assert_eq!(store.versions, versions);
}

#[test]
fn the_credential_filter_guards_every_write() {
    let mut st = filtered();
    let secret = |path: &str| {
        format!("Error: Cannot write {path}: the content looks like it holds an Anthropic API key; memories must not store secrets")
    };
    refused(
        &mut st,
        Operation::tool(&format!(
            r#"{{"command":"create","path":"/memories/k.md","file_text":"key {KEY}"}}"#
        )),
        &secret("/memories/k.md"),
    );
    refused(
        &mut st,
        Operation::tool(&format!(
            r#"{{"command":"str_replace","path":"/memories/n.md","old_str":"note","new_str":"{KEY}"}}"#
        )),
        &secret("/memories/n.md"),
    );
    refused(
        &mut st,
        Operation::tool(&format!(
            r#"{{"command":"insert","path":"/memories/n.md","insert_line":1,"insert_text":"{KEY}"}}"#
        )),
        &secret("/memories/n.md"),
    );
    refused(
        &mut st,
        Operation::host_write("/memories/w.md", KEY.as_bytes().to_vec()),
        &secret("/memories/w.md"),
    );
    refused(
        &mut st,
        Operation::host(&format!(
            r#"{{"call":"memories.create","path":"/h.md","content":"{KEY}"}}"#
        )),
        &secret("/h.md"),
    );
    let id = st.files["/n.md"].id.clone();
    refused(
        &mut st,
        Operation::host(&format!(
            r#"{{"call":"memories.update","id":"{id}","content":"{KEY}"}}"#
        )),
        &secret("/n.md"),
    );
    // Ordinary notes pass.
    let ok = st.execute(r#"{"command":"create","path":"/memories/ok.md","file_text":"AWS keys start with AKIA; never store them."}"#);
    assert!(!ok.is_error());
}

#[test]
fn the_filter_is_off_unless_asked() {
    let mut st = MemStore::new(Config::default());
    let outcome = st.execute(&format!(
        r#"{{"command":"create","path":"/memories/k.md","file_text":"{KEY}"}}"#
    ));
    assert!(!outcome.is_error());
}

fn hook(write: &PendingWrite<'_>) -> Decision {
    let (path, source) = (write.path, write.source);
    let text = String::from_utf8_lossy(write.content.unwrap_or_default());
    if path.starts_with("/memories/locked/") {
        Decision::Refuse(format!(
            "{source} writes under /memories/locked are not allowed"
        ))
    } else if text.contains("SSN") {
        Decision::Rewrite(text.replace("123-45-6789", "[redacted]").into_bytes())
    } else {
        Decision::Allow
    }
}

#[test]
fn the_hook_allows_rewrites_and_refuses() {
    let mut st = MemStore::new(Config {
        write_hook: true,
        ..Config::default()
    });
    st.policy = Some(WritePolicy(hook));
    refused(
        &mut st,
        Operation::tool(r#"{"command":"create","path":"/memories/locked/a","file_text":"x"}"#),
        "Error: Cannot write /memories/locked/a: tool writes under /memories/locked are not allowed",
    );
    st.actor = r#"{"type":"api"}"#.into();
    refused(
        &mut st,
        Operation::host(r#"{"call":"memories.create","path":"/locked/b","content":"x"}"#),
        "Error: Cannot write /locked/b: api writes under /memories/locked are not allowed",
    );
    st.actor = r#"{"type":"tool","tool_use_id":null}"#.into();
    let created = st.execute(
        r#"{"command":"create","path":"/memories/p.md","file_text":"line\nSSN 123-45-6789\nend"}"#,
    );
    assert_eq!(
        result(&created),
        ("File created successfully at: /memories/p.md".into(), false)
    );
    assert_eq!(st.text_at("/p.md"), Some("line\nSSN [redacted]\nend"));
    let record = &st.files["/p.md"];
    assert_eq!(
        record.sha256,
        memory_tool_wasm::sha256_hex(b"line\nSSN [redacted]\nend")
    );
    // The snippet shows what was stored.
    let edited = st.execute(r#"{"command":"str_replace","path":"/memories/p.md","old_str":"end","new_str":"SSN 123-45-6789 again"}"#);
    assert_eq!(
        result(&edited).0,
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tline\n     2\tSSN [redacted]\n     3\tSSN [redacted] again"
    );
}

#[test]
fn imports_are_vetted_and_never_rewritten() {
    let mut source = MemStore::new(Config::default());
    source.execute(r#"{"command":"create","path":"/memories/p.md","file_text":"SSN 123-45-6789"}"#);
    let bundle = source
        .run(Operation::host(r#"{"call":"export"}"#))
        .value
        .unwrap_or_default();
    let mut target = MemStore::new(Config {
        write_hook: true,
        ..Config::default()
    });
    target.policy = Some(WritePolicy(hook));
    target.actor = r#"{"type":"import"}"#.into();
    let outcome = target.run(Operation::host(&format!(
        r#"{{"call":"import","bundle":{bundle}}}"#
    )));
    assert_eq!(outcome.error.map(|c| c.as_str()), Some("POLICY_REFUSED"));
    assert!(target.files.is_empty());
}

/// docs/API.md's locked folder (the write policy's example): nothing may enter, change or leave `/memories/locked/`.
fn locked(write: &PendingWrite<'_>) -> Decision {
    let inside = |p: &str| p.starts_with("/memories/locked/");
    if inside(write.path) || write.old_path.is_some_and(inside) {
        Decision::Refuse(format!("{} in the locked folder", write.operation))
    } else {
        Decision::Allow
    }
}

/// A store with `/memories/locked/rule.md` and `/memories/free.md` written before the policy,
/// then the policy on.
fn locked_store() -> MemStore {
    let mut st = MemStore::new(Config::default());
    st.execute(r#"{"command":"create","path":"/memories/locked/rule.md","file_text":"rule"}"#);
    st.execute(r#"{"command":"create","path":"/memories/free.md","file_text":"free"}"#);
    st.config.write_hook = true;
    st.policy = Some(WritePolicy(locked));
    st
}

#[test]
fn no_write_path_walks_around_the_locked_folder() {
    let mut st = locked_store();
    let before = st.files.clone();
    let tool = [
        (r#"{"command":"rename","old_path":"/memories/free.md","new_path":"/memories/locked/free.md"}"#,
         "Error: Cannot rename /memories/free.md to /memories/locked/free.md: rename in the locked folder"),
        (r#"{"command":"rename","old_path":"/memories/locked/rule.md","new_path":"/memories/out.md"}"#,
         "Error: Cannot rename /memories/locked/rule.md to /memories/out.md: rename in the locked folder"),
        (r#"{"command":"rename","old_path":"/memories/locked","new_path":"/memories/away"}"#,
         "Error: Cannot rename /memories/locked to /memories/away: rename in the locked folder"),
        (r#"{"command":"delete","path":"/memories/locked"}"#,
         "Error: Cannot delete /memories/locked: delete in the locked folder"),
        (r#"{"command":"delete","path":"/memories/locked/rule.md"}"#,
         "Error: Cannot delete /memories/locked/rule.md: delete in the locked folder"),
    ];
    for (input, want) in tool {
        let outcome = st.execute(input);
        assert_eq!(
            (outcome.error.map(|c| c.as_str()), outcome.text_content()),
            (Some("POLICY_REFUSED"), want),
            "{input}"
        );
    }
    assert_eq!(st.files, before, "nothing moved");

    // The host API: moving a memory in or out, deleting one.
    let id = st
        .files
        .get("/free.md")
        .map(|r| r.id.clone())
        .unwrap_or_default();
    let locked_id = st
        .files
        .get("/locked/rule.md")
        .map(|r| r.id.clone())
        .unwrap_or_default();
    for call in [
        format!(r#"{{"call":"memories.update","id":"{id}","path":"/locked/free.md"}}"#),
        format!(
            r#"{{"call":"memories.update","id":"{id}","path":"/locked/free.md","content":"x"}}"#
        ),
        format!(r#"{{"call":"memories.update","id":"{locked_id}","path":"/out.md"}}"#),
        format!(r#"{{"call":"memories.delete","id":"{locked_id}"}}"#),
    ] {
        let outcome = st.run(Operation::host(&call));
        assert_eq!(
            outcome.error.map(|c| c.as_str()),
            Some("POLICY_REFUSED"),
            "{call}: {}",
            outcome.text_content()
        );
    }
    assert_eq!(st.files, before, "nothing moved");
}

#[test]
fn a_restore_asks_the_policy_and_the_secret_filter() {
    // A version written into the locked folder before the policy: restoring it is a write there.
    let mut st = locked_store();
    let id = st
        .files
        .get("/locked/rule.md")
        .map(|r| r.id.clone())
        .unwrap_or_default();
    st.config.write_hook = false;
    st.execute(r#"{"command":"str_replace","path":"/memories/locked/rule.md","old_str":"rule","new_str":"changed"}"#);
    st.config.write_hook = true;
    let first = st
        .versions
        .values()
        .find(|v| v.memory_id == id)
        .map(|v| v.id.clone())
        .unwrap_or_default();
    let outcome = st.run(Operation::host(&format!(
        r#"{{"call":"versions.restore","id":"{first}"}}"#
    )));
    assert_eq!(
        outcome.error.map(|c| c.as_str()),
        Some("POLICY_REFUSED"),
        "{}",
        outcome.text_content()
    );
    assert_eq!(st.text_at("/locked/rule.md"), Some("changed"));

    // A key rotated out does not come back through a restore.
    let mut st = MemStore::new(Config::default());
    st.execute(&format!(
        r#"{{"command":"create","path":"/memories/k.md","file_text":"{KEY}"}}"#
    ));
    st.execute(r#"{"command":"create","path":"/memories/k.md","file_text":"rotated"}"#);
    st.config.create_overwrites = true;
    st.execute(r#"{"command":"create","path":"/memories/k.md","file_text":"rotated"}"#);
    st.config.secret_filter = true;
    let leaked = st
        .versions
        .values()
        .find(|v| v.operation == memory_tool_wasm::Change::Created)
        .map(|v| v.id.clone())
        .unwrap_or_default();
    let outcome = st.run(Operation::host(&format!(
        r#"{{"call":"versions.restore","id":"{leaked}"}}"#
    )));
    assert_eq!(
        outcome.error.map(|c| c.as_str()),
        Some("POLICY_REFUSED"),
        "{}",
        outcome.text_content()
    );
    assert_eq!(st.text_at("/k.md"), Some("rotated"));
}

#[test]
fn an_import_vets_every_version_not_only_heads() {
    let mut source = MemStore::new(Config::default());
    source.config.create_overwrites = true;
    source.execute(&format!(
        r#"{{"command":"create","path":"/memories/k.md","file_text":"{KEY}"}}"#
    ));
    source.execute(r#"{"command":"create","path":"/memories/k.md","file_text":"rotated"}"#);
    let bundle = source
        .run(Operation::host(
            r#"{"call":"export","include_versions":true}"#,
        ))
        .value
        .unwrap_or_default();
    let mut target = MemStore::new(Config {
        secret_filter: true,
        ..Config::default()
    });
    let outcome = target.run(Operation::host(&format!(
        r#"{{"call":"import","bundle":{bundle}}}"#
    )));
    assert_eq!(
        outcome.error.map(|c| c.as_str()),
        Some("POLICY_REFUSED"),
        "{}",
        outcome.text_content()
    );
    assert!(target.files.is_empty() && target.versions.is_empty());
}
