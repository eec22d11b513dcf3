//! `str_replace` and `insert` (docs/TOOL.md#str_replace, docs/TOOL.md#insert): edits of one text file.

use super::history::{clock_read, may_read_history, Bytes, History};
use super::policy::vet;
use super::rules::{check_size, fail, Voice};
use crate::commands::Context;
use crate::format::json::JsonNumber;
use crate::format::render::{decimal, fill, numbered_lines};
use crate::format::render::{echo, line_list};
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::path::MemoryPath;
use crate::model::record::FileRecord;
use crate::protocol::{Outcome, Read, Snapshot, Stop, WriteKind};

/// The file at `path` and its text; `missing` is the message when there is no such file.
fn load_text<'s>(
    path: &MemoryPath,
    cx: &Context,
    snap: &'s Snapshot,
    missing: String,
) -> Result<(&'s FileRecord, &'s str), Stop> {
    // The head's bytes by the file key, with the record: one round for most edits
    // (`Read::HeadContent`).
    snap.need(vec![
        Read::File(path.key().into()),
        Read::HeadContent(path.key().into()),
        clock_read(),
    ])?;
    let Some(record) = snap.file(path.key()) else {
        return Err(fail(ErrorCode::NotFound, missing));
    };
    // The history budget (docs/TOOL.md#history-budget) reads the memory's version records
    // when the record has not counted them or the edit may not fit: then in the same round
    // as the bytes, as a round of its own would make the edit wait for one more. A counted
    // memory well within budget needs no read at all.
    let mut reads = vec![Read::Content(record.content.clone())];
    if may_read_history(record, cx) {
        reads.push(Read::History(record.id.clone()));
    }
    snap.need(reads)?;
    let bytes = snap.content(&record.content).unwrap_or_default();
    let text = std::str::from_utf8(bytes)
        .map_err(|_| fail(ErrorCode::NotText, fill(texts::NOT_TEXT, &[path.raw()])))?;
    Ok((record, text))
}

pub(super) fn str_replace(
    path: &MemoryPath,
    old_str: &str,
    new_str: &str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let missing = fill(texts::EDIT_NOT_FOUND, &[path.raw()]);
    let (record, text) = load_text(path, cx, snap, missing)?;
    // Occurrences, without overlap from the left, with the line each starts on.
    let mut lines_of_matches = Vec::new();
    let mut line = 1;
    let mut scanned = 0;
    for at in crate::format::search::match_indices(text, old_str) {
        line += text.get(scanned..at).map_or(0, |s| s.matches('\n').count());
        scanned = at;
        lines_of_matches.push((at, line));
    }
    let (at, first_line) = match lines_of_matches.as_slice() {
        [] => {
            return Err(fail(
                ErrorCode::NoMatch,
                fill(texts::NO_MATCH, &[&echo(old_str), path.raw()]),
            ))
        }
        [only] => *only,
        many => {
            let lines: Vec<usize> = many.iter().map(|(_, l)| *l).collect();
            return Err(fail(
                ErrorCode::MultipleMatches,
                fill(
                    texts::MULTIPLE_MATCHES,
                    &[&echo(old_str), &line_list(&lines)],
                ),
            ));
        }
    };
    let before = text.get(..at).unwrap_or_default();
    let after = text.get(at + old_str.len()..).unwrap_or_default();
    let new_text = [before, new_str, after].concat();
    let stored = vetted(path, &new_text, cx, snap)?;
    // The snippet shows what was stored: a write policy may have rewritten it (only then is
    // there anything to decode again).
    let new_text = match &stored {
        std::borrow::Cow::Borrowed(_) => std::borrow::Cow::Borrowed(new_text.as_str()),
        std::borrow::Cow::Owned(bytes) => String::from_utf8_lossy(bytes),
    };

    let lines: Vec<&str> = new_text.split('\n').collect();
    let last_line = first_line + new_str.matches('\n').count();
    let from = first_line.saturating_sub(2).max(1);
    let to = (last_line + 2).min(lines.len());
    let shown = lines.get(from - 1..to).unwrap_or_default();
    let snippet = numbered_lines(shown, from, lines.len(), cx.config.max_view_chars);
    Ok(Outcome::text(
        fill(texts::EDITED_SNIPPET, &[&snippet]),
        modify(record, &stored, cx, snap)?,
    ))
}

/// The writes that give `record` its new bytes.
fn modify(
    record: &FileRecord,
    bytes: &[u8],
    cx: &Context,
    snap: &Snapshot,
) -> Result<Vec<crate::protocol::Write>, Stop> {
    let mut history = History::new(cx, snap);
    history.modify(record, &record.path, Bytes::New(bytes));
    history.finish(snap, Voice::Model)
}

pub(super) fn insert(
    path: &MemoryPath,
    insert_line: &JsonNumber,
    insert_text: &str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let missing = fill(texts::NOT_FOUND, &[path.raw()]);
    let (record, text) = load_text(path, cx, snap, missing)?;
    let mut lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len();
    let line = insert_line.integer.unwrap_or(-1);
    if line < 0 || line > n as i64 {
        return Err(fail(
            ErrorCode::InvalidRange,
            fill(
                texts::INSERT_LINE_RANGE,
                &[&echo(&insert_line.shown()), &decimal(n as u64)],
            ),
        ));
    }
    let added = insert_text.strip_suffix('\n').unwrap_or(insert_text);
    lines.insert(line as usize, added);
    let new_text = lines.join("\n");
    let stored = vetted(path, &new_text, cx, snap)?;
    Ok(Outcome::text(
        fill(texts::INSERTED, &[path.raw()]),
        modify(record, &stored, cx, snap)?,
    ))
}

/// An edit's new text as it will be stored: asked of the write policy (which may rewrite it)
/// and held to the file size limit.
fn vetted<'t>(
    path: &MemoryPath,
    new_text: &'t str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<std::borrow::Cow<'t, [u8]>, Stop> {
    let stored = vet(
        path.key(),
        path.raw(),
        new_text.as_bytes(),
        WriteKind::Modify,
        cx,
        snap,
    )?;
    check_size(cx, Voice::Model, path.raw(), stored.len())?;
    Ok(stored)
}
