//! `writeFile`: the host puts a file (text or binary) where the tool would, by the tool's rules.

use super::history::{clock_read, Bytes, History};
use super::policy::vet;
use super::rules::{check_count, check_size, fail, file_on_the_way, placement_reads, Voice};
use crate::commands::Context;
use crate::format::render::fill;
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::path::MemoryPath;
use crate::protocol::{Outcome, Read, Snapshot, Stop, WriteKind};

/// Creates or overwrites a file with `bytes` (text or binary), under the tool's path rules,
/// limits and access.
pub(super) fn write(
    path: &MemoryPath,
    bytes: &[u8],
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let mut reads = placement_reads(path.key());
    reads.push(clock_read());
    reads.push(Read::Count);
    snap.need(reads)?;
    let key = path.key();
    if path.is_root() || snap.has_children(key) {
        return Err(fail(
            ErrorCode::PathConflict,
            fill(texts::WRITE_TO_DIRECTORY, &[path.raw()]),
        ));
    }
    if path.has_trailing_slash() {
        return Err(fail(
            ErrorCode::InvalidPath,
            fill(texts::WRITE_TRAILING_SLASH, &[path.raw()]),
        ));
    }
    if let Some(parent) =
        file_on_the_way(path.key(), None, snap).map(|(depth, _, _)| path.raw_prefix(depth))
    {
        return Err(fail(
            ErrorCode::PathConflict,
            fill(texts::FILE_ON_THE_WAY, &[path.raw(), &parent]),
        ));
    }
    let existing = snap.file(key);
    let operation = if existing.is_some() {
        WriteKind::Modify
    } else {
        WriteKind::Create
    };
    let bytes = vet(key, path.raw(), bytes, operation, cx, snap)?;
    check_size(cx, Voice::Model, path.raw(), bytes.len())?;
    if existing.is_none() {
        check_count(cx, snap, Voice::Model, path.raw(), 1)?;
    }
    let mut history = History::new(cx, snap);
    match existing {
        Some(record) => history.modify(record, key, Bytes::New(&bytes)),
        None => history.create(key, Bytes::New(&bytes), None),
    };
    Ok(Outcome::text(
        fill(texts::WROTE, &[path.raw()]),
        history.finish(snap, Voice::Model)?,
    ))
}
