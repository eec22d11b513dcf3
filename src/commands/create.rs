//! `create` (SPEC §3): a new file, never over an existing entry (unless the host allows it).

use super::history::{Bytes, History};
use super::policy::vet;
use super::{check_file_size, fail, file_on_the_way, placement_reads};
use crate::commands::Context;
use crate::format::render::{fill, group};
use crate::model::error::ErrorCode;
use crate::model::path::MemoryPath;
use crate::protocol::{Outcome, Read, Snapshot, Stop};

pub(super) fn run(
    path: &MemoryPath,
    file_text: &str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let mut reads = placement_reads(path);
    reads.push(Read::Count);
    snap.need(reads)?;
    let key = path.key();
    let existing = snap.file(key);
    let overwrite = cx.config.create_overwrites && existing.is_some() && !path.has_trailing_slash();
    if (path.is_root() || existing.is_some() || snap.has_children(key)) && !overwrite {
        return Err(fail(
            ErrorCode::AlreadyExists,
            fill("Error: File {} already exists", &[path.raw()]),
        ));
    }
    if path.has_trailing_slash() {
        return Err(fail(
            ErrorCode::InvalidPath,
            fill(
                "Error: Cannot create {}: a file path must not end with '/'",
                &[path.raw()],
            ),
        ));
    }
    if let Some(parent) = file_on_the_way(path, snap) {
        return Err(fail(
            ErrorCode::PathConflict,
            fill(
                "Error: Cannot create {}: {} is a file",
                &[path.raw(), &parent],
            ),
        ));
    }
    let content = vet(key, path.raw(), file_text.as_bytes(), cx, snap)?;
    check_file_size(path, content.len(), cx)?;
    if existing.is_none() {
        check_file_count(path, cx, snap)?;
    }
    let mut history = History::new(cx, snap);
    let bytes = Bytes::New(&content);
    match existing {
        Some(record) => history.modify(record, key, bytes),
        None => history.create(key, bytes, None),
    };
    Ok(Outcome::text(
        fill("File created successfully at: {}", &[path.raw()]),
        history.into_writes(),
    ))
}

/// SPEC §4 per-store limit, for a write that adds a file.
pub(super) fn check_file_count(
    path: &MemoryPath,
    cx: &Context,
    snap: &Snapshot,
) -> Result<(), Stop> {
    if snap.count() >= cx.config.max_files {
        return Err(fail(
            ErrorCode::LimitExceeded,
            fill(
                "Error: Cannot create {}: the store already holds {} files, its limit",
                &[path.raw(), &group(cx.config.max_files)],
            ),
        ));
    }
    Ok(())
}
