//! `delete` (docs/TOOL.md#delete): a file, or a directory with everything below it.

use super::history::{clock_read, History};
use super::rules::fail;
use crate::commands::Context;
use crate::format::render::fill;
use crate::model::error::ErrorCode;
use crate::model::path::MemoryPath;
use crate::protocol::{Outcome, Read, Snapshot, Stop};

pub(super) fn run(path: &MemoryPath, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    if path.is_root() {
        let what = if cx.is_sub_mount() {
            fill("the mount {}", &[&cx.mount_prefix])
        } else {
            "the /memories directory".to_string()
        };
        return Err(fail(
            ErrorCode::RootProtected,
            fill("Error: Cannot delete {} itself", &[&what]),
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
            fill("Error: The path {} does not exist", &[path.raw()]),
        ));
    }
    // The bytes stay: the versions before the deletion still hold them.
    let mut history = History::new(cx, snap);
    for record in doomed {
        history.delete(record);
    }
    Ok(Outcome::text(
        fill("Successfully deleted {}", &[path.raw()]),
        history.into_writes(),
    ))
}
