//! `import`: a checked bundle into a store, all or nothing (docs/TOOL.md#bundles): every hash
//! is checked and every conflict resolved before a single write is made.

use super::parse::{Bundle, OnConflict};
use crate::commands::history::{clock_read, Bytes, History};
use crate::commands::policy::{vet_all, Ask};
use crate::commands::rules::{check_size, refuse_if_read_only, Voice};
use crate::commands::Context;
use crate::format::render::{cat, decimal, fill, group};
use crate::format::texts;
use crate::model::error::{Detail, ErrorCode, ToolError};
use crate::model::ids::version_id_time;
use crate::model::path::ancestor_keys;
use crate::model::record::FileRecord;
use crate::model::time::rfc3339;
use crate::protocol::{Outcome, Read, Snapshot, Stop, Write, WriteKind};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// How far ahead of this store's clock an imported version may be stamped (clocks of two
/// devices differ a little).
const FUTURE_SLACK_MS: i64 = 10 * 60 * 1000;

/// `import(bundle, { onConflict })`: `{ imported, overwritten, skipped, unchanged, versions }`.
pub(crate) fn import(
    bundle: &Bundle,
    on_conflict: OnConflict,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    refuse_if_read_only(cx, snap, Voice::Host, "import a bundle")?;
    let existing_versions = Read::VersionIds;
    let mut reads = vec![Read::Subtree(String::new()), clock_read()];
    if bundle.versions.is_some() {
        reads.push(existing_versions.clone());
    }
    snap.need(reads)?;
    let files = snap.subtree("");
    let by_path: HashMap<&str, &FileRecord> = files.iter().map(|r| (r.path.as_str(), r)).collect();
    let by_id: HashMap<&str, &FileRecord> = files.iter().map(|r| (r.id.as_str(), r)).collect();
    let known_versions: HashSet<&str> = snap
        .ids(&existing_versions)
        .iter()
        .map(String::as_str)
        .collect();

    // A version stamped in the future would sort after every version this store writes from
    // now on (and keep its contents from retention): such a bundle is refused, not re-stamped,
    // since its ids are what its history links by.
    if let Some(version) = bundle.versions.iter().flatten().find(|v| {
        version_id_time(&v.record.id).is_none_or(|t| t > cx.now.saturating_add(FUTURE_SLACK_MS))
    }) {
        return Err(Stop::Fail(ToolError::new(
            ErrorCode::InvalidBundle,
            fill(
                "Cannot import: version {} is stamped after now ({}); a bundle's history cannot come from the future",
                &[&version.record.id, &rfc3339(cx.now)],
            ),
        )));
    }
    // Every memory and every version with content is vetted: a credential in an older
    // version would otherwise come back with a later restore.
    let memory_asks = bundle.memories.iter().map(|m| Ask {
        key: m.key.as_str(),
        operation: WriteKind::Import,
        old_key: None,
        bytes: Some(&m.bytes[..]),
    });
    let version_asks = bundle.versions.iter().flatten().filter_map(|v| {
        let bytes = v.bytes.as_deref()?;
        Some(Ask {
            key: v.record.path.as_deref().unwrap_or_default(),
            operation: WriteKind::Import,
            old_key: None,
            bytes: Some(bytes),
        })
    });
    let asks: Vec<Ask<'_, '_>> = memory_asks.chain(version_asks).collect();
    let vetted = vet_all(&asks, cx, snap, &|ask, reason| {
        fill(texts::POLICY_REFUSED, &[ask.key, reason])
    })?;
    if let Some(ask) = asks
        .iter()
        .zip(&vetted)
        .find(|(ask, v)| v.as_deref() != ask.bytes)
        .map(|(ask, _)| ask)
    {
        // A rewrite would make the bundle's hashes (and its history) untrue: refuse it whole.
        return Err(Stop::Fail(ToolError::new(
            ErrorCode::PolicyRefused,
            fill(
                "Cannot import {}: the write policy rewrote it; an import keeps content as the bundle states it",
                &[ask.key],
            ),
        )));
    }
    let mut history = History::new(cx, snap);
    // The import's own versions (a memory the bundle gives no head) follow the bundle's.
    history.after_version(
        bundle
            .versions
            .iter()
            .flatten()
            .map(|v| v.record.id.as_str())
            .max(),
    );
    let mut imported_ids: HashSet<&str> = HashSet::new();
    let mut skipped_ids: HashSet<&str> = HashSet::new();
    let (mut imported, mut overwritten, mut skipped, mut unchanged) = (0u64, 0u64, 0u64, 0u64);
    let mut added_files: i64 = 0;
    for memory in &bundle.memories {
        let at_path = by_path.get(memory.key.as_str()).copied();
        if at_path.is_some_and(|r| r.id == memory.id && r.sha256 == memory.sha256) {
            unchanged += 1;
            skipped_ids.insert(memory.id.as_str());
            continue;
        }
        let same_id = by_id.get(memory.id.as_str()).copied();
        let blocked = structural_conflict(&memory.key, &by_path, files);
        let conflict = at_path.is_some() || same_id.is_some() || blocked.is_some();
        if conflict {
            match on_conflict {
                OnConflict::Skip => {
                    skipped += 1;
                    skipped_ids.insert(memory.id.as_str());
                    continue;
                }
                OnConflict::Fail => {
                    let (id, path) = match (at_path, same_id) {
                        (Some(r), _) | (None, Some(r)) => (Some(r.id.as_str()), r.path.as_str()),
                        (None, None) => (None, blocked.unwrap_or(memory.key.as_str())),
                    };
                    return Err(conflict_error(&memory.key, id, path));
                }
                OnConflict::Overwrite => {
                    if let Some(path) = blocked {
                        return Err(conflict_error(&memory.key, None, path));
                    }
                }
            }
        }
        check_size(cx, Voice::Host, &memory.key, memory.bytes.len())?;
        if let Some(other) = at_path.filter(|r| r.id != memory.id) {
            history.delete(other);
            added_files -= 1;
        }
        imported_ids.insert(memory.id.as_str());
        match (&bundle.versions, same_id) {
            // A head this store already holds as a version (an old export of this very
            // store, after a redaction or a later edit; a bundle that borrows another memory's
            // version id) is not written again, and the file must not point at whatever the
            // store keeps under that id: the memory gets a version of its own instead.
            (Some(_), previous)
                if memory
                    .head
                    .as_deref()
                    .is_some_and(|h| !known_versions.contains(h)) =>
            {
                // The bundle's history is the record: the file points at its head version.
                if let Some(old) = previous.filter(|r| r.path != memory.key) {
                    history.push(Write::DeleteFile {
                        path: old.path.clone(),
                        size: old.size,
                        tree: None,
                    });
                }
                if previous.is_none() {
                    added_files += 1;
                }
                // Another memory at this path was deleted above; the same one may stay there.
                let previous_size = previous.filter(|r| r.path == memory.key).map(|r| r.size);
                history.push(Write::PutFile {
                    previous_size,
                    record: FileRecord {
                        path: memory.key.clone(),
                        id: memory.id.clone(),
                        size: memory.bytes.len() as u64,
                        sha256: memory.sha256.clone(),
                        created_at: memory.created_at,
                        updated_at: memory.updated_at,
                        version: memory.head.clone(),
                        // The key its head version names (`Bundle::parse`).
                        content: memory.head_content.clone().unwrap_or_default(),
                        // Not after the importing clock: a bundle cannot make a memory look
                        // used in the future (and so never expire).
                        accessed_at: memory.accessed_at.map(|at| at.min(cx.now)),
                        // The history it brings is not counted: its next write reads it.
                        history: None,
                    },
                });
            }
            (_, Some(previous)) => {
                history
                    .with_times(
                        memory.created_at,
                        memory.updated_at,
                        memory.accessed_at.map(|at| at.min(cx.now)),
                    )
                    .modify(
                        previous,
                        &memory.key,
                        Bytes::Hashed(&memory.bytes, &memory.sha256),
                    );
            }
            (_, None) => {
                added_files += 1;
                history
                    .with_times(
                        memory.created_at,
                        memory.updated_at,
                        memory.accessed_at.map(|at| at.min(cx.now)),
                    )
                    .create(
                        &memory.key,
                        Bytes::Hashed(&memory.bytes, &memory.sha256),
                        Some(&memory.id),
                    );
            }
        }
        if conflict {
            overwritten += 1;
        } else {
            imported += 1;
        }
    }
    let total = files.len() as i64 + added_files;
    if total > cx.config.max_files as i64 {
        return Err(Stop::Fail(ToolError::new(
            ErrorCode::LimitExceeded,
            fill(
                "Cannot import: the store would hold {} files, over its limit of {}",
                &[&group(total.max(0) as u64), &group(cx.config.max_files)],
            ),
        )));
    }
    let mut version_count = 0u64;
    for version in bundle.versions.iter().flatten() {
        // The history of every memory comes along, deleted ones' too, but not of a memory
        // this import left as it was (skipped, or already the same).
        let memory_id = version.record.memory_id.as_str();
        let live_elsewhere = !imported_ids.contains(memory_id) && by_id.contains_key(memory_id);
        if skipped_ids.contains(memory_id)
            || live_elsewhere
            || known_versions.contains(version.record.id.as_str())
        {
            continue;
        }
        if let (Some(bytes), Some(key)) = (&version.bytes, &version.record.content) {
            history.push(Write::PutContent {
                id: key.clone(),
                bytes: Rc::clone(bytes),
            });
        }
        history.push(Write::PutVersion(version.record.clone()));
        version_count += 1;
    }
    let value = fill(
        "{\"imported\":{},\"overwritten\":{},\"skipped\":{},\"unchanged\":{},\"versions\":{}}",
        &[
            &decimal(imported),
            &decimal(overwritten),
            &decimal(skipped),
            &decimal(unchanged),
            &decimal(version_count),
        ],
    );
    Ok(Outcome::value(value, history.into_writes()))
}

/// A memory on the way to `key`, or one below it (`key` is a directory): what overwriting
/// cannot resolve. Returns that memory's path.
fn structural_conflict<'f>(
    key: &str,
    by_path: &HashMap<&str, &'f FileRecord>,
    files: &'f [FileRecord],
) -> Option<&'f str> {
    if let Some(a) = ancestor_keys(key)
        .iter()
        .find_map(|a| by_path.get(a.as_str()))
    {
        return Some(a.path.as_str());
    }
    let below = cat(&[key, "/"]);
    files
        .iter()
        .find(|r| r.path.starts_with(&below))
        .map(|r| r.path.as_str())
}

fn conflict_error(key: &str, id: Option<&str>, path: &str) -> Stop {
    let detail = Detail::Conflict {
        memory_id: id.map(str::to_string),
        path: path.to_string(),
    };
    Stop::Fail(
        ToolError::new(
            ErrorCode::PathConflict,
            fill(
                "Cannot import {}: {} is in the way; nothing was imported",
                &[key, path],
            ),
        )
        .with_detail(detail),
    )
}
