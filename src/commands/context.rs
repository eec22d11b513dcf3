//! What a command runs with besides its reads: configuration, time, entropy, actor, mount.

use crate::format::render::cat;
use crate::model::actor::Actor;
use crate::model::config::Config;
use crate::model::ids::IdSource;

/// What the host supplies besides reads: the time and entropy for ids.
#[derive(Clone, Debug)]
pub struct Context {
    pub config: Config,
    /// Epoch milliseconds.
    pub now: i64,
    pub seed: [u8; 16],
    /// Who the change is by (recorded in versions' `created_by`).
    pub actor: Actor,
    /// The tool path of the store's root: `/memories`, or `/memories/<slug>` with several
    /// mounts.
    pub mount_prefix: String,
    /// Deletes take the compact form (docs/TOOL.md#delete-at-full-quota): the memory goes with
    /// its whole history and nothing is put, so the transaction needs no quota. Set for the
    /// retry of a delete that failed with `QUOTA_EXCEEDED`.
    pub compact: bool,
}

impl Context {
    /// The tool path of store key `key`.
    pub fn tool_path(&self, key: &str) -> String {
        cat(&[&self.mount_prefix, key])
    }

    /// Whether the store is mounted below `/memories` rather than as `/memories` itself.
    pub fn is_sub_mount(&self) -> bool {
        self.mount_prefix != crate::model::path::MOUNT
    }
}

impl Context {
    pub fn ids(&self) -> IdSource {
        IdSource::new(self.seed)
    }
}
