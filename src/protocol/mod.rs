//! The protocol between a command and its host: the reads a command asks for, the host's
//! answers, and the outcome (result and exact writes) it ends with. No command, routing or
//! storage is known here; the wire codec of these types is in `wire`.

mod snapshot;
mod wire;

pub(crate) use snapshot::{Damage, Prehashed, Snapshot, Stop};

use crate::format::listing::ListingEntry;
use crate::format::texts;
use crate::model::clock::StoreClock;
use crate::model::error::{Detail, ErrorCode, ToolError};
use crate::model::record::{FileRecord, VersionRecord};
use std::rc::Rc;

/// A read the host performs inside the command's transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// The record stored under a key.
    File(String),
    /// Every record below a directory key: keys in `[key + "/", key + "0")`.
    Subtree(String),
    /// Whether any record lies below a directory key.
    HasChildren(String),
    /// Up to `limit` file records in key order, after key `after` (`None`: from the first):
    /// a store read a page at a time (`check`).
    FilesAfter { after: Option<String>, limit: usize },
    /// How many files the store holds.
    Count,
    /// Whether the store is archived (read-only for good, whoever opened it and when). Every
    /// task that may write asks it in its first round.
    Archived,
    /// The bytes stored under a content key.
    Content(String),
    /// The bytes under each of several content keys, in their order: one request where the
    /// storage can (`getContents`, a key range when they lie together), not one per key. The
    /// export reads a chunk's contents so (docs/ARCHITECTURE.md#one-round-per-file).
    Contents(Vec<String>),
    /// The newest content whose key begins with this file key and `\0` (the content key of a
    /// head written at that key: `model::record::content_key`), with its key: asked in the
    /// round that reads the file's record, it brings a file's bytes without waiting for the
    /// record to name them. The command believes it only when the record names that key.
    HeadContent(String),
    /// The file record of a memory id.
    FileById(String),
    /// A version record by id.
    Version(String),
    /// Up to `limit` version records, newest first: of one memory if `memory` is set, and only
    /// ids below `below` if it is set.
    VersionsDesc {
        memory: Option<String>,
        below: Option<String>,
        limit: usize,
    },
    /// Every version record with an id below the bound, oldest first.
    VersionsBelow(String),
    /// Up to `limit` version records in id order (oldest first), after id `after` (`None`: from
    /// the first): a store's history read a page at a time (the streamed export).
    VersionsAfter { after: Option<String>, limit: usize },
    /// Every version record of one memory, oldest first (the history budget,
    /// docs/TOOL.md#history-budget; a compact delete): records only, no content.
    History(String),
    /// The ids of the versions that reference a content key.
    VersionsWithContent(String),
    /// The newest version id of the store, if any.
    NewestVersionId,
    /// What the store remembers of the time: the record its last open's housekeeping left
    /// (docs/TOOL.md#a-clock-that-can-be-trusted).
    Clock,
    /// Every version id of the store.
    VersionIds,
    /// The path and size of every file below a directory key (the directory view).
    Listing(String),
    /// `Listing` of the whole tree of the `n`th of the stores a task reads, for a task that
    /// reads several (the session's view of `/memories` over its mounts): the one read that
    /// names its store; every other read is of the task's one store.
    MountListing(usize),
    /// The host's write policy: may these bytes be written at this tool path? Answered with
    /// allow, refuse (with a reason) or rewritten bytes.
    Policy {
        path: String,
        source: String,
        /// What the write does.
        operation: WriteKind,
        /// The tool path the memory leaves (a rename, a move by `memories.update`).
        old_path: Option<String>,
        /// The content about to be written (none for a rename or delete).
        bytes: Option<Vec<u8>>,
    },
}

impl std::hash::Hash for Read {
    /// Hashes what tells reads apart cheaply: a policy read's bytes by their length only (equal
    /// reads still hash equally; the bytes are compared only when two reads collide).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Read::File(s)
            | Read::Subtree(s)
            | Read::HasChildren(s)
            | Read::Content(s)
            | Read::HeadContent(s)
            | Read::FileById(s)
            | Read::Version(s)
            | Read::VersionsBelow(s)
            | Read::History(s)
            | Read::VersionsWithContent(s)
            | Read::Listing(s) => s.hash(state),
            Read::Count
            | Read::Archived
            | Read::NewestVersionId
            | Read::Clock
            | Read::VersionIds => {}
            Read::VersionsDesc {
                memory,
                below,
                limit,
            } => (memory, below, limit).hash(state),
            Read::MountListing(n) => n.hash(state),
            Read::Contents(keys) => keys.hash(state),
            Read::FilesAfter { after, limit } | Read::VersionsAfter { after, limit } => {
                (after, limit).hash(state)
            }
            Read::Policy {
                path,
                source,
                operation,
                old_path,
                bytes,
            } => (
                path,
                source,
                operation,
                old_path,
                bytes.as_ref().map(Vec::len),
            )
                .hash(state),
        }
    }
}

/// The host's answer to a `Read`.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    File(Option<FileRecord>),
    /// A file read whose record is there but cannot be read (docs/TOOL.md#damaged-records).
    DamagedFile,
    /// The records below a key, and the keys of those that cannot be read.
    Subtree(Vec<FileRecord>, Vec<String>),
    Listing(Vec<ListingEntry>),
    /// A yes or no: whether anything lies below a key (`HasChildren`), whether the store is
    /// archived (`Archived`).
    Flag(bool),
    Count(u64),
    Content(Option<Vec<u8>>),
    /// The answer to `Contents`: each key's bytes, in the read's order (`None`: missing).
    Contents(Vec<Option<Vec<u8>>>),
    /// The answer to `HeadContent`: the key found and its bytes, or none.
    Head(Option<(String, Vec<u8>)>),
    Version(Option<VersionRecord>),
    Versions(Vec<VersionRecord>),
    Ids(Vec<String>),
    VersionId(Option<String>),
    Clock(Option<StoreClock>),
    Policy(Decision),
}

/// What a write the host's policy is asked about does (docs/TOOL.md#write-policy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteKind {
    Create,
    Modify,
    Rename,
    Delete,
    Restore,
    Import,
}

impl WriteKind {
    /// Its name as the policy hears it (`beforeWrite`'s `operation`).
    pub fn as_str(self) -> &'static str {
        match self {
            WriteKind::Create => "create",
            WriteKind::Modify => "modify",
            WriteKind::Rename => "rename",
            WriteKind::Delete => "delete",
            WriteKind::Restore => "restore",
            WriteKind::Import => "import",
        }
    }
}

/// The host policy's answer to a write.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    Allow,
    Refuse(String),
    Rewrite(Vec<u8>),
}

/// A change the host applies in the same transaction, after the reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// A file record, with the size of the record it replaces at that path (`None`: none was
    /// there), so a host that keeps derived keys (a listing) need not read it again.
    PutFile {
        record: FileRecord,
        previous_size: Option<u64>,
    },
    /// The file record at `path`, of `size` bytes. `tree` is set when the command deletes
    /// every file below that directory key (a directory delete or rename): a host may drop
    /// what it derives for the whole directory at once.
    DeleteFile {
        path: String,
        size: u64,
        tree: Option<String>,
    },
    /// Bytes under a content key; shared with whatever else holds them (an imported
    /// bundle's text is not copied to be written).
    PutContent {
        id: String,
        bytes: Rc<[u8]>,
    },
    DeleteContent(String),
    PutVersion(VersionRecord),
    /// A version already stored, put again marked kept (`kept_at`, docs/TOOL.md#retention): a
    /// change of its record, not a new version (no change event).
    KeepVersion(VersionRecord),
    DeleteVersion(String),
    /// What the store remembers of the time (`Read::Clock`).
    PutClock(StoreClock),
}

/// What the model (or host) gets back.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    Text(String),
    Image {
        media_type: &'static str,
        data: String,
    },
}

/// A finished command: its result and the writes that make it so.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub content: Content,
    pub error: Option<ErrorCode>,
    pub writes: Vec<Write>,
    /// JSON data for host calls (a listing), when there is any.
    pub value: Option<String>,
    /// Store keys of the memories this command used without changing them (a `view`) whose
    /// last use is a day old or more: the host records their use later, in a write of its own
    /// (docs/TOOL.md#last-use-and-expiry), so a view stays one read-only transaction.
    pub touched: Vec<String>,
}

impl Outcome {
    pub fn text(text: impl Into<String>, writes: Vec<Write>) -> Outcome {
        Outcome {
            content: Content::Text(text.into()),
            error: None,
            writes,
            value: None,
            touched: Vec::new(),
        }
    }

    pub fn failure(error: ToolError) -> Outcome {
        Outcome {
            content: Content::Text(error.message),
            error: Some(error.code),
            writes: Vec::new(),
            value: error.detail.as_ref().map(Detail::to_json),
            touched: Vec::new(),
        }
    }

    /// A host call's result: no text, the data as JSON.
    pub fn value(json: String, writes: Vec<Write>) -> Outcome {
        Outcome {
            content: Content::Text(String::new()),
            error: None,
            writes,
            value: Some(json),
            touched: Vec::new(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    /// The result text (for images, an empty string).
    pub fn text_content(&self) -> &str {
        match &self.content {
            Content::Text(t) => t,
            Content::Image { .. } => "",
        }
    }

    /// The bytes of write number `index` (the `"bytes"` of a `putContent` in `to_json`), if it
    /// is a `putContent`: found at its place, so taking every write's bytes is linear.
    pub fn content_write(&self, index: usize) -> Option<&[u8]> {
        match self.writes.get(index) {
            Some(Write::PutContent { bytes, .. }) => Some(bytes),
            _ => None,
        }
    }
}

/// The tool result's text when the host's storage failed with `code` (`QUOTA_EXCEEDED`,
/// `STORE_VANISHED`; anything else is `STORAGE_FAILED`): the host tells the model of a
/// transaction that failed, and nothing was changed (docs/TOOL.md#storage-failures).
pub fn storage_failure_text(code: &str) -> &'static str {
    match code {
        "QUOTA_EXCEEDED" => texts::STORAGE_QUOTA,
        "STORE_VANISHED" => texts::STORAGE_VANISHED,
        _ => texts::STORAGE_FAILED,
    }
}
