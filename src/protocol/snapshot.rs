//! What a command sees of storage: the reads answered so far in its task.

use super::{Answer, Decision, Read};
use crate::format::listing::ListingEntry;
use crate::model::clock::StoreClock;
use crate::model::error::ToolError;
use crate::model::record::{FileRecord, VersionRecord};
use std::collections::HashMap;

/// Why a command stopped before finishing: it needs reads, or it was refused.
#[derive(Debug)]
pub(crate) enum Stop {
    Need(Vec<Read>),
    Fail(ToolError),
}

impl From<ToolError> for Stop {
    fn from(e: ToolError) -> Self {
        Stop::Fail(e)
    }
}

/// The answered reads of a task, indexed by read: a command re-run each round looks each of
/// its reads up in constant time, so a round costs what its command does, not what every
/// earlier round answered.
#[derive(Debug, Default)]
pub(crate) struct Snapshot {
    answers: HashMap<Read, Answer>,
    /// The SHA-256 of the operation's own bytes to write, made by `Task::prepare` while the
    /// first reads were out.
    prehashed: Option<Prehashed>,
}

/// What a snapshot found damaged in storage (docs/TOOL.md#damaged-records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Damage {
    /// The record at this store key (or of this memory id) cannot be read.
    Record(String),
    /// The content of the memory at this store key is missing.
    Content(String),
}

/// A hash made ahead of need, with the bytes it is of named by their address and length: they
/// belong to the task's operation, which neither changes nor moves them while the task lives.
#[derive(Clone, Debug)]
pub(crate) struct Prehashed {
    addr: usize,
    len: usize,
    sha256: String,
}

impl Prehashed {
    /// The hash of `bytes`, which must stay where they are while the task lives.
    pub(crate) fn new(bytes: &[u8]) -> Prehashed {
        Prehashed {
            addr: bytes.as_ptr() as usize,
            len: bytes.len(),
            sha256: crate::model::record::sha256_hex(bytes),
        }
    }

    /// The SHA-256 (hex) of `bytes` if this hash is of those very bytes.
    pub(crate) fn of(&self, bytes: &[u8]) -> Option<String> {
        (self.addr == bytes.as_ptr() as usize && self.len == bytes.len())
            .then(|| self.sha256.clone())
    }
}

impl Snapshot {
    /// The hash `Task::prepare` made, if any.
    pub(crate) fn prehashed(&self) -> Option<Prehashed> {
        self.prehashed.clone()
    }

    /// Keeps a hash `Task::prepare` made.
    pub(crate) fn keep_prehashed(&mut self, prehashed: Prehashed) {
        self.prehashed = Some(prehashed);
    }

    /// Whether `Task::prepare` has made a hash.
    pub(crate) fn is_prehashed(&self) -> bool {
        self.prehashed.is_some()
    }

    /// Records the host's answer to `read`.
    pub(crate) fn answer_with(&mut self, read: Read, answer: Answer) {
        // A head's bytes found by their file key are the answer to a read of their content
        // key: a command that then needs `Content(key)` has it, with no second round.
        let answer = match (&read, answer) {
            (Read::HeadContent(_), Answer::Head(Some((key, bytes)))) => {
                self.answers
                    .insert(Read::Content(key), Answer::Content(Some(bytes)));
                Answer::Head(None)
            }
            // Each of several contents is the answer to a read of its key (kept once: the
            // `Contents` read itself keeps only that it was answered, see `answer_of`).
            (Read::Contents(keys), Answer::Contents(values)) => {
                for (key, value) in keys.iter().zip(values) {
                    self.answers
                        .insert(Read::Content(key.clone()), Answer::Content(value));
                }
                Answer::Contents(Vec::new())
            }
            (_, answer) => answer,
        };
        self.answers.insert(read, answer);
    }

    fn answer(&self, read: &Read) -> Option<&Answer> {
        self.answers.get(read)
    }

    /// A copy of the answer to `read`, if it was answered (a `Contents` read's from its keys'
    /// contents): for a cursor that takes its answers by value (`bundle::ExportCursor`).
    pub(crate) fn answer_of(&self, read: &Read) -> Option<Answer> {
        match (read, self.answer(read)?) {
            (Read::Contents(keys), _) => Some(Answer::Contents(
                keys.iter()
                    .map(|key| self.content(key).map(<[u8]>::to_vec))
                    .collect(),
            )),
            (_, answer) => Some(answer.clone()),
        }
    }

    /// Stops the command until every read in `reads` is answered, asking for all of them at once.
    pub(crate) fn need(&self, reads: Vec<Read>) -> Result<(), Stop> {
        let missing: Vec<Read> = reads
            .into_iter()
            .filter(|r| self.answer(r).is_none())
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(Stop::Need(missing))
        }
    }

    /// The record under `key` (after `need(File(key))`).
    pub(crate) fn file(&self, key: &str) -> Option<&FileRecord> {
        match self.answer(&Read::File(key.to_string())) {
            Some(Answer::File(record)) => record.as_ref(),
            _ => None,
        }
    }

    /// The records below `key` (after `need(Subtree(key))`).
    pub(crate) fn subtree(&self, key: &str) -> &[FileRecord] {
        match self.answer(&Read::Subtree(key.to_string())) {
            Some(Answer::Subtree(records, _)) => records,
            _ => &[],
        }
    }

    /// The records a `FilesAfter` read returned, and the keys of those that cannot be read.
    pub(crate) fn files_after(&self, read: &Read) -> (&[FileRecord], &[String]) {
        match self.answer(read) {
            Some(Answer::Subtree(records, damaged)) => (records, damaged),
            _ => (&[], &[]),
        }
    }

    /// The files below `key` (after `need(Listing(key))`).
    pub(crate) fn listing(&self, key: &str) -> &[ListingEntry] {
        match self.answer(&Read::Listing(key.to_string())) {
            Some(Answer::Listing(entries)) => entries,
            _ => &[],
        }
    }

    /// The files of mount `n` (after `need(MountListing(n))`).
    pub(crate) fn mount_listing(&self, n: usize) -> &[ListingEntry] {
        match self.answer(&Read::MountListing(n)) {
            Some(Answer::Listing(entries)) => entries,
            _ => &[],
        }
    }

    /// Whether anything lies below `key` (after `need(HasChildren(key))` or `Subtree(key)`).
    pub(crate) fn has_children(&self, key: &str) -> bool {
        match self.answer(&Read::HasChildren(key.to_string())) {
            Some(Answer::Flag(yes)) => *yes,
            _ => !self.subtree(key).is_empty(),
        }
    }

    /// Whether the store is archived: `None` until `Archived` is answered (every writing
    /// task's first round asks it).
    pub(crate) fn archived(&self) -> Option<bool> {
        match self.answer(&Read::Archived) {
            Some(Answer::Flag(yes)) => Some(*yes),
            _ => None,
        }
    }

    /// The first damage among the answers (the least key first, so the same store always
    /// reports the same): a record that cannot be read, a directory holding such records, or
    /// content asked for and missing (named by the key of the record that holds it).
    pub(crate) fn damage(&self) -> Option<Damage> {
        let mut found: Vec<Damage> = Vec::new();
        for (read, answer) in &self.answers {
            match (read, answer) {
                (Read::File(key) | Read::FileById(key), Answer::DamagedFile) => {
                    found.push(Damage::Record(key.clone()));
                }
                (Read::Subtree(_), Answer::Subtree(_, damaged)) => {
                    found.extend(damaged.iter().cloned().map(Damage::Record));
                }
                (Read::Content(content), Answer::Content(None)) => {
                    let holder = self.answers.values().find_map(|a| match a {
                        Answer::File(Some(r)) if &r.content == content => Some(r.path.clone()),
                        Answer::Subtree(records, _) => records
                            .iter()
                            .find(|r| &r.content == content)
                            .map(|r| r.path.clone()),
                        _ => None,
                    });
                    found.push(Damage::Content(holder.unwrap_or_else(|| content.clone())));
                }
                _ => {}
            }
        }
        found
            .into_iter()
            .min_by(|a, b| damage_key(a).cmp(damage_key(b)))
    }

    /// The store's file count (after `need(Count)`).
    pub(crate) fn count(&self) -> u64 {
        match self.answer(&Read::Count) {
            Some(Answer::Count(n)) => *n,
            _ => 0,
        }
    }

    /// The record of memory `id` (after `need(FileById(id))`).
    pub(crate) fn file_by_id(&self, id: &str) -> Option<&FileRecord> {
        match self.answer(&Read::FileById(id.to_string())) {
            Some(Answer::File(record)) => record.as_ref(),
            _ => None,
        }
    }

    /// A version (after `need(Version(id))`).
    pub(crate) fn version(&self, id: &str) -> Option<&VersionRecord> {
        match self.answer(&Read::Version(id.to_string())) {
            Some(Answer::Version(record)) => record.as_ref(),
            _ => None,
        }
    }

    /// The versions a `VersionsDesc` or `VersionsBelow` read returned.
    pub(crate) fn versions(&self, read: &Read) -> &[VersionRecord] {
        match self.answer(read) {
            Some(Answer::Versions(records)) => records,
            _ => &[],
        }
    }

    /// The ids a `VersionsWithContent` or `VersionIds` read returned.
    pub(crate) fn ids(&self, read: &Read) -> &[String] {
        match self.answer(read) {
            Some(Answer::Ids(ids)) => ids,
            _ => &[],
        }
    }

    /// The policy's decision on a write (after `need(Policy{..})`).
    pub(crate) fn decision(&self, read: &Read) -> Option<&Decision> {
        match self.answer(read) {
            Some(Answer::Policy(decision)) => Some(decision),
            _ => None,
        }
    }

    /// The store's newest version id (after `need(NewestVersionId)`).
    pub(crate) fn newest_version_id(&self) -> Option<&str> {
        match self.answer(&Read::NewestVersionId) {
            Some(Answer::VersionId(id)) => id.as_deref(),
            _ => None,
        }
    }

    /// What the store remembers of the time (after `need(Clock)`): `None` when it has no
    /// record, or one that cannot be read.
    pub(crate) fn clock(&self) -> Option<StoreClock> {
        match self.answer(&Read::Clock) {
            Some(Answer::Clock(clock)) => *clock,
            _ => None,
        }
    }

    /// The content stored under `id` (after `need(Content(id))`).
    pub(crate) fn content(&self, id: &str) -> Option<&[u8]> {
        match self.answer(&Read::Content(id.to_string())) {
            Some(Answer::Content(Some(bytes))) => Some(bytes),
            _ => None,
        }
    }
}

fn damage_key(damage: &Damage) -> &str {
    match damage {
        Damage::Record(key) | Damage::Content(key) => key,
    }
}
