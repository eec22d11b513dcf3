//! `rename` (docs/TOOL.md#rename): move a file or a directory; never overwrite; all or nothing.

use super::history::{clock_read, Bytes, History};
use super::rules::{fail, file_on_the_way, placement_reads};
use crate::commands::Context;
use crate::format::render::{cat, fill, group};
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
            fill("the mount {}", &[&cx.mount_prefix])
        } else {
            "the /memories directory".to_string()
        };
        return Err(fail(
            ErrorCode::RootProtected,
            fill("Error: Cannot rename {} itself", &[&what]),
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
            fill(
                "Error: The destination {} already exists",
                &[new_path.raw()],
            ),
        ));
    }
    if source.is_empty() {
        return Err(fail(
            ErrorCode::NotFound,
            fill("Error: The path {} does not exist", &[old_path.raw()]),
        ));
    }
    if to.starts_with(from) && to.as_bytes().get(from.len()) == Some(&b'/') {
        return Err(fail(
            ErrorCode::PathConflict,
            fill("Error: Cannot move {} into itself", &[old_path.raw()]),
        ));
    }
    if let Some(parent) =
        file_on_the_way(new_path.key(), None, snap).map(|(depth, _, _)| new_path.raw_prefix(depth))
    {
        return Err(fail(
            ErrorCode::PathConflict,
            fill(
                "Error: Cannot create {}: {} is a file",
                &[new_path.raw(), &parent],
            ),
        ));
    }
    let mut history = History::new(cx, snap);
    for record in source {
        let moved_key = cat(&[to, record.path.get(from.len()..).unwrap_or_default()]);
        if cx.tool_path(&moved_key).len() > MAX_PATH_BYTES {
            return Err(fail(
                ErrorCode::InvalidPath,
                fill(
                    "Error: Cannot rename {} to {}: the path {} would be longer than {} bytes",
                    &[
                        old_path.raw(),
                        new_path.raw(),
                        &cx.tool_path(&moved_key),
                        &group(MAX_PATH_BYTES as u64),
                    ],
                ),
            ));
        }
        let bytes = Bytes::Stored {
            key: &record.content,
            size: record.size,
            sha256: &record.sha256,
        };
        history.modify(record, &moved_key, bytes);
    }
    Ok(Outcome::text(
        fill(
            "Successfully renamed {} to {}",
            &[old_path.raw(), new_path.raw()],
        ),
        history.into_writes(),
    ))
}
