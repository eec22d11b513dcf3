//! The `#[wasm_bindgen]` surface and nothing else: JSON text and bytes in, JSON text and bytes
//! out, one `Task` per command (see docs/ARCHITECTURE.md).

use crate::commands::bundle::BundleReader;
use crate::commands::Operation;
use crate::format::json::{quote, Json};
use crate::format::render::{cat, decimal, fill};
use crate::protocol::{Answer, Read};
use crate::session::task::Target;
use crate::session::{Session, Start};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

fn js_error(message: impl Into<String>) -> JsValue {
    js_sys_error(&message.into())
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Error)]
    fn js_sys_error_ctor(message: &str) -> JsValue;
}

fn js_sys_error(message: &str) -> JsValue {
    js_sys_error_ctor(message)
}

/// A store name's mount slug ("Demo Memory" → `demo-memory`).
#[wasm_bindgen]
pub fn slug(name: &str) -> String {
    crate::model::store::slug(name)
}

/// A size as directory listings write it (`44B`, `1.0K`, `1.2M`).
#[wasm_bindgen(js_name = formatSize)]
pub fn format_size(bytes: f64) -> String {
    crate::format::render::format_size(if bytes > 0.0 { bytes as u64 } else { 0 })
}

/// Checks `MemoryTool.open`'s mounts against the stores' records (see `mounts::plan_mounts`):
/// `{"ok": plan}` or `{"error": {"code", "message"}}`.
#[wasm_bindgen(js_name = planMounts)]
pub fn plan_mounts(request_json: &str) -> String {
    match crate::session::plan::plan_mounts(request_json) {
        Ok(plan) => fill("{\"ok\":{}}", &[&plan]),
        Err(e) => fill(
            "{\"error\":{\"code\":{},\"message\":{}}}",
            &[&quote(e.code.as_str()), &quote(&e.message)],
        ),
    }
}

/// The system-prompt text for mounts given as `[{"name","path","access","description",
/// "instructions"}]`.
#[wasm_bindgen(js_name = systemPrompt)]
pub fn system_prompt(mounts_json: &str) -> Result<String, JsValue> {
    let mounts = crate::session::plan::mount_infos(mounts_json).map_err(js_error)?;
    Ok(crate::session::plan::system_prompt(&mounts))
}

/// The tool result's text when the host's storage failed with `code` (`QUOTA_EXCEEDED`,
/// `STORE_VANISHED`, else `STORAGE_FAILED`: docs/TOOL.md#storage-failures).
#[wasm_bindgen(js_name = storageFailureText)]
pub fn storage_failure_text(code: &str) -> String {
    crate::storage_failure_text(code).to_string()
}

/// The refusal of the first of `names_json` (an options object's keys, as a JSON array) that
/// host method `method` does not take (docs/TOOL.md#host-api-messages), or undefined when it
/// takes them all.
#[wasm_bindgen(js_name = refuseUnknownOption)]
pub fn refuse_unknown_option(method: &str, names_json: &str) -> Option<String> {
    let names = match Json::parse(names_json) {
        Some(Json::Array(names)) => names,
        _ => Vec::new(),
    };
    crate::refuse_unknown(method, names.iter().filter_map(Json::as_str))
}

/// A session's mounted stores (limits and access of each) for the commands it starts.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Engine {
    session: Session,
}

fn start<'a>(now_ms: f64, entropy: &'a [u8], actor: &'a str) -> Start<'a> {
    Start {
        now_ms: now_ms as i64,
        entropy,
        actor,
        compact: false,
    }
}

fn task(inner: crate::session::task::Task) -> Task {
    Task { inner }
}

#[wasm_bindgen]
impl Engine {
    /// `configJson`: one store's `{"maxFileBytes","maxFiles","readOnly","maxViewChars",
    /// "createOverwrites","retentionMs","secretFilter","writeHook"}`, or several as
    /// `{"mounts":[{"slug", …the same}]}`.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<Engine, JsValue> {
        #[cfg(debug_assertions)]
        console_error_panic_hook::set_once();
        let session = Session::from_json(config_json).map_err(js_error)?;
        Ok(Engine { session })
    }

    /// Starts a task: the one way in. `kind` says what `json` is: `"tool"`, the model's tool
    /// input; `"host"`, a host call (`{"call":"memories.list", …}`, docs/ARCHITECTURE.md) on
    /// mount number `mount` (0 for a single store); `"write"`, a host write: the tool path as a
    /// JSON string (which keeps half a surrogate pair for the core to refuse), its bytes in
    /// `content`. A tool command or host write goes to the mount its path names. A big `json`
    /// comes as UTF-8 bytes in `json_utf8` (`json` then empty): JS's `TextEncoder` makes them
    /// far faster than wasm-bindgen passes a string (a JS loop per character); bytes that are
    /// not UTF-8 are refused as malformed input. `actor_json` says who the change is by
    /// (`{"type":"tool","tool_use_id":…}`), recorded in versions. `compact`: deletes in the
    /// compact form, the retry of one that failed with `QUOTA_EXCEEDED`
    /// (docs/TOOL.md#delete-at-full-quota). `bundle`: the bundle of an `import` host call,
    /// read in parts (the call then has no `bundle` argument); it is used up. Throws for a
    /// `kind` it does not know.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        &self,
        kind: &str,
        json: &str,
        json_utf8: Option<Vec<u8>>,
        content: Option<Vec<u8>>,
        now_ms: f64,
        entropy: &[u8],
        actor_json: &str,
        mount: usize,
        compact: bool,
        bundle: Option<BundleParts>,
    ) -> Result<Task, JsValue> {
        let text = match &json_utf8 {
            Some(bytes) => std::str::from_utf8(bytes).unwrap_or_default(),
            None => json,
        };
        let start = Start {
            compact,
            ..start(now_ms, entropy, actor_json)
        };
        Ok(task(match kind {
            "tool" => self.session.start_tool(text, start),
            "host" => {
                let operation = match bundle {
                    Some(parts) => Operation::host_with_bundle(text, parts.reader),
                    None => Operation::host(text),
                };
                self.session.start_on(mount, operation, start)
            }
            "write" => self.session.start(
                Operation::host_write_json(text, content.unwrap_or_default()),
                start,
            ),
            _ => return Err(js_error(fill("no task kind `{}`", &[kind]))),
        }))
    }
}

/// A bundle read into the core a part at a time (docs/TOOL.md#bundles), for `import`: its
/// header first (the bundle without the items of `memories` and `versions`), then its
/// memories and then its versions as JSON lists, in order, each as UTF-8. The host yields to
/// the page between parts; every check of each part is made as it comes, and a fault found is
/// reported by the import, as for the bundle whole.
#[wasm_bindgen]
#[derive(Debug)]
pub struct BundleParts {
    reader: BundleReader,
}

#[wasm_bindgen]
impl BundleParts {
    #[wasm_bindgen(constructor)]
    pub fn new(header_utf8: &[u8]) -> BundleParts {
        let reader = match json_at(header_utf8, BundleReader::HEADER_DEPTH) {
            Some(header) => BundleReader::new(&header),
            None => {
                let mut reader = BundleReader::new(&Json::Null);
                reader.unreadable();
                reader
            }
        };
        BundleParts { reader }
    }

    /// The bundle's next memories: a JSON list.
    pub fn memories(&mut self, list_utf8: &[u8]) -> Result<(), JsValue> {
        match json_at(list_utf8, BundleReader::LIST_DEPTH) {
            Some(Json::Array(items)) => self.reader.memories(&items),
            None => self.reader.unreadable(),
            Some(_) => return Err(js_error("memories come as a JSON list")),
        }
        Ok(())
    }

    /// The bundle's next versions: a JSON list.
    pub fn versions(&mut self, list_utf8: &[u8]) -> Result<(), JsValue> {
        match json_at(list_utf8, BundleReader::LIST_DEPTH) {
            Some(Json::Array(items)) => self.reader.versions(&items),
            None => self.reader.unreadable(),
            Some(_) => return Err(js_error("versions come as a JSON list")),
        }
        Ok(())
    }
}

/// JSON text given as UTF-8 by the adapter (which wrote it with `JSON.stringify`), standing
/// `depth` levels down in the host call it belongs to; `None` when it is not JSON there (too
/// deep, as the call whole would be).
fn json_at(utf8: &[u8], depth: usize) -> Option<Json> {
    std::str::from_utf8(utf8)
        .ok()
        .and_then(|text| Json::parse_at(text, depth))
}

/// One command in progress.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Task {
    inner: crate::session::task::Task,
}

#[wasm_bindgen]
impl Task {
    /// `"readwrite"` when the command may write, else `"readonly"`.
    pub fn mode(&self) -> String {
        if self.inner.writes() {
            "readwrite"
        } else {
            "readonly"
        }
        .to_string()
    }

    /// The mount whose store the command runs on: -1 when it reads every mount (its reads then
    /// name their `mount`).
    pub fn mount(&self) -> i32 {
        match self.inner.target() {
            Target::Mount(n) => n as i32,
            Target::All => -1,
        }
    }

    /// Work that needs no read (hashing a create's text), for the host to call once it has
    /// issued the first round's reads: it runs while storage works on them.
    pub fn prepare(&mut self) {
        self.inner.prepare();
    }

    /// Whether the outcome is ready (no storage needed when it is at once).
    pub fn done(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// The kinds of read the task can ever ask for, joined with `,` (a view's), or empty when
    /// any: the host may open a transaction over what those need alone.
    #[wasm_bindgen(js_name = readScope)]
    pub fn read_scope(&self) -> String {
        self.inner
            .read_scope()
            .map(|k| k.join(","))
            .unwrap_or_default()
    }

    /// This round's reads as a JSON array.
    pub fn reads(&self) -> String {
        let reads: Vec<String> = self.inner.reads().iter().map(Read::to_json).collect();
        cat(&["[", &reads.join(","), "]"])
    }

    /// Answers read `index` with JSON (a record or null, an array of records, a boolean, a count).
    pub fn supply(&mut self, index: usize, json: &str) -> Result<(), JsValue> {
        let read = self.inner.reads().get(index).ok_or_else(|| {
            js_error(fill(
                "no read number {} in this round",
                &[&decimal(index as u64)],
            ))
        })?;
        let answer = Answer::from_json(read, json).ok_or_else(|| {
            js_error(fill(
                "the answer to read {} is malformed",
                &[&decimal(index as u64)],
            ))
        })?;
        self.inner.supply(index, answer);
        Ok(())
    }

    /// `supply` with the answer as UTF-8 bytes (see `startUtf8`).
    #[wasm_bindgen(js_name = supplyUtf8)]
    pub fn supply_utf8(&mut self, index: usize, answer: &[u8]) -> Result<(), JsValue> {
        let text = std::str::from_utf8(answer).map_err(|_| {
            js_error(fill(
                "the answer to read {} is not UTF-8",
                &[&decimal(index as u64)],
            ))
        })?;
        self.supply(index, text)
    }

    /// Answers read `index` with bytes: a content read's (`undefined` when missing), or a
    /// policy read's rewritten content.
    #[wasm_bindgen(js_name = supplyBytes)]
    pub fn supply_bytes(&mut self, index: usize, bytes: Option<Vec<u8>>) {
        if let Some(read) = self.inner.reads().get(index) {
            let answer = Answer::from_bytes(read, bytes);
            self.inner.supply(index, answer);
        }
    }

    /// Answers a `contents` read: the values' bytes one after another, `lengths[i]` how many
    /// are value `i`'s, `present[i]` 0 where value `i` is missing.
    #[wasm_bindgen(js_name = supplyContents)]
    pub fn supply_contents(
        &mut self,
        index: usize,
        bytes: &[u8],
        lengths: &[u32],
        present: &[u8],
    ) -> Result<(), JsValue> {
        let answer = Answer::contents_from_parts(bytes, lengths, present).ok_or_else(|| {
            js_error(fill(
                "the answer to read {} runs past its bytes",
                &[&decimal(index as u64)],
            ))
        })?;
        self.inner.supply(index, answer);
        Ok(())
    }

    /// Answers a `headContent` read with the key found and its bytes (both `undefined` when
    /// none was found).
    #[wasm_bindgen(js_name = supplyHead)]
    pub fn supply_head(&mut self, index: usize, key: Option<String>, bytes: Option<Vec<u8>>) {
        let found = key.zip(bytes);
        self.inner.supply(index, Answer::Head(found));
    }

    /// The content a `policy` read asks about: the bytes about to be written.
    #[wasm_bindgen(js_name = readBytes)]
    pub fn read_bytes(&self, index: usize) -> Result<Vec<u8>, JsValue> {
        self.inner
            .read_bytes(index)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| js_error(fill("read {} carries no bytes", &[&decimal(index as u64)])))
    }

    /// Runs the command on with the answers; true when the outcome is ready.
    pub fn resume(&mut self) -> bool {
        self.inner.resume()
    }

    /// The outcome as JSON (docs/ARCHITECTURE.md), with `"content": null` where the result is
    /// text (`text()` gives the text) and `"writeCount": n` where its writes would be
    /// (`writes(…)` gives them, a slice at a time).
    #[wasm_bindgen(js_name = outcomeHead)]
    pub fn outcome_head(&self) -> Result<String, JsValue> {
        self.inner
            .outcome()
            .map(|o| o.to_json_head())
            .ok_or_else(|| js_error("the command has not finished"))
    }

    /// The outcome's writes from number `from` on, as a JSON list: at most `max_writes`, and
    /// none after the one whose content brings the list's to `max_bytes`; one at least while
    /// any are left.
    pub fn writes(
        &self,
        from: usize,
        max_writes: usize,
        max_bytes: usize,
    ) -> Result<String, JsValue> {
        self.inner
            .outcome()
            .map(|o| o.writes_json(from, max_writes, max_bytes))
            .ok_or_else(|| js_error("the command has not finished"))
    }

    /// The result text of the finished command (empty for an image).
    pub fn text(&self) -> Result<String, JsValue> {
        self.inner
            .outcome()
            .map(|o| o.text_content().to_string())
            .ok_or_else(|| js_error("the command has not finished"))
    }

    /// The bytes of write number `index`, a `putContent` (its `"bytes"` in the outcome).
    #[wasm_bindgen(js_name = writeBytes)]
    pub fn write_bytes(&self, index: usize) -> Result<js_sys::Uint8Array, JsValue> {
        // Copied once, from wasm memory into a new JS array (a `Vec` return would be copied
        // twice: into the Vec, then out of it).
        self.inner
            .outcome()
            .and_then(|o| o.content_write(index))
            .map(js_sys::Uint8Array::from)
            .ok_or_else(|| {
                js_error(fill(
                    "write number {} puts no content",
                    &[&decimal(index as u64)],
                ))
            })
    }
}

/// The streamed export (docs/TOOL.md#bundles): the core's cursor, which decides every read,
/// entry, omission and byte of the bundle; its calling contract is the core's
/// (`commands::bundle::ExportCursor`). Each page it asks for runs as an ordinary read-only
/// `Task` (`page`), which the driver runs and frees as any other: the cursor lives on.
#[wasm_bindgen]
#[derive(Debug)]
pub struct ExportCursor {
    inner: Rc<RefCell<crate::commands::bundle::ExportCursor>>,
}

#[wasm_bindgen]
impl ExportCursor {
    #[wasm_bindgen(constructor)]
    pub fn new(include_versions: bool) -> ExportCursor {
        ExportCursor {
            inner: Rc::new(RefCell::new(
                crate::commands::bundle::ExportCursor::streamed(include_versions),
            )),
        }
    }

    /// What to do next: `read` (run `page()`), `format`, `wait`, `restart`, `failed` or `done`.
    pub fn step(&self) -> String {
        self.inner.borrow_mut().step().as_str().to_string()
    }

    /// The page `step` just began, as a task of its own.
    pub fn page(&self) -> Task {
        task(crate::session::task::Task::export_page(self.inner.clone()))
    }

    /// Why the export failed (after `failed`).
    pub fn failure(&self) -> String {
        self.inner.borrow().failure()
    }

    /// The bundle's next text, as UTF-8 (a Blob part as it is).
    pub fn format(&self) -> js_sys::Uint8Array {
        js_sys::Uint8Array::from(self.inner.borrow_mut().format().as_bytes())
    }

    /// The bundle's end, as UTF-8.
    pub fn finish(&self) -> js_sys::Uint8Array {
        js_sys::Uint8Array::from(self.inner.borrow_mut().finish().as_bytes())
    }

    /// The progress report due now, `[done, total]`, or `undefined`.
    pub fn progress(&self) -> Option<Vec<f64>> {
        self.inner
            .borrow_mut()
            .progress()
            .map(|(done, total)| vec![done as f64, total as f64])
    }
}
