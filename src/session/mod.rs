//! A session: the stores a tool mounts, routing each operation to its store, the actor and
//! context of each task, and the task machine that asks the host for reads in rounds. The
//! adapter (through `wasm`) and the native harness drive this same type.

pub(crate) mod mounts;
pub(crate) mod plan;
pub(crate) mod task;
pub(crate) mod work;

use crate::commands::rules::for_host;
use crate::commands::{Context, Operation};
use crate::format::render::{decimal, fill};
use crate::model::actor::Actor;
use crate::model::config::Config;
use crate::model::error::{ErrorCode, ToolError};
use crate::protocol::Outcome;
use mounts::{Mounts, Routed};
use task::{Target, Task};
use work::Work;

/// The mounted stores of one tool and the way each operation reaches one of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    mounts: Mounts,
}

/// What a task is started with besides its operation: the time, 16 bytes of entropy for ids,
/// and who it is by (a JSON object recorded in versions' `created_by`).
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    /// Epoch milliseconds.
    pub now_ms: i64,
    pub entropy: &'a [u8],
    /// `{"type":"tool","tool_use_id":…}`, `{"type":"api"}`, `{"type":"import"}`, …
    pub actor: &'a str,
    /// Deletes in the compact form (docs/TOOL.md#delete-at-full-quota).
    pub compact: bool,
}

impl Session {
    /// One store, mounted as `/memories`.
    pub fn single(config: Config) -> Session {
        Session {
            mounts: Mounts::single(config),
        }
    }

    /// Reads one store's configuration, or several as `{"mounts":[{"slug", …config}]}`.
    pub fn from_json(config_json: &str) -> Result<Session, String> {
        Ok(Session {
            mounts: Mounts::from_json(config_json)?,
        })
    }

    /// How many stores are mounted.
    pub fn mount_count(&self) -> usize {
        self.mounts.len()
    }

    /// The configuration of mount `index`.
    pub fn config(&self, index: usize) -> Config {
        self.mounts.config(index)
    }

    /// Starts a tool command from the model's input as JSON text, on the mount its path is in.
    pub fn start_tool(&self, input_json: &str, start: Start<'_>) -> Task {
        self.start(Operation::tool(input_json), start)
    }

    /// Starts an operation on the mount its path is in (tool commands, host writes; any other
    /// operation runs on mount 0).
    pub fn start(&self, operation: Operation, start: Start<'_>) -> Task {
        // A refusal of the routing is in the operation's voice (docs/TOOL.md#host-api-messages).
        let answers_model = operation.answers_model();
        match self.mounts.route(operation) {
            Routed::Mount(mount, operation) => {
                self.task(Target::Mount(mount), Work::Store(operation), start)
            }
            Routed::All { raw, slugs } => {
                self.task(Target::All, Work::MountsView { raw, slugs }, start)
            }
            Routed::Refused(error) if answers_model => self.finished(Outcome::failure(error)),
            Routed::Refused(error) => self.finished(Outcome::failure(for_host(error))),
        }
    }

    /// Starts a host call on mount number `mount` (its paths are that store's own).
    pub fn start_on(&self, mount: usize, operation: Operation, start: Start<'_>) -> Task {
        if mount >= self.mounts.len() {
            return self.finished(Outcome::failure(ToolError::new(
                ErrorCode::InvalidInput,
                fill("no mount number {}", &[&decimal(mount as u64)]),
            )));
        }
        self.task(Target::Mount(mount), Work::Store(operation), start)
    }

    fn finished(&self, outcome: Outcome) -> Task {
        let start = Start {
            now_ms: 0,
            entropy: &[],
            actor: "null",
            compact: false,
        };
        Task::finished(outcome, self.context(0, start))
    }

    fn task(&self, target: Target, work: Work, start: Start<'_>) -> Task {
        let mount = match target {
            Target::Mount(n) => n,
            Target::All => 0,
        };
        Task::new(work, self.context(mount, start), target)
    }

    fn context(&self, mount: usize, start: Start<'_>) -> Context {
        let mut seed = [0u8; 16];
        for (slot, byte) in seed.iter_mut().zip(start.entropy) {
            *slot = *byte;
        }
        let prefix = self.mounts.prefix(mount);
        // With several mounts, versions also say which mount wrote them.
        let actor = Actor::parse(
            start.actor,
            (self.mounts.len() > 1).then_some(prefix.as_str()),
        );
        Context {
            config: self.mounts.config(mount),
            now: start.now_ms,
            seed,
            actor,
            mount_prefix: prefix,
            compact: start.compact,
        }
    }
}
