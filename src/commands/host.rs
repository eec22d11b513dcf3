//! Calls of the host app, not the model: `writeFile` and `memories.list` (SPEC §5).

use super::create::check_file_count;
use super::{check_file_size, fail, file_on_the_way, placement_reads, put_content};
use crate::engine::{Context, Outcome, Read, Snapshot, Stop};
use crate::error::{ErrorCode, ToolError};
use crate::json::{quote, Json};
use crate::listing::utf16_cmp;
use crate::path::{parse_store_prefix, MemoryPath};
use crate::record::rfc3339;

/// Creates or overwrites a file with `bytes` (text or binary), under the tool's path rules,
/// limits and access.
pub fn write(
    path: &MemoryPath,
    bytes: &[u8],
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let mut reads = placement_reads(path);
    reads.push(Read::Count);
    snap.need(reads)?;
    let key = path.key();
    if path.is_root() || snap.has_children(key) {
        return Err(fail(
            ErrorCode::PathConflict,
            format!("Error: Cannot write {}: it is a directory", path.raw()),
        ));
    }
    if path.has_trailing_slash() {
        return Err(fail(
            ErrorCode::InvalidPath,
            format!(
                "Error: Cannot write {}: a file path must not end with '/'",
                path.raw()
            ),
        ));
    }
    if let Some(parent) = file_on_the_way(path, snap) {
        return Err(fail(
            ErrorCode::PathConflict,
            format!("Error: Cannot create {}: {parent} is a file", path.raw()),
        ));
    }
    check_file_size(path, bytes.len(), cx)?;
    let existing = snap.file(key);
    if existing.is_none() {
        check_file_count(path, cx, snap)?;
    }
    Ok(Outcome::text(
        format!("Wrote {}", path.raw()),
        put_content(path, bytes, existing, cx),
    ))
}

/// `memories.list` options (SPEC §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListOptions {
    /// The directory key the prefix names (`""` for `/`).
    prefix_key: String,
    /// The prefix as given, ending in `/`.
    prefix: String,
    /// Only direct children, deeper entries rolled up as prefixes.
    direct_only: bool,
}

impl ListOptions {
    /// Reads `{"path_prefix"?: string, "depth"?: 0 | 1}`.
    pub fn parse(text: &str) -> Result<ListOptions, ToolError> {
        let invalid = |m: &str| ToolError::new(ErrorCode::InvalidInput, m);
        let json = Json::parse(text).ok_or_else(|| invalid("list options must be an object"))?;
        if !matches!(json, Json::Object(_)) {
            return Err(invalid("list options must be an object"));
        }
        let prefix = match json.field("path_prefix") {
            None => "/".to_string(),
            Some(Json::Str(s)) => s.text.clone(),
            Some(_) => return Err(invalid("path_prefix must be a string")),
        };
        let prefix_key = parse_store_prefix(&prefix)?;
        let direct_only = match json.field("depth") {
            None => false,
            Some(d) if d.as_integer() == Some(0) => false,
            Some(d) if d.as_integer() == Some(1) => true,
            Some(_) => {
                return Err(invalid(
                    "depth must be 0 (the whole subtree) or 1 (direct children)",
                ))
            }
        };
        let prefix = format!("{prefix_key}/");
        Ok(ListOptions {
            prefix_key,
            prefix,
            direct_only,
        })
    }
}

/// Lists memories below a prefix as the memory stores API does: `memory` items, and with
/// depth 1, `memory_prefix` items for the directories below.
pub fn list(options: &ListOptions, snap: &Snapshot) -> Result<Outcome, Stop> {
    snap.need(vec![Read::Subtree(options.prefix_key.clone())])?;
    let mut records: Vec<_> = snap.subtree(&options.prefix_key).iter().collect();
    records.sort_by(|a, b| utf16_cmp(&a.path, &b.path));
    let mut items: Vec<String> = Vec::with_capacity(records.len());
    let mut last_prefix: Option<String> = None;
    for record in records {
        let rest = record.path.get(options.prefix.len()..).unwrap_or_default();
        if options.direct_only {
            if let Some((dir, _)) = rest.split_once('/') {
                let prefix = format!("{}{dir}/", options.prefix);
                if last_prefix.as_deref() != Some(prefix.as_str()) {
                    items.push(format!(
                        "{{\"type\":\"memory_prefix\",\"path\":{}}}",
                        quote(&prefix)
                    ));
                    last_prefix = Some(prefix);
                }
                continue;
            }
        }
        items.push(format!(
            "{{\"type\":\"memory\",\"id\":{},\"path\":{},\"content_sha256\":{},\"content_size_bytes\":{},\"created_at\":{},\"updated_at\":{}}}",
            quote(&record.id),
            quote(&record.path),
            quote(&record.sha256),
            record.size,
            quote(&rfc3339(record.created_at)),
            quote(&rfc3339(record.updated_at)),
        ));
    }
    let mut outcome = Outcome::text("", vec![]);
    outcome.value = Some(format!("[{}]", items.join(",")));
    Ok(outcome)
}
