//! Several stores in one tool (docs/TOOL.md#mounts): with one mount the store is `/memories` itself; with
//! several, each is `/memories/<slug>/`. Routing sends each command to the one store it
//! touches (a rename across stores is refused: stores are separate databases, and a move
//! between them could not be atomic); `view /memories` shows every mount.

use crate::commands::Operation;
use crate::format::json::Json;
use crate::format::render::{cat, decimal, fill};
use crate::format::texts;
use crate::model::config::Config;
use crate::model::error::{ErrorCode, ToolError};
use crate::model::input::ToolCommand;
use crate::model::path::{MemoryPath, MOUNT};
use crate::model::store::slug;

/// The most stores one tool mounts.
pub(crate) const MAX_MOUNTS: usize = 8;
/// The longest `instructions` of a mount, in characters.
pub(crate) const MAX_INSTRUCTIONS: usize = 4096;

/// One mounted store.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mount {
    pub slug: String,
    pub config: Config,
}

/// The stores a tool mounts, in order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mounts {
    mounts: Vec<Mount>,
}

/// Where a command goes.
pub(crate) enum Routed {
    /// To mount `index`, with its paths seen from inside that store.
    Mount(usize, Operation),
    /// To every mount: the view of `/memories` itself (`raw` as sent, each mount's slug).
    All { raw: String, slugs: Vec<String> },
    /// Nowhere: answered already (a path outside every mount, a move between stores).
    Refused(ToolError),
}

impl Mounts {
    /// One store as `/memories`.
    pub(crate) fn single(config: Config) -> Mounts {
        Mounts {
            mounts: vec![Mount {
                slug: String::new(),
                config,
            }],
        }
    }

    /// Reads `{"mounts":[{"slug", …config}]}`, or a plain config for one store. Checks the
    /// count, that slugs are non-empty and distinct.
    pub(crate) fn from_json(text: &str) -> Result<Mounts, String> {
        let json = Json::parse(text).ok_or("configuration is not JSON")?;
        let Some(list) = json.field("mounts") else {
            return Ok(Mounts::single(Config::from_json(text)?));
        };
        let Json::Array(items) = list else {
            return Err("mounts must be a list".into());
        };
        if items.is_empty() || items.len() > MAX_MOUNTS {
            return Err(fill(
                "a tool mounts 1 to {} stores",
                &[&decimal(MAX_MOUNTS as u64)],
            ));
        }
        let mut mounts = Vec::with_capacity(items.len());
        for item in items {
            let slug = item
                .field("slug")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            if slug.is_empty() || slug != self::slug(&slug) {
                return Err(fill("mount slug \"{}\" is not a slug", &[&slug]));
            }
            if mounts.iter().any(|m: &Mount| m.slug == slug) {
                return Err(fill("two mounts share the slug {}", &[&slug]));
            }
            let config = Config::from_json(&crate::format::json::write_value(item))?;
            mounts.push(Mount { slug, config });
        }
        Ok(Mounts { mounts })
    }

    pub(crate) fn len(&self) -> usize {
        self.mounts.len()
    }

    /// The config of mount `index` (the first one's if out of range).
    pub(crate) fn config(&self, index: usize) -> Config {
        self.mounts
            .get(index)
            .or(self.mounts.first())
            .map(|m| m.config.clone())
            .unwrap_or_default()
    }

    /// The tool path of mount `index`'s root.
    pub(crate) fn prefix(&self, index: usize) -> String {
        match self.mounts.get(index) {
            Some(m) if self.mounts.len() > 1 => cat(&[MOUNT, "/", &m.slug]),
            _ => MOUNT.to_string(),
        }
    }

    /// The slugs, in mount order.
    pub(crate) fn slugs(&self) -> Vec<String> {
        self.mounts.iter().map(|m| m.slug.clone()).collect()
    }

    /// The mount a path lies in, and the path seen from inside it; `None` for `/memories`
    /// itself or a path outside every mount.
    fn locate(&self, path: &MemoryPath) -> Option<(usize, MemoryPath)> {
        if self.mounts.len() == 1 {
            return Some((0, path.clone()));
        }
        let first = path.first_segment()?;
        let index = self.mounts.iter().position(|m| m.slug == first)?;
        Some((index, path.rebased()))
    }

    fn outside(&self, path: &MemoryPath, verb: &str) -> ToolError {
        let list: Vec<String> = self
            .mounts
            .iter()
            .map(|m| cat(&[MOUNT, "/", &m.slug, "/"]))
            .collect();
        ToolError::new(
            ErrorCode::PathConflict,
            fill(texts::OUTSIDE_MOUNTS, &[verb, path.raw(), &list.join(", ")]),
        )
    }

    /// Sends a tool command or host write to its mount.
    pub(crate) fn route(&self, operation: Operation) -> Routed {
        let done = Routed::Refused;
        match operation {
            Operation::Tool(Ok(ToolCommand::View { path, .. }))
                if path.is_root() && self.mounts.len() > 1 =>
            {
                Routed::All {
                    raw: path.raw().to_string(),
                    slugs: self.slugs(),
                }
            }
            Operation::Tool(Ok(command)) => match self.route_command(command) {
                Ok((index, command)) => Routed::Mount(index, Operation::Tool(Ok(command))),
                Err(error) => done(error),
            },
            Operation::HostWrite {
                path: Ok(path),
                bytes,
            } => match self.locate(&path) {
                Some((index, path)) if !path.is_root() || self.mounts.len() == 1 => Routed::Mount(
                    index,
                    Operation::HostWrite {
                        path: Ok(path),
                        bytes,
                    },
                ),
                Some(_) => done(ToolError::new(
                    ErrorCode::PathConflict,
                    fill(texts::WRITE_TO_MOUNT, &[path.raw()]),
                )),
                None => done(self.outside(&path, "write")),
            },
            other => Routed::Mount(0, other),
        }
    }

    fn route_command(&self, command: ToolCommand) -> Result<(usize, ToolCommand), ToolError> {
        if self.mounts.len() == 1 {
            return Ok((0, command));
        }
        let missing = |path: &MemoryPath, text: &str| {
            ToolError::new(ErrorCode::NotFound, fill(text, &[path.raw()]))
        };
        match command {
            ToolCommand::View { path, view_range } => match self.locate(&path) {
                Some((i, path)) => Ok((i, ToolCommand::View { path, view_range })),
                None => Err(missing(&path, texts::VIEW_NOT_FOUND)),
            },
            ToolCommand::Create { path, file_text } => match self.locate(&path) {
                Some((i, path)) => Ok((i, ToolCommand::Create { path, file_text })),
                None if path.is_root() => Err(ToolError::new(
                    ErrorCode::AlreadyExists,
                    fill(texts::FILE_EXISTS, &[path.raw()]),
                )),
                None => Err(self.outside(&path, "create")),
            },
            ToolCommand::StrReplace {
                path,
                old_str,
                new_str,
            } => match self.locate(&path) {
                Some((i, path)) => Ok((
                    i,
                    ToolCommand::StrReplace {
                        path,
                        old_str,
                        new_str,
                    },
                )),
                None => Err(missing(&path, texts::EDIT_NOT_FOUND)),
            },
            ToolCommand::Insert {
                path,
                insert_line,
                insert_text,
            } => match self.locate(&path) {
                Some((i, path)) => Ok((
                    i,
                    ToolCommand::Insert {
                        path,
                        insert_line,
                        insert_text,
                    },
                )),
                None => Err(missing(&path, texts::NOT_FOUND)),
            },
            ToolCommand::Delete { path } => match self.locate(&path) {
                Some((i, path)) => Ok((i, ToolCommand::Delete { path })),
                None if path.is_root() => Err(ToolError::new(
                    ErrorCode::RootProtected,
                    texts::DELETE_MEMORIES_ROOT,
                )),
                None => Err(missing(&path, texts::NOT_FOUND)),
            },
            ToolCommand::Rename { old_path, new_path } => {
                if old_path.is_root() {
                    return Err(ToolError::new(
                        ErrorCode::RootProtected,
                        texts::RENAME_MEMORIES_ROOT,
                    ));
                }
                let Some((from, old)) = self.locate(&old_path) else {
                    return Err(missing(&old_path, texts::NOT_FOUND));
                };
                if old.is_root() {
                    return Err(ToolError::new(
                        ErrorCode::RootProtected,
                        fill(texts::RENAME_MOUNT, &[&self.prefix(from)]),
                    ));
                }
                match self.locate(&new_path) {
                    Some((to, new)) if to == from => Ok((
                        from,
                        ToolCommand::Rename {
                            old_path: old,
                            new_path: new,
                        },
                    )),
                    Some(_) => Err(ToolError::new(
                        ErrorCode::PathConflict,
                        fill(
                            texts::MOVE_BETWEEN_STORES,
                            &[old_path.raw(), new_path.raw()],
                        ),
                    )),
                    None if new_path.is_root() => Err(ToolError::new(
                        ErrorCode::AlreadyExists,
                        fill(texts::DESTINATION_EXISTS, &[new_path.raw()]),
                    )),
                    None => Err(self.outside(&new_path, "rename to")),
                }
            }
        }
    }
}
