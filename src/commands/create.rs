//! `create` (docs/TOOL.md#create): a new file, never over an existing entry (unless the host allows it).

use super::history::{clock_read, Bytes, History};
use super::policy::vet;
use super::rules::{check_count, check_size, fail, file_on_the_way, placement_reads, Voice};
use crate::commands::Context;
use crate::format::render::fill;
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::path::MemoryPath;
use crate::protocol::{Outcome, Read, Snapshot, Stop, WriteKind};

pub(super) fn run(
    path: &MemoryPath,
    file_text: &str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let mut reads = placement_reads(path.key());
    reads.push(clock_read());
    reads.push(Read::Count);
    snap.need(reads)?;
    let key = path.key();
    let existing = snap.file(key);
    let overwrite = cx.config.create_overwrites && existing.is_some() && !path.has_trailing_slash();
    if (path.is_root() || existing.is_some() || snap.has_children(key)) && !overwrite {
        return Err(fail(
            ErrorCode::AlreadyExists,
            fill(texts::FILE_EXISTS, &[path.raw()]),
        ));
    }
    if path.has_trailing_slash() {
        return Err(fail(
            ErrorCode::InvalidPath,
            fill(texts::CREATE_TRAILING_SLASH, &[path.raw()]),
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
    let content = vet(
        key,
        path.raw(),
        file_text.as_bytes(),
        WriteKind::Create,
        cx,
        snap,
    )?;
    check_size(cx, Voice::Model, path.raw(), content.len())?;
    if existing.is_none() {
        check_count(cx, snap, Voice::Model, path.raw(), 1)?;
    }
    let mut history = History::new(cx, snap);
    let bytes = Bytes::New(&content);
    match existing {
        Some(record) => history.modify(record, key, bytes),
        None => history.create(key, bytes, None),
    };
    Ok(Outcome::text(
        fill(texts::CREATED, &[path.raw()]),
        history.finish(snap, Voice::Model)?,
    ))
}
