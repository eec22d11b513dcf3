//! memory-tool-wasm: Claude's memory tool (`memory_20250818`) as a sans-IO core.
//!
//! The core parses the model's tool input, checks paths, and turns a command plus the store
//! records it asked for into the exact `tool_result` and the exact writes. Storage (IndexedDB
//! in a browser) belongs to the host; see `docs/ARCHITECTURE.md`.
//!
//! ```
//! use memory_tool_wasm::{Config, MemStore};
//! let mut store = MemStore::new(Config::default());
//! let created = store.execute(r#"{"command":"create","path":"/memories/a.md","file_text":"hi"}"#);
//! assert_eq!(created.text_content(), "File created successfully at: /memories/a.md");
//! ```

pub mod commands;
pub mod engine;
pub mod error;
pub mod input;
pub mod json;
pub mod listing;
pub mod mem_store;
pub mod mounts;
pub mod path;
pub mod record;
pub mod render;
pub mod search;
pub mod secrets;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use commands::Operation;
pub use engine::{Answer, Config, Content, Context, Outcome, Read, Task, Write};
pub use error::{ErrorCode, ToolError};
pub use mem_store::MemStore;
pub use record::FileRecord;
