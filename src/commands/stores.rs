//! The registry of stores (docs/TOOL.md#stores-and-slugs): create, list, get, update, archive, delete. The registry is
//! itself a store: each store's record is a JSON file at `/<id>` of the reserved registry
//! store, so it gets atomic updates and a version history like any memory.

use super::history::{clock_read, Bytes, History};
use crate::commands::Context;
use crate::format::json::{Json, ObjectWriter};
use crate::format::render::{cat, decimal, echo, fill};
use crate::model::error::{ErrorCode, ToolError};
use crate::model::ids::VersionIds;
use crate::model::path::{is_control, is_invisible};
use crate::model::record::FileRecord;
use crate::model::store::slug;
use crate::model::store::StoreRecord;
use crate::protocol::{Outcome, Read, Snapshot, Stop, Write};

/// The longest store name and description, in characters.
const MAX_NAME: usize = 255;
const MAX_DESCRIPTION: usize = 4096;

fn stop(code: ErrorCode, message: String) -> Stop {
    Stop::Fail(ToolError::new(code, message))
}

/// Checked fields of a create or update.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoreFields {
    pub name: Option<String>,
    pub description: Option<String>,
    pub max_file_bytes: Option<Option<i64>>,
    pub max_files: Option<Option<i64>>,
    pub max_versions_per_memory: Option<Option<i64>>,
    pub max_history_bytes_per_memory: Option<Option<i64>>,
}

impl StoreFields {
    /// Reads `name`, `description` and `limits: { max_file_bytes, max_files,
    /// max_versions_per_memory, max_history_bytes_per_memory }` (a limit of `null` goes back to
    /// the default).
    pub fn parse(json: &Json) -> Result<StoreFields, ToolError> {
        let bad = |m: String| ToolError::new(ErrorCode::InvalidInput, m);
        let text = |k: &str| -> Result<Option<String>, ToolError> {
            match json.field(k) {
                None => Ok(None),
                Some(Json::Str(s)) => Ok(Some(s.text.clone())),
                Some(_) => Err(bad(fill("`{}` must be a string", &[k]))),
            }
        };
        let name = text("name")?.map(|n| n.trim().to_string());
        if let Some(name) = &name {
            // A name is data: shown to the model on one line of the system prompt, it must not
            // be able to break that line or hide what it says.
            if name.chars().any(|c| is_control(c) || is_invisible(c)) {
                return Err(bad(
                    "a store's name must not hold control characters (line breaks, tabs) or invisible formatting characters".into(),
                ));
            }
            if name.chars().count() > MAX_NAME || slug(name).is_empty() {
                return Err(bad(fill(
                    "a store's name is 1 to {} characters and holds a letter or digit of any script (it names the store's folder)",
                    &[&decimal(MAX_NAME as u64)],
                )));
            }
        }
        let description = text("description")?;
        if description
            .as_ref()
            .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION)
        {
            return Err(bad(fill(
                "a store's description is at most {} characters",
                &[&decimal(MAX_DESCRIPTION as u64)],
            )));
        }
        let limits = match json.field("limits") {
            None => None,
            Some(l @ Json::Object(members)) => {
                // One spelling, the record's, so that `update(id, { limits: store.limits })`
                // takes back what `get` gave; MemoryTool.open's camelCase is named as such.
                if let Some((name, _)) = members
                    .iter()
                    .find(|(name, _)| !LIMITS.iter().any(|(snake, _)| snake == name))
                {
                    return Err(bad(unknown_limit(name)));
                }
                Some(l)
            }
            Some(_) => return Err(bad("`limits` must be an object".into())),
        };
        let limit_from = |k: &str, min: i64| -> Result<Option<Option<i64>>, ToolError> {
            match limits.and_then(|l| l.get(k)) {
                None => Ok(None),
                Some(Json::Null) => Ok(Some(None)),
                Some(v) => match v.as_integer() {
                    Some(n) if n >= min => Ok(Some(Some(n))),
                    _ => Err(bad(fill(
                        "`limits.{}` must be a whole number, {} or more",
                        &[k, &decimal(min as u64)],
                    ))),
                },
            }
        };
        let limit = |k: &str| limit_from(k, 0);
        Ok(StoreFields {
            name,
            description,
            max_file_bytes: limit("max_file_bytes")?,
            max_files: limit("max_files")?,
            // At least 1: the head is a version (docs/TOOL.md#history-budget).
            max_versions_per_memory: limit_from("max_versions_per_memory", 1)?,
            max_history_bytes_per_memory: limit("max_history_bytes_per_memory")?,
        })
    }
}

/// A store's limits as its record spells them, with `MemoryTool.open`'s spelling of each.
const LIMITS: [(&str, &str); 4] = [
    ("max_file_bytes", "maxFileBytes"),
    ("max_files", "maxFiles"),
    ("max_versions_per_memory", "maxVersionsPerMemory"),
    ("max_history_bytes_per_memory", "maxHistoryBytesPerMemory"),
];

/// The refusal of a limit `name` a store does not have.
fn unknown_limit(name: &str) -> String {
    let names: Vec<&str> = LIMITS.iter().map(|(snake, _)| *snake).collect();
    let text = fill(
        "unknown limit `{}`; the limits are {}.",
        &[name, &names.join(", ")],
    );
    match LIMITS.iter().find(|(_, camel)| *camel == name) {
        Some((snake, camel)) => cat(&[
            &text,
            &fill(
                " A store's limits are spelled as its record spells them: `{}`, not `{}` (MemoryTool.open's spelling).",
                &[snake, camel],
            ),
        ]),
        None => text,
    }
}

fn key_of(id: &str) -> String {
    cat(&["/", id])
}

fn load<'s>(id: &str, snap: &'s Snapshot) -> Result<(&'s FileRecord, StoreRecord), Stop> {
    let key = key_of(id);
    snap.need(vec![Read::File(key.clone()), clock_read()])?;
    let file = snap.file(&key).ok_or_else(|| {
        stop(
            ErrorCode::NotFound,
            fill("No memory store has the id {}", &[&echo(id)]),
        )
    })?;
    snap.need(vec![Read::Content(file.content.clone())])?;
    let record = snap
        .content(&file.content)
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(Json::parse)
        .and_then(|j| StoreRecord::from_json(&j))
        .ok_or_else(|| {
            stop(
                ErrorCode::NotFound,
                fill("The record of memory store {} is damaged", &[&echo(id)]),
            )
        })?;
    Ok((file, record))
}

fn save(file: Option<&FileRecord>, record: &StoreRecord, cx: &Context, snap: &Snapshot) -> Outcome {
    let json = record.to_json();
    let mut history = History::new(cx, snap);
    match file {
        Some(file) => history.modify(file, &file.path, Bytes::New(json.as_bytes())),
        None => history.create(&key_of(&record.id), Bytes::New(json.as_bytes()), None),
    };
    Outcome::value(json, history.into_writes())
}

/// `stores.create({ name, description, limits })`.
pub(crate) fn create(fields: &StoreFields, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    let name = fields
        .name
        .clone()
        .ok_or_else(|| stop(ErrorCode::InvalidInput, "`name` is required".into()))?;
    snap.need(vec![clock_read()])?;
    // Store ids come from the registry's version clock, so they sort in creation order (even
    // within one millisecond) and `list` can sort by id.
    let stamp = VersionIds::after(snap.newest_version_id(), cx.now).next(&mut cx.ids());
    let id = fill(
        "memstore_{}",
        &[stamp.strip_prefix("memver_").unwrap_or(&stamp)],
    );
    let record = StoreRecord {
        id,
        name,
        description: fields.description.clone().unwrap_or_default(),
        created_at: cx.now,
        updated_at: cx.now,
        archived_at: None,
        max_file_bytes: fields.max_file_bytes.flatten(),
        max_files: fields.max_files.flatten(),
        max_versions_per_memory: fields.max_versions_per_memory.flatten(),
        max_history_bytes_per_memory: fields.max_history_bytes_per_memory.flatten(),
    };
    Ok(save(None, &record, cx, snap))
}

/// `stores.get(id)`.
pub(crate) fn get(id: &str, snap: &Snapshot) -> Result<Outcome, Stop> {
    let (_, record) = load(id, snap)?;
    Ok(Outcome::value(record.to_json(), vec![]))
}

/// `stores.list({ include_archived })`: oldest first.
pub(crate) fn list(include_archived: bool, snap: &Snapshot) -> Result<Outcome, Stop> {
    snap.need(vec![Read::Subtree(String::new())])?;
    let files = snap.subtree("");
    snap.need(
        files
            .iter()
            .map(|f| Read::Content(f.content.clone()))
            .collect(),
    )?;
    let records: Vec<StoreRecord> = files
        .iter()
        .filter_map(|f| snap.content(&f.content))
        .filter_map(|b| std::str::from_utf8(b).ok().and_then(Json::parse))
        .filter_map(|j| StoreRecord::from_json(&j))
        .filter(|r| include_archived || r.archived_at.is_none())
        .collect();
    // Oldest first: ids sort in creation order.
    let keys: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
    let items: Vec<String> = crate::format::listing::utf16_order(&keys)
        .into_iter()
        .filter_map(|i| records.get(i))
        .map(StoreRecord::to_json)
        .collect();
    Ok(Outcome::value(cat(&["[", &items.join(","), "]"]), vec![]))
}

/// `stores.update(id, fields)`: refused once archived.
pub(crate) fn update(
    id: &str,
    fields: &StoreFields,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let (file, mut record) = load(id, snap)?;
    if record.archived_at.is_some() {
        return Err(stop(
            ErrorCode::Archived,
            fill(
                "Memory store {} is archived and cannot change",
                &[&echo(id)],
            ),
        ));
    }
    if let Some(name) = &fields.name {
        record.name = name.clone();
    }
    if let Some(description) = &fields.description {
        record.description = description.clone();
    }
    if let Some(limit) = fields.max_file_bytes {
        record.max_file_bytes = limit;
    }
    if let Some(limit) = fields.max_files {
        record.max_files = limit;
    }
    if let Some(limit) = fields.max_versions_per_memory {
        record.max_versions_per_memory = limit;
    }
    if let Some(limit) = fields.max_history_bytes_per_memory {
        record.max_history_bytes_per_memory = limit;
    }
    record.updated_at = cx.now;
    Ok(save(Some(file), &record, cx, snap))
}

/// `stores.archive(id)`: read-only for good (archiving again changes nothing).
pub(crate) fn archive(id: &str, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    let (file, mut record) = load(id, snap)?;
    if record.archived_at.is_some() {
        return Ok(Outcome::value(record.to_json(), vec![]));
    }
    record.archived_at = Some(cx.now);
    record.updated_at = cx.now;
    Ok(save(Some(file), &record, cx, snap))
}

/// `stores.delete(id)`: the record goes; the adapter then drops the store's data.
pub(crate) fn delete(id: &str, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    let (file, _) = load(id, snap)?;
    // Its history is redacted in the same transaction: a deleted store's name and description
    // do not linger in the registry.
    let history_read = Read::VersionsDesc {
        memory: Some(file.id.clone()),
        below: None,
        limit: 1_000_000,
    };
    snap.need(vec![history_read.clone()])?;
    let mut history = History::new(cx, snap);
    for version in snap.versions(&history_read) {
        if let Some(key) = &version.content {
            history.push(Write::DeleteContent(key.clone()));
        }
        history.push(Write::PutVersion(version.redacted(cx.now)));
    }
    history.delete(file);
    let mut out = String::new();
    ObjectWriter::new(&mut out)
        .str("type", "memory_store_deleted")
        .str("id", id)
        .finish();
    Ok(Outcome::value(out, history.into_writes()))
}
