//! What a task runs: an operation on one store (`commands::Operation`), or the session's own
//! view of `/memories` over several mounts, one tree with each mount as a directory (the mounts
//! are the session's, so this view is too: docs/TOOL.md#mounts).

use crate::commands::{Context, Operation};
use crate::format::listing::{cut_listing, render_tree, ListingEntry};
use crate::format::render::cat;
use crate::model::path::MOUNT;
use crate::protocol::{Outcome, Read, Snapshot, Stop};

#[derive(Clone, Debug)]
pub(crate) enum Work {
    /// An operation on the store of the task's mount.
    Store(Operation),
    /// `view /memories` over several mounts: `raw` as the model sent it, each mount's slug.
    MountsView { raw: String, slugs: Vec<String> },
}

impl Work {
    pub(crate) fn writes(&self) -> bool {
        match self {
            Work::Store(operation) => operation.writes(),
            Work::MountsView { .. } => false,
        }
    }

    /// `Operation::tolerates_damage`; the view over mounts is refused at the first damage.
    pub(crate) fn tolerates_damage(&self) -> bool {
        match self {
            Work::Store(operation) => operation.tolerates_damage(),
            Work::MountsView { .. } => false,
        }
    }

    /// `Operation::speaks_to_model`: the view over mounts is the model's.
    pub(crate) fn speaks_to_model(&self) -> bool {
        match self {
            Work::Store(operation) => operation.speaks_to_model(),
            Work::MountsView { .. } => true,
        }
    }

    /// `Operation::answers_model`: the view over mounts is the model's.
    pub(crate) fn answers_model(&self) -> bool {
        match self {
            Work::Store(operation) => operation.answers_model(),
            Work::MountsView { .. } => true,
        }
    }

    /// `Operation::read_scope`: the view over mounts reads what a view reads.
    pub(crate) fn read_scope(&self) -> Option<&'static [&'static str]> {
        match self {
            Work::Store(operation) => operation.read_scope(),
            Work::MountsView { .. } => Some(&["file", "headContent", "content", "listing"]),
        }
    }

    pub(crate) fn bytes_to_write(&self) -> Option<&[u8]> {
        match self {
            Work::Store(operation) => operation.bytes_to_write(),
            Work::MountsView { .. } => None,
        }
    }

    pub(crate) fn run(&self, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
        match self {
            Work::Store(operation) => operation.run(cx, snap),
            Work::MountsView { raw, slugs } => mounts_view(raw, slugs, cx, snap),
        }
    }
}

/// `view /memories` over several mounts: one tree with each mount as a directory (shown even
/// when empty).
fn mounts_view(
    raw: &str,
    slugs: &[String],
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    snap.need((0..slugs.len()).map(Read::MountListing).collect())?;
    let mut files: Vec<ListingEntry> = Vec::new();
    for (i, slug) in slugs.iter().enumerate() {
        files.extend(snap.mount_listing(i).iter().map(|e| ListingEntry {
            path: cat(&["/", slug, &e.path]),
            size: e.size,
        }));
    }
    let empty: Vec<&str> = slugs.iter().map(String::as_str).collect();
    let listing = render_tree(raw, MOUNT, "", &files, &empty);
    Ok(Outcome::text(
        cut_listing(listing, cx.config.max_view_chars),
        vec![],
    ))
}
