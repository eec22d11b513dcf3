//! The writes of a change, with the version that records it (docs/TOOL.md#versions): every command that
//! changes a memory goes through `History`, so no change escapes the log.

use super::retention::pinned;
use crate::commands::rules::{fail, Voice};
use crate::commands::Context;
use crate::format::render::{fill, group};
use crate::format::sort::sorted_unique;
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::ids::{IdSource, VersionIds};
use crate::model::record::{
    content_key, sha256_hex, Change, FileRecord, HistoryCount, VersionRecord,
};
use crate::protocol::Prehashed;
use crate::protocol::{Read, Snapshot, Stop, Write};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Memory ids in the order first added, each once, with a constant-time lookup (an import or
/// a directory rename adds thousands: a command stays linear in its files).
#[derive(Default)]
struct OnceEach {
    order: Vec<String>,
    seen: HashSet<String>,
}

impl OnceEach {
    /// Adds `id` unless it is there; true when it was not.
    fn add(&mut self, id: &str) -> bool {
        let new = self.seen.insert(id.to_string());
        if new {
            self.order.push(id.to_string());
        }
        new
    }

    fn iter(&self) -> std::slice::Iter<'_, String> {
        self.order.iter()
    }
}

/// This command's version writes, by memory: what the budget looks at per memory, gathered in
/// one pass over the writes.
struct OwnWrites<'w> {
    /// `PutVersion`s, in write order.
    versions: HashMap<&'w str, Vec<&'w VersionRecord>>,
    /// `KeepVersion`s.
    kept: HashMap<&'w str, Vec<&'w VersionRecord>>,
}

impl<'w> OwnWrites<'w> {
    fn of(writes: &'w [Write]) -> OwnWrites<'w> {
        let mut own = OwnWrites {
            versions: HashMap::new(),
            kept: HashMap::new(),
        };
        for write in writes {
            let (map, v) = match write {
                Write::PutVersion(v) => (&mut own.versions, v),
                Write::KeepVersion(v) => (&mut own.kept, v),
                _ => continue,
            };
            map.entry(v.memory_id.as_str()).or_default().push(v);
        }
        own
    }

    /// This command's versions of `memory`, in write order.
    fn versions(&self, memory: &str) -> impl Iterator<Item = &&'w VersionRecord> {
        self.versions.get(memory).into_iter().flatten()
    }

    /// The versions of `memory` this command keeps (`History::keep`).
    fn kept(&self, memory: &str) -> impl Iterator<Item = &&'w VersionRecord> {
        self.kept.get(memory).into_iter().flatten()
    }
}

/// Where a memory's new bytes come from.
pub(crate) enum Bytes<'a> {
    /// New bytes, stored under the new version's content key.
    New(&'a [u8]),
    /// New bytes whose SHA-256 (hex) is known already (checked against a bundle's): not
    /// hashed again, and written shared, not copied.
    Hashed(&'a Rc<[u8]>, &'a str),
    /// Bytes already stored (a rename, a restore): no copy.
    Stored {
        key: &'a str,
        size: u64,
        sha256: &'a str,
    },
}

/// New bytes as a command has them: its own (copied once, into the write), or shared.
#[derive(Clone, Copy)]
enum Payload<'a> {
    Borrowed(&'a [u8]),
    Shared(&'a Rc<[u8]>),
}

impl Payload<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Payload::Borrowed(b) => b,
            Payload::Shared(b) => b,
        }
    }

    fn to_shared(self) -> Rc<[u8]> {
        match self {
            Payload::Borrowed(b) => Rc::from(b),
            Payload::Shared(b) => Rc::clone(b),
        }
    }
}

/// `Bytes`, with the hash of new bytes once it is known.
enum Hashed<'a> {
    New(Payload<'a>, Option<String>),
    Stored {
        key: &'a str,
        size: u64,
        sha256: &'a str,
    },
}

/// Builds one command's writes. Needs `Read::NewestVersionId` answered (see `clock_read`).
pub(crate) struct History<'c> {
    cx: &'c Context,
    ids: IdSource,
    clock: VersionIds,
    writes: Vec<Write>,
    /// Times for the next record instead of now (an import keeps the bundle's): created,
    /// updated, last used.
    times: Option<(i64, i64, Option<i64>)>,
    /// A hash made while the first reads were out (`Task::prepare`).
    prehashed: Option<Prehashed>,
    /// A directory key every file below which this command deletes or moves away.
    emptying: Option<String>,
    /// The version a restore brings back, recorded in the new version's `created_by`.
    restored_from: Option<String>,
    /// The memories this command wrote versions of, in order, each once: the ones the history
    /// budget looks at (docs/TOOL.md#history-budget).
    changed: OnceEach,
    /// Of those, the memories this command created with a fresh id: they have no stored
    /// history, so the budget needs no read for them.
    fresh: HashSet<String>,
    /// The memories deleted in the compact form (docs/TOOL.md#delete-at-full-quota): their
    /// file record goes with every version and every byte only they hold; nothing is put.
    compacted: OnceEach,
    /// The history counts the records this command changes held (`FileRecord::history`), by
    /// memory: with them the budget needs no read while the memory stays within it.
    counted: HashMap<String, HistoryCount>,
    /// The time of the store's newest version (0 for none): kept versions are stamped no
    /// earlier, so a clock gone back does not shorten what they are kept for.
    newest_time: i64,
}

/// Whether a write of one new version of `record`'s memory may need its version records for
/// the history budget (docs/TOOL.md#history-budget): when the record has not counted them, or
/// its count with one more version of at most `max_file_bytes` would not fit. An edit then
/// asks for them in the same round as the bytes; otherwise the budget needs no read.
pub(crate) fn may_read_history(record: &FileRecord, cx: &Context) -> bool {
    let Some(count) = record.history else {
        return true;
    };
    let config = &cx.config;
    count.versions.saturating_add(1) > config.max_versions_per_memory.max(1)
        || count.bytes.saturating_add(config.max_file_bytes) > config.max_history_bytes_per_memory
}

/// The read every writing command makes in its first round, so that its version ids follow
/// the store's newest one.
pub(crate) fn clock_read() -> Read {
    Read::NewestVersionId
}

impl<'c> History<'c> {
    pub(crate) fn new(cx: &'c Context, snap: &Snapshot) -> History<'c> {
        History {
            cx,
            ids: cx.ids(),
            clock: VersionIds::after(snap.newest_version_id(), cx.now),
            writes: Vec::new(),
            times: None,
            prehashed: snap.prehashed(),
            emptying: None,
            restored_from: None,
            changed: OnceEach::default(),
            fresh: HashSet::new(),
            compacted: OnceEach::default(),
            counted: HashMap::new(),
            newest_time: snap
                .newest_version_id()
                .and_then(crate::model::ids::version_id_time)
                .unwrap_or(0),
        }
    }

    /// Notes that this command writes a version of memory `id`.
    fn changes(&mut self, id: &str) {
        self.changed.add(id);
    }

    /// The time this command records in file records: now, but never before the store's
    /// newest version, so a clock gone back never makes a memory look older than it is (an
    /// expiry would take it early, docs/TOOL.md#last-use-and-expiry).
    fn recorded_now(&self) -> i64 {
        self.cx.now.max(self.newest_time)
    }

    /// Keeps `version` restorable whatever the history budget, and for the retention period
    /// from now (docs/TOOL.md#retention): a sync conflict sets its text aside, or a restore
    /// brings it back.
    pub(crate) fn keep(&mut self, version: &VersionRecord) {
        let at = self.recorded_now();
        self.writes.push(Write::KeepVersion(VersionRecord {
            kept_at: Some(at),
            ..version.clone()
        }));
    }

    /// Says that the next change restores version `id`: its version's `created_by` carries
    /// `restored_from` (docs/TOOL.md#restore), so a history can name a restore as one.
    pub(crate) fn restoring(&mut self, id: &str) -> &mut Self {
        self.restored_from = Some(id.to_string());
        self
    }

    /// The actor of the next version: the command's, with `restored_from` when restoring.
    fn created_by(&mut self) -> String {
        match self.restored_from.take() {
            Some(id) => self
                .cx
                .actor
                .with_field("restored_from", &id)
                .json()
                .to_string(),
            None => self.cx.actor.json().to_string(),
        }
    }

    /// Makes the versions this command writes sort after `newest` too (an import's own
    /// versions after the bundle's, which may be stamped a little ahead of this clock).
    pub(crate) fn after_version(&mut self, newest: Option<&str>) -> &mut Self {
        if let Some(newest) = newest {
            let theirs = VersionIds::after(Some(newest), self.cx.now);
            self.clock = self.clock.clone().max_of(theirs);
        }
        self
    }

    /// Says that the command takes every file below directory key `dir` away (a directory
    /// delete or rename): their deletes carry it, so a host may unlist them at once.
    pub(crate) fn emptying(&mut self, dir: &str) -> &mut Self {
        self.emptying = Some(dir.to_string());
        self
    }

    /// The directory key this command empties, if `record` lies below it.
    fn emptied_tree(&self, record: &FileRecord) -> Option<&String> {
        self.emptying.as_ref().filter(|dir| {
            record.path.len() > dir.len()
                && record.path.starts_with(dir.as_str())
                && record.path.as_bytes().get(dir.len()) == Some(&b'/')
        })
    }

    /// The delete of `record`'s file at its path.
    fn delete_file(&self, record: &FileRecord) -> Write {
        let tree = self.emptied_tree(record);
        Write::DeleteFile {
            path: record.path.clone(),
            size: record.size,
            tree: tree.cloned(),
        }
    }

    /// The next created or modified record gets these `created_at` and `updated_at`.
    pub(crate) fn with_times(
        &mut self,
        created_at: i64,
        updated_at: i64,
        accessed_at: Option<i64>,
    ) -> &mut Self {
        self.times = Some((created_at, updated_at, accessed_at));
        self
    }

    /// Creates a memory at `path` (a fresh id unless `memory_id` is given).
    pub(crate) fn create(
        &mut self,
        path: &str,
        bytes: Bytes<'_>,
        memory_id: Option<&str>,
    ) -> FileRecord {
        let id = memory_id.map_or_else(|| self.ids.next("mem_"), str::to_string);
        if memory_id.is_none() {
            self.fresh.insert(id.clone());
        }
        let bytes = match bytes {
            Bytes::New(b) => Hashed::New(Payload::Borrowed(b), None),
            Bytes::Hashed(b, sha) => Hashed::New(Payload::Shared(b), Some(sha.to_string())),
            Bytes::Stored { key, size, sha256 } => Hashed::Stored { key, size, sha256 },
        };
        let now = self.recorded_now();
        self.head(Change::Created, &id, now, path, bytes, None)
    }

    /// Gives `record` a new path and/or new bytes. Nothing is written when neither changes.
    pub(crate) fn modify(
        &mut self,
        record: &FileRecord,
        path: &str,
        bytes: Bytes<'_>,
    ) -> FileRecord {
        // New bytes are hashed once, here, and the hash reused for the record and version.
        let (bytes, same_bytes) = match bytes {
            Bytes::New(b) => {
                let sha = if b.len() as u64 == record.size {
                    Some(sha256_hex(b))
                } else {
                    None
                };
                let same = sha.as_deref() == Some(record.sha256.as_str());
                (Hashed::New(Payload::Borrowed(b), sha), same)
            }
            Bytes::Hashed(b, sha) => {
                let same = b.len() as u64 == record.size && sha == record.sha256;
                (Hashed::New(Payload::Shared(b), Some(sha.to_string())), same)
            }
            Bytes::Stored { key, size, sha256 } => {
                (Hashed::Stored { key, size, sha256 }, key == record.content)
            }
        };
        if same_bytes && path == record.path {
            return record.clone();
        }
        if let Some(count) = record.history {
            self.counted.entry(record.id.clone()).or_insert(count);
        }
        self.adopt(record);
        self.head(
            Change::Modified,
            &record.id,
            record.created_at,
            path,
            bytes,
            Some(record),
        )
    }

    /// A record stored before versions existed has none: before its first change, its state is
    /// recorded as a version, so its bytes belong to the history like any others (and are
    /// freed by retention like any others).
    fn adopt(&mut self, record: &FileRecord) {
        if record.version.is_some() {
            return;
        }
        self.writes.push(Write::PutVersion(VersionRecord {
            id: self.clock.next(&mut self.ids),
            memory_id: record.id.clone(),
            operation: Change::Created,
            path: Some(record.path.clone()),
            size: Some(record.size),
            sha256: Some(record.sha256.clone()),
            content: Some(record.content.clone()),
            created_at: record.created_at,
            created_by: "null".to_string(),
            redacted_at: None,
            kept_at: None,
        }));
    }

    /// Deletes `record`; its bytes stay for the versions that hold them. In the compact form
    /// (`Context::compact`, docs/TOOL.md#delete-at-full-quota) the memory goes with its whole
    /// history instead, and nothing is put: `finish` adds the deletes of its versions.
    pub(crate) fn delete(&mut self, record: &FileRecord) {
        if self.cx.compact {
            self.writes.push(self.delete_file(record));
            if self.compacted.add(&record.id) {
                // A record stored before versions existed holds bytes no version names.
                if record.version.is_none() {
                    self.writes
                        .push(Write::DeleteContent(record.content.clone()));
                }
            }
            return;
        }
        // No budget read: a deletion holds no content, and the budget is enforced at the
        // memory's next write (docs/TOOL.md#history-budget), so a directory delete stays a few
        // requests whatever it holds.
        self.adopt(record);
        let version = VersionRecord {
            id: self.clock.next(&mut self.ids),
            memory_id: record.id.clone(),
            operation: Change::Deleted,
            path: Some(record.path.clone()),
            size: None,
            sha256: None,
            content: None,
            created_at: self.cx.now,
            created_by: self.cx.actor.json().to_string(),
            redacted_at: None,
            kept_at: None,
        };
        self.writes.push(self.delete_file(record));
        self.writes.push(Write::PutVersion(version));
    }

    /// Adds a write that is not a change of a memory (redaction, pruning, import of history).
    pub(crate) fn push(&mut self, write: Write) {
        self.writes.push(write);
    }

    /// The writes, without the history budget: for an import, which keeps the history it
    /// brings (docs/TOOL.md#history-budget), and the registry's own records.
    pub(crate) fn into_writes(self) -> Vec<Write> {
        self.writes
    }

    /// The writes, with the history budget enforced (docs/TOOL.md#history-budget): each memory
    /// this command wrote a version of keeps at most `maxVersionsPerMemory` versions holding at
    /// most `maxHistoryBytesPerMemory` bytes, by deleting its oldest versions that this command
    /// did not write (the head never goes: it is the newest). One read per memory (its version
    /// records, no content; none for a memory created here), and one per content key that may
    /// be freed. When even that cannot make room (the versions this command writes hold more
    /// than the byte budget), the command fails with `HISTORY_LIMIT_EXCEEDED` and nothing is
    /// written. A delete and a directory rename are not checked (their versions hold no new
    /// content): those memories come within budget at their next checked write.
    pub(crate) fn finish(mut self, snap: &Snapshot, voice: Voice) -> Result<Vec<Write>, Stop> {
        let compacted = std::mem::take(&mut self.compacted);
        let own = OwnWrites::of(&self.writes);
        // A memory whose record counted its versions, and that stays within budget by that
        // count with this command's versions added, needs no read: nothing would be pruned.
        let within: HashMap<String, HistoryCount> = self
            .changed
            .iter()
            .filter(|m| !self.fresh.contains(*m))
            .filter_map(|m| self.counted_within(m, &own))
            .collect();
        let stored: Vec<String> = self
            .changed
            .iter()
            .filter(|m| !self.fresh.contains(*m) && !within.contains_key(*m))
            .chain(compacted.iter())
            .cloned()
            .collect();
        snap.need(stored.iter().cloned().map(Read::History).collect())?;
        let mut doomed: Vec<(String, Option<String>)> = Vec::new();
        for memory in compacted.iter() {
            for version in snap.versions(&Read::History(memory.clone())) {
                doomed.push((version.id.clone(), version.content.clone()));
            }
        }
        let mut kept: Vec<String> = Vec::new();
        let mut counts: HashMap<String, HistoryCount> = HashMap::new();
        for memory in self.changed.iter() {
            if let Some(count) = within.get(memory) {
                counts.insert(memory.clone(), *count);
                continue;
            }
            let stored: &[VersionRecord] = if self.fresh.contains(memory) {
                &[]
            } else {
                snap.versions(&Read::History(memory.clone()))
            };
            let (pruned, keys, count) = self.budget(memory, stored, voice, &own)?;
            doomed.extend(pruned);
            kept.extend(keys);
            counts.insert(memory.clone(), count);
        }
        // Each memory's new record carries its count, for its next write.
        for write in &mut self.writes {
            if let Write::PutFile { record, .. } = write {
                if let Some(count) = counts.get(&record.id) {
                    record.history = Some(*count);
                }
            }
        }
        let kept_keys: HashSet<&str> = kept.iter().map(String::as_str).collect();
        let doomed_ids: HashSet<&str> = doomed.iter().map(|(id, _)| id.as_str()).collect();
        let keys = sorted_unique(
            doomed
                .iter()
                .filter_map(|(_, key)| key.as_deref())
                .filter(|key| !kept_keys.contains(*key))
                .collect(),
        );
        let holders: Vec<Read> = keys
            .iter()
            .map(|key| Read::VersionsWithContent(key.to_string()))
            .collect();
        snap.need(holders.clone())?;
        let mut writes = std::mem::take(&mut self.writes);
        let new_keys: HashSet<&str> = writes
            .iter()
            .filter_map(|w| match w {
                Write::PutVersion(v) => v.content.as_deref(),
                Write::PutFile { record, .. } => Some(record.content.as_str()),
                _ => None,
            })
            .collect();
        let mut freed = Vec::new();
        for (key, read) in keys.iter().zip(&holders) {
            let only_doomed = snap
                .ids(read)
                .iter()
                .all(|holder| doomed_ids.contains(holder.as_str()));
            if only_doomed && !new_keys.contains(key) {
                freed.push(Write::DeleteContent(key.to_string()));
            }
        }
        writes.extend(
            doomed
                .iter()
                .map(|(id, _)| Write::DeleteVersion(id.clone())),
        );
        writes.extend(freed);
        Ok(writes)
    }

    /// The count of `memory`'s versions with this command's added, when its record counted
    /// them and that sum is within the budget (then the budget prunes nothing and needs no
    /// read). Each new version's content counts in full: a bound, never below the truth.
    fn counted_within(&self, memory: &str, own: &OwnWrites<'_>) -> Option<(String, HistoryCount)> {
        let before = self.counted.get(memory)?;
        let mut count = *before;
        for version in own.versions(memory) {
            count.versions = count.versions.saturating_add(1);
            if version.content.is_some() {
                count.bytes = count.bytes.saturating_add(version.size.unwrap_or(0));
            }
        }
        let max_versions = self.cx.config.max_versions_per_memory.max(1);
        (count.versions <= max_versions
            && count.bytes <= self.cx.config.max_history_bytes_per_memory)
            .then(|| (memory.to_string(), count))
    }

    /// The versions of `memory` the budget prunes (id and content key), the content keys its
    /// remaining versions hold, and what those remaining versions hold (its new count); or the
    /// refusal when the versions this command writes do not fit on their own. `stored` is its
    /// history as storage holds it, oldest first.
    #[allow(clippy::type_complexity)]
    fn budget(
        &self,
        memory: &str,
        stored: &[VersionRecord],
        voice: Voice,
        writes: &OwnWrites<'_>,
    ) -> Result<(Vec<(String, Option<String>)>, Vec<String>, HistoryCount), Stop> {
        let own: Vec<&VersionRecord> = writes.versions(memory).copied().collect();
        let own_ids: HashSet<&str> = own.iter().map(|v| v.id.as_str()).collect();
        // Oldest first, with no sort (each `sort_by` adds a copy of the sort to the wasm):
        // storage answers in id order, and this command's ids follow the store's newest, in
        // write order (docs/TOOL.md#versions).
        let all: Vec<&VersionRecord> = stored
            .iter()
            .filter(|v| !own_ids.contains(v.id.as_str()))
            .chain(own.iter().copied())
            .collect();
        let max_versions = self.cx.config.max_versions_per_memory.max(1);
        let max_bytes = self.cx.config.max_history_bytes_per_memory;
        // What a restore brought back or a sync conflict set aside is never the budget's to
        // take (docs/TOOL.md#retention): retention alone lets it go.
        let mut pins = pinned(all.iter().copied(), None);
        pins.extend(writes.kept(memory).map(|v| v.id.clone()));
        // Each content counts once while any version holding it remains (a history is at most
        // the budget's versions long: a list is enough).
        let mut holders: Vec<(&str, usize, u64)> = Vec::new();
        for v in &all {
            if let Some(key) = v.content.as_deref() {
                match holders.iter_mut().find(|(k, _, _)| *k == key) {
                    Some(entry) => entry.1 += 1,
                    None => holders.push((key, 1, v.size.unwrap_or(0))),
                }
            }
        }
        let mut bytes = holders
            .iter()
            .fold(0u64, |sum, (_, _, size)| sum.saturating_add(*size));
        let mut remaining = all.len();
        let mut gone: HashSet<&str> = HashSet::new();
        for v in &all {
            if remaining <= max_versions as usize && bytes <= max_bytes {
                break;
            }
            if own_ids.contains(v.id.as_str()) || pins.contains(&v.id) {
                continue;
            }
            gone.insert(v.id.as_str());
            remaining -= 1;
            if let Some(entry) = v
                .content
                .as_deref()
                .and_then(|k| holders.iter_mut().find(|(h, _, _)| *h == k))
            {
                entry.1 -= 1;
                if entry.1 == 0 {
                    bytes = bytes.saturating_sub(entry.2);
                }
            }
        }
        let newest = all.last();
        let deleting = newest.is_some_and(|v| v.operation == Change::Deleted);
        // Refused only when this write's own versions cannot fit however much is pruned;
        // pinned versions may hold a memory over its budget until retention lets them go.
        let mut own_keys: HashSet<&str> = HashSet::new();
        let own_bytes = own
            .iter()
            .filter_map(|v| v.content.as_deref().map(|k| (k, v.size.unwrap_or(0))))
            .filter(|(k, _)| own_keys.insert(k))
            .fold(0u64, |sum, (_, n)| sum.saturating_add(n));
        if bytes > max_bytes && own_bytes > max_bytes && !deleting {
            let key = newest.and_then(|v| v.path.clone()).unwrap_or_default();
            let shown = match voice {
                Voice::Model => self.cx.tool_path(&key),
                Voice::Host => key,
            };
            return Err(fail(
                ErrorCode::HistoryLimitExceeded,
                voice.say(fill(
                    texts::HISTORY_TOO_BIG,
                    &[&shown, &group(bytes), &group(max_bytes)],
                )),
            ));
        }
        let (pruned, kept): (Vec<&&VersionRecord>, Vec<&&VersionRecord>) =
            all.iter().partition(|v| gone.contains(v.id.as_str()));
        let count = HistoryCount {
            versions: kept.len() as u64,
            bytes,
        };
        Ok((
            pruned
                .iter()
                .map(|v| (v.id.clone(), v.content.clone()))
                .collect(),
            kept.iter().filter_map(|v| v.content.clone()).collect(),
            count,
        ))
    }

    fn head(
        &mut self,
        operation: Change,
        memory_id: &str,
        created_at: i64,
        path: &str,
        bytes: Hashed<'_>,
        old: Option<&FileRecord>,
    ) -> FileRecord {
        // A file a directory rename moves gets a version with no new content: not checked, so
        // the rename costs no request per file (docs/TOOL.md#history-budget).
        if old.is_none_or(|o| self.emptied_tree(o).is_none()) {
            self.changes(memory_id);
        }
        let version_id = self.clock.next(&mut self.ids);
        let created_by = self.created_by();
        let (content, size, sha256) = match bytes {
            Hashed::New(payload, sha) => {
                let key = content_key(path, &version_id);
                let b = payload.bytes();
                self.writes.push(Write::PutContent {
                    id: key.clone(),
                    bytes: payload.to_shared(),
                });
                let sha = sha
                    .or_else(|| self.prehashed.as_ref().and_then(|p| p.of(b)))
                    .unwrap_or_else(|| sha256_hex(b));
                (key, b.len() as u64, sha)
            }
            Hashed::Stored { key, size, sha256 } => (key.to_string(), size, sha256.to_string()),
        };
        // A change is a use: the memory's last use is now (an import keeps the bundle's).
        let (created_at, updated_at, accessed_at) = self.times.take().unwrap_or((
            created_at,
            self.recorded_now(),
            Some(self.recorded_now()),
        ));
        let record = FileRecord {
            path: path.to_string(),
            id: memory_id.to_string(),
            size,
            sha256: sha256.clone(),
            created_at,
            updated_at,
            version: Some(version_id.clone()),
            content: content.clone(),
            accessed_at,
            // Set by `finish` once the budget has counted this memory's versions.
            history: None,
        };
        // A memory moves to a free path (the command checked it), or stays at its own.
        let previous_size = match old {
            Some(old) if old.path == path => Some(old.size),
            Some(old) => {
                let delete = self.delete_file(old);
                self.writes.push(delete);
                None
            }
            None => None,
        };
        self.writes.push(Write::PutFile {
            record: record.clone(),
            previous_size,
        });
        self.writes.push(Write::PutVersion(VersionRecord {
            id: version_id,
            memory_id: memory_id.to_string(),
            operation,
            path: Some(path.to_string()),
            size: Some(size),
            sha256: Some(sha256),
            content: Some(content),
            created_at: self.cx.now,
            created_by,
            redacted_at: None,
            kept_at: None,
        }));
        record
    }
}
