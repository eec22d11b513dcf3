//! `delete` (SPEC §3): a file, or a directory with everything below it.

use super::fail;
use crate::engine::{Outcome, Read, Snapshot, Stop, Write};
use crate::error::ErrorCode;
use crate::path::MemoryPath;

pub fn run(path: &MemoryPath, snap: &Snapshot) -> Result<Outcome, Stop> {
    if path.is_root() {
        return Err(fail(
            ErrorCode::RootProtected,
            "Error: Cannot delete the /memories directory itself".into(),
        ));
    }
    let key = path.key();
    snap.need(vec![Read::File(key.into()), Read::Subtree(key.into())])?;
    let doomed: Vec<_> = snap
        .file(key)
        .into_iter()
        .chain(snap.subtree(key))
        .collect();
    if doomed.is_empty() {
        return Err(fail(
            ErrorCode::NotFound,
            format!("Error: The path {} does not exist", path.raw()),
        ));
    }
    let writes = doomed
        .iter()
        .flat_map(|r| {
            [
                Write::DeleteFile(r.path.clone()),
                Write::DeleteContent(r.id.clone()),
            ]
        })
        .collect();
    Ok(Outcome::text(
        format!("Successfully deleted {}", path.raw()),
        writes,
    ))
}
