//! Helpers shared by the native integration tests.
#![allow(dead_code)]

use memory_tool_wasm::{Config, Content, MemStore, Operation, Outcome};

/// A store holding `files` (tool path, text), written by the host before `config` (limits,
/// access) takes effect.
pub fn store_with(config: Config, files: &[(&str, &str)]) -> MemStore {
    let mut store = MemStore::new(Config::default());
    for (path, text) in files {
        let outcome = store.run(Operation::host_write(path, text.as_bytes().to_vec()));
        assert!(
            !outcome.is_error(),
            "setup write {path}: {:?}",
            outcome.content
        );
    }
    store.config = config;
    store
}

/// The JSON text of a string.
pub fn q(s: &str) -> String {
    memory_tool_wasm::quote(s)
}

/// The outcome's text and error flag.
pub fn result(outcome: &Outcome) -> (String, bool) {
    match &outcome.content {
        Content::Text(t) => (t.clone(), outcome.is_error()),
        Content::Image { media_type, data } => {
            (format!("[image {media_type} {data}]"), outcome.is_error())
        }
    }
}
