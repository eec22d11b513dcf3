//! A bundle's text, read and checked (docs/TOOL.md#bundles): its format, every path, every
//! hash, no duplicates, a tree, and a history that replays to its memories.

use super::FORMAT;
use crate::format::json::write_value;
use crate::format::json::Json;
use crate::format::render::{base64_decode, decimal, fill, signed};
use crate::format::sort::sort_strs;
use crate::model::error::{ErrorCode, ToolError};
use crate::model::ids::version_id_time;
use crate::model::path::{ancestor_keys, parse_store_path};
use crate::model::record::{content_key, sha256_hex, Change, VersionRecord};
use crate::model::time::parse_rfc3339;
use std::collections::{HashMap, HashSet};

/// What `import` does with a memory whose place is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnConflict {
    Skip,
    Overwrite,
    Fail,
}

impl OnConflict {
    pub fn parse(s: &str) -> Option<OnConflict> {
        match s {
            "skip" => Some(OnConflict::Skip),
            "overwrite" => Some(OnConflict::Overwrite),
            "fail" => Some(OnConflict::Fail),
            _ => None,
        }
    }
}

/// A memory of a bundle, checked.
#[derive(Clone, Debug)]
pub(crate) struct BundleMemory {
    pub(super) id: String,
    pub(super) key: String,
    pub(super) bytes: Vec<u8>,
    pub(super) sha256: String,
    pub(super) created_at: i64,
    pub(super) updated_at: i64,
    /// When the memory was last used, if the bundle says (optional).
    pub(super) accessed_at: Option<i64>,
    pub(super) head: Option<String>,
    /// The content key of its head's bytes, the one its head version names (set once the
    /// history is read: `parse_versions`).
    pub(super) head_content: Option<String>,
}

/// A version of a bundle, checked.
#[derive(Clone, Debug)]
pub(crate) struct BundleVersion {
    pub(super) record: VersionRecord,
    pub(super) bytes: Option<Vec<u8>>,
}

/// A checked bundle.
#[derive(Clone, Debug)]
pub struct Bundle {
    pub(super) memories: Vec<BundleMemory>,
    pub(super) versions: Option<Vec<BundleVersion>>,
}

fn invalid(message: String) -> ToolError {
    ToolError::new(ErrorCode::InvalidBundle, message)
}

fn content_of(item: &Json, what: &str) -> Result<Option<Vec<u8>>, ToolError> {
    match (item.field("content"), item.field("content_base64")) {
        (Some(Json::Str(s)), _) => Ok(Some(s.text.clone().into_bytes())),
        (None, Some(Json::Str(s))) => base64_decode(&s.text)
            .map(Some)
            .ok_or_else(|| invalid(fill("{}: content_base64 is not base64", &[what]))),
        (None, None) => Ok(None),
        _ => Err(invalid(fill("{}: content must be a string", &[what]))),
    }
}

fn text_field<'j>(item: &'j Json, key: &str, what: &str) -> Result<&'j str, ToolError> {
    item.field(key)
        .and_then(Json::as_str)
        .ok_or_else(|| invalid(fill("{}: `{}` is missing or not a string", &[what, key])))
}

fn time_field(item: &Json, key: &str, what: &str) -> Result<i64, ToolError> {
    parse_rfc3339(text_field(item, key, what)?)
        .ok_or_else(|| invalid(fill("{}: `{}` is not an RFC 3339 time", &[what, key])))
}

/// The bytes' hash and size must be the ones the bundle states.
fn check_digest(bytes: &[u8], item: &Json, what: &str) -> Result<String, ToolError> {
    let sha = sha256_hex(bytes);
    if item.field("content_sha256").and_then(Json::as_str) != Some(sha.as_str()) {
        return Err(invalid(fill(
            "{}: content_sha256 does not match its content",
            &[what],
        )));
    }
    if let Some(size) = item.field("content_size_bytes").and_then(Json::as_integer) {
        if size != bytes.len() as i64 {
            return Err(invalid(fill(
                "{}: content_size_bytes is {}, its content has {} bytes",
                &[what, &signed(size), &decimal(bytes.len() as u64)],
            )));
        }
    }
    Ok(sha)
}

impl Bundle {
    /// Checks a bundle: its format, every path, every hash, no duplicates, a tree.
    pub fn parse(json: &Json) -> Result<Bundle, ToolError> {
        if json.field("format").and_then(Json::as_str) != Some(FORMAT) {
            return Err(invalid(fill(
                "not a bundle: `format` must be \"{}\"",
                &[FORMAT],
            )));
        }
        if json.field("format_version").and_then(Json::as_integer) != Some(1) {
            return Err(invalid(
                "unsupported `format_version` (this version reads 1)".into(),
            ));
        }
        let Some(Json::Array(items)) = json.field("memories") else {
            return Err(invalid("`memories` must be a list".into()));
        };
        let mut memories = Vec::with_capacity(items.len());
        let (mut ids, mut keys) = (HashSet::new(), HashSet::new());
        for (i, item) in items.iter().enumerate() {
            let what = fill("memory {}", &[&decimal(i as u64)]);
            let id = text_field(item, "id", &what)?.to_string();
            let key = parse_store_path(text_field(item, "path", &what)?)
                .map_err(|e| invalid(fill("{}: {}", &[&what, &e.message])))?;
            let what = fill("memory {} ({})", &[&decimal(i as u64), &key]);
            let bytes = content_of(item, &what)?
                .ok_or_else(|| invalid(fill("{}: it has no content", &[&what])))?;
            let sha256 = check_digest(&bytes, item, &what)?;
            if !ids.insert(id.clone()) || !keys.insert(key.clone()) {
                return Err(invalid(fill("{}: its id or path appears twice", &[&what])));
            }
            memories.push(BundleMemory {
                created_at: time_field(item, "created_at", &what)?,
                updated_at: time_field(item, "updated_at", &what)?,
                accessed_at: match item.field("last_accessed_at") {
                    None | Some(Json::Null) => None,
                    Some(_) => Some(time_field(item, "last_accessed_at", &what)?),
                },
                head: item
                    .field("memory_version_id")
                    .and_then(Json::as_str)
                    .map(str::to_string),
                head_content: None,
                id,
                key,
                bytes,
                sha256,
            });
        }
        for memory in &memories {
            if let Some(a) = ancestor_keys(&memory.key)
                .into_iter()
                .find(|a| keys.contains(a))
            {
                return Err(invalid(fill(
                    "{} lies below {}, which is a memory too",
                    &[&memory.key, &a],
                )));
            }
        }
        let versions = match json.field("versions") {
            None => None,
            Some(Json::Array(items)) => Some(Self::parse_versions(items, &mut memories)?),
            Some(_) => return Err(invalid("`versions` must be a list".into())),
        };
        Ok(Bundle { memories, versions })
    }

    fn parse_versions(
        items: &[Json],
        memories: &mut [BundleMemory],
    ) -> Result<Vec<BundleVersion>, ToolError> {
        let mut seen = HashSet::new();
        let mut versions = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let what = fill("version {}", &[&decimal(i as u64)]);
            let id = text_field(item, "id", &what)?.to_string();
            if version_id_time(&id).is_none() || !seen.insert(id.clone()) {
                return Err(invalid(fill(
                    "{}: its id is not a unique, well-formed memver_ id",
                    &[&what],
                )));
            }
            let operation = Change::parse(text_field(item, "operation", &what)?)
                .ok_or_else(|| invalid(fill("{}: unknown operation", &[&what])))?;
            let path = match item.field("path") {
                Some(Json::Str(p)) => Some(
                    parse_store_path(&p.text)
                        .map_err(|e| invalid(fill("{}: {}", &[&what, &e.message])))?,
                ),
                None | Some(Json::Null) => None,
                Some(_) => return Err(invalid(fill("{}: `path` must be a string", &[&what]))),
            };
            let bytes = content_of(item, &what)?;
            let sha256 = match &bytes {
                Some(b) => Some(check_digest(b, item, &what)?),
                None => item
                    .field("content_sha256")
                    .and_then(Json::as_str)
                    .map(str::to_string),
            };
            let redacted_at = match item.field("redacted_at") {
                Some(_) => Some(time_field(item, "redacted_at", &what)?),
                None => None,
            };
            // Content is there or explicitly redacted: a version that kept its hash but lost
            // its bytes would import a file whose size and hash do not match what it holds.
            match (operation, &bytes, redacted_at) {
                (_, Some(_), Some(_)) => {
                    return Err(invalid(fill(
                        "{}: it is redacted but still carries content",
                        &[&what],
                    )))
                }
                (Change::Created | Change::Modified, None, None) => {
                    return Err(invalid(fill(
                        "{}: it has no content and is not redacted",
                        &[&what],
                    )))
                }
                (Change::Deleted, Some(_), _) => {
                    return Err(invalid(fill("{}: a deletion carries no content", &[&what])))
                }
                _ => {}
            }
            // Only a redaction clears a version's path: a version without one would leave
            // its memory at no place in the history.
            if path.is_none() && redacted_at.is_none() {
                return Err(invalid(fill(
                    "{}: it has no path and is not redacted",
                    &[&what],
                )));
            }
            // Its bytes go under the key a head of that path and id writes, so a file whose
            // head it is finds them in the round that reads its record (`content_key`).
            let content = bytes.as_ref().map(|_| {
                path.as_deref()
                    .map_or_else(|| id.clone(), |p| content_key(p, &id))
            });
            let created_by = match item.field("created_by") {
                Some(actor @ Json::Object(_)) => write_value(actor),
                _ => "null".to_string(),
            };
            versions.push(BundleVersion {
                record: VersionRecord {
                    memory_id: text_field(item, "memory_id", &what)?.to_string(),
                    operation,
                    path,
                    size: bytes.as_ref().map(|b| b.len() as u64).or_else(|| {
                        item.field("content_size_bytes")
                            .and_then(Json::as_integer)
                            .map(|n| n.max(0) as u64)
                    }),
                    sha256,
                    content,
                    created_at: time_field(item, "created_at", &what)?,
                    created_by,
                    redacted_at,
                    kept_at: None,
                    id,
                },
                bytes,
            });
        }
        let by_id: HashMap<&str, &BundleVersion> =
            versions.iter().map(|v| (v.record.id.as_str(), v)).collect();
        for memory in memories.iter_mut() {
            if let Some(head) = &memory.head {
                // The head holds the memory's very content (its bytes, not only a hash).
                let found = by_id.get(head.as_str()).filter(|v| {
                    v.record.memory_id == memory.id
                        && v.record.path.as_deref() == Some(memory.key.as_str())
                        && v.bytes.is_some()
                        && v.record.redacted_at.is_none()
                        && v.record.sha256.as_deref() == Some(&memory.sha256)
                });
                let Some(version) = found else {
                    return Err(invalid(fill(
                        "{}: memory_version_id {} is not a version of it with its content",
                        &[&memory.key, head],
                    )));
                };
                memory.head_content = version.record.content.clone();
            }
        }
        // The history replays to the memories (ids sort in write order): a memory's newest
        // version is its head, and a memory the bundle does not hold ends in a deletion.
        // Otherwise the store's history would say a memory is live that is not, or is other
        // than it is (docs/TOOL.md#bundles).
        let mut newest: HashMap<&str, &BundleVersion> = HashMap::new();
        for version in &versions {
            let slot = newest
                .entry(version.record.memory_id.as_str())
                .or_insert(version);
            if version.record.id > slot.record.id {
                *slot = version;
            }
        }
        let held: HashMap<&str, &BundleMemory> =
            memories.iter().map(|m| (m.id.as_str(), m)).collect();
        // In memory id order (the map's keys, sorted alone).
        let mut ends: Vec<&str> = newest.keys().copied().collect();
        sort_strs(&mut ends);
        for memory_id in ends {
            let Some(last) = newest.get(memory_id) else {
                continue;
            };
            match held.get(memory_id) {
                Some(memory) if memory.head.as_deref().is_some_and(|h| h != last.record.id) => {
                    return Err(invalid(fill(
                        "{}: its newest version {} is not its memory_version_id",
                        &[&memory.key, &last.record.id],
                    )));
                }
                Some(_) => {}
                None if last.record.operation != Change::Deleted => {
                    return Err(invalid(fill(
                        "memory {}: its history ends in version {}, which is not a deletion, but the bundle does not hold the memory",
                        &[memory_id, &last.record.id],
                    )));
                }
                None => {}
            }
        }
        Ok(versions)
    }
}
