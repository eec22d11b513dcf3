//! What a task runs: an operation on one store (`commands::Operation`), or the session's own
//! view of `/memories` over several mounts, one tree with each mount as a directory (the mounts
//! are the session's, so this view is too: docs/TOOL.md#mounts), or a page of the streamed
//! export (docs/TOOL.md#bundles).

use crate::commands::bundle::ExportCursor;
use crate::commands::{Context, Operation};
use crate::format::listing::{cut_listing, render_tree, ListingEntry};
use crate::format::render::cat;
use crate::model::path::MOUNT;
use crate::protocol::{Outcome, Read, Snapshot, Stop};
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Clone, Debug)]
pub(crate) enum Work {
    /// An operation on the store of the task's mount.
    Store(Operation),
    /// `view /memories` over several mounts: `raw` as the model sent it, each mount's slug.
    MountsView { raw: String, slugs: Vec<String> },
    /// The page under way of a streamed export's cursor: a read-only task over the cursor's
    /// store, each round the page's `page_reads`, its answers `page_supply`d to the cursor as
    /// they come (`Task::supply`) and taken in by `page_resume` when the task resumes; its
    /// outcome is empty (the page's text comes from the cursor). The cursor outlives the page:
    /// the host keeps it between pages.
    ExportPage(Rc<RefCell<ExportCursor>>),
}

impl Work {
    pub(crate) fn writes(&self) -> bool {
        match self {
            Work::Store(operation) => operation.writes(),
            Work::MountsView { .. } | Work::ExportPage(_) => false,
        }
    }

    /// `Operation::tolerates_damage`; the view over mounts is refused at the first damage, an
    /// export page reports it in the bundle (docs/TOOL.md#damaged-records).
    pub(crate) fn tolerates_damage(&self) -> bool {
        match self {
            Work::Store(operation) => operation.tolerates_damage(),
            Work::MountsView { .. } => false,
            Work::ExportPage(_) => true,
        }
    }

    /// `Operation::speaks_to_model`: the view over mounts is the model's.
    pub(crate) fn speaks_to_model(&self) -> bool {
        match self {
            Work::Store(operation) => operation.speaks_to_model(),
            Work::MountsView { .. } => true,
            Work::ExportPage(_) => false,
        }
    }

    /// `Operation::answers_model`: the view over mounts is the model's.
    pub(crate) fn answers_model(&self) -> bool {
        match self {
            Work::Store(operation) => operation.answers_model(),
            Work::MountsView { .. } => true,
            Work::ExportPage(_) => false,
        }
    }

    /// `Operation::read_scope`: the view over mounts reads what a view reads; an export page,
    /// any kind.
    pub(crate) fn read_scope(&self) -> Option<&'static [&'static str]> {
        match self {
            Work::Store(operation) => operation.read_scope(),
            Work::MountsView { .. } => Some(&["file", "headContent", "content", "listing"]),
            Work::ExportPage(_) => None,
        }
    }

    pub(crate) fn bytes_to_write(&self) -> Option<&[u8]> {
        match self {
            Work::Store(operation) => operation.bytes_to_write(),
            Work::MountsView { .. } | Work::ExportPage(_) => None,
        }
    }

    pub(crate) fn run(&self, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
        match self {
            Work::Store(operation) => operation.run(cx, snap),
            Work::MountsView { raw, slugs } => mounts_view(raw, slugs, cx, snap),
            // Its answers went to the cursor (`Task::supply`), not to the snapshot.
            Work::ExportPage(cursor) => {
                let mut cursor = cursor.borrow_mut();
                if cursor.page_resume() {
                    Ok(Outcome::text(String::new(), vec![]))
                } else {
                    Err(Stop::Need(cursor.page_reads().to_vec()))
                }
            }
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
