//! The host's memory API (docs/TOOL.md#memories, the memory stores API's shapes): list, get, create, update
//! with a precondition, delete. Paths are store paths (`/notes/todo.md`).

use super::history::{clock_read, Bytes, History};
use super::policy::{vet, vet_deletes, vet_moved, vet_moves};
use super::rules::{
    check_count, check_size, file_on_the_way, placement_reads, refuse_if_read_only, Voice,
};
use crate::commands::Context;
use crate::format::json::{quote, ObjectWriter};
use crate::format::listing::sorted_by_utf16;
use crate::format::render::{cat, echo, fill};
use crate::model::clock::StoreClock;
use crate::model::error::{Detail, ErrorCode, ToolError};
use crate::model::ids::version_id_time;
use crate::model::path::{parse_store_prefix, MOUNT};
use crate::model::record::{sha256_hex, FileRecord};
use crate::protocol::{Outcome, Read, Snapshot, Stop, WriteKind};

fn stop(code: ErrorCode, message: String) -> Stop {
    Stop::Fail(ToolError::new(code, message))
}

/// Whether a memory (other than `moving`, which may sit there) can be placed at `key`: no
/// memory there, no directory there, no memory on the way. Conflicts name what is in the way.
pub(crate) fn check_place(key: &str, moving: Option<&str>, snap: &Snapshot) -> Result<(), Stop> {
    let conflict = |message: String, id: Option<&str>, path: &str| {
        let detail = Detail::Conflict {
            memory_id: id.map(str::to_string),
            path: path.to_string(),
        };
        Stop::Fail(ToolError::new(ErrorCode::PathConflict, message).with_detail(detail))
    };
    if let Some(there) = snap.file(key).filter(|r| Some(r.id.as_str()) != moving) {
        return Err(conflict(
            fill("Memory {} already exists at {}", &[&there.id, key]),
            Some(&there.id),
            key,
        ));
    }
    if snap.has_children(key) {
        return Err(conflict(
            fill("{} is a directory of other memories", &[key]),
            None,
            key,
        ));
    }
    if let Some((_, file, ancestor)) = file_on_the_way(key, moving, snap) {
        return Err(conflict(
            fill(
                "Cannot place a memory at {}: memory {} is at {}",
                &[key, &file.id, &ancestor],
            ),
            Some(&file.id),
            &ancestor,
        ));
    }
    Ok(())
}

/// A precondition that no longer holds: the memory's content is not the one expected.
fn changed(record: &FileRecord, expected: &str) -> Stop {
    let detail = Detail::Changed {
        current: record.sha256.clone(),
        expected: expected.to_string(),
    };
    Stop::Fail(
        ToolError::new(
            ErrorCode::PreconditionFailed,
            fill(
                "Memory {} has changed: its content_sha256 is {}, not {}",
                &[&record.id, &record.sha256, expected],
            ),
        )
        .with_detail(detail),
    )
}

/// The host's memory API names memories by store path (docs/TOOL.md#store-paths): a path
/// under `/memories` is almost always a tool path given by mistake, which the model would then
/// see as `/memories/memories/…`. The hint names the store path meant, if it can.
fn tool_path_hint(key: &str, cx: &Context) -> Option<String> {
    if key != MOUNT && !key.starts_with("/memories/") {
        return None;
    }
    let root = cx.mount_prefix.as_str();
    Some(
        match key.strip_prefix(root).filter(|rest| rest.starts_with('/')) {
            Some(rest) => fill(
                "a store path leaves out the tool's {} (the tool's {} is the store path {})",
                &[root, key, rest],
            ),
            None => fill(
                "a store path leaves out the tool's {}, this store's folder",
                &[root],
            ),
        },
    )
}

/// Refuses a store path that is a tool path (`/memories/…`), naming the store path meant;
/// the paths of a hosted store's own memories (a sync pull) are taken as they are.
fn refuse_tool_path(key: &str, cx: &Context) -> Result<(), Stop> {
    match tool_path_hint(key, cx) {
        Some(hint) if !cx.actor.is_hosted_store() => Err(stop(
            ErrorCode::InvalidPath,
            fill("Invalid path {}: {}", &[&echo(key), &hint]),
        )),
        _ => Ok(()),
    }
}

fn not_found(id: &str) -> Stop {
    stop(
        ErrorCode::NotFound,
        fill("No memory has the id {}", &[&echo(id)]),
    )
}

/// A memory with its content, as JSON.
fn memory_json(record: &FileRecord, content: Option<&[u8]>) -> String {
    let mut out = String::new();
    record.write_memory_json(&mut out, content);
    out
}

/// `memories.get(id)`: the memory with its content.
pub(crate) fn get(id: &str, snap: &Snapshot) -> Result<Outcome, Stop> {
    snap.need(vec![Read::FileById(id.into())])?;
    let record = snap.file_by_id(id).ok_or_else(|| not_found(id))?;
    with_content(record, snap)
}

/// `memories.getByPath(path)`.
pub(crate) fn get_by_path(key: &str, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    snap.need(vec![Read::File(key.into())])?;
    let record = snap.file(key).ok_or_else(|| {
        let missing = fill("No memory is at {}", &[&echo(key)]);
        let message = match tool_path_hint(key, cx) {
            Some(hint) => fill("{}; {}", &[&missing, &hint]),
            None => missing,
        };
        stop(ErrorCode::NotFound, message)
    })?;
    with_content(record, snap)
}

fn with_content(record: &FileRecord, snap: &Snapshot) -> Result<Outcome, Stop> {
    snap.need(vec![Read::Content(record.content.clone())])?;
    let bytes = snap.content(&record.content).unwrap_or_default();
    Ok(Outcome::value(memory_json(record, Some(bytes)), vec![]))
}

/// `memories.create({ path, content })`: never overwrites.
pub(crate) fn create(
    key: &str,
    content: &str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    refuse_tool_path(key, cx)?;
    refuse_if_read_only(cx, snap, Voice::Host, &fill("create {}", &[key]))?;
    let mut reads = placement_reads(key);
    reads.extend([Read::Count, clock_read()]);
    snap.need(reads)?;
    check_place(key, None, snap)?;
    let content = vet(key, key, content.as_bytes(), WriteKind::Create, cx, snap)?;
    check_size(cx, Voice::Host, key, content.len())?;
    check_count(cx, snap, Voice::Host, key, 1)?;
    let mut history = History::new(cx, snap);
    let record = history.create(key, Bytes::New(&content), None);
    Ok(Outcome::value(
        memory_json(&record, Some(&content)),
        history.finish(snap, Voice::Host)?,
    ))
}

/// `memories.update(id, { path, content, precondition, keep_version_id })`; `keep_version_id`
/// names a version of this memory that the update sets aside and keeps restorable
/// (docs/TOOL.md#retention).
pub(crate) fn update(
    id: &str,
    new_key: Option<&str>,
    content: Option<&str>,
    keep: Option<&str>,
    expected_sha256: Option<&str>,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    refuse_if_read_only(
        cx,
        snap,
        Voice::Host,
        &fill("update memory {}", &[&echo(id)]),
    )?;
    let mut reads = vec![Read::FileById(id.into()), clock_read()];
    reads.extend(keep.map(|k| Read::Version(k.to_string())));
    snap.need(reads)?;
    let record = snap.file_by_id(id).ok_or_else(|| not_found(id))?;
    let kept = match keep {
        None => None,
        Some(k) => match snap.version(k) {
            Some(v) if v.memory_id == record.id => Some(v),
            _ => {
                return Err(stop(
                    ErrorCode::InvalidInput,
                    fill(
                        "`keep_version_id` {} is not a version of memory {}",
                        &[&echo(k), &echo(id)],
                    ),
                ))
            }
        },
    };
    let key = new_key.unwrap_or(&record.path);
    let wanted_sha = content.map(|c| sha256_hex(c.as_bytes()));
    if let Some(expected) = expected_sha256.filter(|e| *e != record.sha256) {
        // A retry of an update that already applied finds the state it asked for: success.
        let already =
            key == record.path && wanted_sha.as_deref().is_none_or(|w| w == record.sha256);
        if !already || content.is_none() && new_key.is_none() {
            return Err(changed(record, expected));
        }
    }
    if key != record.path {
        refuse_tool_path(key, cx)?;
        snap.need(placement_reads(key))?;
        check_place(key, Some(id), snap)?;
    }
    let moved_from = (key != record.path).then_some(record.path.as_str());
    let vetted = match content {
        Some(text) => Some(vet_moved(
            key,
            moved_from,
            key,
            text.as_bytes(),
            WriteKind::Modify,
            cx,
            snap,
        )?),
        None => {
            if let Some(old) = moved_from {
                vet_moves(&[(old, key)], old, key, cx, snap)?;
            }
            None
        }
    };
    let bytes = match &vetted {
        Some(new) => {
            check_size(cx, Voice::Host, key, new.len())?;
            Bytes::New(new)
        }
        None => Bytes::Stored {
            key: &record.content,
            size: record.size,
            sha256: &record.sha256,
        },
    };
    let mut history = History::new(cx, snap);
    if let Some(version) = kept {
        history.keep(version);
    }
    let updated = history.modify(record, key, bytes);
    let writes = history.finish(snap, Voice::Host)?;
    match &vetted {
        Some(new) => Ok(Outcome::value(memory_json(&updated, Some(new)), writes)),
        None => {
            snap.need(vec![Read::Content(updated.content.clone())])?;
            let bytes = snap.content(&updated.content).unwrap_or_default();
            Ok(Outcome::value(memory_json(&updated, Some(bytes)), writes))
        }
    }
}

/// `memories.delete(id, { expected_content_sha256 })`.
pub(crate) fn delete(
    id: &str,
    expected_sha256: Option<&str>,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    refuse_if_read_only(
        cx,
        snap,
        Voice::Host,
        &fill("delete memory {}", &[&echo(id)]),
    )?;
    snap.need(vec![Read::FileById(id.into()), clock_read()])?;
    let record = snap.file_by_id(id).ok_or_else(|| not_found(id))?;
    if let Some(expected) = expected_sha256.filter(|e| *e != record.sha256) {
        return Err(changed(record, expected));
    }
    vet_deletes(&[record.path.as_str()], &record.path, cx, snap)?;
    let mut history = History::new(cx, snap);
    history.delete(record);
    Ok(Outcome::value(
        fill("{\"type\":\"memory_deleted\",\"id\":{}}", &[&quote(id)]),
        history.finish(snap, Voice::Host)?,
    ))
}

/// `memories.list` options (docs/TOOL.md#listing-memories).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListOptions {
    /// The directory key the prefix names (`""` for `/`).
    prefix_key: String,
    /// Only direct children, deeper entries rolled up as prefixes.
    direct_only: bool,
}

impl ListOptions {
    pub fn new(path_prefix: Option<&str>, depth: Option<i64>) -> Result<ListOptions, ToolError> {
        let prefix_key = parse_store_prefix(path_prefix.unwrap_or("/"))?;
        let direct_only = match depth {
            None | Some(0) => false,
            Some(1) => true,
            Some(_) => {
                return Err(ToolError::new(
                    ErrorCode::InvalidInput,
                    "depth must be 0 (the whole subtree) or 1 (direct children)",
                ))
            }
        };
        Ok(ListOptions {
            prefix_key,
            direct_only,
        })
    }
}

/// Lists memories below a prefix as the memory stores API does: `memory` items, and with
/// depth 1, `memory_prefix` items for the directories below.
pub(crate) fn list(options: &ListOptions, snap: &Snapshot) -> Result<Outcome, Stop> {
    snap.need(vec![Read::Subtree(options.prefix_key.clone())])?;
    let prefix = cat(&[&options.prefix_key, "/"]);
    let records = sorted_by_utf16(snap.subtree(&options.prefix_key), |r| r.path.as_str());
    let mut out = String::from("[");
    let mut last_prefix: Option<String> = None;
    for record in records {
        let rest = record.path.get(prefix.len()..).unwrap_or_default();
        if options.direct_only {
            if let Some((dir, _)) = rest.split_once('/') {
                let rolled = cat(&[&prefix, dir, "/"]);
                if last_prefix.as_deref() != Some(rolled.as_str()) {
                    if out.len() > 1 {
                        out.push(',');
                    }
                    ObjectWriter::new(&mut out)
                        .str("type", "memory_prefix")
                        .str("path", &rolled)
                        .finish();
                    last_prefix = Some(rolled);
                }
                continue;
            }
        }
        if out.len() > 1 {
            out.push(',');
        }
        record.write_memory_json(&mut out, None);
    }
    out.push(']');
    Ok(Outcome::value(out, vec![]))
}

/// The longest expiry a host can ask for, in days (a century).
const MAX_EXPIRY_DAYS: i64 = 36_500;
const DAY_MS: i64 = 86_400_000;

/// `memories.touch({ paths })`: records that the memories at these store keys were used now
/// (their views said so, see `Outcome::touched`). Only the record changes: no version, no
/// policy question (no content moves). Keys no longer holding a memory are skipped.
pub(crate) fn touch(keys: &[String], cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    refuse_if_read_only(cx, snap, Voice::Host, "record the use of memories")?;
    snap.need(keys.iter().map(|k| Read::File(k.clone())).collect())?;
    let writes = keys
        .iter()
        .filter_map(|key| snap.file(key))
        .filter(|record| record.accessed_at.is_none_or(|at| at < cx.now))
        .map(|record| crate::protocol::Write::PutFile {
            previous_size: Some(record.size),
            record: FileRecord {
                accessed_at: Some(cx.now),
                ..record.clone()
            },
        })
        .collect::<Vec<_>>();
    let touched = writes.len();
    Ok(Outcome::value(
        fill(
            "{\"type\":\"memories_touched\",\"count\":{}}",
            &[&touched.to_string()],
        ),
        writes,
    ))
}

/// `memories.keep(id)`: the host says the memory is still wanted: its last use is now, so an
/// expiry counts from today.
pub(crate) fn keep(id: &str, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    refuse_if_read_only(cx, snap, Voice::Host, &fill("keep memory {}", &[&echo(id)]))?;
    snap.need(vec![Read::FileById(id.into())])?;
    let record = snap.file_by_id(id).ok_or_else(|| not_found(id))?;
    // Never earlier than the use it knows: a clock gone back does not age the memory.
    let kept = FileRecord {
        accessed_at: Some(cx.now.max(record.last_used())),
        ..record.clone()
    };
    let json = memory_json(&kept, None);
    Ok(Outcome::value(
        json,
        vec![crate::protocol::Write::PutFile {
            previous_size: Some(record.size),
            record: kept,
        }],
    ))
}

/// How an expiry runs (docs/TOOL.md#last-use-and-expiry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpiryRun {
    /// Memories unused for longer than this many whole days go.
    pub older_than_days: i64,
    /// Say what would go, write nothing.
    pub dry_run: bool,
    /// The background expiry of an open: the cutoff counts from the time the open's
    /// housekeeping trusted (docs/TOOL.md#a-clock-that-can-be-trusted), not from now.
    pub on_open: bool,
    /// Only these memories, each only if its last use is still the one given (id, epoch ms):
    /// what an earlier dry run chose, less anything used since.
    pub only: Option<Vec<(String, i64)>>,
}

/// `memories.expire({ older_than_days, dry_run, on_open, only })`
/// (docs/TOOL.md#last-use-and-expiry): every memory neither viewed nor changed for that many
/// days is deleted as a normal version (by the host's actor, `expiry` when the package runs
/// it), so its text stays restorable for the retention period from that deletion; the write
/// policy is asked as for any delete. A dry run writes nothing and says what would go.
pub(crate) fn expire(run: &ExpiryRun, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    let ExpiryRun {
        older_than_days,
        dry_run,
        on_open,
        ref only,
    } = *run;
    if !(1..=MAX_EXPIRY_DAYS).contains(&older_than_days) {
        return Err(stop(
            ErrorCode::InvalidInput,
            fill(
                "`older_than_days` must be a whole number of days from 1 to {}",
                &[&MAX_EXPIRY_DAYS.to_string()],
            ),
        ));
    }
    if !dry_run {
        refuse_if_read_only(cx, snap, Voice::Host, "expire memories")?;
    }
    let mut reads = vec![Read::Subtree(String::new())];
    if !dry_run || on_open {
        reads.push(clock_read());
    }
    if on_open {
        reads.push(Read::Clock);
    }
    snap.need(reads)?;
    // On open, on the time the store's clock trusts; an open that saw the clock go back
    // expires nothing (docs/TOOL.md#a-clock-that-can-be-trusted).
    let acting = if on_open {
        let newest = snap.newest_version_id().and_then(version_id_time);
        StoreClock::acting_at(snap.clock(), newest, cx.now)
    } else {
        Some(cx.now)
    };
    let cutoff = acting.map_or(i64::MIN, |t| {
        t.saturating_sub(older_than_days.saturating_mul(DAY_MS))
    });
    let chosen = |r: &FileRecord| {
        only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|(id, last_used)| *id == r.id && *last_used == r.last_used())
        })
    };
    let due: Vec<&FileRecord> = sorted_by_utf16(snap.subtree(""), |r| r.path.as_str())
        .into_iter()
        .filter(|r| r.last_used() < cutoff && chosen(r))
        .collect();
    let mut out = String::from("{\"type\":\"memories_expired\",\"dry_run\":");
    out.push_str(if dry_run { "true" } else { "false" });
    out.push_str(",\"cutoff\":");
    match acting {
        Some(_) => crate::format::json::write_str(&mut out, &crate::model::time::rfc3339(cutoff)),
        None => out.push_str("null"),
    }
    out.push_str(",\"data\":[");
    for (i, record) in due.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        record.write_memory_json(&mut out, None);
    }
    out.push_str("]}");
    if dry_run || due.is_empty() {
        return Ok(Outcome::value(out, vec![]));
    }
    let keys: Vec<&str> = due.iter().map(|r| r.path.as_str()).collect();
    vet_deletes(&keys, "expired memories", cx, snap)?;
    let mut history = History::new(cx, snap);
    for record in due {
        history.delete(record);
    }
    Ok(Outcome::value(out, history.finish(snap, Voice::Host)?))
}

/// One memory of a `memories.createMany`: a store key, its text, and the hosted version it
/// came from (recorded in its version's `created_by`, docs/SYNC.md#what-the-local-history-records).
#[derive(Clone, Debug)]
pub struct NewMemory {
    pub key: String,
    pub content: String,
    pub memory_version_id: Option<String>,
}

/// The most memories one `memories.createMany` takes (a sync pull writes a page of 20).
pub(crate) const MAX_CREATE_MANY: usize = 100;

/// `memories.createMany({ memories })`: creates them all in one transaction, or none. Each is
/// checked as `memories.create` checks one (placement, policy, size), the count as one
/// addition, and two of them where one would stand in the other's way are refused: a
/// `PATH_CONFLICT`, nothing written. Each gets its own version, in the order given, its
/// `created_by` the host actor with its `memory_version_id`.
pub(crate) fn create_many(
    items: &[NewMemory],
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    refuse_if_read_only(cx, snap, Voice::Host, "create memories")?;
    let keys: std::collections::HashSet<&str> = items.iter().map(|m| m.key.as_str()).collect();
    for (i, item) in items.iter().enumerate() {
        refuse_tool_path(&item.key, cx)?;
        let twice = items.iter().skip(i + 1).any(|m| m.key == item.key);
        let under = crate::model::path::ancestor_keys(&item.key)
            .into_iter()
            .find(|a| keys.contains(a.as_str()));
        if twice || under.is_some() {
            let path = under.unwrap_or_else(|| item.key.clone());
            return Err(Stop::Fail(
                ToolError::new(
                    ErrorCode::PathConflict,
                    fill("Cannot create {} with {} in one call", &[&item.key, &path]),
                )
                .with_detail(Detail::Conflict {
                    memory_id: None,
                    path,
                }),
            ));
        }
    }
    let mut reads: Vec<Read> = items.iter().flat_map(|m| placement_reads(&m.key)).collect();
    reads.extend([Read::Count, clock_read()]);
    snap.need(reads)?;
    for item in items {
        check_place(&item.key, None, snap)?;
    }
    let asks: Vec<super::policy::Ask<'_, '_>> = items
        .iter()
        .map(|m| super::policy::Ask {
            key: &m.key,
            operation: WriteKind::Create,
            old_key: None,
            bytes: Some(m.content.as_bytes()),
        })
        .collect();
    let vetted = super::policy::vet_all(&asks, cx, snap, &|ask, reason| {
        fill(crate::format::texts::POLICY_REFUSED, &[ask.key, reason])
    })?;
    let mut contents = Vec::with_capacity(items.len());
    for (item, bytes) in items.iter().zip(vetted) {
        let bytes = bytes.unwrap_or(std::borrow::Cow::Borrowed(item.content.as_bytes()));
        check_size(cx, Voice::Host, &item.key, bytes.len())?;
        contents.push(bytes);
    }
    check_count(
        cx,
        snap,
        Voice::Host,
        items.first().map_or("", |m| m.key.as_str()),
        items.len() as u64,
    )?;
    let mut out = String::from("[");
    let mut writes = Vec::new();
    let mut newest: Option<String> = None;
    for (i, (item, content)) in items.iter().zip(&contents).enumerate() {
        // Each its own actor and ids, its versions after the one before.
        let one = Context {
            actor: match &item.memory_version_id {
                Some(v) => cx.actor.with_field("memory_version_id", v),
                None => cx.actor.clone(),
            },
            seed: seed_of(&cx.seed, i),
            ..cx.clone()
        };
        let mut history = History::new(&one, snap);
        history.after_version(newest.as_deref());
        let record = history.create(&item.key, Bytes::New(content), None);
        let done = history.finish(snap, Voice::Host)?;
        for write in &done {
            if let crate::protocol::Write::PutVersion(v) = write {
                if newest.as_deref().is_none_or(|n| v.id.as_str() > n) {
                    newest = Some(v.id.clone());
                }
            }
        }
        writes.extend(done);
        if i > 0 {
            out.push(',');
        }
        out.push_str(&memory_json(&record, Some(content)));
    }
    out.push(']');
    Ok(Outcome::value(out, writes))
}

/// The `i`th memory's seed of a `createMany`: its ids are its own.
fn seed_of(seed: &[u8; 16], i: usize) -> [u8; 16] {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(seed);
    hasher.update((i as u64).to_le_bytes());
    let digest = hasher.finalize();
    let mut out = [0u8; 16];
    for (o, d) in out.iter_mut().zip(digest.iter()) {
        *o = *d;
    }
    out
}
