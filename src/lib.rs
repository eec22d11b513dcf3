//! memory-tool-wasm: Claude's memory tool (`memory_20250818`) as a sans-IO core.
//!
//! The core parses the model's tool input, checks paths, and turns a command plus the store
//! records it asked for into the exact `tool_result` and the exact writes. Storage (IndexedDB
//! in a browser) belongs to the host; see `docs/ARCHITECTURE.md` for the layers:
//!
//! `format` → `model` → `protocol` → `commands` → `session` → `wasm` (feature `wasm`) and
//! `harness` (feature `harness`, for tests): each module may use only those before it.
//!
//! ```
//! use memory_tool_wasm::harness::MemStore;
//! use memory_tool_wasm::Config;
//! let mut store = MemStore::new(Config::default());
//! let created = store.execute(r#"{"command":"create","path":"/memories/a.md","file_text":"hi"}"#);
//! assert_eq!(created.text_content(), "File created successfully at: /memories/a.md");
//! ```
#![warn(unreachable_pub, missing_debug_implementations)]

mod commands;
mod format;
mod model;
mod protocol;
mod session;

#[cfg(feature = "harness")]
pub mod harness;
#[cfg(all(feature = "wasm", target_arch = "wasm32"))]
pub mod wasm;

#[cfg(feature = "harness")]
pub use harness::{import_in_parts, Counts, MemMounts, MemStore, PendingWrite, WritePolicy};

pub use commands::bundle::{BundleReader, ExportCursor, ExportStep};
pub use commands::methods::refuse_unknown;
pub use commands::{Context, Operation};
pub use format::json::{quote, write_value, Json, JsonNumber, JsonStr};
pub use format::listing::ListingEntry;
pub use format::render::format_size;
pub use model::clock::StoreClock;
pub use model::config::Config;
pub use model::error::{Detail, ErrorCode, ToolError};
pub use model::input::{parse_tool_input, ToolCommand};
pub use model::path::{normalises_alike, tool_path, MemoryPath};
pub use model::record::{sha256_hex, Change, VersionRecord};
pub use model::record::{FileRecord, HistoryCount};
pub use model::store::{slug, StoreRecord};
pub use protocol::{
    storage_failure_text, Answer, Content, Decision, Outcome, Read, Write, WriteKind,
};
pub use session::plan::{mount_infos, plan_mounts, system_prompt, MountInfo};
pub use session::task::{Target, Task};
pub use session::{Session, Start};
