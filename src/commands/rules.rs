//! The rules every write obeys, for tool commands and host calls alike: access, the size of a
//! file, the number of files, and where a file may be placed. A check reports in the voice of
//! its caller: to the model (`Error: …`, with the path as the model wrote it) or to the host
//! (the store path, no prefix).

use crate::commands::Context;
use crate::format::render::{cat, fill, group};
use crate::format::texts;
use crate::model::error::{ErrorCode, ToolError};
use crate::model::path::ancestor_keys;
use crate::model::record::FileRecord;
use crate::protocol::{Damage, Read, Snapshot, Stop};

/// Who a refusal is told to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Voice {
    /// The model, in a tool result: the text starts with `Error: `.
    Model,
    /// The host, in a typed error: the text as it is.
    Host,
}

impl Voice {
    pub(crate) fn say(self, text: String) -> String {
        match self {
            Voice::Model => cat(&["Error: ", &text]),
            Voice::Host => text,
        }
    }
}

/// A refusal in the model's words, told to the host: without the model's `Error: ` mark (a
/// host write's refusals are the tool's texts, docs/TOOL.md#host-api-messages).
pub(crate) fn for_host(mut error: ToolError) -> ToolError {
    if let Some(text) = error.message.strip_prefix("Error: ") {
        error.message = text.to_string();
    }
    error
}

/// The refusal of a command whose reads met damage (docs/TOOL.md#damaged-records): the
/// memory by its tool path (or id), in the caller's voice.
pub(crate) fn damaged(damage: &Damage, cx: &Context, voice: Voice) -> ToolError {
    let (template, key) = match damage {
        Damage::Record(key) => (texts::DAMAGED_RECORD, key),
        Damage::Content(key) => (texts::DAMAGED_CONTENT, key),
    };
    let name = if key.is_empty() || key.starts_with('/') {
        match voice {
            Voice::Model => cx.tool_path(key),
            Voice::Host => key.clone(),
        }
    } else {
        cat(&["memory ", key])
    };
    ToolError::new(ErrorCode::Damaged, voice.say(fill(template, &[&name])))
}

/// A refusal with its stable code.
pub(crate) fn fail(code: ErrorCode, message: String) -> Stop {
    Stop::Fail(ToolError::new(code, message))
}

/// Read-only access refuses every write, after the input and path checks and before any
/// other (docs/TOOL.md#read-only-access); so does an archived store, once the first round
/// said so (every writing task asks, see `Task`). `what` is the act: `create /memories/a.md`,
/// `update memory mem_…`.
pub(crate) fn refuse_if_read_only(
    cx: &Context,
    snap: &Snapshot,
    voice: Voice,
    what: &str,
) -> Result<(), Stop> {
    if cx.config.read_only {
        return Err(fail(
            ErrorCode::ReadOnly,
            voice.say(fill(texts::READ_ONLY, &[what])),
        ));
    }
    if snap.archived() == Some(true) {
        return Err(fail(
            ErrorCode::Archived,
            voice.say(fill(texts::ARCHIVED_STORE, &[what])),
        ));
    }
    Ok(())
}

/// The per-file limit (docs/TOOL.md#file-size-limit): `size` bytes about to be stored at
/// `shown`.
pub(crate) fn check_size(cx: &Context, voice: Voice, shown: &str, size: usize) -> Result<(), Stop> {
    if size as u64 > cx.config.max_file_bytes {
        return Err(fail(
            ErrorCode::LimitExceeded,
            voice.say(fill(
                texts::FILE_TOO_BIG,
                &[shown, &group(size as u64), &group(cx.config.max_file_bytes)],
            )),
        ));
    }
    Ok(())
}

/// The per-store limit (docs/TOOL.md#file-count-limit) for a write that adds `adding` files
/// (after a `Count` read).
pub(crate) fn check_count(
    cx: &Context,
    snap: &Snapshot,
    voice: Voice,
    shown: &str,
    adding: u64,
) -> Result<(), Stop> {
    if snap.count().saturating_add(adding) > cx.config.max_files {
        return Err(fail(
            ErrorCode::LimitExceeded,
            voice.say(fill(
                texts::TOO_MANY_FILES,
                &[shown, &group(cx.config.max_files)],
            )),
        ));
    }
    Ok(())
}

/// The reads that placing a file at store key `key` needs: the key itself, what lies below
/// it, and every ancestor.
pub(crate) fn placement_reads(key: &str) -> Vec<Read> {
    let mut reads = vec![Read::File(key.into()), Read::HasChildren(key.into())];
    reads.extend(ancestor_keys(key).into_iter().map(Read::File));
    reads
}

/// The first ancestor of `key` that is a file (other than memory `moving`, which may be on
/// the way of its own move), with its depth (1 for the top directory): a file cannot be
/// placed below a file (after `placement_reads(key)`).
pub(crate) fn file_on_the_way<'s>(
    key: &str,
    moving: Option<&str>,
    snap: &'s Snapshot,
) -> Option<(usize, &'s FileRecord, String)> {
    ancestor_keys(key)
        .into_iter()
        .enumerate()
        .find_map(|(depth, ancestor)| {
            snap.file(&ancestor)
                .filter(|r| Some(r.id.as_str()) != moving)
                .map(|record| (depth + 1, record, ancestor))
        })
}
