//! The native test harness (feature `harness`): stores in Rust memory, and one driver that
//! runs the same `Session` and task rounds the JavaScript adapter runs over IndexedDB. For
//! tests, property tests, fuzzing and benchmarks; not part of the shipped module.

use crate::commands::bundle::BundleReader;
use crate::commands::Operation;
use crate::format::json::{quote, Json};
use crate::format::listing::ListingEntry;
use crate::format::render::cat;
use crate::model::clock::StoreClock;
use crate::model::config::Config;
use crate::model::record::{FileRecord, VersionRecord};
use crate::protocol::{Answer, Decision, Outcome, Read, Write};
use crate::session::task::{Target, Task};
use crate::session::{Session, Start};
use std::collections::{BTreeMap, HashMap};

/// The host call `import` of `bundle` (its JSON text) with `on_conflict`, the bundle read into
/// the core `part` memories or versions at a time (at least one), as the JavaScript adapter
/// hands a big bundle over (import-parts.js). `None` when `bundle` is not a JSON object.
pub fn import_in_parts(bundle: &str, on_conflict: &str, part: usize) -> Option<Operation> {
    let json = Json::parse(bundle)?;
    let Json::Object(members) = &json else {
        return None;
    };
    let header = Json::Object(
        members
            .iter()
            .map(|(key, value)| match (key.as_str(), value) {
                ("memories" | "versions", Json::Array(_)) => (key.clone(), Json::Array(Vec::new())),
                _ => (key.clone(), value.clone()),
            })
            .collect(),
    );
    let mut reader = BundleReader::new(&header);
    let part = part.max(1);
    if let Some(Json::Array(items)) = json.field("memories") {
        for chunk in items.chunks(part) {
            reader.memories(chunk);
        }
    }
    if let Some(Json::Array(items)) = json.field("versions") {
        for chunk in items.chunks(part) {
            reader.versions(chunk);
        }
    }
    let call = cat(&[
        "{\"call\":\"import\",\"on_conflict\":",
        &quote(on_conflict),
        "}",
    ]);
    Some(Operation::host_with_bundle(&call, reader))
}

/// Files keyed by store path, bytes keyed by content key, versions keyed by id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemStore {
    pub config: Config,
    pub files: BTreeMap<String, FileRecord>,
    pub contents: HashMap<String, Vec<u8>>,
    pub versions: BTreeMap<String, VersionRecord>,
    /// Milliseconds reported as "now"; advanced by one per command.
    pub clock: i64,
    /// Who the next commands are by (JSON), recorded in versions.
    pub actor: String,
    /// The host's write policy (with `config.write_hook`): tool path, source, bytes → decision.
    pub policy: Option<WritePolicy>,
    /// Whether to call `Task::prepare` after the first round: `None` alternates, so both ways
    /// stay tested (the outcome must not depend on it).
    pub prepare: Option<bool>,
    /// Rounds and reads of the last operation (scaling tests count these).
    pub last: Counts,
    /// Whether the store is archived (every write is refused).
    pub archived: bool,
    /// What the store remembers of the time (docs/TOOL.md#a-clock-that-can-be-trusted).
    pub store_clock: Option<StoreClock>,
    /// Whether deletes take the compact form (docs/TOOL.md#delete-at-full-quota), as the
    /// adapter's retry of a delete at full quota runs them.
    pub compact: bool,
    seed_counter: u64,
}

/// How much storage work one operation took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Rounds of reads (0 when the outcome needed no storage).
    pub rounds: usize,
    /// Reads over all rounds.
    pub reads: usize,
    /// Records, listing entries and ids the answers held, over all rounds: the volume of
    /// storage work.
    pub records: usize,
    /// `Read::History` reads (the history budget's, docs/TOOL.md#history-budget).
    pub history: usize,
}

/// How many records, entries or ids an answer holds (1 for a single value).
fn volume(answer: &Answer) -> usize {
    match answer {
        Answer::Subtree(records, _) => records.len(),
        Answer::Listing(entries) => entries.len(),
        Answer::Versions(records) => records.len(),
        Answer::Ids(ids) => ids.len(),
        Answer::Contents(values) => values.len(),
        _ => 1,
    }
}

/// What a write policy is asked: as the JS adapter's `beforeWrite` gets it.
#[derive(Clone, Copy, Debug)]
pub struct PendingWrite<'a> {
    /// The tool path written (the new one for a rename).
    pub path: &'a str,
    /// `tool`, `api` or `import`.
    pub source: &'a str,
    /// `create`, `modify`, `rename`, `delete`, `restore` or `import`.
    pub operation: &'a str,
    /// The tool path a rename leaves.
    pub old_path: Option<&'a str>,
    /// The content about to be written (none for a rename or delete).
    pub content: Option<&'a [u8]>,
}

/// A write policy for `MemStore`, as the JS adapter's `beforeWrite` is for a browser store.
#[derive(Clone, Copy)]
pub struct WritePolicy(pub fn(&PendingWrite<'_>) -> Decision);

impl std::fmt::Debug for WritePolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WritePolicy")
    }
}

impl PartialEq for WritePolicy {
    /// Policies are code; stores compare by their data.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl MemStore {
    pub fn new(config: Config) -> MemStore {
        MemStore {
            config,
            clock: 1_767_225_600_000,
            actor: r#"{"type":"tool","tool_use_id":null}"#.to_string(),
            ..MemStore::default()
        }
    }

    /// Runs a tool command given as JSON text.
    pub fn execute(&mut self, input_json: &str) -> Outcome {
        self.run(Operation::tool(input_json))
    }

    /// Runs any operation: answers its reads from the maps, then applies its writes.
    pub fn run(&mut self, operation: Operation) -> Outcome {
        let session = Session::single(self.config.clone());
        let (now, seed) = self.tick();
        let actor = self.actor.clone();
        let start = Start {
            now_ms: now,
            entropy: &seed,
            actor: &actor,
            compact: self.compact,
        };
        let task = session.start(operation, start);
        let prepare = self.prepare.unwrap_or(self.seed_counter % 2 == 0);
        drive(task, std::slice::from_mut(self), prepare)
    }

    /// The next command's time (one millisecond later each time) and entropy.
    fn tick(&mut self) -> (i64, [u8; 16]) {
        self.clock += 1;
        self.seed_counter += 1;
        let mut seed = [0u8; 16];
        seed[..8].copy_from_slice(&self.seed_counter.to_le_bytes());
        (self.clock, seed)
    }

    /// The answer this store gives `read`, as the adapter's storages do.
    pub fn answer(&self, read: &Read) -> Answer {
        match read {
            Read::File(key) => Answer::File(self.files.get(key).cloned()),
            Read::Subtree(key) => Answer::Subtree(self.below(key).cloned().collect(), Vec::new()),
            Read::Listing(key) => Answer::Listing(self.below(key).map(entry).collect()),
            Read::FilesAfter { after, limit } => Answer::Subtree(
                self.files
                    .values()
                    .filter(|r| after.as_ref().is_none_or(|a| r.path.as_str() > a.as_str()))
                    .take(*limit)
                    .cloned()
                    .collect(),
                Vec::new(),
            ),
            // Answered by `drive` from the store the read names.
            Read::MountListing(_) => Answer::Listing(Vec::new()),
            Read::HasChildren(key) => Answer::Flag(self.below(key).next().is_some()),
            Read::Count => Answer::Count(self.files.len() as u64),
            Read::Archived => Answer::Flag(self.archived),
            Read::Content(key) => Answer::Content(self.contents.get(key).cloned()),
            Read::Contents(keys) => Answer::Contents(
                keys.iter()
                    .map(|key| self.contents.get(key).cloned())
                    .collect(),
            ),
            Read::HeadContent(path) => {
                let prefix = crate::format::render::cat(&[path, "\0"]);
                Answer::Head(
                    self.contents
                        .iter()
                        .filter(|(k, _)| k.starts_with(prefix.as_str()))
                        .max_by(|a, b| a.0.cmp(b.0))
                        .map(|(k, v)| (k.clone(), v.clone())),
                )
            }
            Read::FileById(id) => Answer::File(self.files.values().find(|r| &r.id == id).cloned()),
            Read::Version(id) => Answer::Version(self.versions.get(id).cloned()),
            Read::VersionsDesc {
                memory,
                below,
                limit,
            } => Answer::Versions(
                self.versions
                    .values()
                    .rev()
                    .filter(|v| below.as_ref().is_none_or(|b| &v.id < b))
                    .filter(|v| memory.as_ref().is_none_or(|m| &v.memory_id == m))
                    .take(*limit)
                    .cloned()
                    .collect(),
            ),
            Read::VersionsAfter { after, limit } => Answer::Versions(
                self.versions
                    .values()
                    .filter(|v| after.as_ref().is_none_or(|a| v.id.as_str() > a.as_str()))
                    .take(*limit)
                    .cloned()
                    .collect(),
            ),
            Read::VersionsBelow(bound) => Answer::Versions(
                self.versions
                    .range(..bound.clone())
                    .map(|(_, v)| v.clone())
                    .collect(),
            ),
            Read::History(memory) => Answer::Versions(
                self.versions
                    .values()
                    .filter(|v| &v.memory_id == memory)
                    .cloned()
                    .collect(),
            ),
            Read::VersionsWithContent(key) => Answer::Ids(
                self.versions
                    .values()
                    .filter(|v| v.content.as_ref() == Some(key))
                    .map(|v| v.id.clone())
                    .collect(),
            ),
            Read::NewestVersionId => Answer::VersionId(self.versions.keys().next_back().cloned()),
            Read::Clock => Answer::Clock(self.store_clock),
            Read::VersionIds => Answer::Ids(self.versions.keys().cloned().collect()),
            Read::Policy {
                path,
                source,
                operation,
                old_path,
                bytes,
            } => Answer::Policy(self.policy.map_or(Decision::Allow, |p| {
                (p.0)(&PendingWrite {
                    path,
                    source,
                    operation: operation.as_str(),
                    old_path: old_path.as_deref(),
                    content: bytes.as_deref(),
                })
            })),
        }
    }

    /// Records with keys in `[key + "/", key + "0")`.
    fn below<'a>(&'a self, key: &str) -> impl Iterator<Item = &'a FileRecord> + 'a {
        let start = crate::format::render::cat(&[key, "/"]);
        let end = crate::format::render::cat(&[key, "0"]);
        self.files.range(start..end).map(|(_, r)| r)
    }

    fn apply(&mut self, write: &Write) {
        match write {
            // The harness holds the core to what its writes claim: hosts keep derived data
            // (IndexedDB's listing keys) from these sizes without reading the records again.
            Write::PutFile {
                record,
                previous_size,
            } => {
                let there = self.files.get(&record.path).map(|r| r.size);
                assert_eq!(
                    there, *previous_size,
                    "putFile {}: the core said {previous_size:?} was there",
                    record.path
                );
                self.files.insert(record.path.clone(), record.clone());
            }
            Write::DeleteFile { path, size, tree } => {
                let there = self.files.remove(path).map(|r| r.size);
                assert_eq!(
                    there,
                    Some(*size),
                    "deleteFile {path}: the core said {size}"
                );
                if let Some(tree) = tree {
                    assert!(
                        path.starts_with(tree.as_str()),
                        "deleteFile {path}: not below {tree}"
                    );
                }
            }
            Write::PutContent { id, bytes } => {
                self.contents.insert(id.clone(), bytes.to_vec());
            }
            Write::DeleteContent(id) => {
                self.contents.remove(id);
            }
            Write::PutVersion(record) => {
                self.versions.insert(record.id.clone(), record.clone());
            }
            Write::KeepVersion(record) => {
                assert!(
                    self.versions.contains_key(&record.id),
                    "keepVersion {}: not a stored version",
                    record.id
                );
                self.versions.insert(record.id.clone(), record.clone());
            }
            Write::DeleteVersion(id) => {
                self.versions.remove(id);
            }
            Write::PutClock(clock) => self.store_clock = Some(*clock),
        }
    }

    /// The text stored at store path `key`, if it is a text file.
    pub fn text_at(&self, key: &str) -> Option<&str> {
        let record = self.files.get(key)?;
        std::str::from_utf8(self.contents.get(&record.content)?).ok()
    }
}

/// Several `MemStore`s mounted in one tool, routed by the same `Session` the adapter drives.
#[derive(Clone, Debug)]
pub struct MemMounts {
    pub session: Session,
    pub stores: Vec<MemStore>,
    /// Who the next commands are by (JSON), recorded in versions.
    pub actor: String,
    clock: i64,
    seed_counter: u64,
}

impl MemMounts {
    /// Stores for `session`'s mounts, each with its mount's config.
    pub fn new(session: Session) -> MemMounts {
        let stores = (0..session.mount_count())
            .map(|i| MemStore::new(session.config(i)))
            .collect();
        MemMounts {
            session,
            stores,
            actor: r#"{"type":"tool","tool_use_id":null}"#.to_string(),
            clock: 1_767_225_600_000,
            seed_counter: 0,
        }
    }

    /// Runs a tool command given as JSON text.
    pub fn execute(&mut self, input_json: &str) -> Outcome {
        self.run(Operation::tool(input_json))
    }

    /// Runs a tool command or host write on the mount its path is in.
    pub fn run(&mut self, operation: Operation) -> Outcome {
        self.clock += 1;
        self.seed_counter += 1;
        let mut seed = [0u8; 16];
        seed[..8].copy_from_slice(&self.seed_counter.to_le_bytes());
        let start = Start {
            now_ms: self.clock,
            entropy: &seed,
            actor: &self.actor,
            compact: false,
        };
        let task = self.session.start(operation, start);
        drive(task, &mut self.stores, self.seed_counter % 2 == 0)
    }
}

/// The one driver of the harness: answers each round of `task` from `stores` (the task's
/// target store; a read that names a mount, from that mount's store), then applies the
/// outcome's writes to the target store.
fn drive(mut task: Task, stores: &mut [MemStore], prepare: bool) -> Outcome {
    let mut counts = Counts::default();
    // Commands need a few rounds at most, paged scans one per page; the bound guards against
    // a looping bug.
    for round in 0..100_000 {
        if task.outcome().is_some() {
            break;
        }
        let answers: Vec<Answer> = task
            .reads()
            .iter()
            .map(|read| match (read, task.target()) {
                (Read::MountListing(n), _) => Answer::Listing(
                    stores
                        .get(*n)
                        .map(|s| s.files.values().map(entry).collect())
                        .unwrap_or_default(),
                ),
                (read, Target::Mount(n)) => stores
                    .get(n)
                    .map_or(Answer::Subtree(Vec::new(), Vec::new()), |s| s.answer(read)),
                (_, Target::All) => Answer::Subtree(Vec::new(), Vec::new()),
            })
            .collect();
        // The harness holds the core to its scope: a host opens storage for those reads alone.
        if let Some(scope) = task.read_scope() {
            for read in task.reads() {
                assert!(
                    scope.contains(&read.kind()),
                    "{read:?} is outside the task's read scope {scope:?}"
                );
            }
        }
        counts.rounds += 1;
        counts.reads += answers.len();
        counts.history += task
            .reads()
            .iter()
            .filter(|r| matches!(r, Read::History(_)))
            .count();
        counts.records += answers.iter().map(volume).sum::<usize>();
        if round == 0 && prepare {
            task.prepare();
        }
        for (i, answer) in answers.into_iter().enumerate() {
            task.supply(i, answer);
        }
        task.resume();
    }
    let target = task.target();
    let outcome = task
        .take_outcome()
        .unwrap_or_else(|| Outcome::text("internal error: command did not finish", vec![]));
    if let Target::Mount(n) = target {
        if let Some(store) = stores.get_mut(n) {
            for write in &outcome.writes {
                store.apply(write);
            }
            // A delete that says it empties a directory must leave nothing below it.
            for write in &outcome.writes {
                if let Write::DeleteFile {
                    tree: Some(tree), ..
                } = write
                {
                    let below = crate::format::render::cat(&[tree, "/"]);
                    assert!(
                        store.files.keys().all(|k| !k.starts_with(below.as_str())),
                        "deleteFile said {tree} is emptied, but files remain below it"
                    );
                }
            }
            store.last = counts;
        }
    }
    outcome
}

/// A file's listing entry.
fn entry(record: &FileRecord) -> ListingEntry {
    ListingEntry {
        path: record.path.clone(),
        size: record.size,
    }
}
