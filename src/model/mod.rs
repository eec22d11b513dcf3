//! The domain: tool input, paths, records, ids, times, stores, limits, errors and the rules
//! of what may be stored. Nothing here knows the protocol, a command or JavaScript.

pub(crate) mod actor;
pub(crate) mod clock;
pub(crate) mod config;
pub(crate) mod error;
pub(crate) mod ids;
pub(crate) mod input;
pub(crate) mod lowercase;
pub(crate) mod path;
pub(crate) mod record;
pub(crate) mod secrets;
pub(crate) mod store;
pub(crate) mod time;
pub(crate) mod uneven;
