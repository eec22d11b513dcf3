//! `memories.createMany` (docs/SYNC.md#a-pass): a sync pull's page of memories created in one
//! transaction, all or none, each checked as `memories.create` checks one, each its own
//! version recording the hosted version it came from, and in a fixed number of rounds.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::q;
use memory_tool_wasm::{
    Config, Decision, Json, MemStore, Operation, Outcome, PendingWrite, WritePolicy,
};

const ACTOR: &str = r#"{"type":"api","memory_store_id":"memstore_1"}"#;

fn sha(text: &str) -> String {
    memory_tool_wasm::sha256_hex(text.as_bytes())
}

fn item(path: &str, text: &str, version: &str) -> String {
    format!(
        r#"{{"path":{},"content":{},"content_sha256":"{}","memory_version_id":"{version}"}}"#,
        q(path),
        q(text),
        sha(text)
    )
}

fn many(store: &mut MemStore, items: &[String]) -> Outcome {
    store.actor = ACTOR.into();
    store.run(Operation::host(&format!(
        r#"{{"call":"memories.createMany","memories":[{}]}}"#,
        items.join(",")
    )))
}

fn page(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            item(
                &format!("/d/m{i}.md"),
                &format!("text {i}"),
                &format!("memver_h{i}"),
            )
        })
        .collect()
}

fn refused(store: &mut MemStore, items: &[String]) -> String {
    let (files, versions) = (store.files.clone(), store.versions.clone());
    let outcome = many(store, items);
    assert!(outcome.is_error(), "should fail: {items:?}");
    assert_eq!(store.files, files, "a refused batch wrote files");
    assert_eq!(store.versions, versions, "a refused batch wrote versions");
    outcome
        .error
        .map(|c| c.as_str().to_string())
        .unwrap_or_default()
}

#[test]
fn a_page_is_created_whole_with_a_version_each_naming_its_hosted_version() {
    let mut st = MemStore::new(Config::default());
    let outcome = many(&mut st, &page(20));
    assert!(!outcome.is_error(), "{:?}", outcome.content);
    assert_eq!(st.files.len(), 20);
    assert_eq!(st.versions.len(), 20);
    let value = Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null);
    let Json::Array(list) = &value else {
        panic!("an array: {value:?}")
    };
    assert_eq!(list.len(), 20);
    let mut ids: Vec<&str> = list
        .iter()
        .filter_map(|m| m.get("id").and_then(Json::as_str))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 20, "each memory its own id");
    for i in 0..20 {
        let key = format!("/d/m{i}.md");
        assert_eq!(st.text_at(&key), Some(format!("text {i}").as_str()));
        let record = &st.files[&key];
        let version = st
            .versions
            .values()
            .find(|v| v.memory_id == record.id)
            .expect("its version");
        let by = Json::parse(&version.created_by).unwrap_or(Json::Null);
        assert_eq!(
            by.get("memory_version_id").and_then(Json::as_str),
            Some(format!("memver_h{i}").as_str())
        );
        assert_eq!(
            by.get("memory_store_id").and_then(Json::as_str),
            Some("memstore_1")
        );
    }
    // Versions in the order given.
    let order: Vec<String> = st
        .versions
        .values()
        .map(|v| {
            st.files
                .values()
                .find(|f| f.id == v.memory_id)
                .map(|f| f.path.clone())
                .unwrap_or_default()
        })
        .collect();
    let given: Vec<String> = (0..20).map(|i| format!("/d/m{i}.md")).collect();
    assert_eq!(order, given);
}

#[test]
fn a_page_takes_the_rounds_of_one_create_whatever_its_size() {
    let mut one = MemStore::new(Config::default());
    assert!(!many(&mut one, &page(1)).is_error());
    let mut twenty = MemStore::new(Config::default());
    assert!(!many(&mut twenty, &page(20)).is_error());
    assert_eq!(twenty.last.rounds, one.last.rounds);
    // With a write policy: one more round, for all of them.
    fn allow(_: &PendingWrite<'_>) -> Decision {
        Decision::Allow
    }
    let mut hooked = MemStore::new(Config {
        write_hook: true,
        ..Config::default()
    });
    hooked.policy = Some(WritePolicy(allow));
    assert!(!many(&mut hooked, &page(20)).is_error());
    assert_eq!(hooked.last.rounds, one.last.rounds + 1);
}

#[test]
fn one_memory_that_cannot_be_written_writes_none() {
    let mut st = MemStore::new(Config::default());
    assert!(!many(&mut st, &[item("/taken.md", "here", "memver_0")]).is_error());
    let mut with = page(5);
    with.push(item("/taken.md", "there", "memver_x"));
    assert_eq!(refused(&mut st, &with), "PATH_CONFLICT");
    // A text that is not the one its sha names.
    let mut lying = page(3);
    lying.push(format!(
        r#"{{"path":"/l.md","content":"a","content_sha256":"{}"}}"#,
        sha("b")
    ));
    assert_eq!(refused(&mut st, &lying), "CONTENT_MISMATCH");
    // Two at one path, or one in the other's way.
    assert_eq!(
        refused(
            &mut st,
            &[item("/x.md", "1", "v1"), item("/x.md", "2", "v2")]
        ),
        "PATH_CONFLICT"
    );
    assert_eq!(
        refused(
            &mut st,
            &[item("/y", "1", "v1"), item("/y/z.md", "2", "v2")]
        ),
        "PATH_CONFLICT"
    );
    assert_eq!(
        refused(
            &mut st,
            &[item("/q/r/s.md", "2", "v2"), item("/q", "1", "v1")]
        ),
        "PATH_CONFLICT"
    );
    // Too large, too many, refused by the policy.
    st.config.max_file_bytes = 4;
    assert_eq!(
        refused(
            &mut st,
            &[item("/ok.md", "ok", "v"), item("/big.md", "too big", "v")]
        ),
        "LIMIT_EXCEEDED"
    );
    st.config.max_file_bytes = Config::default().max_file_bytes;
    st.config.max_files = 3;
    assert_eq!(refused(&mut st, &page(3)), "LIMIT_EXCEEDED");
    st.config.max_files = Config::default().max_files;
    fn no_secrets(w: &PendingWrite<'_>) -> Decision {
        if w.path.ends_with("m2.md") {
            Decision::Refuse("no".into())
        } else {
            Decision::Allow
        }
    }
    st.config.write_hook = true;
    st.policy = Some(WritePolicy(no_secrets));
    assert_eq!(refused(&mut st, &page(4)), "POLICY_REFUSED");
    st.policy = None;
    st.config.write_hook = false;
    st.config.read_only = true;
    assert_eq!(refused(&mut st, &page(2)), "READ_ONLY");
}

#[test]
fn malformed_calls_are_invalid_input() {
    let mut st = MemStore::new(Config::default());
    for bad in [
        r#"{"call":"memories.createMany"}"#.to_string(),
        r#"{"call":"memories.createMany","memories":{}}"#.to_string(),
        r#"{"call":"memories.createMany","memories":[1]}"#.to_string(),
        r#"{"call":"memories.createMany","memories":[{"path":"/a.md","content":"a"}]}"#.to_string(),
        format!(
            r#"{{"call":"memories.createMany","memories":[{{"path":"/a.md","content":"a","content_sha256":"{}","extra":1}}]}}"#,
            sha("a")
        ),
        format!(
            r#"{{"call":"memories.createMany","memories":[{}]}}"#,
            page(101).join(",")
        ),
    ] {
        st.actor = ACTOR.into();
        let outcome = st.run(Operation::host(&bad));
        assert!(outcome.is_error(), "{bad}");
        assert_eq!(
            outcome.error.map(|c| c.as_str()),
            Some("INVALID_INPUT"),
            "{bad}"
        );
        assert!(st.files.is_empty());
    }
    // An empty page is nothing to do.
    let outcome = many(&mut st, &[]);
    assert!(!outcome.is_error());
    assert!(st.files.is_empty() && st.versions.is_empty());
}
