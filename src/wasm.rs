//! The `#[wasm_bindgen]` surface and nothing else: JSON text and bytes in, JSON text and bytes
//! out, one `Task` per command (see docs/ARCHITECTURE.md).

use crate::commands::Operation;
use crate::engine::{Answer, Context, Outcome, Read};
use crate::json::quote;
use crate::mounts::{Mounts, Routed};
use crate::render::{cat, decimal, fill};
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
    crate::mounts::slug(name)
}

/// Checks `MemoryTool.open`'s mounts against the stores' records (see `mounts::plan_mounts`):
/// `{"ok": plan}` or `{"error": {"code", "message"}}`.
#[wasm_bindgen(js_name = planMounts)]
pub fn plan_mounts(request_json: &str) -> String {
    match crate::mounts::plan_mounts(request_json) {
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
    let mounts = crate::mounts::mount_infos(mounts_json).map_err(js_error)?;
    Ok(crate::mounts::system_prompt(&mounts))
}

/// The mounted stores (limits and access of each) for the commands it starts.
#[wasm_bindgen]
pub struct Engine {
    mounts: Mounts,
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
        let mounts = Mounts::from_json(config_json).map_err(js_error)?;
        Ok(Engine { mounts })
    }

    /// The mount slugs, in order (empty names for a single store).
    pub fn slugs(&self) -> Vec<String> {
        self.mounts.slugs()
    }

    fn routed(&self, operation: Operation, now_ms: f64, entropy: &[u8], actor: &str) -> Task {
        match self.mounts.route(operation) {
            Routed::Mount(mount, operation) => self.task(mount, operation, now_ms, entropy, actor),
            Routed::All(operation) => {
                let mut task = self.task(0, operation, now_ms, entropy, actor);
                task.mount = -1;
                task
            }
            Routed::Done(outcome) => self.done(outcome),
        }
    }

    fn done(&self, outcome: Outcome) -> Task {
        let context = self.context(0, 0.0, &[], "null");
        Task {
            inner: crate::engine::Task::finished(outcome, context),
            mount: 0,
        }
    }

    fn context(&self, mount: usize, now_ms: f64, entropy: &[u8], actor: &str) -> Context {
        let mut seed = [0u8; 16];
        for (slot, byte) in seed.iter_mut().zip(entropy) {
            *slot = *byte;
        }
        let prefix = self.mounts.prefix(mount);
        // With several mounts, versions also say which mount wrote them. An actor that is not
        // a JSON object is recorded as unknown rather than trusted.
        let actor = if self.mounts.len() > 1 {
            crate::mounts::actor_in_mount(actor, &prefix)
        } else {
            match crate::json::Json::parse(actor) {
                Some(crate::json::Json::Object(_)) => actor.to_string(),
                _ => "null".to_string(),
            }
        };
        Context {
            config: self.mounts.config(mount),
            now: now_ms as i64,
            seed,
            actor,
            mount_prefix: prefix,
        }
    }

    fn task(
        &self,
        mount: usize,
        operation: Operation,
        now_ms: f64,
        entropy: &[u8],
        actor: &str,
    ) -> Task {
        Task {
            inner: crate::engine::Task::new(operation, self.context(mount, now_ms, entropy, actor)),
            mount: mount as i32,
        }
    }

    /// Starts a tool command from the model's input as JSON text. `actor_json` says who the
    /// change is by (`{"type":"tool","tool_use_id":…}`), recorded in versions.
    pub fn start(&self, input_json: &str, now_ms: f64, entropy: &[u8], actor_json: &str) -> Task {
        self.routed(Operation::tool(input_json), now_ms, entropy, actor_json)
    }

    /// `start` with the input JSON as UTF-8 bytes: for big inputs, as JS's `TextEncoder` makes
    /// them far faster than wasm-bindgen passes a string (a JS loop per character). Bytes that
    /// are not UTF-8 are refused as malformed input.
    #[wasm_bindgen(js_name = startUtf8)]
    pub fn start_utf8(&self, input: &[u8], now_ms: f64, entropy: &[u8], actor_json: &str) -> Task {
        let text = std::str::from_utf8(input).unwrap_or_default();
        self.start(text, now_ms, entropy, actor_json)
    }

    /// Starts a host write of `content` to the tool path `path`.
    #[wasm_bindgen(js_name = startWrite)]
    pub fn start_write(
        &self,
        path: &str,
        content: Vec<u8>,
        now_ms: f64,
        entropy: &[u8],
        actor_json: &str,
    ) -> Task {
        self.routed(
            Operation::host_write(path, content),
            now_ms,
            entropy,
            actor_json,
        )
    }

    /// Starts a host call (`{"call":"memories.list", …}`, see docs/ARCHITECTURE.md) on mount
    /// number `mount` (0 for a single store).
    #[wasm_bindgen(js_name = startHost)]
    pub fn start_host(
        &self,
        call_json: &str,
        now_ms: f64,
        entropy: &[u8],
        actor_json: &str,
        mount: usize,
    ) -> Task {
        if mount >= self.mounts.len() {
            return self.done(Outcome::failure(crate::error::ToolError::new(
                crate::error::ErrorCode::InvalidInput,
                fill("no mount number {}", &[&decimal(mount as u64)]),
            )));
        }
        self.task(
            mount,
            Operation::host(call_json),
            now_ms,
            entropy,
            actor_json,
        )
    }

    /// `startHost` with the call JSON as UTF-8 bytes (see `startUtf8`): imports of big bundles.
    #[wasm_bindgen(js_name = startHostUtf8)]
    pub fn start_host_utf8(
        &self,
        call: &[u8],
        now_ms: f64,
        entropy: &[u8],
        actor_json: &str,
        mount: usize,
    ) -> Task {
        let text = std::str::from_utf8(call).unwrap_or_default();
        self.start_host(text, now_ms, entropy, actor_json, mount)
    }
}

/// One command in progress.
#[wasm_bindgen]
pub struct Task {
    inner: crate::engine::Task,
    /// The mount whose store the command runs on; -1 for all (the view of `/memories`).
    mount: i32,
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
        self.mount
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

    /// Answers content read `index` with its bytes (`undefined` when missing).
    #[wasm_bindgen(js_name = supplyBytes)]
    pub fn supply_bytes(&mut self, index: usize, bytes: Option<Vec<u8>>) {
        self.inner.supply(index, Answer::Content(bytes));
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

    /// The outcome as JSON (see docs/ARCHITECTURE.md).
    pub fn outcome(&self) -> Result<String, JsValue> {
        self.inner
            .outcome()
            .map(|o| o.to_json())
            .ok_or_else(|| js_error("the command has not finished"))
    }

    /// `outcome()` with `"content": null` where the result is text; `text()` gives the text.
    #[wasm_bindgen(js_name = outcomeWithoutText)]
    pub fn outcome_without_text(&self) -> Result<String, JsValue> {
        self.inner
            .outcome()
            .map(|o| o.to_json_without_text())
            .ok_or_else(|| js_error("the command has not finished"))
    }

    /// The result text of the finished command (empty for an image).
    pub fn text(&self) -> Result<String, JsValue> {
        self.inner
            .outcome()
            .map(|o| o.text_content().to_string())
            .ok_or_else(|| js_error("the command has not finished"))
    }

    /// The bytes of `putContent` write number `index`.
    #[wasm_bindgen(js_name = writeBytes)]
    pub fn write_bytes(&self, index: usize) -> Result<js_sys::Uint8Array, JsValue> {
        // Copied once, from wasm memory into a new JS array (a `Vec` return would be copied
        // twice: into the Vec, then out of it).
        self.inner
            .outcome()
            .and_then(|o| o.content_writes().nth(index))
            .map(js_sys::Uint8Array::from)
            .ok_or_else(|| {
                js_error(fill(
                    "no content write number {}",
                    &[&decimal(index as u64)],
                ))
            })
    }
}
