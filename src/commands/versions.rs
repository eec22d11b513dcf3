//! The history API (docs/TOOL.md#versions): list, get, redact, restore, and retention.

use super::history::{clock_read, Bytes, History};
use super::memories::check_place;
use super::policy::vet;
use super::retention::{expired, Liveness};
use super::rules::{check_count, check_size, placement_reads, refuse_if_read_only, Voice};
use crate::commands::Context;
use crate::format::json::quote;
use crate::format::render::{decimal, echo, fill};
use crate::format::sort::sorted_unique;
use crate::model::clock::StoreClock;
use crate::model::error::{Detail, ErrorCode, ToolError};
use crate::model::ids::{version_id_floor, version_id_time};
use crate::model::record::{Change, VersionRecord};
use crate::protocol::{Outcome, Read, Snapshot, Stop, Write, WriteKind};
use std::collections::HashSet;

fn stop(code: ErrorCode, message: String) -> Stop {
    Stop::Fail(ToolError::new(code, message))
}

/// Filters and paging of `versions.list`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VersionFilter {
    pub memory_id: Option<String>,
    pub operation: Option<Change>,
    /// Epoch milliseconds, inclusive.
    pub created_from: Option<i64>,
    pub created_to: Option<i64>,
    /// Only versions whose path lies below this directory key (`""` for all).
    pub path_prefix: Option<String>,
    pub limit: usize,
    /// The `next_page` of the previous page: versions older than this id.
    pub page: Option<String>,
}

impl VersionFilter {
    fn matches(&self, v: &VersionRecord) -> bool {
        self.operation.is_none_or(|op| v.operation == op)
            && self.created_from.is_none_or(|t| v.created_at >= t)
            && self.created_to.is_none_or(|t| v.created_at <= t)
            && self.path_prefix.as_ref().is_none_or(|p| {
                v.path.as_ref().is_some_and(|path| {
                    path.len() > p.len()
                        && path.starts_with(p.as_str())
                        && path.as_bytes().get(p.len()) == Some(&b'/')
                })
            })
    }
}

/// How many versions one read fetches while a page fills.
/// The first page of a `versions.list` scan; each later page is twice the one before, so a
/// filter that matches little takes a few rounds (a scan re-runs over its earlier pages each
/// round, and with doubling pages that replay is at most the pages read so far once more).
const FIRST_PAGE: usize = 200;
/// The largest page of a scan.
const MAX_PAGE: usize = 6_400;

/// `versions.list(filter)`: newest first, `{ data, next_page }`.
pub(crate) fn list(filter: &VersionFilter, snap: &Snapshot) -> Result<Outcome, Stop> {
    // Ids sort by time, so the time bounds narrow the scan before any record is read.
    let mut below = match (&filter.page, filter.created_to) {
        (Some(page), _) => Some(page.clone()),
        (None, Some(to)) => Some(version_id_floor(to.saturating_add(1))),
        (None, None) => None,
    };
    let floor = filter.created_from.map(version_id_floor);
    let mut data: Vec<&VersionRecord> = Vec::new();
    let mut next_page = None;
    let mut page = FIRST_PAGE;
    'scan: loop {
        let read = Read::VersionsDesc {
            memory: filter.memory_id.clone(),
            below: below.clone(),
            limit: page,
        };
        snap.need(vec![read.clone()])?;
        let batch = snap.versions(&read);
        for version in batch {
            if floor.as_ref().is_some_and(|f| &version.id < f) {
                break 'scan;
            }
            if filter.matches(version) {
                data.push(version);
                if data.len() == filter.limit {
                    next_page = Some(version.id.clone());
                    break 'scan;
                }
            }
        }
        match batch.last() {
            Some(last) if batch.len() == page => {
                below = Some(last.id.clone());
                page = (page * 2).min(MAX_PAGE);
            }
            _ => break,
        }
    }
    let mut out = String::from("{\"data\":[");
    for (i, version) in data.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        version.write_api_json(&mut out, None);
    }
    out.push_str("],\"next_page\":");
    out.push_str(&next_page.map_or("null".to_string(), |p| quote(&p)));
    out.push('}');
    Ok(Outcome::value(out, vec![]))
}

fn find<'s>(id: &str, snap: &'s Snapshot) -> Result<&'s VersionRecord, Stop> {
    snap.need(vec![Read::Version(id.into())])?;
    snap.version(id).ok_or_else(|| {
        stop(
            ErrorCode::NotFound,
            fill("No version has the id {}", &[&echo(id)]),
        )
    })
}

fn version_json(version: &VersionRecord, content: Option<&[u8]>) -> String {
    let mut out = String::new();
    version.write_api_json(&mut out, content);
    out
}

/// `versions.get(id)`: the version with its content (if it has any).
pub(crate) fn get(id: &str, snap: &Snapshot) -> Result<Outcome, Stop> {
    let version = find(id, snap)?;
    let content = match &version.content {
        Some(key) => {
            snap.need(vec![Read::Content(key.clone())])?;
            snap.content(key)
        }
        None => None,
    };
    Ok(Outcome::value(version_json(version, content), vec![]))
}

/// `versions.redact(id)`: clears the version's content, path, hash and size for good. The
/// bytes themselves go when no other version holds them.
pub(crate) fn redact(id: &str, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    refuse_if_read_only(
        cx,
        snap,
        Voice::Host,
        &fill("redact version {}", &[&echo(id)]),
    )?;
    let version = find(id, snap)?;
    if version.redacted_at.is_some() {
        return Ok(Outcome::value(version_json(version, None), vec![]));
    }
    snap.need(vec![Read::FileById(version.memory_id.clone())])?;
    if let Some(live) = snap.file_by_id(&version.memory_id) {
        if live.version.as_deref() == Some(id) {
            let detail = Detail::Head {
                memory_id: live.id.clone(),
            };
            return Err(Stop::Fail(
                ToolError::new(
                    ErrorCode::RedactHead,
                    fill(
                        "Version {} is the current version of memory {}; change or delete the memory first",
                        &[id, &live.id],
                    ),
                )
                .with_detail(detail),
            ));
        }
    }
    let mut writes = Vec::new();
    if let Some(key) = &version.content {
        let holders = Read::VersionsWithContent(key.clone());
        snap.need(vec![holders.clone()])?;
        if snap.ids(&holders).iter().all(|holder| holder == id) {
            writes.push(Write::DeleteContent(key.clone()));
        }
    }
    let redacted = version.redacted(cx.now);
    writes.push(Write::PutVersion(redacted.clone()));
    Ok(Outcome::value(version_json(&redacted, None), writes))
}

/// `versions.restore(id)`: writes the version's content back as a new version of its memory;
/// a deleted memory comes back at the version's path if that is free.
pub(crate) fn restore(id: &str, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    refuse_if_read_only(
        cx,
        snap,
        Voice::Host,
        &fill("restore version {}", &[&echo(id)]),
    )?;
    let version = find(id, snap)?;
    if version.redacted_at.is_some() {
        return Err(stop(
            ErrorCode::Redacted,
            fill("Version {} was redacted: its content is gone", &[&echo(id)]),
        ));
    }
    let (Some(key), Some(size), Some(sha256), Some(path)) = (
        version.content.as_deref(),
        version.size,
        version.sha256.as_deref(),
        version.path.as_deref(),
    ) else {
        return Err(stop(
            ErrorCode::InvalidInput,
            fill(
                "Version {} records a deletion and holds no content; restore a version before it",
                &[id],
            ),
        ));
    };
    // The content in the same round: the write policy and the secret filter read it, and a
    // storage that keeps a copy of the head's bytes with its record (IndexedDB) writes it
    // from this read.
    snap.need(vec![
        Read::FileById(version.memory_id.clone()),
        clock_read(),
        Read::Content(key.to_string()),
    ])?;
    let live = snap.file_by_id(&version.memory_id);
    let target = live.map_or(path, |l| l.path.as_str());
    // A restore brings content back: the write policy and the secret filter see it as they
    // see any write (a key rotated out does not return, a locked folder stays locked).
    let vetted = if cx.config.write_hook || cx.config.secret_filter {
        let stored = snap.content(key).unwrap_or_default();
        let vetted = vet(target, target, stored, WriteKind::Restore, cx, snap)?;
        (vetted.as_ref() != stored).then(|| vetted.into_owned())
    } else {
        None
    };
    let (bytes, size) = match &vetted {
        Some(rewritten) => (Bytes::New(rewritten), rewritten.len() as u64),
        None => (Bytes::Stored { key, size, sha256 }, size),
    };
    let mut history = History::new(cx, snap);
    history.restoring(id);
    history.keep(version);
    let record = match live {
        Some(live) => {
            check_size(cx, Voice::Host, &live.path, size as usize)?;
            history.modify(live, &live.path, bytes)
        }
        None => {
            let mut reads = placement_reads(path);
            reads.push(Read::Count);
            snap.need(reads)?;
            check_place(path, None, snap)?;
            check_size(cx, Voice::Host, path, size as usize)?;
            check_count(cx, snap, Voice::Host, path, 1)?;
            history.create(path, bytes, Some(&version.memory_id))
        }
    };
    let mut out = String::new();
    record.write_memory_json(&mut out, None);
    Ok(Outcome::value(out, history.finish(snap, Voice::Host)?))
}

/// Retention (docs/TOOL.md#retention): takes every version the retention model lets go —
/// superseded, or a deletion, longer ago than the retention period, and pinned by nothing —
/// and the bytes no remaining version holds. `{ pruned_versions, freed_contents }`. On open
/// (`on_open`) it acts at the time the store's clock trusts and records this open's clock
/// (docs/TOOL.md#a-clock-that-can-be-trusted); on demand, at now.
pub(crate) fn prune(on_open: bool, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    refuse_if_read_only(cx, snap, Voice::Host, "prune versions")?;
    let mut writes: Vec<Write> = Vec::new();
    let acting = if on_open {
        snap.need(vec![Read::Clock, clock_read()])?;
        let newest = snap.newest_version_id().and_then(version_id_time);
        let (acting, record) = StoreClock::open(snap.clock(), newest, cx.now);
        if snap.clock() != Some(record) {
            writes.push(Write::PutClock(record));
        }
        acting
    } else {
        cx.now
    };
    let cutoff = acting.saturating_sub(cx.config.retention_ms);
    let old = Read::VersionsBelow(version_id_floor(cutoff));
    snap.need(vec![old.clone()])?;
    // Each memory's old versions are the oldest of its history (ids sort in write order). Only
    // a memory with two of them or more, or an old deletion, can have one that stopped being
    // live before the cutoff: the others need no read.
    let mut old_of: Vec<(&str, usize, bool)> = Vec::new();
    for version in snap.versions(&old) {
        let deletion = version.operation == Change::Deleted;
        match old_of.iter_mut().find(|(m, _, _)| *m == version.memory_id) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 |= deletion;
            }
            None => old_of.push((version.memory_id.as_str(), 1, deletion)),
        }
    }
    let memories = sorted_unique(
        old_of
            .iter()
            .filter(|(_, n, deletion)| *n >= 2 || *deletion)
            .map(|(m, _, _)| *m)
            .collect(),
    );
    snap.need(
        memories
            .iter()
            .flat_map(|m| [Read::History(m.to_string()), Read::FileById(m.to_string())])
            .collect(),
    )?;
    let mut pruned: Vec<&VersionRecord> = Vec::new();
    for memory in &memories {
        let history = snap.versions(&Read::History(memory.to_string()));
        let liveness = match snap.file_by_id(memory) {
            Some(record) => Liveness::Live(record.version.as_deref()),
            None => Liveness::Deleted,
        };
        pruned.extend(expired(history, liveness, cutoff));
    }
    let pruned_ids: HashSet<&str> = pruned.iter().map(|v| v.id.as_str()).collect();
    let keys = sorted_unique(pruned.iter().filter_map(|v| v.content.as_deref()).collect());
    let holders: Vec<Read> = keys
        .iter()
        .map(|k| Read::VersionsWithContent(k.to_string()))
        .collect();
    snap.need(holders.clone())?;
    writes.extend(pruned.iter().map(|v| Write::DeleteVersion(v.id.clone())));
    let mut freed = 0;
    for (key, read) in keys.iter().zip(&holders) {
        if snap
            .ids(read)
            .iter()
            .all(|h| pruned_ids.contains(h.as_str()))
        {
            writes.push(Write::DeleteContent(key.to_string()));
            freed += 1;
        }
    }
    let value = fill(
        "{\"pruned_versions\":{},\"freed_contents\":{}}",
        &[&decimal(pruned.len() as u64), &decimal(freed)],
    );
    Ok(Outcome::value(value, writes))
}
