//! Export and import of a whole store as a JSON bundle in the memory stores API's shapes
//! (docs/TOOL.md#bundles). Import is all or nothing: every hash is checked and every conflict resolved
//! before a single write is made.

use super::history::{clock_read, Bytes, History};
use super::policy::{vet_all, Ask};
use super::rules::{check_size, refuse_if_read_only, Voice};
use crate::commands::Context;
use crate::format::json::write_value;
use crate::format::json::{Json, ObjectWriter};
use crate::format::listing::sorted_by_utf16;
use crate::format::render::{base64_decode, cat, decimal, fill, group, signed};
use crate::format::sort::sort_strs;
use crate::format::texts;
use crate::model::error::{Detail, ErrorCode, ToolError};
use crate::model::ids::version_id_time;
use crate::model::path::{ancestor_keys, parse_store_path};
use crate::model::record::{sha256_hex, write_content_members, Change, FileRecord, VersionRecord};
use crate::model::time::{parse_rfc3339, rfc3339};
use crate::protocol::{Outcome, Read, Snapshot, Stop, Write};
use std::collections::{HashMap, HashSet};

/// The bundle's `format`.
pub(crate) const FORMAT: &str = "memory-tool-wasm/bundle";

/// How far ahead of this store's clock an imported version may be stamped (clocks of two
/// devices differ a little).
const FUTURE_SLACK_MS: i64 = 10 * 60 * 1000;

/// An id above every version id, to read the whole history.
const ALL_VERSIONS: &str = "memver_~";

/// `export({ include_versions })`: every memory with its content, in path order; with
/// `include_versions`, the whole retained history too, oldest first.
pub(crate) fn export(include_versions: bool, snap: &Snapshot) -> Result<Outcome, Stop> {
    let all = Read::VersionsBelow(ALL_VERSIONS.to_string());
    let mut reads = vec![Read::Subtree(String::new())];
    if include_versions {
        reads.push(all.clone());
    }
    snap.need(reads)?;
    let records = sorted_by_utf16(snap.subtree(""), |r| r.path.as_str());
    let versions = if include_versions {
        snap.versions(&all)
    } else {
        &[]
    };
    let mut keys: Vec<Read> = records
        .iter()
        .map(|r| Read::Content(r.content.clone()))
        .collect();
    keys.extend(
        versions
            .iter()
            .filter_map(|v| v.content.clone())
            .map(Read::Content),
    );
    snap.need(keys)?;

    // A damaged store still exports what can be read (docs/TOOL.md#damaged-records): records
    // that cannot be read and memories or versions whose content is missing are left out, and
    // the bundle says which under `skipped`.
    let mut skipped = String::new();
    let mut skip = |what: &str, key: &str, reason: &str| {
        skipped.push(if skipped.is_empty() { '[' } else { ',' });
        ObjectWriter::new(&mut skipped)
            .str(what, key)
            .str("reason", reason)
            .finish();
    };
    let mut damaged: Vec<&str> = snap.damaged_below("").iter().map(String::as_str).collect();
    sort_strs(&mut damaged);
    for key in damaged {
        skip("path", key, "its record cannot be read");
    }
    let mut out = String::new();
    let mut bundle = ObjectWriter::new(&mut out);
    bundle.str("format", FORMAT).int("format_version", 1);
    let mut memories = String::from("[");
    // A content that is not the one its record names (changed outside the package) is left
    // out too: an import would refuse it, and repair keeps it (docs/TOOL.md#damaged-records).
    let intact = |record: &FileRecord| {
        snap.content(&record.content)
            .filter(|bytes| matches_record(record, bytes))
    };
    for record in records.iter() {
        let Some(bytes) = snap.content(&record.content) else {
            skip("path", &record.path, "its content is missing");
            continue;
        };
        if !matches_record(record, bytes) {
            skip("path", &record.path, CHANGED_CONTENT);
            continue;
        }
        if memories.len() > 1 {
            memories.push(',');
        }
        write_memory_entry(&mut memories, record, bytes, include_versions);
    }
    memories.push(']');
    bundle.raw("memories", &memories);
    if include_versions {
        // A bundle's history replays to its memories (an import checks it): the versions of a
        // live memory left out above are left out too, while a deleted memory's history, which
        // ends in its deletion, comes along.
        let exported: HashSet<&str> = records
            .iter()
            .filter(|r| intact(r).is_some())
            .map(|r| r.id.as_str())
            .collect();
        let mut ends_deleted: HashMap<&str, bool> = HashMap::new();
        for version in versions.iter() {
            ends_deleted.insert(&version.memory_id, version.operation == Change::Deleted);
        }
        let mut history = String::from("[");
        for version in versions.iter() {
            let memory = version.memory_id.as_str();
            if !exported.contains(memory) && ends_deleted.get(memory) != Some(&true) {
                skip("version_id", &version.id, "its memory was left out");
                continue;
            }
            let content = version.content.as_deref().and_then(|k| snap.content(k));
            if content.is_none() && version.content.is_some() && version.redacted_at.is_none() {
                skip("version_id", &version.id, "its content is missing");
                continue;
            }
            if history.len() > 1 {
                history.push(',');
            }
            write_version_entry(&mut history, version, content);
        }
        history.push(']');
        bundle.raw("versions", &history);
    }
    if !skipped.is_empty() {
        skipped.push(']');
        bundle.raw("skipped", &skipped);
    }
    bundle.finish();
    Ok(Outcome::value(out, vec![]))
}

/// Why `export` leaves out a memory whose bytes are not the ones its record names.
const CHANGED_CONTENT: &str = "its content does not match its content_sha256";

/// Whether `bytes` are the content `record` names: its size and its SHA-256.
fn matches_record(record: &FileRecord, bytes: &[u8]) -> bool {
    record.size == bytes.len() as u64 && crate::model::record::sha256_hex(bytes) == record.sha256
}

/// The start of a bundle's text, up to its first memory: the streamed export writes the
/// entries after it (docs/TOOL.md#bundles).
pub(crate) fn bundle_head() -> String {
    let mut out = String::from("{");
    crate::format::json::write_str(&mut out, "format");
    out.push(':');
    crate::format::json::write_str(&mut out, FORMAT);
    out.push_str(",\"format_version\":1,\"memories\":[");
    out
}

/// One memory of a bundle, as `export` writes it.
pub(crate) fn write_memory_entry(
    out: &mut String,
    record: &FileRecord,
    bytes: &[u8],
    include_versions: bool,
) {
    let mut item = ObjectWriter::new(out);
    item.str("id", &record.id).str("path", &record.path);
    write_content_members(&mut item, bytes);
    item.str("content_sha256", &record.sha256)
        .int("content_size_bytes", record.size as i64)
        .str("created_at", &rfc3339(record.created_at))
        .str("updated_at", &rfc3339(record.updated_at))
        .str("last_accessed_at", &rfc3339(record.last_used()));
    if include_versions {
        item.opt_str("memory_version_id", record.version.as_deref());
    }
    item.finish();
}

/// One version of a bundle's history, with its content when it has any.
pub(crate) fn write_version_entry(
    out: &mut String,
    version: &VersionRecord,
    content: Option<&[u8]>,
) {
    let mut item = ObjectWriter::new(out);
    item.str("id", &version.id)
        .str("memory_id", &version.memory_id)
        .str("operation", version.operation.as_str())
        .opt_str("path", version.path.as_deref());
    match content {
        Some(bytes) => write_content_members(&mut item, bytes),
        None => {
            item.raw("content", "null");
        }
    }
    item.opt_str("content_sha256", version.sha256.as_deref())
        .opt_int("content_size_bytes", version.size.map(|s| s as i64))
        .str("created_at", &rfc3339(version.created_at))
        .raw("created_by", &version.created_by)
        .opt_str("redacted_at", version.redacted_at.map(rfc3339).as_deref())
        .finish();
}

/// What `import` does with a memory whose place is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnConflict {
    Skip,
    Overwrite,
    Fail,
}

impl OnConflict {
    pub fn parse(s: &str) -> Option<OnConflict> {
        match s {
            "skip" => Some(OnConflict::Skip),
            "overwrite" => Some(OnConflict::Overwrite),
            "fail" => Some(OnConflict::Fail),
            _ => None,
        }
    }
}

/// A memory of a bundle, checked.
#[derive(Clone, Debug)]
pub(crate) struct BundleMemory {
    id: String,
    key: String,
    bytes: Vec<u8>,
    sha256: String,
    created_at: i64,
    updated_at: i64,
    /// When the memory was last used, if the bundle says (optional).
    accessed_at: Option<i64>,
    head: Option<String>,
}

/// A version of a bundle, checked.
#[derive(Clone, Debug)]
pub(crate) struct BundleVersion {
    record: VersionRecord,
    bytes: Option<Vec<u8>>,
}

/// A checked bundle.
#[derive(Clone, Debug)]
pub struct Bundle {
    memories: Vec<BundleMemory>,
    versions: Option<Vec<BundleVersion>>,
}

fn invalid(message: String) -> ToolError {
    ToolError::new(ErrorCode::InvalidBundle, message)
}

fn content_of(item: &Json, what: &str) -> Result<Option<Vec<u8>>, ToolError> {
    match (item.field("content"), item.field("content_base64")) {
        (Some(Json::Str(s)), _) => Ok(Some(s.text.clone().into_bytes())),
        (None, Some(Json::Str(s))) => base64_decode(&s.text)
            .map(Some)
            .ok_or_else(|| invalid(fill("{}: content_base64 is not base64", &[what]))),
        (None, None) => Ok(None),
        _ => Err(invalid(fill("{}: content must be a string", &[what]))),
    }
}

fn text_field<'j>(item: &'j Json, key: &str, what: &str) -> Result<&'j str, ToolError> {
    item.field(key)
        .and_then(Json::as_str)
        .ok_or_else(|| invalid(fill("{}: `{}` is missing or not a string", &[what, key])))
}

fn time_field(item: &Json, key: &str, what: &str) -> Result<i64, ToolError> {
    parse_rfc3339(text_field(item, key, what)?)
        .ok_or_else(|| invalid(fill("{}: `{}` is not an RFC 3339 time", &[what, key])))
}

/// The bytes' hash and size must be the ones the bundle states.
fn check_digest(bytes: &[u8], item: &Json, what: &str) -> Result<String, ToolError> {
    let sha = sha256_hex(bytes);
    if item.field("content_sha256").and_then(Json::as_str) != Some(sha.as_str()) {
        return Err(invalid(fill(
            "{}: content_sha256 does not match its content",
            &[what],
        )));
    }
    if let Some(size) = item.field("content_size_bytes").and_then(Json::as_integer) {
        if size != bytes.len() as i64 {
            return Err(invalid(fill(
                "{}: content_size_bytes is {}, its content has {} bytes",
                &[what, &signed(size), &decimal(bytes.len() as u64)],
            )));
        }
    }
    Ok(sha)
}

impl Bundle {
    /// Checks a bundle: its format, every path, every hash, no duplicates, a tree.
    pub fn parse(json: &Json) -> Result<Bundle, ToolError> {
        if json.field("format").and_then(Json::as_str) != Some(FORMAT) {
            return Err(invalid(fill(
                "not a bundle: `format` must be \"{}\"",
                &[FORMAT],
            )));
        }
        if json.field("format_version").and_then(Json::as_integer) != Some(1) {
            return Err(invalid(
                "unsupported `format_version` (this version reads 1)".into(),
            ));
        }
        let Some(Json::Array(items)) = json.field("memories") else {
            return Err(invalid("`memories` must be a list".into()));
        };
        let mut memories = Vec::with_capacity(items.len());
        let (mut ids, mut keys) = (HashSet::new(), HashSet::new());
        for (i, item) in items.iter().enumerate() {
            let what = fill("memory {}", &[&decimal(i as u64)]);
            let id = text_field(item, "id", &what)?.to_string();
            let key = parse_store_path(text_field(item, "path", &what)?)
                .map_err(|e| invalid(fill("{}: {}", &[&what, &e.message])))?;
            let what = fill("memory {} ({})", &[&decimal(i as u64), &key]);
            let bytes = content_of(item, &what)?
                .ok_or_else(|| invalid(fill("{}: it has no content", &[&what])))?;
            let sha256 = check_digest(&bytes, item, &what)?;
            if !ids.insert(id.clone()) || !keys.insert(key.clone()) {
                return Err(invalid(fill("{}: its id or path appears twice", &[&what])));
            }
            memories.push(BundleMemory {
                created_at: time_field(item, "created_at", &what)?,
                updated_at: time_field(item, "updated_at", &what)?,
                accessed_at: match item.field("last_accessed_at") {
                    None | Some(Json::Null) => None,
                    Some(_) => Some(time_field(item, "last_accessed_at", &what)?),
                },
                head: item
                    .field("memory_version_id")
                    .and_then(Json::as_str)
                    .map(str::to_string),
                id,
                key,
                bytes,
                sha256,
            });
        }
        for memory in &memories {
            if let Some(a) = ancestor_keys(&memory.key)
                .into_iter()
                .find(|a| keys.contains(a))
            {
                return Err(invalid(fill(
                    "{} lies below {}, which is a memory too",
                    &[&memory.key, &a],
                )));
            }
        }
        let versions = match json.field("versions") {
            None => None,
            Some(Json::Array(items)) => Some(Self::parse_versions(items, &memories)?),
            Some(_) => return Err(invalid("`versions` must be a list".into())),
        };
        Ok(Bundle { memories, versions })
    }

    fn parse_versions(
        items: &[Json],
        memories: &[BundleMemory],
    ) -> Result<Vec<BundleVersion>, ToolError> {
        let mut seen = HashSet::new();
        let mut versions = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let what = fill("version {}", &[&decimal(i as u64)]);
            let id = text_field(item, "id", &what)?.to_string();
            if version_id_time(&id).is_none() || !seen.insert(id.clone()) {
                return Err(invalid(fill(
                    "{}: its id is not a unique, well-formed memver_ id",
                    &[&what],
                )));
            }
            let operation = Change::parse(text_field(item, "operation", &what)?)
                .ok_or_else(|| invalid(fill("{}: unknown operation", &[&what])))?;
            let path = match item.field("path") {
                Some(Json::Str(p)) => Some(
                    parse_store_path(&p.text)
                        .map_err(|e| invalid(fill("{}: {}", &[&what, &e.message])))?,
                ),
                None | Some(Json::Null) => None,
                Some(_) => return Err(invalid(fill("{}: `path` must be a string", &[&what]))),
            };
            let bytes = content_of(item, &what)?;
            let sha256 = match &bytes {
                Some(b) => Some(check_digest(b, item, &what)?),
                None => item
                    .field("content_sha256")
                    .and_then(Json::as_str)
                    .map(str::to_string),
            };
            let redacted_at = match item.field("redacted_at") {
                Some(_) => Some(time_field(item, "redacted_at", &what)?),
                None => None,
            };
            // Content is there or explicitly redacted: a version that kept its hash but lost
            // its bytes would import a file whose size and hash do not match what it holds.
            match (operation, &bytes, redacted_at) {
                (_, Some(_), Some(_)) => {
                    return Err(invalid(fill(
                        "{}: it is redacted but still carries content",
                        &[&what],
                    )))
                }
                (Change::Created | Change::Modified, None, None) => {
                    return Err(invalid(fill(
                        "{}: it has no content and is not redacted",
                        &[&what],
                    )))
                }
                (Change::Deleted, Some(_), _) => {
                    return Err(invalid(fill("{}: a deletion carries no content", &[&what])))
                }
                _ => {}
            }
            // Only a redaction clears a version's path: a version without one would leave
            // its memory at no place in the history.
            if path.is_none() && redacted_at.is_none() {
                return Err(invalid(fill(
                    "{}: it has no path and is not redacted",
                    &[&what],
                )));
            }
            let created_by = match item.field("created_by") {
                Some(actor @ Json::Object(_)) => write_value(actor),
                _ => "null".to_string(),
            };
            versions.push(BundleVersion {
                record: VersionRecord {
                    memory_id: text_field(item, "memory_id", &what)?.to_string(),
                    operation,
                    path,
                    size: bytes.as_ref().map(|b| b.len() as u64).or_else(|| {
                        item.field("content_size_bytes")
                            .and_then(Json::as_integer)
                            .map(|n| n.max(0) as u64)
                    }),
                    sha256,
                    content: bytes.as_ref().map(|_| id.clone()),
                    created_at: time_field(item, "created_at", &what)?,
                    created_by,
                    redacted_at,
                    kept_at: None,
                    id,
                },
                bytes,
            });
        }
        let by_id: HashMap<&str, &BundleVersion> =
            versions.iter().map(|v| (v.record.id.as_str(), v)).collect();
        for memory in memories {
            if let Some(head) = &memory.head {
                // The head holds the memory's very content (its bytes, not only a hash).
                let ok = by_id.get(head.as_str()).is_some_and(|v| {
                    v.record.memory_id == memory.id
                        && v.record.path.as_deref() == Some(memory.key.as_str())
                        && v.bytes.is_some()
                        && v.record.redacted_at.is_none()
                        && v.record.sha256.as_deref() == Some(&memory.sha256)
                });
                if !ok {
                    return Err(invalid(fill(
                        "{}: memory_version_id {} is not a version of it with its content",
                        &[&memory.key, head],
                    )));
                }
            }
        }
        // The history replays to the memories (ids sort in write order): a memory's newest
        // version is its head, and a memory the bundle does not hold ends in a deletion.
        // Otherwise the store's history would say a memory is live that is not, or is other
        // than it is (docs/TOOL.md#bundles).
        let mut newest: HashMap<&str, &BundleVersion> = HashMap::new();
        for version in &versions {
            let slot = newest
                .entry(version.record.memory_id.as_str())
                .or_insert(version);
            if version.record.id > slot.record.id {
                *slot = version;
            }
        }
        let held: HashMap<&str, &BundleMemory> =
            memories.iter().map(|m| (m.id.as_str(), m)).collect();
        // In memory id order (the map's keys, sorted alone).
        let mut ends: Vec<&str> = newest.keys().copied().collect();
        sort_strs(&mut ends);
        for memory_id in ends {
            let Some(last) = newest.get(memory_id) else {
                continue;
            };
            match held.get(memory_id) {
                Some(memory) if memory.head.as_deref().is_some_and(|h| h != last.record.id) => {
                    return Err(invalid(fill(
                        "{}: its newest version {} is not its memory_version_id",
                        &[&memory.key, &last.record.id],
                    )));
                }
                Some(_) => {}
                None if last.record.operation != Change::Deleted => {
                    return Err(invalid(fill(
                        "memory {}: its history ends in version {}, which is not a deletion, but the bundle does not hold the memory",
                        &[memory_id, &last.record.id],
                    )));
                }
                None => {}
            }
        }
        Ok(versions)
    }
}

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
        operation: "import",
        old_key: None,
        bytes: Some(m.bytes.as_slice()),
    });
    let version_asks = bundle.versions.iter().flatten().filter_map(|v| {
        let bytes = v.bytes.as_deref()?;
        Some(Ask {
            key: v.record.path.as_deref().unwrap_or_default(),
            operation: "import",
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
                        content: memory.head.clone().unwrap_or_default(),
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
        if let Some(bytes) = &version.bytes {
            history.push(Write::PutContent {
                id: version.record.id.clone(),
                bytes: bytes.clone(),
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

/// The streamed export's pieces (docs/TOOL.md#bundles), for a host that walks a store itself
/// in chunks and writes the bundle as it goes: the text before the first memory, then the
/// memories and the versions a chunk at a time (one call per chunk: `memories`, `versions`),
/// each entry from its stored record (JSON as the adapter stores it) and bytes, exactly as
/// `export` writes it. A record that cannot be read gives no entry (the export then skips it).
pub mod streamed {
    use super::{bundle_head, matches_record, write_memory_entry, write_version_entry};
    use crate::format::json::Json;
    use crate::model::record::{FileRecord, VersionRecord};

    /// A `lengths` value saying "no content" (a deletion, a redacted version).
    pub const NO_CONTENT: u32 = u32::MAX;

    pub fn head() -> String {
        bundle_head()
    }

    /// What an entry came to: written, or left out and why.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Entry {
        Written = 0,
        /// Its record cannot be read, or it has no line or bytes here.
        Unreadable = 1,
        /// A memory whose bytes are not the ones its record names.
        Changed = 2,
    }

    pub fn memory(record_json: &str, bytes: &[u8], include_versions: bool) -> Option<String> {
        let mut out = String::new();
        (write_memory(&mut out, record_json, bytes, include_versions) == Entry::Written)
            .then_some(out)
    }

    pub fn version(version_json: &str, content: Option<&[u8]>) -> Option<String> {
        let mut out = String::new();
        write_version(&mut out, version_json, content).then_some(out)
    }

    fn write_memory(
        out: &mut String,
        record_json: &str,
        bytes: &[u8],
        include_versions: bool,
    ) -> Entry {
        let Some(record) = Json::parse(record_json).and_then(|json| FileRecord::from_json(&json))
        else {
            return Entry::Unreadable;
        };
        if !matches_record(&record, bytes) {
            return Entry::Changed;
        }
        write_memory_entry(out, &record, bytes, include_versions);
        Entry::Written
    }

    fn write_version(out: &mut String, version_json: &str, content: Option<&[u8]>) -> bool {
        let Some(version) =
            Json::parse(version_json).and_then(|json| VersionRecord::from_json(&json))
        else {
            return false;
        };
        write_version_entry(out, &version, content);
        true
    }

    /// One chunk of memories (`versions` false) or of versions, in one call: `records_json`
    /// the stored records as JSON, one a line (JSON text has no raw line break), `contents`
    /// their bytes one after another, `lengths[i]` how many are record `i`'s (`NO_CONTENT`: a
    /// version with none). The answer, as UTF-8: first one byte per length, the `Entry` that
    /// record came to (0 written; 1 it cannot be read or has no line or bytes here; 2 a memory
    /// whose bytes are not the ones it names); then the entries, joined by commas, exactly as
    /// `export` writes them.
    pub fn entries(
        versions: bool,
        records_json: &str,
        contents: &[u8],
        lengths: &[u32],
        include_versions: bool,
    ) -> Vec<u8> {
        let mut lines = records_json.split('\n');
        let mut flags = Vec::with_capacity(lengths.len());
        let mut out = String::new();
        let mut offset = 0usize;
        for &length in lengths {
            let bytes = if length == NO_CONTENT {
                Some(None)
            } else {
                let end = offset.checked_add(length as usize);
                let bytes = end.and_then(|end| contents.get(offset..end));
                offset = end.unwrap_or(usize::MAX);
                bytes.map(Some)
            };
            let mark = out.len();
            if mark > 0 {
                out.push(',');
            }
            let entry = match (lines.next(), bytes) {
                (Some(json), Some(bytes)) if versions => {
                    if write_version(&mut out, json, bytes) {
                        Entry::Written
                    } else {
                        Entry::Unreadable
                    }
                }
                (Some(json), Some(Some(bytes))) => {
                    write_memory(&mut out, json, bytes, include_versions)
                }
                _ => Entry::Unreadable,
            };
            if entry != Entry::Written {
                out.truncate(mark);
            }
            flags.push(entry as u8);
        }
        flags.extend_from_slice(out.as_bytes());
        flags
    }
}
