//! The commands: one module per rule set, each straight-line code over a `Snapshot`.

pub(crate) mod bundle;
pub(crate) mod calls;
mod check;
pub(crate) mod context;
mod create;
mod delete;
mod edit;
pub(crate) mod history;
mod host;
pub(crate) mod memories;
pub(crate) mod methods;
mod operation;
mod policy;
mod rename;
mod retention;
pub(crate) mod rules;
pub(crate) mod stores;
pub(crate) mod versions;
mod view;

pub use context::Context;
pub use operation::Operation;
