//! A store in Rust memory that drives tasks to completion: for native tests, property tests,
//! fuzzing and benchmarks of the core. (The JavaScript adapter does the same over IndexedDB.)

use crate::commands::Operation;
use crate::engine::{Answer, Config, Context, Decision, Outcome, Read, Task, Write};
use crate::listing::ListingEntry;
use crate::record::{FileRecord, VersionRecord};
use std::collections::{BTreeMap, HashMap};

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
    /// The tool path of the store's root (`/memories`, or `/memories/<slug>` in a `MemMounts`).
    pub mount_prefix: String,
    seed_counter: u64,
}

/// A write policy for `MemStore`, as the JS adapter's `beforeWrite` is for a browser store.
#[derive(Clone, Copy)]
pub struct WritePolicy(pub fn(&str, &str, &[u8]) -> Decision);

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
            mount_prefix: crate::path::MOUNT.to_string(),
            ..MemStore::default()
        }
    }

    /// Runs a tool command given as JSON text.
    pub fn execute(&mut self, input_json: &str) -> Outcome {
        self.run(Operation::tool(input_json))
    }

    /// Runs any operation: answers its reads from the maps, then applies its writes.
    pub fn run(&mut self, operation: Operation) -> Outcome {
        self.clock += 1;
        self.seed_counter += 1;
        let mut seed = [0u8; 16];
        seed[..8].copy_from_slice(&self.seed_counter.to_le_bytes());
        let context = Context {
            config: self.config.clone(),
            now: self.clock,
            seed,
            actor: self.actor.clone(),
            mount_prefix: self.mount_prefix.clone(),
        };
        let mut task = Task::new(operation, context);
        // Commands need a few rounds at most; the bound guards against a looping bug.
        for round in 0..10_000 {
            let answers: Vec<Answer> = task.reads().iter().map(|r| self.answer(r)).collect();
            // As the wasm adapter does: once the first reads are out (odd stores skip it, so
            // both ways stay tested: the outcome must not depend on it).
            if round == 0 && self.seed_counter % 2 == 0 {
                task.prepare();
            }
            for (i, answer) in answers.into_iter().enumerate() {
                task.supply(i, answer);
            }
            if task.resume() {
                break;
            }
        }
        let outcome = task
            .take_outcome()
            .unwrap_or_else(|| Outcome::text("internal error: command did not finish", vec![]));
        for write in &outcome.writes {
            self.apply(write);
        }
        outcome
    }

    fn answer(&self, read: &Read) -> Answer {
        match read {
            Read::File(key) => Answer::File(self.files.get(key).cloned()),
            Read::Subtree(key) => Answer::Subtree(self.below(key).cloned().collect()),
            Read::Listing(key) => Answer::Listing(self.below(key).map(entry).collect()),
            // One store: the mounts of a `MemMounts` answer this one themselves.
            Read::MountListing(_) => Answer::Listing(self.files.values().map(entry).collect()),
            Read::HasChildren(key) => Answer::HasChildren(self.below(key).next().is_some()),
            Read::Count => Answer::Count(self.files.len() as u64),
            Read::Content(key) => Answer::Content(self.contents.get(key).cloned()),
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
            Read::VersionsBelow(bound) => Answer::Versions(
                self.versions
                    .range(..bound.clone())
                    .map(|(_, v)| v.clone())
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
            Read::VersionIds => Answer::Ids(self.versions.keys().cloned().collect()),
            Read::Policy {
                path,
                source,
                bytes,
            } => Answer::Policy(
                self.policy
                    .map_or(Decision::Allow, |p| (p.0)(path, source, bytes)),
            ),
        }
    }

    /// Records with keys in `[key + "/", key + "0")`.
    fn below<'a>(&'a self, key: &str) -> impl Iterator<Item = &'a FileRecord> + 'a {
        let start = crate::render::cat(&[key, "/"]);
        let end = crate::render::cat(&[key, "0"]);
        self.files.range(start..end).map(|(_, r)| r)
    }

    fn apply(&mut self, write: &Write) {
        match write {
            Write::PutFile(record) => {
                self.files.insert(record.path.clone(), record.clone());
            }
            Write::DeleteFile(path) => {
                self.files.remove(path);
            }
            Write::PutContent { id, bytes } => {
                self.contents.insert(id.clone(), bytes.clone());
            }
            Write::DeleteContent(id) => {
                self.contents.remove(id);
            }
            Write::PutVersion(record) => {
                self.versions.insert(record.id.clone(), record.clone());
            }
            Write::DeleteVersion(id) => {
                self.versions.remove(id);
            }
        }
    }

    /// The text stored at store path `key`, if it is a text file.
    pub fn text_at(&self, key: &str) -> Option<&str> {
        let record = self.files.get(key)?;
        std::str::from_utf8(self.contents.get(&record.content)?).ok()
    }
}

/// Several `MemStore`s mounted in one tool, routed as the wasm `Engine` routes them.
#[derive(Clone, Debug)]
pub struct MemMounts {
    pub mounts: crate::mounts::Mounts,
    pub stores: Vec<MemStore>,
}

impl MemMounts {
    /// Stores for `mounts` (from `Mounts::from_json`), each with its mount's config and prefix.
    pub fn new(mounts: crate::mounts::Mounts) -> MemMounts {
        let stores = (0..mounts.len())
            .map(|i| {
                let mut store = MemStore::new(mounts.config(i));
                store.mount_prefix = mounts.prefix(i);
                store
            })
            .collect();
        MemMounts { mounts, stores }
    }

    /// Runs a tool command given as JSON text.
    pub fn execute(&mut self, input_json: &str) -> Outcome {
        use crate::mounts::Routed;
        let several = self.stores.len() > 1;
        match self.mounts.route(Operation::tool(input_json)) {
            Routed::Mount(i, operation) => match self.stores.get_mut(i) {
                Some(store) => {
                    let actor = store.actor.clone();
                    if several {
                        store.actor = crate::mounts::actor_in_mount(&actor, &store.mount_prefix);
                    }
                    let outcome = store.run(operation);
                    store.actor = actor;
                    outcome
                }
                None => Outcome::text("internal error: no such mount", vec![]),
            },
            Routed::Done(outcome) => outcome,
            Routed::All(operation) => {
                let context = Context {
                    config: self.mounts.config(0),
                    now: 0,
                    seed: [0; 16],
                    actor: "null".into(),
                    mount_prefix: crate::path::MOUNT.into(),
                };
                let mut task = Task::new(operation, context);
                let answers: Vec<Answer> = task
                    .reads()
                    .iter()
                    .map(|read| match read {
                        Read::MountListing(i) => Answer::Listing(
                            self.stores
                                .get(*i)
                                .map(|s| s.files.values().map(entry).collect())
                                .unwrap_or_default(),
                        ),
                        _ => Answer::Subtree(Vec::new()),
                    })
                    .collect();
                for (i, answer) in answers.into_iter().enumerate() {
                    task.supply(i, answer);
                }
                task.resume();
                task.take_outcome().unwrap_or_else(|| {
                    Outcome::text("internal error: command did not finish", vec![])
                })
            }
        }
    }
}

/// A file's listing entry.
fn entry(record: &FileRecord) -> ListingEntry {
    ListingEntry {
        path: record.path.clone(),
        size: record.size,
    }
}
