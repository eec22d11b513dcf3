//! The command engine's protocol: a `Task` asks for reads, is given answers, and finally yields
//! an `Outcome` (the result and the exact writes). It never performs I/O itself.
//!
//! A command is written as straight-line code over a `Snapshot` of answered reads. When it
//! reaches a read not yet answered it stops with `Stop::Need`; the task hands those reads to
//! the host and runs the command again once they are answered. Commands are pure, so re-running
//! is safe, and each one needs at most two rounds.

use crate::error::{ErrorCode, ToolError};
use crate::json::{quote, write_str, Json, ObjectWriter};
use crate::listing::ListingEntry;
use crate::record::{FileRecord, IdSource, VersionRecord};
use crate::render::{cat, decimal, fill, push_decimal, signed};

/// Limits and access, set by the host (SPEC §4).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub max_file_bytes: u64,
    pub max_files: u64,
    pub read_only: bool,
    pub max_view_chars: usize,
    pub create_overwrites: bool,
    /// How long old versions are kept, in milliseconds (heads of live memories stay).
    pub retention_ms: i64,
    /// Refuse content that looks like it holds a credential.
    pub secret_filter: bool,
    /// Ask the host (a `Read::Policy`) before every write of content.
    pub write_hook: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_file_bytes: 102_400,
            max_files: 10_000,
            read_only: false,
            max_view_chars: 16_000,
            create_overwrites: false,
            retention_ms: 30 * 24 * 60 * 60 * 1000,
            secret_filter: false,
            write_hook: false,
        }
    }
}

impl Config {
    /// Reads `{"maxFileBytes","maxFiles","readOnly","maxViewChars","createOverwrites",
    /// "retentionMs"}`; absent fields keep their defaults.
    pub fn from_json(text: &str) -> Result<Config, String> {
        let json = Json::parse(text).ok_or("configuration is not JSON")?;
        if !matches!(json, Json::Object(_)) {
            return Err("configuration must be an object".into());
        }
        let mut config = Config::default();
        let count = |name: &str, min: i64| -> Result<Option<i64>, String> {
            match json.field(name) {
                None => Ok(None),
                Some(v) => match v.as_integer() {
                    Some(n) if n >= min && n <= 9_007_199_254_740_991 => Ok(Some(n)),
                    _ => Err(fill(
                        "{} must be a whole number of at least {}",
                        &[name, &signed(min)],
                    )),
                },
            }
        };
        let flag = |name: &str| -> Result<Option<bool>, String> {
            match json.field(name) {
                None => Ok(None),
                Some(v) => v
                    .as_bool()
                    .map(Some)
                    .ok_or_else(|| fill("{} must be a boolean", &[name])),
            }
        };
        if let Some(n) = count("maxFileBytes", 0)? {
            config.max_file_bytes = n as u64;
        }
        if let Some(n) = count("maxFiles", 0)? {
            config.max_files = n as u64;
        }
        if let Some(n) = count("maxViewChars", 100)? {
            config.max_view_chars = n as usize;
        }
        if let Some(n) = count("retentionMs", 0)? {
            config.retention_ms = n;
        }
        if let Some(b) = flag("readOnly")? {
            config.read_only = b;
        }
        if let Some(b) = flag("createOverwrites")? {
            config.create_overwrites = b;
        }
        if let Some(b) = flag("secretFilter")? {
            config.secret_filter = b;
        }
        if let Some(b) = flag("writeHook")? {
            config.write_hook = b;
        }
        Ok(config)
    }
}

/// A read the host performs inside the command's transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// The record stored under a key.
    File(String),
    /// Every record below a directory key: keys in `[key + "/", key + "0")`.
    Subtree(String),
    /// Whether any record lies below a directory key.
    HasChildren(String),
    /// How many files the store holds.
    Count,
    /// The bytes stored under a content key.
    Content(String),
    /// The file record of a memory id (the files' `id` index).
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
    /// The ids of the versions that reference a content key (the versions' `content` index).
    VersionsWithContent(String),
    /// The newest version id of the store, if any.
    NewestVersionId,
    /// Every version id of the store.
    VersionIds,
    /// The path and size of every file below a directory key (the directory view).
    Listing(String),
    /// `Listing` of the whole tree of mount number `n`, for the view of `/memories` when it
    /// holds several mounts.
    MountListing(usize),
    /// The host's write policy: may these bytes be written at this tool path? Answered with
    /// allow, refuse (with a reason) or rewritten bytes.
    Policy {
        path: String,
        source: String,
        bytes: Vec<u8>,
    },
}

impl Read {
    /// The read as JSON for the adapter.
    pub fn to_json(&self) -> String {
        match self {
            Read::File(p) => fill("{\"kind\":\"file\",\"path\":{}}", &[&quote(p)]),
            Read::Subtree(p) => fill("{\"kind\":\"subtree\",\"path\":{}}", &[&quote(p)]),
            Read::HasChildren(p) => fill("{\"kind\":\"hasChildren\",\"path\":{}}", &[&quote(p)]),
            Read::Count => "{\"kind\":\"count\"}".to_string(),
            Read::Content(id) => fill("{\"kind\":\"content\",\"id\":{}}", &[&quote(id)]),
            Read::FileById(id) => fill("{\"kind\":\"fileById\",\"id\":{}}", &[&quote(id)]),
            Read::Version(id) => fill("{\"kind\":\"version\",\"id\":{}}", &[&quote(id)]),
            Read::VersionsDesc {
                memory,
                below,
                limit,
            } => {
                let mut out = String::new();
                ObjectWriter::new(&mut out)
                    .str("kind", "versionsDesc")
                    .opt_str("memoryId", memory.as_deref())
                    .opt_str("below", below.as_deref())
                    .int("limit", *limit as i64)
                    .finish();
                out
            }
            Read::VersionsBelow(id) => {
                fill("{\"kind\":\"versionsBelow\",\"id\":{}}", &[&quote(id)])
            }
            Read::VersionsWithContent(key) => fill(
                "{\"kind\":\"versionsWithContent\",\"id\":{}}",
                &[&quote(key)],
            ),
            Read::NewestVersionId => "{\"kind\":\"newestVersionId\"}".to_string(),
            Read::VersionIds => "{\"kind\":\"versionIds\"}".to_string(),
            Read::Listing(p) => fill("{\"kind\":\"listing\",\"path\":{}}", &[&quote(p)]),
            Read::MountListing(n) => fill(
                "{\"kind\":\"listing\",\"path\":\"\",\"mount\":{}}",
                &[&decimal(*n as u64)],
            ),
            Read::Policy { path, source, .. } => fill(
                "{\"kind\":\"policy\",\"path\":{},\"source\":{}}",
                &[&quote(path), &quote(source)],
            ),
        }
    }
}

/// The host's answer to a `Read`.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    File(Option<FileRecord>),
    Subtree(Vec<FileRecord>),
    Listing(Vec<ListingEntry>),
    HasChildren(bool),
    Count(u64),
    Content(Option<Vec<u8>>),
    Version(Option<VersionRecord>),
    Versions(Vec<VersionRecord>),
    Ids(Vec<String>),
    VersionId(Option<String>),
    Policy(Decision),
}

/// The host policy's answer to a write.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    Allow,
    Refuse(String),
    Rewrite(Vec<u8>),
}

impl Answer {
    /// Reads the adapter's JSON answer to `read` (not for content, which comes as bytes).
    pub fn from_json(read: &Read, text: &str) -> Option<Answer> {
        // The big answers (every record of a store): straight into records, no tree.
        match read {
            Read::Subtree(_) => return FileRecord::list_from_json(text).map(Answer::Subtree),
            // Not JSON: entry keys joined with `\n`.
            Read::Listing(_) | Read::MountListing(_) => {
                return ListingEntry::parse_all(text).map(Answer::Listing)
            }
            _ => {}
        }
        let json = Json::parse(text)?;
        match read {
            Read::File(_) | Read::FileById(_) => match json {
                Json::Null => Some(Answer::File(None)),
                other => FileRecord::from_json(&other).map(|r| Answer::File(Some(r))),
            },
            Read::Version(_) => match json {
                Json::Null => Some(Answer::Version(None)),
                other => VersionRecord::from_json(&other).map(|r| Answer::Version(Some(r))),
            },
            Read::VersionsDesc { .. } | Read::VersionsBelow(_) => match json {
                Json::Array(items) => items
                    .iter()
                    .map(VersionRecord::from_json)
                    .collect::<Option<Vec<_>>>()
                    .map(Answer::Versions),
                _ => None,
            },
            Read::VersionsWithContent(_) | Read::VersionIds => match json {
                Json::Array(items) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .map(Answer::Ids),
                _ => None,
            },
            Read::Policy { .. } => match json.get("decision").and_then(Json::as_str) {
                Some("allow") => Some(Answer::Policy(Decision::Allow)),
                Some("refuse") => {
                    let reason = json.get("reason").and_then(Json::as_str);
                    let reason = reason.unwrap_or("the host's write policy refused it");
                    Some(Answer::Policy(Decision::Refuse(reason.to_string())))
                }
                _ => None,
            },
            Read::NewestVersionId => match json {
                Json::Null => Some(Answer::VersionId(None)),
                Json::Str(s) => Some(Answer::VersionId(Some(s.text))),
                _ => None,
            },
            Read::Subtree(_) | Read::Listing(_) | Read::MountListing(_) => None,
            Read::HasChildren(_) => json.as_bool().map(Answer::HasChildren),
            Read::Count => json.as_integer().map(|n| Answer::Count(n.max(0) as u64)),
            Read::Content(_) => None,
        }
    }
}

/// A change the host applies in the same transaction, after the reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    PutFile(FileRecord),
    DeleteFile(String),
    /// Bytes under a content key.
    PutContent {
        id: String,
        bytes: Vec<u8>,
    },
    DeleteContent(String),
    PutVersion(VersionRecord),
    DeleteVersion(String),
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
}

impl Outcome {
    pub fn text(text: impl Into<String>, writes: Vec<Write>) -> Outcome {
        Outcome {
            content: Content::Text(text.into()),
            error: None,
            writes,
            value: None,
        }
    }

    pub fn failure(error: ToolError) -> Outcome {
        Outcome {
            content: Content::Text(error.message),
            error: Some(error.code),
            writes: Vec::new(),
            value: error.detail,
        }
    }

    /// A host call's result: no text, the data as JSON.
    pub fn value(json: String, writes: Vec<Write>) -> Outcome {
        Outcome {
            content: Content::Text(String::new()),
            error: None,
            writes,
            value: Some(json),
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

    /// `{"content":…,"isError":…,"code"?:…,"writes":[…],"value"?:…}`; a `putContent` write
    /// carries `"bytes": n`, the index of its bytes (see `content_writes`).
    pub fn to_json(&self) -> String {
        self.json(true)
    }

    /// `to_json` with `"content":null` in place of a text: the text crosses to JS on its own
    /// (`text_content`), with no escaping on the way out and no parsing on the way in.
    pub fn to_json_without_text(&self) -> String {
        self.json(false)
    }

    fn json(&self, with_text: bool) -> String {
        let mut out = String::from("{\"content\":");
        match &self.content {
            Content::Text(t) if with_text => out.push_str(&quote(t)),
            Content::Text(_) => out.push_str("null"),
            Content::Image { media_type, data } => out.push_str(&fill(
                "[{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":{},\"data\":{}}}]",
                &[&quote(media_type), &quote(data)],
            )),
        }
        out.push_str(if self.is_error() {
            ",\"isError\":true"
        } else {
            ",\"isError\":false"
        });
        if let Some(code) = self.error {
            out.push_str(",\"code\":");
            write_str(&mut out, code.as_str());
        }
        out.push_str(",\"writes\":[");
        let mut blobs = 0;
        for (i, write) in self.writes.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match write {
                Write::PutFile(record) => {
                    out.push_str("{\"op\":\"putFile\",\"record\":");
                    record.write_json(&mut out);
                    out.push('}');
                }
                Write::DeleteFile(path) => {
                    out.push_str("{\"op\":\"deleteFile\",\"path\":");
                    write_str(&mut out, path);
                    out.push('}');
                }
                Write::PutContent { id, .. } => {
                    out.push_str("{\"op\":\"putContent\",\"id\":");
                    write_str(&mut out, id);
                    out.push_str(",\"bytes\":");
                    push_decimal(&mut out, blobs, 0);
                    out.push('}');
                    blobs += 1;
                }
                Write::DeleteContent(id) => {
                    out.push_str("{\"op\":\"deleteContent\",\"id\":");
                    write_str(&mut out, id);
                    out.push('}');
                }
                Write::PutVersion(record) => {
                    out.push_str("{\"op\":\"putVersion\",\"record\":");
                    record.write_json(&mut out);
                    out.push('}');
                }
                Write::DeleteVersion(id) => {
                    out.push_str("{\"op\":\"deleteVersion\",\"id\":");
                    write_str(&mut out, id);
                    out.push('}');
                }
            }
        }
        out.push(']');
        if let Some(value) = &self.value {
            out.push_str(",\"value\":");
            out.push_str(value);
        }
        out.push('}');
        out
    }

    /// The bytes of each `putContent` write, in order (the `"bytes"` index of `to_json`).
    pub fn content_writes(&self) -> impl Iterator<Item = &[u8]> {
        self.writes.iter().filter_map(|w| match w {
            Write::PutContent { bytes, .. } => Some(bytes.as_slice()),
            _ => None,
        })
    }
}

/// Why a command stopped before finishing: it needs reads, or it was refused.
pub enum Stop {
    Need(Vec<Read>),
    Fail(ToolError),
}

impl From<ToolError> for Stop {
    fn from(e: ToolError) -> Self {
        Stop::Fail(e)
    }
}

/// `Task::prepare` hashes ahead bytes of at least this size (about 20 µs of hashing in wasm).
const PREHASH_MIN_BYTES: usize = 8 * 1024;

/// The answered reads of a task.
#[derive(Default)]
pub struct Snapshot {
    answers: Vec<(Read, Answer)>,
    /// The SHA-256 of the operation's own bytes to write, made by `Task::prepare` while the
    /// first reads were out.
    prehashed: Option<Prehashed>,
}

/// A hash made ahead of need, with the bytes it is of named by their address and length: they
/// belong to the task's operation, which neither changes nor moves them while the task lives.
#[derive(Clone)]
pub struct Prehashed {
    addr: usize,
    len: usize,
    sha256: String,
}

impl Prehashed {
    /// The SHA-256 (hex) of `bytes` if this hash is of those very bytes.
    pub fn of(&self, bytes: &[u8]) -> Option<String> {
        (self.addr == bytes.as_ptr() as usize && self.len == bytes.len())
            .then(|| self.sha256.clone())
    }
}

impl Snapshot {
    /// The hash `Task::prepare` made, if any.
    pub fn prehashed(&self) -> Option<Prehashed> {
        self.prehashed.clone()
    }

    fn answer(&self, read: &Read) -> Option<&Answer> {
        self.answers.iter().find(|(r, _)| r == read).map(|(_, a)| a)
    }

    /// Stops the command until every read in `reads` is answered, asking for all of them at once.
    pub fn need(&self, reads: Vec<Read>) -> Result<(), Stop> {
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
    pub fn file(&self, key: &str) -> Option<&FileRecord> {
        match self.answer(&Read::File(key.to_string())) {
            Some(Answer::File(record)) => record.as_ref(),
            _ => None,
        }
    }

    /// The records below `key` (after `need(Subtree(key))`).
    pub fn subtree(&self, key: &str) -> &[FileRecord] {
        match self.answer(&Read::Subtree(key.to_string())) {
            Some(Answer::Subtree(records)) => records,
            _ => &[],
        }
    }

    /// The files below `key` (after `need(Listing(key))`).
    pub fn listing(&self, key: &str) -> &[ListingEntry] {
        match self.answer(&Read::Listing(key.to_string())) {
            Some(Answer::Listing(entries)) => entries,
            _ => &[],
        }
    }

    /// The files of mount `n` (after `need(MountListing(n))`).
    pub fn mount_listing(&self, n: usize) -> &[ListingEntry] {
        match self.answer(&Read::MountListing(n)) {
            Some(Answer::Listing(entries)) => entries,
            _ => &[],
        }
    }

    /// Whether anything lies below `key` (after `need(HasChildren(key))` or `Subtree(key)`).
    pub fn has_children(&self, key: &str) -> bool {
        match self.answer(&Read::HasChildren(key.to_string())) {
            Some(Answer::HasChildren(yes)) => *yes,
            _ => !self.subtree(key).is_empty(),
        }
    }

    /// The store's file count (after `need(Count)`).
    pub fn count(&self) -> u64 {
        match self.answer(&Read::Count) {
            Some(Answer::Count(n)) => *n,
            _ => 0,
        }
    }

    /// The record of memory `id` (after `need(FileById(id))`).
    pub fn file_by_id(&self, id: &str) -> Option<&FileRecord> {
        match self.answer(&Read::FileById(id.to_string())) {
            Some(Answer::File(record)) => record.as_ref(),
            _ => None,
        }
    }

    /// A version (after `need(Version(id))`).
    pub fn version(&self, id: &str) -> Option<&VersionRecord> {
        match self.answer(&Read::Version(id.to_string())) {
            Some(Answer::Version(record)) => record.as_ref(),
            _ => None,
        }
    }

    /// The versions a `VersionsDesc` or `VersionsBelow` read returned.
    pub fn versions(&self, read: &Read) -> &[VersionRecord] {
        match self.answer(read) {
            Some(Answer::Versions(records)) => records,
            _ => &[],
        }
    }

    /// The ids a `VersionsWithContent` or `VersionIds` read returned.
    pub fn ids(&self, read: &Read) -> &[String] {
        match self.answer(read) {
            Some(Answer::Ids(ids)) => ids,
            _ => &[],
        }
    }

    /// The policy's decision on a write (after `need(Policy{..})`).
    pub fn decision(&self, read: &Read) -> Option<&Decision> {
        match self.answer(read) {
            Some(Answer::Policy(decision)) => Some(decision),
            _ => None,
        }
    }

    /// The store's newest version id (after `need(NewestVersionId)`).
    pub fn newest_version_id(&self) -> Option<&str> {
        match self.answer(&Read::NewestVersionId) {
            Some(Answer::VersionId(id)) => id.as_deref(),
            _ => None,
        }
    }

    /// The content stored under `id` (after `need(Content(id))`).
    pub fn content(&self, id: &str) -> Option<&[u8]> {
        match self.answer(&Read::Content(id.to_string())) {
            Some(Answer::Content(Some(bytes))) => Some(bytes),
            _ => None,
        }
    }
}

/// What the host supplies besides reads: the time and entropy for ids.
#[derive(Clone, Debug)]
pub struct Context {
    pub config: Config,
    /// Epoch milliseconds.
    pub now: i64,
    pub seed: [u8; 16],
    /// Who the change is by, as a JSON object (recorded in versions' `created_by`).
    pub actor: String,
    /// The tool path of the store's root: `/memories`, or `/memories/<slug>` with several
    /// mounts.
    pub mount_prefix: String,
}

impl Context {
    /// The tool path of store key `key`.
    pub fn tool_path(&self, key: &str) -> String {
        cat(&[&self.mount_prefix, key])
    }

    /// Whether the store is mounted below `/memories` rather than as `/memories` itself.
    pub fn is_sub_mount(&self) -> bool {
        self.mount_prefix != crate::path::MOUNT
    }
}

impl Context {
    pub fn ids(&self) -> IdSource {
        IdSource::new(self.seed)
    }
}

/// A command in progress.
pub struct Task {
    operation: crate::commands::Operation,
    context: Context,
    snapshot: Snapshot,
    pending: Vec<Read>,
    outcome: Option<Outcome>,
}

impl Task {
    /// A task that is already answered (routing refused it before any storage).
    pub fn finished(outcome: Outcome, context: Context) -> Task {
        Task {
            operation: crate::commands::Operation::Host(Err(ToolError::new(
                ErrorCode::InvalidInput,
                "",
            ))),
            context,
            snapshot: Snapshot::default(),
            pending: Vec::new(),
            outcome: Some(outcome),
        }
    }

    /// Starts `operation`; it may finish at once (bad input) or ask for reads.
    pub fn new(operation: crate::commands::Operation, context: Context) -> Task {
        let mut task = Task {
            operation,
            context,
            snapshot: Snapshot::default(),
            pending: Vec::new(),
            outcome: None,
        };
        task.advance();
        task
    }

    fn advance(&mut self) {
        match self.operation.run(&self.context, &self.snapshot) {
            Ok(outcome) => {
                self.pending.clear();
                self.outcome = Some(outcome);
            }
            Err(Stop::Fail(error)) => {
                self.pending.clear();
                self.outcome = Some(Outcome::failure(error));
            }
            Err(Stop::Need(reads)) => self.pending = reads,
        }
    }

    /// Work that needs no read, done while the host waits on storage for the first round (it
    /// calls this after issuing that round's reads): the hash of a create's or host write's
    /// bytes when they are big enough to matter. The result is the same with or without it.
    pub fn prepare(&mut self) {
        if self.outcome.is_some() || self.snapshot.prehashed.is_some() {
            return;
        }
        if let Some(bytes) = self.operation.bytes_to_write() {
            if bytes.len() >= PREHASH_MIN_BYTES {
                self.snapshot.prehashed = Some(Prehashed {
                    addr: bytes.as_ptr() as usize,
                    len: bytes.len(),
                    sha256: crate::record::sha256_hex(bytes),
                });
            }
        }
    }

    /// Whether the task may write (the transaction mode it needs).
    pub fn writes(&self) -> bool {
        self.operation.writes()
    }

    /// The reads of the current round; empty once done.
    pub fn reads(&self) -> &[Read] {
        &self.pending
    }

    /// Answers read number `index` of the current round. Out-of-range indexes are ignored.
    pub fn supply(&mut self, index: usize, answer: Answer) {
        if let Some(read) = self.pending.get(index) {
            // Bytes given for a policy read are the rewritten content.
            let answer = match (read, answer) {
                (Read::Policy { .. }, Answer::Content(Some(bytes))) => {
                    Answer::Policy(Decision::Rewrite(bytes))
                }
                (_, answer) => answer,
            };
            self.snapshot.answers.push((read.clone(), answer));
        }
    }

    /// The bytes a policy read asks about (`None` for other reads).
    pub fn read_bytes(&self, index: usize) -> Option<&[u8]> {
        match self.pending.get(index) {
            Some(Read::Policy { bytes, .. }) => Some(bytes),
            _ => None,
        }
    }

    /// Runs the command again with what has been answered. True when the outcome is ready.
    pub fn resume(&mut self) -> bool {
        if self.outcome.is_none() {
            self.advance();
        }
        self.outcome.is_some()
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn take_outcome(self) -> Option<Outcome> {
        self.outcome
    }
}
