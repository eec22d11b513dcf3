//! The task machine: one command in progress, asking its host for reads in rounds.

use super::work::Work;
use crate::commands::bundle::ExportCursor;
use crate::commands::rules::{damaged, for_host, Voice};
use crate::commands::Context;
use crate::model::actor::Actor;
use crate::model::config::Config;
use crate::model::error::ToolError;
use crate::model::path::MOUNT;
use crate::protocol::{Answer, Outcome, Prehashed, Read, Snapshot, Stop};
use std::cell::RefCell;
use std::rc::Rc;

/// `Task::prepare` hashes ahead bytes of at least this size (about 20 µs of hashing in wasm).
const PREHASH_MIN_BYTES: usize = 8 * 1024;

/// Where a task runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// On the store of mount `n` (0 for a single store): every read is of that store.
    Mount(usize),
    /// On every mount (the view of `/memories` over several): each read names its mount.
    All,
}

/// One operation in progress: a caller-driven state machine that asks for reads in rounds.
///
/// The host drives it in this order, all inside ONE storage transaction of the mode
/// `writes()` asks for, on the store `target()` names:
/// 1. If `outcome()` is already there (input refused, or routed nowhere), no storage is needed.
/// 2. Issue every read of `reads()` (in any order, in parallel); MAY call `prepare()` once
///    after issuing the first round, so work that needs no read runs while storage works.
/// 3. `supply(i, answer)` each answer as it arrives, then `resume()`: true means the outcome
///    is ready; false means a new round of `reads()` is asked for: go to 2.
/// 4. Apply `outcome().writes` in order in the same transaction; report the outcome once the
///    transaction has committed (on abort, nothing was changed).
///
/// A command is re-run from the top each round over the answers so far (commands are pure,
/// so this is safe); answers are indexed (`Snapshot`), so a re-run costs what the command
/// does, and commands that page through storage ask for the next page only.
#[derive(Debug)]
pub struct Task {
    /// `None` once the task was born finished.
    operation: Option<Work>,
    context: Context,
    target: Target,
    snapshot: Snapshot,
    pending: Vec<Read>,
    outcome: Option<Outcome>,
}

impl Task {
    /// A task that is already answered (routing refused it before any storage).
    pub(crate) fn finished(outcome: Outcome, context: Context) -> Task {
        Task {
            operation: None,
            context,
            target: Target::Mount(0),
            snapshot: Snapshot::default(),
            pending: Vec::new(),
            outcome: Some(outcome),
        }
    }

    /// Starts `operation` on `target`; it may finish at once (bad input) or ask for reads.
    pub(crate) fn new(operation: Work, context: Context, target: Target) -> Task {
        let mut task = Task {
            operation: Some(operation),
            context,
            target,
            snapshot: Snapshot::default(),
            pending: Vec::new(),
            outcome: None,
        };
        task.advance();
        task
    }

    /// The page `cursor.step()` just began (`ExportStep::Read`), as a read-only task on mount 0,
    /// the cursor's one store: the host drives it as any task, in one transaction; its outcome
    /// is empty, and the cursor has taken the page in when it is there.
    pub fn export_page(cursor: Rc<RefCell<ExportCursor>>) -> Task {
        // The page reads no setting, clock, seed or actor.
        let context = Context {
            config: Config::default(),
            now: 0,
            seed: [0; 16],
            actor: Actor::parse("null", None),
            mount_prefix: MOUNT.to_string(),
            compact: false,
        };
        Task::new(Work::ExportPage(cursor), context, Target::Mount(0))
    }

    /// The store the task runs on.
    pub fn target(&self) -> Target {
        self.target
    }

    fn advance(&mut self) {
        let Some(operation) = &self.operation else {
            return;
        };
        // A record that cannot be read, or content that is missing, stops the command before
        // it decides anything on it (docs/TOOL.md#damaged-records); the operations that report
        // damage themselves (listing, export, check, expiry) go on.
        if !operation.tolerates_damage() {
            if let Some(damage) = self.snapshot.damage() {
                let voice = if operation.speaks_to_model() {
                    Voice::Model
                } else {
                    Voice::Host
                };
                self.pending.clear();
                self.outcome = Some(refusal(operation, damaged(&damage, &self.context, voice)));
                return;
            }
        }
        match operation.run(&self.context, &self.snapshot) {
            Ok(outcome) => {
                self.pending.clear();
                self.outcome = Some(outcome);
            }
            Err(Stop::Fail(error)) => {
                self.pending.clear();
                self.outcome = Some(refusal(operation, error));
            }
            Err(Stop::Need(mut reads)) => {
                // A task that may write learns in its first round whether the store is
                // archived (docs/TOOL.md#read-only-access): the refusal then comes before any
                // other that a read decides, as read-only access does.
                if self.snapshot.archived().is_none()
                    && operation.writes()
                    && !reads.contains(&Read::Archived)
                {
                    reads.push(Read::Archived);
                }
                self.pending = reads;
            }
        }
    }

    /// Work that needs no read, done while the host waits on storage for the first round (it
    /// calls this after issuing that round's reads): the hash of a create's or host write's
    /// bytes when they are big enough to matter. The result is the same with or without it.
    pub fn prepare(&mut self) {
        if self.outcome.is_some() || self.snapshot.is_prehashed() {
            return;
        }
        if let Some(bytes) = self.operation.as_ref().and_then(Work::bytes_to_write) {
            if bytes.len() >= PREHASH_MIN_BYTES {
                self.snapshot.keep_prehashed(Prehashed::new(bytes));
            }
        }
    }

    /// Whether the task may write (the transaction mode it needs).
    pub fn writes(&self) -> bool {
        self.operation.as_ref().is_some_and(Work::writes)
    }

    /// The kinds of read the task can ever ask for, when few (`Work::read_scope`).
    pub fn read_scope(&self) -> Option<&'static [&'static str]> {
        self.operation.as_ref().and_then(Work::read_scope)
    }

    /// The reads of the current round; empty once done.
    pub fn reads(&self) -> &[Read] {
        &self.pending
    }

    /// Answers read number `index` of the current round. Out-of-range indexes are ignored.
    pub fn supply(&mut self, index: usize, answer: Answer) {
        // An export page's answers are the cursor's, by value: its round is the task's.
        if let Some(Work::ExportPage(cursor)) = &self.operation {
            cursor.borrow_mut().page_supply(index, answer);
        } else if let Some(read) = self.pending.get(index) {
            self.snapshot.answer_with(read.clone(), answer);
        }
    }

    /// The bytes a policy read asks about (`None` for other reads).
    pub fn read_bytes(&self, index: usize) -> Option<&[u8]> {
        match self.pending.get(index) {
            Some(Read::Policy {
                bytes: Some(bytes), ..
            }) => Some(bytes),
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

/// A refusal's outcome in the voice of whoever hears it: the model's `Error: ` texts, or the
/// host's without that mark (docs/TOOL.md#host-api-messages).
fn refusal(work: &Work, error: ToolError) -> Outcome {
    Outcome::failure(if work.answers_model() {
        error
    } else {
        for_host(error)
    })
}
