//! A session's mounts checked against the stores' records, and the system-prompt text that
//! tells the model about them (docs/TOOL.md#mounts).

use crate::format::json::Json;
use crate::format::render::{cat, decimal, fill};
use crate::model::error::{ErrorCode, ToolError};
use crate::model::path::MOUNT;
use crate::model::path::{is_control, is_invisible};
use crate::model::store::slug;
use crate::session::mounts::MAX_INSTRUCTIONS;
use crate::session::mounts::MAX_MOUNTS;

/// What `MemoryTool.open({ mounts })` asks for, checked against the stores' records.
///
/// Input: `{"mounts":[{"store": <store record>, "access", "instructions"}], "config": {…}}`
/// where `config` holds the defaults every mount starts from. Output: `{"engine": <Engine
/// configuration>, "prompt": [<mount info>]}`.
pub fn plan_mounts(text: &str) -> Result<String, ToolError> {
    use crate::format::render::group;
    use crate::model::store::StoreRecord;
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
        // The store's own limits win over the tool's; the tool's go on as given, so the
        // configuration's one check of values sees them.
        members.retain(|(k, _)| match k.as_str() {
            "slug" | "readOnly" => false,
            "maxFileBytes" => store.max_file_bytes.is_none(),
            "maxFiles" => store.max_files.is_none(),
            "maxVersionsPerMemory" => store.max_versions_per_memory.is_none(),
            "maxHistoryBytesPerMemory" => store.max_history_bytes_per_memory.is_none(),
            _ => true,
        });
        members.push(("slug".into(), Json::string(&slug(&store.name))));
        members.push(("readOnly".into(), Json::Bool(*read_only)));
        for (key, own) in [
            ("maxFileBytes", store.max_file_bytes),
            ("maxFiles", store.max_files),
            ("maxVersionsPerMemory", store.max_versions_per_memory),
            (
                "maxHistoryBytesPerMemory",
                store.max_history_bytes_per_memory,
            ),
        ] {
            if let Some(n) = own {
                members.push((key.into(), Json::int(n)));
            }
        }
        let mount = crate::format::json::write_value(&Json::Object(members));
        engine.push_str(&mount);
        let path = if several {
            cat(&[MOUNT, "/", &slug(&store.name), "/"])
        } else {
            cat(&[MOUNT, "/"])
        };
        crate::format::json::ObjectWriter::new(&mut prompt)
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
                &quoted(&one_line(&mount.name)),
                if mount.read_only {
                    "read only: you can view it but not change it"
                } else {
                    "read and write"
                },
            ],
        ));
        let description = one_line(&mount.description);
        if !description.is_empty() {
            out.push_str("\n  Description: ");
            out.push_str(&description);
        }
        let instructions = one_line(&mount.instructions);
        if !instructions.is_empty() {
            out.push_str("\n  Instructions: ");
            out.push_str(&instructions);
        }
    }
    out.push_str("\n\nView your memory before you start a task, and keep what you learn there, in the store it belongs to.");
    out
}

/// `text` on one line: each run of white space, control or invisible formatting characters
/// becomes one space, so a name, description or instructions cannot add a line to the prompt
/// (a fake mount, a fake instruction) nor hide text in it.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if c.is_whitespace() || is_control(c) || is_invisible(c) {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(c);
        }
    }
    out
}

/// A name inside the prompt's double quotes: a quote or backslash in it is escaped, so the
/// quoted name ends where the name does.
fn quoted(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
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
