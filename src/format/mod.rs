//! Text formats below everything else: the JSON reader and writer, numbers and sizes as the
//! model reads them, substring search, directory listings. Nothing here knows a command.

pub(crate) mod json;
pub(crate) mod listing;
pub(crate) mod render;
pub(crate) mod search;
pub(crate) mod sort;
pub(crate) mod texts;
