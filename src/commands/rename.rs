//! `rename` (docs/TOOL.md#rename): move a file or a directory; never overwrite; all or nothing.

use super::history::{clock_read, Bytes, History};
use super::policy::vet_moves;
use super::rules::{fail, file_on_the_way, placement_reads, Voice};
use crate::commands::Context;
use crate::format::render::{cat, fill, group};
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::path::{MemoryPath, MAX_PATH_BYTES};
use crate::model::record::FileRecord;
use crate::protocol::{Outcome, Read, Snapshot, Stop};

pub(super) fn run(
    old_path: &MemoryPath,
    new_path: &MemoryPath,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    if old_path.is_root() {
        let what = if cx.is_sub_mount() {
            fill(texts::THE_MOUNT, &[&cx.mount_prefix])
        } else {
            texts::THE_MEMORIES_DIRECTORY.to_string()
        };
        return Err(fail(
            ErrorCode::RootProtected,
            fill(texts::RENAME_ROOT, &[&what]),
        ));
    }
    let (from, to) = (old_path.key(), new_path.key());
    let mut reads = vec![
        Read::File(from.into()),
        Read::Subtree(from.into()),
        clock_read(),
    ];
    if !new_path.is_root() {
        reads.extend(placement_reads(new_path.key()));
    }
    snap.need(reads)?;

    let source: Vec<&FileRecord> = snap
        .file(from)
        .into_iter()
        .chain(snap.subtree(from))
        .collect();
    let destination_exists = new_path.is_root()
        || snap.file(to).is_some()
        || snap.has_children(to)
        || (to == from && !source.is_empty());
    if destination_exists {
        return Err(fail(
            ErrorCode::AlreadyExists,
            fill(texts::DESTINATION_EXISTS, &[new_path.raw()]),
        ));
    }
    if source.is_empty() {
        return Err(fail(
            ErrorCode::NotFound,
            fill(texts::NOT_FOUND, &[old_path.raw()]),
        ));
    }
    if to.starts_with(from) && to.as_bytes().get(from.len()) == Some(&b'/') {
        return Err(fail(
            ErrorCode::PathConflict,
            fill(texts::MOVE_INTO_ITSELF, &[old_path.raw()]),
        ));
    }
    if let Some(parent) =
        file_on_the_way(new_path.key(), None, snap).map(|(depth, _, _)| new_path.raw_prefix(depth))
    {
        return Err(fail(
            ErrorCode::PathConflict,
            fill(texts::FILE_ON_THE_WAY, &[new_path.raw(), &parent]),
        ));
    }
    let mut moves: Vec<(&FileRecord, String)> = Vec::with_capacity(source.len());
    for record in source {
        let moved_key = cat(&[to, record.path.get(from.len()..).unwrap_or_default()]);
        if cx.tool_path(&moved_key).len() > MAX_PATH_BYTES {
            return Err(fail(
                ErrorCode::InvalidPath,
                fill(
                    texts::RENAME_TOO_LONG,
                    &[
                        old_path.raw(),
                        new_path.raw(),
                        &cx.tool_path(&moved_key),
                        &group(MAX_PATH_BYTES as u64),
                    ],
                ),
            ));
        }
        moves.push((record, moved_key));
    }
    // The policy sees each file's move, from its old path to its new one.
    let asked: Vec<(&str, &str)> = moves
        .iter()
        .map(|(record, key)| (record.path.as_str(), key.as_str()))
        .collect();
    vet_moves(&asked, old_path.raw(), new_path.raw(), cx, snap)?;
    let mut history = History::new(cx, snap);
    // A directory moves whole: everything below its old key goes.
    history.emptying(from);
    for (record, moved_key) in &moves {
        let bytes = Bytes::Stored {
            key: &record.content,
            size: record.size,
            sha256: &record.sha256,
        };
        history.modify(record, moved_key, bytes);
    }
    Ok(Outcome::text(
        fill(texts::RENAMED, &[old_path.raw(), new_path.raw()]),
        history.finish(snap, Voice::Model)?,
    ))
}
