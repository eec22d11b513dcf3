//! Export and import of a whole store as a JSON bundle in the memory stores API's shapes
//! (docs/TOOL.md#bundles), one module per job: `export` walks a store (the one-call export and
//! the streamed one are the same cursor), `entries` writes a memory or a version, `parse`
//! reads and checks a bundle, `import` writes a checked bundle into a store, all or nothing.

mod entries;
mod export;
mod import;
mod parse;

pub(crate) use export::export;
pub use export::{ExportCursor, ExportStep};
pub(crate) use import::import;
pub use parse::BundleReader;
pub(crate) use parse::{Bundle, OnConflict};

/// The bundle's `format`.
pub(crate) const FORMAT: &str = "memory-tool-wasm/bundle";
