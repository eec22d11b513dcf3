//! The wasm bindings in headless Chromium against real IndexedDB (`bash scripts/browser-tests.sh`,
//! which bundles the adapter modules this page imports, then runs `wasm-pack test --headless
//! --chrome -- --features wasm`), driven by the shipped adapter: the transaction driver (src/js/driver.js) runs
//! each task of this module's `Engine` in the shipped `IndexedDbStorage`
//! (src/js/storage-indexeddb.js, its current schema), as `MemoryTool` does: the protocol of
//! docs/ARCHITECTURE.md.
#![cfg(target_arch = "wasm32")]

use memory_tool_wasm::wasm::{Engine, Task};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// `raw_module`, not `module`: wasm-bindgen would copy each named file into its output but not
// the files that one imports. The test runner serves the crate root beside its output. The
// shipped modules (src/js/storage-indexeddb.js, driver.js, ids.js) come bundled into one file,
// target/web-modules.js, which scripts/browser-tests.sh builds from tests/web-modules.js: one
// request instead of some twenty, which the runner's page server does not always answer.
#[wasm_bindgen(raw_module = "/target/web-modules.js")]
extern "C" {
    /// The shipped IndexedDB storage (database `memory-tool-wasm:<store>` per store).
    type IndexedDbStorage;
    #[wasm_bindgen(constructor)]
    fn new() -> IndexedDbStorage;
    /// Resolves to the store's `StoreHandle`, creating or upgrading its database.
    #[wasm_bindgen(method)]
    fn open(this: &IndexedDbStorage, store: &str) -> js_sys::Promise;
    /// Deletes the store's database.
    #[wasm_bindgen(method)]
    fn destroy(this: &IndexedDbStorage, store: &str) -> js_sys::Promise;
}

#[wasm_bindgen(raw_module = "/target/web-modules.js")]
extern "C" {
    /// Runs `task` on the store of its mount (`handles` in mount order) and resolves with its
    /// outcome once the transaction committed; frees the task.
    fn perform(handles: &js_sys::Array, task: Task) -> js_sys::Promise;
}

#[wasm_bindgen(raw_module = "/target/web-modules.js")]
extern "C" {
    /// 16 random bytes, as the adapter gives the core for its ids.
    fn entropy() -> Vec<u8>;
}

#[wasm_bindgen]
extern "C" {
    /// An open store (`StoreHandle` in src/js/index.d.ts).
    type StoreHandle;
    #[wasm_bindgen(method)]
    fn close(this: &StoreHandle);
}

/// Opens the store `name` of the shipped storage; `fresh` deletes what an earlier run left.
async fn open(name: &str, fresh: bool) -> StoreHandle {
    let storage = IndexedDbStorage::new();
    if fresh {
        JsFuture::from(storage.destroy(name))
            .await
            .unwrap_or_else(|error| panic!("deleting store {name}: {error:?}"));
    }
    JsFuture::from(storage.open(name))
        .await
        .unwrap_or_else(|error| panic!("opening store {name}: {error:?}"))
        .unchecked_into()
}

/// Runs one task through the shipped driver; resolves with its outcome (a JS object).
fn run(store: &StoreHandle, task: Task) -> JsFuture {
    JsFuture::from(perform(&js_sys::Array::of1(store), task))
}

/// An outcome as JSON text (what the core sent, with the text result put back in place).
fn json_of(done: Result<JsValue, JsValue>) -> String {
    done.ok()
        .and_then(|outcome| js_sys::JSON::stringify(&outcome).ok())
        .and_then(|json| json.as_string())
        .unwrap_or_else(|| "transaction failed".into())
}

/// Property `key` of a JS value (undefined when missing).
fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

const TOOL: &str = r#"{"type":"tool","tool_use_id":null}"#;

/// Starts a task of `kind` through the one start binding.
fn begin(
    engine: &Engine,
    kind: &str,
    json: &str,
    content: Option<Vec<u8>>,
    now_ms: f64,
    actor: &str,
) -> Task {
    engine
        .start(
            kind,
            json,
            None,
            content,
            now_ms,
            &entropy(),
            actor,
            0,
            false,
            None,
        )
        .unwrap_or_else(|_| panic!("no task kind {kind}"))
}

/// Runs one tool input against the store; returns the outcome JSON.
async fn execute(store: &StoreHandle, engine: &Engine, input: &str) -> String {
    let task = begin(engine, "tool", input, None, js_sys::Date::now(), TOOL);
    json_of(run(store, task).await)
}

/// The outcome's text content and error flag, read from its JSON.
fn text_of(outcome: &str) -> (String, bool) {
    let json = js_sys::JSON::parse(outcome).unwrap_or(JsValue::UNDEFINED);
    (
        get(&json, "content")
            .as_string()
            .unwrap_or_else(|| "<not text>".into()),
        get(&json, "isError").as_bool().unwrap_or(true),
    )
}

async fn expect(store: &StoreHandle, engine: &Engine, input: &str, text: &str, is_error: bool) {
    let got = text_of(&execute(store, engine, input).await);
    assert_eq!(got, (text.to_string(), is_error), "{input}");
}

fn engine(config: &str) -> Engine {
    Engine::new(config).unwrap_or_else(|_| panic!("engine config {config}"))
}

#[wasm_bindgen_test]
async fn commands_against_indexeddb() {
    let store = open("web-commands", true).await;
    let e = engine("{}");
    expect(
        &store,
        &e,
        r#"{"command":"create","path":"/memories/a/b.md","file_text":"one\ntwo\n"}"#,
        "File created successfully at: /memories/a/b.md",
        false,
    )
    .await;
    expect(
        &store,
        &e,
        r#"{"command":"create","path":"/memories/cafe\u0301.md","file_text":"x"}"#,
        "File created successfully at: /memories/cafe\u{301}.md",
        false,
    )
    .await;
    expect(&store, &e, r#"{"command":"view","path":"/memories"}"#,
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n9B\t/memories\n8B\t/memories/a/\n8B\t/memories/a/b.md\n1B\t/memories/café.md", false).await;
    expect(&store, &e, r#"{"command":"str_replace","path":"/memories/a/b.md","old_str":"two","new_str":"2"}"#,
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tone\n     2\t2\n     3\t", false).await;
    expect(
        &store,
        &e,
        r#"{"command":"insert","path":"/memories/a/b.md","insert_line":0,"insert_text":"zero"}"#,
        "The file /memories/a/b.md has been edited.",
        false,
    )
    .await;
    expect(
        &store,
        &e,
        r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/c"}"#,
        "Successfully renamed /memories/a to /memories/c",
        false,
    )
    .await;
    expect(
        &store,
        &e,
        r#"{"command":"view","path":"/memories/c/b.md","view_range":[1,2]}"#,
        "Here's the content of /memories/c/b.md with line numbers:\n     1\tzero\n     2\tone",
        false,
    )
    .await;
    expect(
        &store,
        &e,
        r#"{"command":"create","path":"/memories/c/b.md/x","file_text":""}"#,
        "Error: Cannot create /memories/c/b.md/x: /memories/c/b.md is a file",
        true,
    )
    .await;
    expect(
        &store,
        &e,
        r#"{"command":"delete","path":"/memories/c"}"#,
        "Successfully deleted /memories/c",
        false,
    )
    .await;
    expect(
        &store,
        &e,
        r#"{"command":"view","path":"/memories/c/b.md"}"#,
        "The path /memories/c/b.md does not exist. Please provide a valid path.",
        true,
    )
    .await;
    expect(
        &store,
        &e,
        r#"{"command":"view","path":"/memories/../x"}"#,
        "Error: Path /memories/../x would escape /memories directory",
        true,
    )
    .await;
    store.close();
}

#[wasm_bindgen_test]
async fn the_store_outlives_its_connection() {
    let store = open("web-persist", true).await;
    let e = engine("{}");
    expect(
        &store,
        &e,
        r#"{"command":"create","path":"/memories/keep.md","file_text":"kept"}"#,
        "File created successfully at: /memories/keep.md",
        false,
    )
    .await;
    store.close();
    let again = open("web-persist", false).await;
    expect(
        &again,
        &e,
        r#"{"command":"view","path":"/memories/keep.md"}"#,
        "Here's the content of /memories/keep.md with line numbers:\n     1\tkept",
        false,
    )
    .await;
    again.close();
}

#[wasm_bindgen_test]
async fn concurrent_edits_of_one_file_are_all_kept() {
    let store = open("web-concurrent", true).await;
    let e = engine("{}");
    let markers: String = (0..20).map(|i| format!("m{i:02}\n")).collect();
    let create = format!(
        r#"{{"command":"create","path":"/memories/f.md","file_text":{}}}"#,
        js_sys::JSON::stringify(&JsValue::from_str(&markers))
            .ok()
            .and_then(|json| json.as_string())
            .unwrap_or_default()
    );
    execute(&store, &e, &create).await;
    // Twenty str_replace commands started at once: IndexedDB runs their transactions one at a
    // time, so none overwrites another's edit.
    let pending: Vec<JsFuture> = (0..20)
        .map(|i| {
            let input = format!(r#"{{"command":"str_replace","path":"/memories/f.md","old_str":"m{i:02}","new_str":"done{i:02}"}}"#);
            run(&store, begin(&e, "tool", &input, None, 0.0, TOOL))
        })
        .collect();
    for future in pending {
        assert!(future.await.is_ok());
    }
    let (view, _) =
        text_of(&execute(&store, &e, r#"{"command":"view","path":"/memories/f.md"}"#).await);
    for i in 0..20 {
        assert!(
            view.contains(&format!("\tdone{i:02}")),
            "edit {i} lost:\n{view}"
        );
    }
    store.close();
}

#[wasm_bindgen_test]
async fn limits_and_read_only_access() {
    let store = open("web-limits", true).await;
    let limited = engine(r#"{"maxFileBytes":4,"maxFiles":1}"#);
    expect(
        &store,
        &limited,
        r#"{"command":"create","path":"/memories/big","file_text":"12345"}"#,
        "Error: Cannot write /memories/big: 5 bytes is over the limit of 4 bytes per file",
        true,
    )
    .await;
    expect(
        &store,
        &limited,
        r#"{"command":"create","path":"/memories/a","file_text":"1"}"#,
        "File created successfully at: /memories/a",
        false,
    )
    .await;
    expect(
        &store,
        &limited,
        r#"{"command":"create","path":"/memories/b","file_text":"1"}"#,
        "Error: Cannot create /memories/b: the store already holds 1 files, its limit",
        true,
    )
    .await;
    let read_only = engine(r#"{"readOnly":true}"#);
    expect(
        &store,
        &read_only,
        r#"{"command":"delete","path":"/memories/a"}"#,
        "Error: Cannot delete /memories/a: this memory is read-only",
        true,
    )
    .await;
    expect(
        &store,
        &read_only,
        r#"{"command":"view","path":"/memories/a"}"#,
        "Here's the content of /memories/a with line numbers:\n     1\t1",
        false,
    )
    .await;
    assert!(Engine::new(r#"{"maxFiles":-1}"#).is_err());
    store.close();
}

#[wasm_bindgen_test]
async fn images_come_back_as_image_blocks() {
    let store = open("web-image", true).await;
    let e = engine("{}");
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let write = begin(&e, "write", "\"/memories/pic.png\"", Some(png), 0.0, TOOL);
    run(&store, write).await.ok();
    let outcome = execute(
        &store,
        &e,
        r#"{"command":"view","path":"/memories/pic.png"}"#,
    )
    .await;
    assert!(outcome.starts_with(r#"{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUg=="}}],"isError":false"#), "{outcome}");
    store.close();
}

/// Runs one host call; returns the outcome JSON.
async fn host(store: &StoreHandle, engine: &Engine, call: &str) -> String {
    let task = begin(
        engine,
        "host",
        call,
        None,
        js_sys::Date::now(),
        r#"{"type":"api"}"#,
    );
    json_of(run(store, task).await)
}

/// The outcome's `value` (a host call's result), read from its JSON.
fn value_of(outcome: &str) -> JsValue {
    get(
        &js_sys::JSON::parse(outcome).unwrap_or(JsValue::UNDEFINED),
        "value",
    )
}

#[wasm_bindgen_test]
async fn versions_over_indexeddb() {
    let store = open("web-versions", true).await;
    let e = engine("{}");
    execute(
        &store,
        &e,
        r#"{"command":"create","path":"/memories/v.md","file_text":"one"}"#,
    )
    .await;
    execute(
        &store,
        &e,
        r#"{"command":"str_replace","path":"/memories/v.md","old_str":"one","new_str":"two"}"#,
    )
    .await;
    execute(
        &store,
        &e,
        r#"{"command":"rename","old_path":"/memories/v.md","new_path":"/memories/w.md"}"#,
    )
    .await;
    let memory = value_of(
        &host(
            &store,
            &e,
            r#"{"call":"memories.getByPath","path":"/w.md"}"#,
        )
        .await,
    );
    let id = get(&memory, "id").as_string().unwrap_or_default();
    assert_eq!(get(&memory, "content").as_string().as_deref(), Some("two"));
    let listed = value_of(
        &host(
            &store,
            &e,
            &format!(r#"{{"call":"versions.list","memory_id":"{id}"}}"#),
        )
        .await,
    );
    let Some(items) = get(&listed, "data").dyn_ref::<js_sys::Array>().cloned() else {
        panic!("no data: {listed:?}")
    };
    let ops: Vec<String> = items
        .iter()
        .filter_map(|v| get(&v, "operation").as_string())
        .collect();
    assert_eq!(ops, ["modified", "modified", "created"], "newest first");
    let first = get(&items.at(-1), "id").as_string().unwrap_or_default();
    let restored = value_of(
        &host(
            &store,
            &e,
            &format!(r#"{{"call":"versions.restore","id":"{first}"}}"#),
        )
        .await,
    );
    assert_eq!(get(&restored, "path").as_string().as_deref(), Some("/w.md"));
    let (view, _) =
        text_of(&execute(&store, &e, r#"{"command":"view","path":"/memories/w.md"}"#).await);
    assert_eq!(
        view,
        "Here's the content of /memories/w.md with line numbers:\n     1\tone"
    );
    let stale = host(&store, &e, &format!(r#"{{"call":"memories.update","id":"{id}","content":"x","precondition":{{"type":"content_sha256","content_sha256":"{}"}}}}"#, "0".repeat(64))).await;
    assert!(stale.contains(r#""code":"PRECONDITION_FAILED""#), "{stale}");
    store.close();
}
