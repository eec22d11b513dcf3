//! The `#[wasm_bindgen]` surface and nothing else: JSON text and bytes in, JSON text and bytes
//! out, one `Task` per command (see docs/ARCHITECTURE.md).

use crate::commands::Operation;
use crate::engine::{Answer, Config, Context, Read};
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

/// Limits and access for the commands it starts.
#[wasm_bindgen]
pub struct Engine {
    config: Config,
}

#[wasm_bindgen]
impl Engine {
    /// `configJson`: `{"maxFileBytes","maxFiles","readOnly","maxViewChars","createOverwrites"}`.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<Engine, JsValue> {
        #[cfg(debug_assertions)]
        console_error_panic_hook::set_once();
        let config = Config::from_json(config_json).map_err(js_error)?;
        Ok(Engine { config })
    }

    fn task(&self, operation: Operation, now_ms: f64, entropy: &[u8], actor: &str) -> Task {
        // An actor that is not a JSON object is recorded as unknown rather than trusted.
        let actor = match crate::json::Json::parse(actor) {
            Some(crate::json::Json::Object(_)) => actor,
            _ => "null",
        };
        let mut seed = [0u8; 16];
        for (slot, byte) in seed.iter_mut().zip(entropy) {
            *slot = *byte;
        }
        let context = Context {
            config: self.config.clone(),
            now: now_ms as i64,
            seed,
            actor: actor.to_string(),
        };
        Task {
            inner: crate::engine::Task::new(operation, context),
        }
    }

    /// Starts a tool command from the model's input as JSON text. `actor_json` says who the
    /// change is by (`{"type":"tool","tool_use_id":…}`), recorded in versions.
    pub fn start(&self, input_json: &str, now_ms: f64, entropy: &[u8], actor_json: &str) -> Task {
        self.task(Operation::tool(input_json), now_ms, entropy, actor_json)
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
        self.task(
            Operation::host_write(path, content),
            now_ms,
            entropy,
            actor_json,
        )
    }

    /// Starts a host call (`{"call":"memories.list", …}`, see docs/ARCHITECTURE.md).
    #[wasm_bindgen(js_name = startHost)]
    pub fn start_host(
        &self,
        call_json: &str,
        now_ms: f64,
        entropy: &[u8],
        actor_json: &str,
    ) -> Task {
        self.task(Operation::host(call_json), now_ms, entropy, actor_json)
    }
}

/// One command in progress.
#[wasm_bindgen]
pub struct Task {
    inner: crate::engine::Task,
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

    /// Whether the outcome is ready (no storage needed when it is at once).
    pub fn done(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// This round's reads as a JSON array.
    pub fn reads(&self) -> String {
        let reads: Vec<String> = self.inner.reads().iter().map(Read::to_json).collect();
        format!("[{}]", reads.join(","))
    }

    /// Answers read `index` with JSON (a record or null, an array of records, a boolean, a count).
    pub fn supply(&mut self, index: usize, json: &str) -> Result<(), JsValue> {
        let read = self
            .inner
            .reads()
            .get(index)
            .ok_or_else(|| js_error(format!("no read number {index} in this round")))?;
        let answer = Answer::from_json(read, json)
            .ok_or_else(|| js_error(format!("the answer to read {index} is malformed")))?;
        self.inner.supply(index, answer);
        Ok(())
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
            .ok_or_else(|| js_error(format!("read {index} carries no bytes")))
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

    /// The bytes of `putContent` write number `index`.
    #[wasm_bindgen(js_name = writeBytes)]
    pub fn write_bytes(&self, index: usize) -> Result<Vec<u8>, JsValue> {
        self.inner
            .outcome()
            .and_then(|o| o.content_writes().nth(index))
            .map(<[u8]>::to_vec)
            .ok_or_else(|| js_error(format!("no content write number {index}")))
    }
}
