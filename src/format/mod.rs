//! Text formats below everything else: the JSON reader and writer, numbers and sizes as the
//! model reads them, substring search, directory listings, and the texts themselves
//! (`texts`: every text the model reads, as templates, data with no rule of its own; they live
//! here because the model layer's input and path checks say them too). Nothing here decides
//! anything about a command.

pub(crate) mod json;
pub(crate) mod listing;
pub(crate) mod render;
pub(crate) mod search;
pub(crate) mod sort;
pub(crate) mod texts;
