//! `delete` (docs/TOOL.md#delete): a file, or a directory with everything below it.

use super::history::{clock_read, History};
use super::policy::vet_deletes;
use super::rules::{fail, Voice};
use crate::commands::Context;
use crate::format::render::fill;
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::path::MemoryPath;
use crate::protocol::{Outcome, Read, Snapshot, Stop};

pub(super) fn run(path: &MemoryPath, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    if path.is_root() {
        let what = if cx.is_sub_mount() {
            fill(texts::THE_MOUNT, &[&cx.mount_prefix])
        } else {
            texts::THE_MEMORIES_DIRECTORY.to_string()
        };
        return Err(fail(
            ErrorCode::RootProtected,
            fill(texts::DELETE_ROOT, &[&what]),
        ));
    }
    let key = path.key();
    snap.need(vec![
        Read::File(key.into()),
        Read::Subtree(key.into()),
        clock_read(),
    ])?;
    let doomed: Vec<_> = snap
        .file(key)
        .into_iter()
        .chain(snap.subtree(key))
        .collect();
    if doomed.is_empty() {
        return Err(fail(
            ErrorCode::NotFound,
            fill(texts::NOT_FOUND, &[path.raw()]),
        ));
    }
    let keys: Vec<&str> = doomed.iter().map(|r| r.path.as_str()).collect();
    vet_deletes(&keys, path.raw(), cx, snap)?;
    // The bytes stay: the versions before the deletion still hold them.
    let mut history = History::new(cx, snap);
    // A directory goes whole.
    history.emptying(key);
    for record in doomed {
        history.delete(record);
    }
    Ok(Outcome::text(
        fill(texts::DELETED, &[path.raw()]),
        history.finish(snap, Voice::Model)?,
    ))
}
