//! The wasm bindings in headless Chromium against real IndexedDB (`wasm-pack test --headless
//! --chrome`). A minimal driver, written in JS below, answers each task's reads from one
//! IndexedDB transaction and applies its writes there: the protocol of docs/ARCHITECTURE.md.
#![cfg(target_arch = "wasm32")]

use memory_tool_wasm::wasm::{Engine, Task};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function openDb(name, fresh) {
  return new Promise((resolve, reject) => {
    const open = () => {
      const request = indexedDB.open(name, 2);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore("files", { keyPath: "path" }).createIndex("id", "id", { unique: true });
        db.createObjectStore("contents");
        const versions = db.createObjectStore("versions", { keyPath: "id" });
        versions.createIndex("memory", ["memoryId", "id"]);
        versions.createIndex("content", "content");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    };
    if (fresh) {
      const del = indexedDB.deleteDatabase(name);
      del.onsuccess = open;
      del.onerror = () => reject(del.error);
    } else {
      open();
    }
  });
}

export function closeDb(db) { db.close(); }

export function runTask(db, task) {
  return new Promise((resolve, reject) => {
    if (task.done()) { const out = task.outcome(); task.free(); resolve(out); return; }
    const tx = db.transaction(["files", "contents", "versions"], task.mode());
    const files = tx.objectStore("files");
    const contents = tx.objectStore("contents");
    const versions = tx.objectStore("versions");
    const collect = (request, limit, done) => {
      const out = [];
      request.onsuccess = () => {
        const cursor = request.result;
        if (cursor && out.length < limit) { out.push(cursor.value); cursor.continue(); } else done(out);
      };
    };
    let outcome;
    const round = () => {
      const reads = JSON.parse(task.reads());
      let pending = reads.length;
      const answered = () => {
        pending -= 1;
        if (pending > 0) return;
        if (task.resume()) finish(); else round();
      };
      reads.forEach((read, i) => {
        const below = read.path === undefined ? null
          : IDBKeyRange.bound(read.path + "/", read.path + "0", false, true);
        const json = (request, map) => {
          request.onsuccess = () => { task.supply(i, JSON.stringify(map(request.result))); answered(); };
        };
        if (read.kind === "file") json(files.get(read.path), (r) => r ?? null);
        else if (read.kind === "subtree") json(files.getAll(below), (r) => r);
        else if (read.kind === "listing") {
          const request = files.getAll(below);
          request.onsuccess = () => {
            task.supply(i, request.result.map((r) => r.path + "\u0000" + r.size).join("\n"));
            answered();
          };
        }
        else if (read.kind === "hasChildren") json(files.getKey(below), (k) => k !== undefined);
        else if (read.kind === "count") json(files.count(), (n) => n);
        else if (read.kind === "content") {
          const request = contents.get(read.id);
          request.onsuccess = () => { task.supplyBytes(i, request.result); answered(); };
        }
        else if (read.kind === "fileById") json(files.index("id").get(read.id), (r) => r ?? null);
        else if (read.kind === "version") json(versions.get(read.id), (r) => r ?? null);
        else if (read.kind === "versionsBelow") json(versions.getAll(IDBKeyRange.upperBound(read.id, true)), (r) => r);
        else if (read.kind === "versionsWithContent") json(versions.index("content").getAllKeys(read.id), (r) => r);
        else if (read.kind === "versionIds") json(versions.getAllKeys(), (r) => r);
        else if (read.kind === "newestVersionId") {
          const request = versions.openKeyCursor(null, "prev");
          request.onsuccess = () => { task.supply(i, JSON.stringify(request.result ? request.result.key : null)); answered(); };
        } else if (read.kind === "versionsDesc") {
          const request = read.memoryId === null
            ? versions.openCursor(read.below === null ? null : IDBKeyRange.upperBound(read.below, true), "prev")
            : versions.index("memory").openCursor(
                IDBKeyRange.bound([read.memoryId, ""], [read.memoryId, read.below ?? "\uffff"], false, read.below !== null), "prev");
          collect(request, read.limit, (records) => { task.supply(i, JSON.stringify(records)); answered(); });
        }
      });
    };
    const finish = () => {
      outcome = task.outcome();
      for (const write of JSON.parse(outcome).writes) {
        if (write.op === "putFile") files.put(write.record);
        else if (write.op === "deleteFile") files.delete(write.path);
        else if (write.op === "putContent") contents.put(task.writeBytes(write.bytes), write.id);
        else if (write.op === "deleteContent") contents.delete(write.id);
        else if (write.op === "putVersion") versions.put(write.record);
        else if (write.op === "deleteVersion") versions.delete(write.id);
      }
    };
    tx.oncomplete = () => { task.free(); resolve(outcome); };
    tx.onabort = () => { task.free(); reject(tx.error); };
    round();
  });
}

export function random16() { return crypto.getRandomValues(new Uint8Array(16)); }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = openDb)]
    fn open_db(name: &str, fresh: bool) -> js_sys::Promise;
    #[wasm_bindgen(js_name = closeDb)]
    fn close_db(db: &JsValue);
    #[wasm_bindgen(js_name = runTask)]
    fn run_task(db: &JsValue, task: Task) -> js_sys::Promise;
    fn random16() -> Vec<u8>;
}

async fn open(name: &str, fresh: bool) -> JsValue {
    JsFuture::from(open_db(name, fresh))
        .await
        .unwrap_or(JsValue::NULL)
}

const TOOL: &str = r#"{"type":"tool","tool_use_id":null}"#;

/// Runs one tool input against the database; returns the outcome JSON.
async fn execute(db: &JsValue, engine: &Engine, input: &str) -> String {
    let task = engine.start(input, js_sys::Date::now(), &random16(), TOOL);
    let done = JsFuture::from(run_task(db, task)).await;
    done.ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "transaction failed".into())
}

/// The outcome's text content and error flag, read from its JSON.
fn text_of(outcome: &str) -> (String, bool) {
    let json = memory_tool_wasm::Json::parse(outcome);
    let text = json
        .as_ref()
        .and_then(|j| j.get("content"))
        .and_then(|c| c.as_str());
    let is_error = json
        .as_ref()
        .and_then(|j| j.get("isError"))
        .and_then(|e| e.as_bool());
    (
        text.unwrap_or("<not text>").to_string(),
        is_error.unwrap_or(true),
    )
}

async fn expect(db: &JsValue, engine: &Engine, input: &str, text: &str, is_error: bool) {
    let got = text_of(&execute(db, engine, input).await);
    assert_eq!(got, (text.to_string(), is_error), "{input}");
}

fn engine(config: &str) -> Engine {
    Engine::new(config).unwrap_or_else(|_| panic!("engine config {config}"))
}

#[wasm_bindgen_test]
async fn commands_against_indexeddb() {
    let db = open("web-commands", true).await;
    let e = engine("{}");
    expect(
        &db,
        &e,
        r#"{"command":"create","path":"/memories/a/b.md","file_text":"one\ntwo\n"}"#,
        "File created successfully at: /memories/a/b.md",
        false,
    )
    .await;
    expect(
        &db,
        &e,
        r#"{"command":"create","path":"/memories/cafe\u0301.md","file_text":"x"}"#,
        "File created successfully at: /memories/cafe\u{301}.md",
        false,
    )
    .await;
    expect(&db, &e, r#"{"command":"view","path":"/memories"}"#,
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n9B\t/memories\n8B\t/memories/a/\n8B\t/memories/a/b.md\n1B\t/memories/café.md", false).await;
    expect(&db, &e, r#"{"command":"str_replace","path":"/memories/a/b.md","old_str":"two","new_str":"2"}"#,
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tone\n     2\t2\n     3\t", false).await;
    expect(
        &db,
        &e,
        r#"{"command":"insert","path":"/memories/a/b.md","insert_line":0,"insert_text":"zero"}"#,
        "The file /memories/a/b.md has been edited.",
        false,
    )
    .await;
    expect(
        &db,
        &e,
        r#"{"command":"rename","old_path":"/memories/a","new_path":"/memories/c"}"#,
        "Successfully renamed /memories/a to /memories/c",
        false,
    )
    .await;
    expect(
        &db,
        &e,
        r#"{"command":"view","path":"/memories/c/b.md","view_range":[1,2]}"#,
        "Here's the content of /memories/c/b.md with line numbers:\n     1\tzero\n     2\tone",
        false,
    )
    .await;
    expect(
        &db,
        &e,
        r#"{"command":"create","path":"/memories/c/b.md/x","file_text":""}"#,
        "Error: Cannot create /memories/c/b.md/x: /memories/c/b.md is a file",
        true,
    )
    .await;
    expect(
        &db,
        &e,
        r#"{"command":"delete","path":"/memories/c"}"#,
        "Successfully deleted /memories/c",
        false,
    )
    .await;
    expect(
        &db,
        &e,
        r#"{"command":"view","path":"/memories/c/b.md"}"#,
        "The path /memories/c/b.md does not exist. Please provide a valid path.",
        true,
    )
    .await;
    expect(
        &db,
        &e,
        r#"{"command":"view","path":"/memories/../x"}"#,
        "Error: Path /memories/../x would escape /memories directory",
        true,
    )
    .await;
    close_db(&db);
}

#[wasm_bindgen_test]
async fn the_store_outlives_its_connection() {
    let db = open("web-persist", true).await;
    let e = engine("{}");
    expect(
        &db,
        &e,
        r#"{"command":"create","path":"/memories/keep.md","file_text":"kept"}"#,
        "File created successfully at: /memories/keep.md",
        false,
    )
    .await;
    close_db(&db);
    let again = open("web-persist", false).await;
    expect(
        &again,
        &e,
        r#"{"command":"view","path":"/memories/keep.md"}"#,
        "Here's the content of /memories/keep.md with line numbers:\n     1\tkept",
        false,
    )
    .await;
    close_db(&again);
}

#[wasm_bindgen_test]
async fn concurrent_edits_of_one_file_are_all_kept() {
    let db = open("web-concurrent", true).await;
    let e = engine("{}");
    let markers: String = (0..20).map(|i| format!("m{i:02}\n")).collect();
    let create = format!(
        r#"{{"command":"create","path":"/memories/f.md","file_text":{}}}"#,
        memory_tool_wasm::quote(&markers)
    );
    execute(&db, &e, &create).await;
    // Twenty str_replace commands started at once: IndexedDB runs their transactions one at a
    // time, so none overwrites another's edit.
    let pending: Vec<JsFuture> = (0..20)
        .map(|i| {
            let input = format!(r#"{{"command":"str_replace","path":"/memories/f.md","old_str":"m{i:02}","new_str":"done{i:02}"}}"#);
            JsFuture::from(run_task(&db, e.start(&input, 0.0, &random16(), TOOL)))
        })
        .collect();
    for future in pending {
        assert!(future.await.is_ok());
    }
    let (view, _) =
        text_of(&execute(&db, &e, r#"{"command":"view","path":"/memories/f.md"}"#).await);
    for i in 0..20 {
        assert!(
            view.contains(&format!("\tdone{i:02}")),
            "edit {i} lost:\n{view}"
        );
    }
    close_db(&db);
}

#[wasm_bindgen_test]
async fn limits_and_read_only_access() {
    let db = open("web-limits", true).await;
    let limited = engine(r#"{"maxFileBytes":4,"maxFiles":1}"#);
    expect(
        &db,
        &limited,
        r#"{"command":"create","path":"/memories/big","file_text":"12345"}"#,
        "Error: Cannot write /memories/big: 5 bytes is over the limit of 4 bytes per file",
        true,
    )
    .await;
    expect(
        &db,
        &limited,
        r#"{"command":"create","path":"/memories/a","file_text":"1"}"#,
        "File created successfully at: /memories/a",
        false,
    )
    .await;
    expect(
        &db,
        &limited,
        r#"{"command":"create","path":"/memories/b","file_text":"1"}"#,
        "Error: Cannot create /memories/b: the store already holds 1 files, its limit",
        true,
    )
    .await;
    let read_only = engine(r#"{"readOnly":true}"#);
    expect(
        &db,
        &read_only,
        r#"{"command":"delete","path":"/memories/a"}"#,
        "Error: Cannot delete /memories/a: this memory is read-only",
        true,
    )
    .await;
    expect(
        &db,
        &read_only,
        r#"{"command":"view","path":"/memories/a"}"#,
        "Here's the content of /memories/a with line numbers:\n     1\t1",
        false,
    )
    .await;
    assert!(Engine::new(r#"{"maxFiles":-1}"#).is_err());
    close_db(&db);
}

#[wasm_bindgen_test]
async fn images_come_back_as_image_blocks() {
    let db = open("web-image", true).await;
    let e = engine("{}");
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let write = e.start_write("/memories/pic.png", png, 0.0, &random16(), TOOL);
    JsFuture::from(run_task(&db, write)).await.ok();
    let outcome = execute(&db, &e, r#"{"command":"view","path":"/memories/pic.png"}"#).await;
    assert!(outcome.starts_with(r#"{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUg=="}}],"isError":false"#), "{outcome}");
    close_db(&db);
}

/// Runs one host call; returns the outcome JSON.
async fn host(db: &JsValue, engine: &Engine, call: &str) -> String {
    let task = engine.start_host(
        call,
        js_sys::Date::now(),
        &random16(),
        r#"{"type":"api"}"#,
        0,
    );
    let done = JsFuture::from(run_task(db, task)).await;
    done.ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "transaction failed".into())
}

fn value_of(outcome: &str) -> memory_tool_wasm::Json {
    use memory_tool_wasm::Json;
    Json::parse(outcome)
        .and_then(|j| j.get("value").cloned())
        .unwrap_or(Json::Null)
}

#[wasm_bindgen_test]
async fn versions_over_indexeddb() {
    use memory_tool_wasm::Json;
    let db = open("web-versions", true).await;
    let e = engine("{}");
    execute(
        &db,
        &e,
        r#"{"command":"create","path":"/memories/v.md","file_text":"one"}"#,
    )
    .await;
    execute(
        &db,
        &e,
        r#"{"command":"str_replace","path":"/memories/v.md","old_str":"one","new_str":"two"}"#,
    )
    .await;
    execute(
        &db,
        &e,
        r#"{"command":"rename","old_path":"/memories/v.md","new_path":"/memories/w.md"}"#,
    )
    .await;
    let memory = value_of(&host(&db, &e, r#"{"call":"memories.getByPath","path":"/w.md"}"#).await);
    let id = memory
        .get("id")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string();
    assert_eq!(memory.get("content").and_then(Json::as_str), Some("two"));
    let listed = value_of(
        &host(
            &db,
            &e,
            &format!(r#"{{"call":"versions.list","memory_id":"{id}"}}"#),
        )
        .await,
    );
    let Some(Json::Array(items)) = listed.get("data") else {
        panic!("no data: {listed:?}")
    };
    let ops: Vec<&str> = items
        .iter()
        .filter_map(|v| v.get("operation").and_then(Json::as_str))
        .collect();
    assert_eq!(ops, ["modified", "modified", "created"], "newest first");
    let first = items
        .last()
        .and_then(|v| v.get("id"))
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string();
    let restored = value_of(
        &host(
            &db,
            &e,
            &format!(r#"{{"call":"versions.restore","id":"{first}"}}"#),
        )
        .await,
    );
    assert_eq!(restored.get("path").and_then(Json::as_str), Some("/w.md"));
    let (view, _) =
        text_of(&execute(&db, &e, r#"{"command":"view","path":"/memories/w.md"}"#).await);
    assert_eq!(
        view,
        "Here's the content of /memories/w.md with line numbers:\n     1\tone"
    );
    let stale = host(&db, &e, &format!(r#"{{"call":"memories.update","id":"{id}","content":"x","precondition":{{"type":"content_sha256","content_sha256":"{}"}}}}"#, "0".repeat(64))).await;
    assert!(stale.contains(r#""code":"PRECONDITION_FAILED""#), "{stale}");
    close_db(&db);
}
