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
use std::rc::Rc;

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
    /// Shared with its head version's, when it has one (the same text, not held twice), and
    /// with the write that stores it.
    pub(super) bytes: Rc<[u8]>,
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
    pub(super) bytes: Option<Rc<[u8]>>,
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
    check_digest_as(bytes, sha256_hex(bytes), item, what)
}

/// `check_digest` of bytes whose SHA-256 (hex) is known to be `sha`.
fn check_digest_as(
    bytes: &[u8],
    sha: String,
    item: &Json,
    what: &str,
) -> Result<String, ToolError> {
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
    /// Checks a bundle: its format, every path, every hash, no duplicates, a tree. The same
    /// checks as a `BundleReader` fed the bundle in parts.
    pub fn parse(json: &Json) -> Result<Bundle, ToolError> {
        let mut reader = BundleReader::new(json);
        if let Some(Json::Array(items)) = json.field("memories") {
            reader.memories(items);
        }
        if let Some(Json::Array(items)) = json.field("versions") {
            reader.versions(items);
        }
        reader.finish()
    }
}

/// What a bundle's `versions` is, as its header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VersionsField {
    Absent,
    List,
    NotList,
}

/// A bundle read a part at a time (docs/TOOL.md#bundles): its header (every field but the
/// items of `memories` and `versions`), then its memories in parts, in order, then its
/// versions in parts, in order, then `finish`. Each item is checked as it comes, and what a
/// check across the whole bundle needs (ids and paths seen, the tree, the history's links)
/// is checked once every part is in, so a bundle is refused for the same first fault, in the
/// same words, however it is cut. After a fault, later parts are not read.
#[derive(Debug)]
pub struct BundleReader {
    memories: Vec<BundleMemory>,
    versions: Vec<BundleVersion>,
    versions_field: VersionsField,
    ids: HashSet<String>,
    keys: HashSet<String>,
    version_ids: HashSet<String>,
    /// Whether the checks over every memory (the tree) have run: before the first version.
    memories_done: bool,
    /// Each memory's head version id, and the memory's place in `memories`: a head version's
    /// text is the memory's, held once (the version shares the memory's bytes).
    heads: HashMap<String, usize>,
    /// A part was not JSON (or nested too deep): the bundle is refused as the host call it is
    /// in would be, before any other fault.
    unreadable: bool,
    failure: Option<ToolError>,
}

impl BundleReader {
    /// A reader of the bundle whose header is `header` (its `memories` and `versions` items,
    /// if it has any, are read as the first parts).
    pub fn new(header: &Json) -> BundleReader {
        let mut reader = BundleReader {
            memories: Vec::new(),
            versions: Vec::new(),
            versions_field: match header.field("versions") {
                None => VersionsField::Absent,
                Some(Json::Array(_)) => VersionsField::List,
                Some(_) => VersionsField::NotList,
            },
            ids: HashSet::new(),
            keys: HashSet::new(),
            version_ids: HashSet::new(),
            memories_done: false,
            heads: HashMap::new(),
            unreadable: false,
            failure: None,
        };
        reader.failure = Self::header_fault(header);
        reader
    }

    fn header_fault(header: &Json) -> Option<ToolError> {
        if header.field("format").and_then(Json::as_str) != Some(FORMAT) {
            return Some(invalid(fill(
                "not a bundle: `format` must be \"{}\"",
                &[FORMAT],
            )));
        }
        if header.field("format_version").and_then(Json::as_integer) != Some(1) {
            return Some(invalid(
                "unsupported `format_version` (this version reads 1)".into(),
            ));
        }
        let Some(Json::Array(_)) = header.field("memories") else {
            return Some(invalid("`memories` must be a list".into()));
        };
        None
    }

    /// How deep in its host call a part of the bundle lies: the header is the call's
    /// `bundle` (one level down), a list of memories or versions is two.
    pub const HEADER_DEPTH: usize = 1;
    /// See `HEADER_DEPTH`.
    pub const LIST_DEPTH: usize = 2;

    /// A part could not be read as JSON at its depth: the call is refused as a host call
    /// whole that is not JSON (docs/TOOL.md#host-api-messages), before any fault of the bundle.
    pub fn unreadable(&mut self) {
        self.unreadable = true;
    }

    /// Whether a part could not be read (`unreadable`).
    pub fn is_unreadable(&self) -> bool {
        self.unreadable
    }

    /// The next memories of the bundle, in its order.
    pub fn memories(&mut self, items: &[Json]) {
        if self.unreadable || self.failure.is_some() {
            return;
        }
        if self.memories_done {
            self.failure = Some(invalid(
                "a bundle's memories must all come before its versions".into(),
            ));
            return;
        }
        self.memories.reserve(items.len());
        for item in items {
            if let Err(fault) = self.memory(item) {
                self.failure = Some(fault);
                return;
            }
        }
    }

    fn memory(&mut self, item: &Json) -> Result<(), ToolError> {
        let i = self.memories.len() as u64;
        let what = fill("memory {}", &[&decimal(i)]);
        let id = text_field(item, "id", &what)?.to_string();
        let key = parse_store_path(text_field(item, "path", &what)?)
            .map_err(|e| invalid(fill("{}: {}", &[&what, &e.message])))?;
        let what = fill("memory {} ({})", &[&decimal(i), &key]);
        let bytes = content_of(item, &what)?
            .ok_or_else(|| invalid(fill("{}: it has no content", &[&what])))?;
        let sha256 = check_digest(&bytes, item, &what)?;
        if !self.ids.insert(id.clone()) || !self.keys.insert(key.clone()) {
            return Err(invalid(fill("{}: its id or path appears twice", &[&what])));
        }
        if let (VersionsField::List, Some(head)) = (
            &self.versions_field,
            item.field("memory_version_id").and_then(Json::as_str),
        ) {
            self.heads.insert(head.to_string(), self.memories.len());
        }
        self.memories.push(BundleMemory {
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
            bytes: Rc::from(bytes),
            sha256,
        });
        Ok(())
    }

    /// Once every memory is in: none lies below another.
    fn end_memories(&mut self) {
        if self.memories_done || self.failure.is_some() {
            return;
        }
        self.memories_done = true;
        for memory in &self.memories {
            if let Some(a) = ancestor_keys(&memory.key)
                .into_iter()
                .find(|a| self.keys.contains(a))
            {
                self.failure = Some(invalid(fill(
                    "{} lies below {}, which is a memory too",
                    &[&memory.key, &a],
                )));
                return;
            }
        }
        if self.versions_field == VersionsField::NotList {
            self.failure = Some(invalid("`versions` must be a list".into()));
        }
    }

    /// The next versions of the bundle, in its order (after every memory).
    pub fn versions(&mut self, items: &[Json]) {
        if self.unreadable {
            return;
        }
        self.end_memories();
        if self.failure.is_some() {
            return;
        }
        if self.versions_field != VersionsField::List {
            self.failure = Some(invalid("`versions` must be a list".into()));
            return;
        }
        self.versions.reserve(items.len());
        for item in items {
            match self.version(item) {
                Ok(version) => self.versions.push(version),
                Err(fault) => {
                    self.failure = Some(fault);
                    return;
                }
            }
        }
    }

    /// The checked bundle, or the first fault found in it.
    pub fn finish(mut self) -> Result<Bundle, ToolError> {
        self.end_memories();
        if let Some(fault) = self.failure {
            return Err(fault);
        }
        let versions = match self.versions_field {
            VersionsField::List => {
                link_history(&self.versions, &mut self.memories)?;
                Some(self.versions)
            }
            _ => None,
        };
        Ok(Bundle {
            memories: self.memories,
            versions,
        })
    }

    fn version(&mut self, item: &Json) -> Result<BundleVersion, ToolError> {
        let i = self.versions.len();
        let what = fill("version {}", &[&decimal(i as u64)]);
        let id = text_field(item, "id", &what)?.to_string();
        if version_id_time(&id).is_none() || !self.version_ids.insert(id.clone()) {
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
        // A memory's head version holds the memory's text: the same bytes (compared, not
        // assumed) are not hashed again, and are held once.
        let head_of = self
            .heads
            .get(&id)
            .and_then(|&at| self.memories.get(at))
            .map(|m| (Rc::clone(&m.bytes), m.sha256.clone()));
        let (bytes, sha256) = match (content_of(item, &what)?, head_of) {
            (Some(b), Some((text, sha))) if *b == *text => {
                (Some(text), Some(check_digest_as(&b, sha, item, &what)?))
            }
            (Some(b), _) => {
                let sha = check_digest(&b, item, &what)?;
                (Some(Rc::from(b)), Some(sha))
            }
            (None, _) => (
                None,
                item.field("content_sha256")
                    .and_then(Json::as_str)
                    .map(str::to_string),
            ),
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
        Ok(BundleVersion {
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
        })
    }
}

/// Once every version is in: each head is a version of its memory with its content, and the
/// history replays to the memories.
fn link_history(
    versions: &[BundleVersion],
    memories: &mut [BundleMemory],
) -> Result<(), ToolError> {
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
    for version in versions {
        let slot = newest
            .entry(version.record.memory_id.as_str())
            .or_insert(version);
        if version.record.id > slot.record.id {
            *slot = version;
        }
    }
    let held: HashMap<&str, &BundleMemory> = memories.iter().map(|m| (m.id.as_str(), m)).collect();
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Bundle, BundleReader};
    use crate::format::json::Json;
    use crate::model::record::sha256_hex;
    use std::rc::Rc;

    const ID: &str = "memver_01j00000000000000000";

    /// A bundle of five memories, each with one version, as `import` reads it; `fault`
    /// changes its text.
    fn bundle(fault: impl Fn(String) -> String) -> Json {
        let mut memories = Vec::new();
        let mut versions = Vec::new();
        for i in 0..5 {
            let text = format!("note {i}\n");
            let sha = sha256_hex(text.as_bytes());
            let version = format!("{ID}{i}");
            memories.push(format!(
                r#"{{"id":"mem_{i}","path":"/d/n{i}.md","content":"note {i}\n","content_sha256":"{sha}","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","memory_version_id":"{version}"}}"#
            ));
            versions.push(format!(
                r#"{{"id":"{version}","memory_id":"mem_{i}","operation":"created","path":"/d/n{i}.md","content":"note {i}\n","content_sha256":"{sha}","created_at":"2026-01-01T00:00:00Z"}}"#
            ));
        }
        let text = format!(
            r#"{{"format":"memory-tool-wasm/bundle","format_version":1,"memories":[{}],"versions":[{}]}}"#,
            memories.join(","),
            versions.join(",")
        );
        Json::parse(&fault(text)).unwrap_or(Json::Null)
    }

    fn items<'j>(json: &'j Json, key: &str) -> &'j [Json] {
        match json.field(key) {
            Some(Json::Array(items)) => items,
            _ => &[],
        }
    }

    /// The bundle read in parts cut at `m` (memories) and `v` (versions), its header without
    /// the items.
    fn in_parts(json: &Json, m: usize, v: usize) -> String {
        let header = match json {
            Json::Object(members) => Json::Object(
                members
                    .iter()
                    .map(|(k, value)| match (k.as_str(), value) {
                        ("memories" | "versions", Json::Array(_)) => {
                            (k.clone(), Json::Array(Vec::new()))
                        }
                        _ => (k.clone(), value.clone()),
                    })
                    .collect(),
            ),
            other => other.clone(),
        };
        let mut reader = BundleReader::new(&header);
        let (memories, versions) = (items(json, "memories"), items(json, "versions"));
        let (a, b) = memories.split_at(m.min(memories.len()));
        reader.memories(a);
        reader.memories(b);
        if matches!(json.field("versions"), Some(Json::Array(_))) {
            let (a, b) = versions.split_at(v.min(versions.len()));
            reader.versions(a);
            reader.versions(b);
        }
        format!("{:?}", reader.finish())
    }

    #[test]
    fn a_head_versions_text_is_the_memorys_held_once() {
        // Memory 3's version holds another text (the link check, at `finish`, would refuse it).
        let (three, nine) = (sha256_hex(b"note 3\n"), sha256_hex(b"note 9\n"));
        let json = bundle(|text| {
            text.replacen(
                &format!(r#""operation":"created","path":"/d/n3.md","content":"note 3\n","content_sha256":"{three}""#),
                &format!(r#""operation":"created","path":"/d/n3.md","content":"note 9\n","content_sha256":"{nine}""#),
                1,
            )
        });
        let Some(Json::Array(memories)) = json.field("memories") else {
            panic!("no memories");
        };
        let Some(Json::Array(versions)) = json.field("versions") else {
            panic!("no versions");
        };
        let mut reader = BundleReader::new(&json);
        reader.memories(memories);
        reader.versions(versions);
        assert!(reader.failure.is_none(), "{:?}", reader.failure);
        for (memory, version) in reader.memories.iter().zip(&reader.versions) {
            let shared = version
                .bytes
                .as_ref()
                .is_some_and(|b| Rc::ptr_eq(b, &memory.bytes));
            // The same text is shared; another one is not, whatever the head says.
            assert_eq!(shared, memory.key != "/d/n3.md", "{}", memory.key);
        }
    }

    #[test]
    fn a_bundle_read_in_parts_is_refused_for_the_same_first_fault_as_whole() {
        type Fault = Box<dyn Fn(String) -> String>;
        let faults: Vec<(&str, Fault)> = vec![
            ("none", Box::new(|t| t)),
            (
                "a hash",
                Box::new(|t| {
                    t.replacen(
                        "note 3\\n\",\"content_sha256\":\"",
                        "note 3\\n\",\"content_sha256\":\"0",
                        1,
                    )
                }),
            ),
            (
                "a hash and a later path",
                Box::new(|t| {
                    t.replacen(
                        "note 1\\n\",\"content_sha256\":\"",
                        "note 1\\n\",\"content_sha256\":\"0",
                        1,
                    )
                    .replacen("/d/n4.md", "/d/n0.md", 1)
                }),
            ),
            (
                "a path twice",
                Box::new(|t| t.replacen("\"path\":\"/d/n4.md\"", "\"path\":\"/d/n2.md\"", 1)),
            ),
            (
                "a memory below another",
                Box::new(|t| t.replacen("\"path\":\"/d/n4.md\"", "\"path\":\"/d/n1.md/x.md\"", 1)),
            ),
            (
                "a version's hash",
                Box::new(|t| {
                    t.replacen(
                        &format!("\"id\":\"{ID}2\",\"memory_id\""),
                        &format!("\"id\":\"{ID}2\",\"content_size_bytes\":99,\"memory_id\""),
                        1,
                    )
                }),
            ),
            (
                "a version id twice",
                Box::new(|t| {
                    t.replacen(
                        &format!("\"id\":\"{ID}4\",\"memory_id\""),
                        &format!("\"id\":\"{ID}1\",\"memory_id\""),
                        1,
                    )
                }),
            ),
            (
                "a head that is no version of it",
                Box::new(|t| {
                    t.replacen(
                        &format!("\"memory_version_id\":\"{ID}3\""),
                        &format!("\"memory_version_id\":\"{ID}2\""),
                        1,
                    )
                }),
            ),
            (
                "versions not a list",
                Box::new(|t| {
                    let at = t.find(",\"versions\":").unwrap_or(t.len());
                    format!("{},\"versions\":7}}", &t[..at])
                }),
            ),
            (
                "a memory fault and versions not a list",
                Box::new(|t| {
                    let at = t.find(",\"versions\":").unwrap_or(t.len());
                    format!("{},\"versions\":7}}", &t[..at]).replacen("/d/n4.md", "/d/n0.md", 1)
                }),
            ),
            (
                "no format",
                Box::new(|t| t.replacen("memory-tool-wasm/bundle", "other", 1)),
            ),
            (
                "no versions",
                Box::new(|t| {
                    let at = t.find(",\"versions\":").unwrap_or(t.len());
                    format!("{}}}", &t[..at])
                }),
            ),
        ];
        for (name, fault) in &faults {
            let json = bundle(fault);
            let whole = format!("{:?}", Bundle::parse(&json));
            assert!(
                !matches!(json, Json::Null),
                "{name}: the fixture is not JSON"
            );
            assert_eq!(
                name == &"none" || name == &"no versions",
                whole.starts_with("Ok("),
                "{name}: {whole}"
            );
            for m in 0..=5 {
                for v in 0..=5 {
                    assert_eq!(
                        in_parts(&json, m, v),
                        whole,
                        "{name}, cut at memory {m} and version {v}"
                    );
                }
            }
        }
    }

    #[test]
    fn memories_after_versions_are_refused() {
        let json = bundle(|t| t);
        let mut reader = BundleReader::new(&json);
        reader.versions(items(&json, "versions"));
        reader.memories(items(&json, "memories"));
        assert!(
            format!("{:?}", reader.finish()).contains("memories must all come before its versions")
        );
    }
}
