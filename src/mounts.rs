//! Several stores in one tool (SPEC §5): with one mount the store is `/memories` itself; with
//! several, each is `/memories/<slug>/`. Routing sends each command to the one store it
//! touches (a rename across stores is refused: stores are separate databases, and a move
//! between them could not be atomic); `view /memories` shows every mount.

use crate::commands::Operation;
use crate::engine::{Config, Outcome};
use crate::error::{ErrorCode, ToolError};
use crate::input::ToolCommand;
use crate::json::Json;
use crate::path::{MemoryPath, MOUNT};
use crate::render::{cat, decimal, fill};

/// The most stores one tool mounts.
pub const MAX_MOUNTS: usize = 8;
/// The longest `instructions` of a mount, in characters.
pub const MAX_INSTRUCTIONS: usize = 4096;

/// A store's mount slug: its name lowercased, each run of characters other than `a-z0-9`
/// turned into one `-`, leading and trailing `-` dropped ("Demo Memory" → `demo-memory`).
pub fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// One mounted store.
#[derive(Clone, Debug, PartialEq)]
pub struct Mount {
    pub slug: String,
    pub config: Config,
}

/// The stores a tool mounts, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Mounts {
    mounts: Vec<Mount>,
}

/// Where a command goes.
pub enum Routed {
    /// To mount `index`, with its paths seen from inside that store.
    Mount(usize, Operation),
    /// To every mount (the view of `/memories` itself).
    All(Operation),
    /// Nowhere: answered already (a path outside every mount, a move between stores).
    Done(Outcome),
}

impl Mounts {
    /// One store as `/memories`.
    pub fn single(config: Config) -> Mounts {
        Mounts {
            mounts: vec![Mount {
                slug: String::new(),
                config,
            }],
        }
    }

    /// Reads `{"mounts":[{"slug", …config}]}`, or a plain config for one store. Checks the
    /// count, that slugs are non-empty and distinct.
    pub fn from_json(text: &str) -> Result<Mounts, String> {
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
            let config = Config::from_json(&crate::record::write_value(item))?;
            mounts.push(Mount { slug, config });
        }
        Ok(Mounts { mounts })
    }

    pub fn len(&self) -> usize {
        self.mounts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mounts.is_empty()
    }

    /// The config of mount `index` (the first one's if out of range).
    pub fn config(&self, index: usize) -> Config {
        self.mounts
            .get(index)
            .or(self.mounts.first())
            .map(|m| m.config.clone())
            .unwrap_or_default()
    }

    /// The tool path of mount `index`'s root.
    pub fn prefix(&self, index: usize) -> String {
        match self.mounts.get(index) {
            Some(m) if self.mounts.len() > 1 => cat(&[MOUNT, "/", &m.slug]),
            _ => MOUNT.to_string(),
        }
    }

    /// The slugs, in mount order.
    pub fn slugs(&self) -> Vec<String> {
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
            fill(
                "Error: Cannot {} {}: /memories holds only the memory stores {}; use a path inside one of them",
                &[verb, path.raw(), &list.join(", ")],
            ),
        )
    }

    /// Sends a tool command or host write to its mount.
    pub fn route(&self, operation: Operation) -> Routed {
        let done = |e: ToolError| Routed::Done(Outcome::failure(e));
        match operation {
            Operation::Tool(Ok(ToolCommand::View { path, .. }))
                if path.is_root() && self.mounts.len() > 1 =>
            {
                Routed::All(Operation::MountsView {
                    raw: path.raw().to_string(),
                    slugs: self.slugs(),
                })
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
                    fill(
                        "Error: Cannot write {}: it is a mounted memory store; write a file inside it",
                        &[path.raw()],
                    ),
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
        let missing = |path: &MemoryPath, text: String| {
            ToolError::new(
                ErrorCode::NotFound,
                crate::search::replace(&text, "{path}", path.raw()),
            )
        };
        match command {
            ToolCommand::View { path, view_range } => match self.locate(&path) {
                Some((i, path)) => Ok((i, ToolCommand::View { path, view_range })),
                None => Err(missing(
                    &path,
                    "The path {path} does not exist. Please provide a valid path.".into(),
                )),
            },
            ToolCommand::Create { path, file_text } => match self.locate(&path) {
                Some((i, path)) => Ok((i, ToolCommand::Create { path, file_text })),
                None if path.is_root() => Err(ToolError::new(
                    ErrorCode::AlreadyExists,
                    fill("Error: File {} already exists", &[path.raw()]),
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
                None => Err(missing(
                    &path,
                    "Error: The path {path} does not exist. Please provide a valid path.".into(),
                )),
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
                None => Err(missing(
                    &path,
                    "Error: The path {path} does not exist".into(),
                )),
            },
            ToolCommand::Delete { path } => match self.locate(&path) {
                Some((i, path)) => Ok((i, ToolCommand::Delete { path })),
                None if path.is_root() => Err(ToolError::new(
                    ErrorCode::RootProtected,
                    "Error: Cannot delete the /memories directory itself",
                )),
                None => Err(missing(
                    &path,
                    "Error: The path {path} does not exist".into(),
                )),
            },
            ToolCommand::Rename { old_path, new_path } => {
                if old_path.is_root() {
                    return Err(ToolError::new(
                        ErrorCode::RootProtected,
                        "Error: Cannot rename the /memories directory itself",
                    ));
                }
                let Some((from, old)) = self.locate(&old_path) else {
                    return Err(missing(
                        &old_path,
                        "Error: The path {path} does not exist".into(),
                    ));
                };
                if old.is_root() {
                    return Err(ToolError::new(
                        ErrorCode::RootProtected,
                        fill(
                            "Error: Cannot rename the mount {} itself",
                            &[&self.prefix(from)],
                        ),
                    ));
                }
                match self.locate(&new_path) {
                    Some((to, new)) if to == from => Ok((from, ToolCommand::Rename { old_path: old, new_path: new })),
                    Some(_) => Err(ToolError::new(
                        ErrorCode::PathConflict,
                        fill(
                            "Error: Cannot move {} to {}: they are in different memory stores; create the file in the other store and delete this one",
                            &[old_path.raw(), new_path.raw()],
                        ),
                    )),
                    None if new_path.is_root() => Err(ToolError::new(
                        ErrorCode::AlreadyExists,
                        fill("Error: The destination {} already exists", &[new_path.raw()]),
                    )),
                    None => Err(self.outside(&new_path, "rename to")),
                }
            }
        }
    }
}

/// What `MemoryTool.open({ mounts })` asks for, checked against the stores' records.
///
/// Input: `{"mounts":[{"store": <store record>, "access", "instructions"}], "config": {…}}`
/// where `config` holds the defaults every mount starts from. Output: `{"engine": <Engine
/// configuration>, "prompt": [<mount info>]}`.
pub fn plan_mounts(text: &str) -> Result<String, ToolError> {
    use crate::commands::stores::StoreRecord;
    use crate::render::group;
    let bad = |code: ErrorCode, m: String| ToolError::new(code, m);
    let json = Json::parse(text)
        .ok_or_else(|| bad(ErrorCode::InvalidOptions, "the mounts are not JSON".into()))?;
    let Some(Json::Array(items)) = json.field("mounts") else {
        return Err(bad(
            ErrorCode::InvalidOptions,
            "`mounts` must be a list".into(),
        ));
    };
    if items.is_empty() {
        return Err(bad(
            ErrorCode::InvalidOptions,
            "`mounts` must name at least one store".into(),
        ));
    }
    if items.len() > MAX_MOUNTS {
        return Err(bad(
            ErrorCode::TooManyMounts,
            fill(
                "A session mounts at most {} memory stores; {} were given",
                &[&decimal(MAX_MOUNTS as u64), &decimal(items.len() as u64)],
            ),
        ));
    }
    let defaults = json
        .field("config")
        .cloned()
        .unwrap_or(Json::Object(vec![]));
    let mut planned: Vec<(StoreRecord, bool, String)> = Vec::with_capacity(items.len());
    for item in items {
        let store = item
            .field("store")
            .and_then(StoreRecord::from_json)
            .ok_or_else(|| bad(ErrorCode::InvalidOptions, "each mount needs a store".into()))?;
        let access = match item.field("access") {
            None => "read_write",
            Some(Json::Str(s)) => s.text.as_str(),
            Some(_) => "(not a string)",
        };
        let read_only = match access {
            "read_write" => false,
            "read_only" => true,
            other => {
                return Err(bad(
                    ErrorCode::InvalidOptions,
                    fill(
                        "the access of a mount is \"read_write\" or \"read_only\", not \"{}\"",
                        &[other],
                    ),
                ))
            }
        };
        let instructions = match item.field("instructions") {
            None => String::new(),
            Some(Json::Str(s)) => s.text.clone(),
            Some(_) => {
                return Err(bad(
                    ErrorCode::InvalidOptions,
                    "`instructions` must be a string".into(),
                ))
            }
        };
        let length = instructions.chars().count();
        if length > MAX_INSTRUCTIONS {
            return Err(bad(
                ErrorCode::InvalidOptions,
                fill(
                    "The instructions for memory store \"{}\" are {} characters long; at most {} are allowed",
                    &[&store.name, &group(length as u64), &group(MAX_INSTRUCTIONS as u64)],
                ),
            ));
        }
        if store.archived_at.is_some() && !read_only {
            return Err(bad(
                ErrorCode::Archived,
                fill(
                    "Memory store \"{}\" ({}) is archived: it can only be mounted read_only",
                    &[&store.name, &store.id],
                ),
            ));
        }
        if let Some((other, _, _)) = planned.iter().find(|(s, _, _)| s.id == store.id) {
            return Err(bad(
                ErrorCode::SlugConflict,
                fill(
                    "Memory store \"{}\" ({}) is mounted twice",
                    &[&other.name, &other.id],
                ),
            ));
        }
        if let Some((other, _, _)) = planned
            .iter()
            .find(|(s, _, _)| slug(&s.name) == slug(&store.name))
        {
            return Err(bad(
                ErrorCode::SlugConflict,
                fill(
                    "Memory stores \"{}\" ({}) and \"{}\" ({}) would both mount at /memories/{}/; rename one of them",
                    &[&other.name, &other.id, &store.name, &store.id, &slug(&store.name)],
                ),
            ));
        }
        planned.push((store, read_only, instructions));
    }
    let several = planned.len() > 1;
    let mut engine = String::from("{\"mounts\":[");
    let mut prompt = String::from("[");
    for (i, (store, read_only, instructions)) in planned.iter().enumerate() {
        if i > 0 {
            engine.push(',');
            prompt.push(',');
        }
        let mut members = match &defaults {
            Json::Object(m) => m.clone(),
            _ => vec![],
        };
        members.retain(|(k, _)| {
            !matches!(
                k.as_str(),
                "slug" | "readOnly" | "maxFileBytes" | "maxFiles"
            )
        });
        members.push(("slug".into(), Json::string(&slug(&store.name))));
        members.push(("readOnly".into(), Json::Bool(*read_only)));
        // The store's own limits win over the tool's.
        for (key, own) in [
            ("maxFileBytes", store.max_file_bytes),
            ("maxFiles", store.max_files),
        ] {
            if let Some(n) = own.or_else(|| defaults.field(key).and_then(Json::as_integer)) {
                members.push((key.into(), Json::int(n)));
            }
        }
        let mount = crate::record::write_value(&Json::Object(members));
        engine.push_str(&mount);
        let path = if several {
            cat(&[MOUNT, "/", &slug(&store.name), "/"])
        } else {
            cat(&[MOUNT, "/"])
        };
        crate::json::ObjectWriter::new(&mut prompt)
            .str("id", &store.id)
            .str("name", &store.name)
            .str("slug", &slug(&store.name))
            .str("path", &path)
            .str(
                "access",
                if *read_only {
                    "read_only"
                } else {
                    "read_write"
                },
            )
            .str("description", &store.description)
            .str("instructions", instructions)
            .finish();
    }
    engine.push_str("]}");
    prompt.push(']');
    Ok(fill("{\"engine\":{},\"prompt\":{}}", &[&engine, &prompt]))
}

/// The actor with the mount it wrote through (`"mount_path":"/memories/notes/"`), so versions
/// say which mount and session made each change.
pub fn actor_in_mount(actor: &str, prefix: &str) -> String {
    match Json::parse(actor) {
        Some(Json::Object(mut members)) => {
            if !members.iter().any(|(k, _)| k == "mount_path") {
                members.push(("mount_path".to_string(), Json::string(&cat(&[prefix, "/"]))));
            }
            crate::record::write_value(&Json::Object(members))
        }
        _ => "null".to_string(),
    }
}

/// One mount as the system prompt describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MountInfo {
    pub name: String,
    pub path: String,
    pub read_only: bool,
    pub description: String,
    pub instructions: String,
}

/// The text a host adds to its system prompt so the model knows its memory: each mount's
/// path, name, access, description and instructions.
pub fn system_prompt(mounts: &[MountInfo]) -> String {
    let mut out = String::from(
        "You have persistent memory through the `memory` tool. Its files live under /memories",
    );
    out.push_str(if mounts.len() == 1 {
        ", in this memory store:\n"
    } else {
        ", in these memory stores:\n"
    });
    for mount in mounts {
        out.push_str(&fill(
            "\n- {}/ — \"{}\" ({})",
            &[
                mount.path.trim_end_matches('/'),
                &mount.name,
                if mount.read_only {
                    "read only: you can view it but not change it"
                } else {
                    "read and write"
                },
            ],
        ));
        if !mount.description.trim().is_empty() {
            out.push_str("\n  Description: ");
            out.push_str(mount.description.trim());
        }
        if !mount.instructions.trim().is_empty() {
            out.push_str("\n  Instructions: ");
            out.push_str(mount.instructions.trim());
        }
    }
    out.push_str("\n\nView your memory before you start a task, and keep what you learn there, in the store it belongs to.");
    out
}

/// Reads `[{"name","path","access","description","instructions"}]` for `system_prompt`.
pub fn mount_infos(text: &str) -> Result<Vec<MountInfo>, String> {
    let Some(Json::Array(items)) = Json::parse(text) else {
        return Err("mounts must be a JSON list".into());
    };
    items
        .iter()
        .map(|item| {
            let text = |key: &str| {
                item.field(key)
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            Ok(MountInfo {
                name: text("name"),
                path: text("path"),
                read_only: text("access") == "read_only",
                description: text("description"),
                instructions: text("instructions"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("Demo Memory"), "demo-memory");
        assert_eq!(slug("  Team -- Handbook!! 2026 "), "team-handbook-2026");
        assert_eq!(slug("Ünïcode Notes"), "n-code-notes");
        assert_eq!(slug("***"), "");
        assert_eq!(slug("already-a-slug"), "already-a-slug");
    }
}
