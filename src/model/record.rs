//! What a store holds per file, and the host-side values the core derives: ids, hashes, times.

use crate::format::json::{write_value, Json, ObjectWriter, Scalar};
use crate::model::time::rfc3339;
use sha2::{Digest, Sha256};

/// A file's metadata, keyed by its store path. Its bytes are stored apart, under `content` (the
/// id of the version that first wrote them), so that listings and renames never load file
/// bodies and versions that share bytes share them.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRecord {
    pub path: String,
    /// The memory's id, `mem_…`, kept across renames.
    pub id: String,
    pub size: u64,
    pub sha256: String,
    /// Epoch milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
    /// The head version (`memver_…`); `None` for files stored before versions existed.
    pub version: Option<String>,
    /// The key of the bytes in the content store.
    pub content: String,
    /// When the model last viewed or changed the memory (epoch ms), to a day's precision
    /// (docs/TOOL.md#last-use-and-expiry); `None` for records written before it was kept.
    pub accessed_at: Option<i64>,
    /// What the memory's stored versions hold at most, kept by the writes that check the
    /// history budget (docs/TOOL.md#history-budget) so that the next one needs no read of
    /// them while it stays within budget; `None` when no such write has counted them since
    /// the last change (an import, a directory rename, an older record).
    pub history: Option<HistoryCount>,
}

/// Upper bounds of a memory's stored versions: how many, and the bytes their contents hold
/// (each content counted once). Anything that takes a version or its bytes away (pruning,
/// redaction, a check's repair) leaves them as bounds; only the budget's writes set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryCount {
    pub versions: u64,
    pub bytes: u64,
}

impl HistoryCount {
    /// The count from a record's `historyVersions` and `historyBytes`, if both are there as
    /// integers of zero or more (anything else: not counted).
    fn from_fields(versions: Option<i64>, bytes: Option<i64>) -> Option<HistoryCount> {
        match (versions, bytes) {
            (Some(v), Some(b)) if v >= 0 && b >= 0 => Some(HistoryCount {
                versions: v as u64,
                bytes: b as u64,
            }),
            _ => None,
        }
    }
}

impl FileRecord {
    /// Reads a record as the adapter stores it; `None` when a field is missing or mistyped.
    /// Records from before versions existed have neither `version` nor `content`: their bytes
    /// are stored under the memory id.
    pub fn from_json(json: &Json) -> Option<FileRecord> {
        let id = json.get("id")?.as_str()?.to_string();
        Some(FileRecord {
            path: json.get("path")?.as_str()?.to_string(),
            size: json.get("size")?.as_integer()?.max(0) as u64,
            sha256: json.get("sha256")?.as_str()?.to_string(),
            created_at: json.get("createdAt")?.as_integer()?,
            updated_at: json.get("updatedAt")?.as_integer()?,
            version: json
                .field("version")
                .and_then(Json::as_str)
                .map(str::to_string),
            content: json
                .field("content")
                .and_then(Json::as_str)
                .map_or_else(|| id.clone(), str::to_string),
            accessed_at: json.field("accessedAt").and_then(Json::as_integer),
            history: HistoryCount::from_fields(
                json.field("historyVersions").and_then(Json::as_integer),
                json.field("historyBytes").and_then(Json::as_integer),
            ),
            id,
        })
    }

    /// When the memory was last used: viewed or changed, whichever came last.
    pub fn last_used(&self) -> i64 {
        self.accessed_at
            .map_or(self.updated_at, |at| at.max(self.updated_at))
    }

    /// Reads a JSON array of records (a `subtree` answer) with the rules of `from_json` for
    /// each, straight from the text: no `Json` tree, no copies of its strings.
    pub fn list_from_json(text: &str) -> Option<Vec<FileRecord>> {
        crate::format::json::parse_object_array(text, RecordFields::default, RecordFields::set)?
            .into_iter()
            .map(RecordFields::finish)
            .collect()
    }

    /// `list_from_json`, keeping going past records it cannot read: the good ones, and the
    /// keys (their `path`, when that much is readable) of the others. `None` only when the
    /// text is not an array of objects.
    pub fn list_from_json_lenient(text: &str) -> Option<(Vec<FileRecord>, Vec<String>)> {
        let items = crate::format::json::parse_object_array(
            text,
            RecordFields::default,
            RecordFields::set,
        )?;
        let mut records = Vec::with_capacity(items.len());
        let mut damaged = Vec::new();
        for item in items {
            let key = match &item.path {
                Some(Scalar::Str(path)) => path.clone(),
                _ => String::new(),
            };
            match item.finish() {
                Some(record) => records.push(record),
                None => damaged.push(key),
            }
        }
        Some((records, damaged))
    }

    /// Appends the record as the adapter stores it.
    pub fn write_json(&self, out: &mut String) {
        let mut object = ObjectWriter::new(out);
        object
            .str("path", &self.path)
            .str("id", &self.id)
            .int("size", self.size as i64)
            .str("sha256", &self.sha256)
            .int("createdAt", self.created_at)
            .int("updatedAt", self.updated_at)
            .opt_str("version", self.version.as_deref())
            .str("content", &self.content);
        if let Some(at) = self.accessed_at {
            object.int("accessedAt", at);
        }
        if let Some(count) = self.history {
            object
                .int("historyVersions", count.versions as i64)
                .int("historyBytes", count.bytes as i64);
        }
        object.finish();
    }

    /// The memory as the memory stores API shows it (`type: "memory"`), with its `content`
    /// when given (`None` writes no content member).
    pub fn write_memory_json(&self, out: &mut String, content: Option<&[u8]>) {
        let mut object = ObjectWriter::new(out);
        object
            .str("type", "memory")
            .str("id", &self.id)
            .str("path", &self.path)
            .str("content_sha256", &self.sha256)
            .int("content_size_bytes", self.size as i64)
            .opt_str("memory_version_id", self.version.as_deref())
            .str("created_at", &rfc3339(self.created_at))
            .str("updated_at", &rfc3339(self.updated_at))
            .str("last_accessed_at", &rfc3339(self.last_used()));
        if let Some(bytes) = content {
            write_content_members(&mut object, bytes);
        }
        object.finish();
    }
}

/// A field's text, if it held a string (`as_str`).
fn text(slot: Option<Scalar>) -> Option<String> {
    match slot {
        Some(Scalar::Str(s)) => Some(s),
        _ => None,
    }
}

/// A field's whole number, if it held one (`as_integer`).
fn integer(slot: Option<Scalar>) -> Option<i64> {
    match slot {
        Some(Scalar::Int(n)) => n,
        _ => None,
    }
}

/// The members of a file record as `FileRecord::list_from_json` meets them (the last of a
/// repeated key stays, as with `Json::get`).
#[derive(Default)]
struct RecordFields {
    path: Option<Scalar>,
    id: Option<Scalar>,
    size: Option<Scalar>,
    sha256: Option<Scalar>,
    created_at: Option<Scalar>,
    updated_at: Option<Scalar>,
    version: Option<Scalar>,
    content: Option<Scalar>,
    accessed_at: Option<Scalar>,
    history_versions: Option<Scalar>,
    history_bytes: Option<Scalar>,
}

impl RecordFields {
    fn set(&mut self, key: &str, value: Scalar) {
        let slot = match key {
            "path" => &mut self.path,
            "id" => &mut self.id,
            "size" => &mut self.size,
            "sha256" => &mut self.sha256,
            "createdAt" => &mut self.created_at,
            "updatedAt" => &mut self.updated_at,
            "version" => &mut self.version,
            "content" => &mut self.content,
            "accessedAt" => &mut self.accessed_at,
            "historyVersions" => &mut self.history_versions,
            "historyBytes" => &mut self.history_bytes,
            _ => return,
        };
        *slot = Some(value);
    }

    /// The record, by `FileRecord::from_json`'s rules: `get(..)?.as_str()?` for the required
    /// strings, `as_integer()?` for the numbers, `field(..).and_then(as_str)` for the optional
    /// ones.
    fn finish(self) -> Option<FileRecord> {
        let id = text(self.id)?;
        Some(FileRecord {
            path: text(self.path)?,
            size: integer(self.size)?.max(0) as u64,
            sha256: text(self.sha256)?,
            created_at: integer(self.created_at)?,
            updated_at: integer(self.updated_at)?,
            version: text(self.version),
            content: text(self.content).unwrap_or_else(|| id.clone()),
            accessed_at: integer(self.accessed_at),
            history: HistoryCount::from_fields(
                integer(self.history_versions),
                integer(self.history_bytes),
            ),
            id,
        })
    }
}

/// `"content": text` for UTF-8 bytes; otherwise `"content": null` and `"content_base64"`.
pub(crate) fn write_content_members(object: &mut ObjectWriter<'_>, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            object.str("content", text);
        }
        Err(_) => {
            object
                .raw("content", "null")
                .str("content_base64", &crate::format::render::base64(bytes));
        }
    }
}

/// What a version records (docs/TOOL.md#versions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Created,
    Modified,
    Deleted,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Created => "created",
            Change::Modified => "modified",
            Change::Deleted => "deleted",
        }
    }

    pub fn parse(s: &str) -> Option<Change> {
        match s {
            "created" => Some(Change::Created),
            "modified" => Some(Change::Modified),
            "deleted" => Some(Change::Deleted),
            _ => None,
        }
    }
}

/// One immutable entry of a store's history, keyed by `id` (`memver_…`, ordered by time).
#[derive(Clone, Debug, PartialEq)]
pub struct VersionRecord {
    pub id: String,
    pub memory_id: String,
    pub operation: Change,
    /// The memory's path then; `None` once redacted.
    pub path: Option<String>,
    /// `None` for a deletion or once redacted.
    pub size: Option<u64>,
    pub sha256: Option<String>,
    /// The key of the bytes; `None` for a deletion or once redacted.
    pub content: Option<String>,
    pub created_at: i64,
    /// Who made the change, as JSON (`{"type":"tool","tool_use_id":…}`, `{"type":"api"}`, …).
    pub created_by: String,
    pub redacted_at: Option<i64>,
    /// When a sync conflict set this text aside, or a restore brought it back: it stays
    /// restorable for the retention period from then, whatever the history budget
    /// (docs/TOOL.md#retention).
    pub kept_at: Option<i64>,
}

impl VersionRecord {
    /// This version redacted at `at`: its path, size, hash and content key gone, the rest kept.
    pub fn redacted(&self, at: i64) -> VersionRecord {
        VersionRecord {
            path: None,
            size: None,
            sha256: None,
            content: None,
            redacted_at: Some(at),
            ..self.clone()
        }
    }

    pub fn from_json(json: &Json) -> Option<VersionRecord> {
        let opt_str = |key: &str| json.field(key).and_then(Json::as_str).map(str::to_string);
        let created_by = match json.field("createdBy") {
            Some(actor @ Json::Object(_)) => write_value(actor),
            _ => "null".to_string(),
        };
        Some(VersionRecord {
            id: json.get("id")?.as_str()?.to_string(),
            memory_id: json.get("memoryId")?.as_str()?.to_string(),
            operation: Change::parse(json.get("operation")?.as_str()?)?,
            path: opt_str("path"),
            size: json
                .field("size")
                .and_then(Json::as_integer)
                .map(|n| n.max(0) as u64),
            sha256: opt_str("sha256"),
            content: opt_str("content"),
            created_at: json.get("createdAt")?.as_integer()?,
            created_by,
            redacted_at: json.field("redactedAt").and_then(Json::as_integer),
            kept_at: json.field("keptAt").and_then(Json::as_integer),
        })
    }

    /// Reads a JSON array of version records (a history answer) with the rules of `from_json`
    /// for each, straight from the text: no `Json` tree but for an actor's object. `None` when
    /// any cannot be read. A history of 10,000 versions in wasm: ~48 ms as a tree.
    pub fn list_from_json(text: &str) -> Option<Vec<VersionRecord>> {
        crate::format::json::parse_object_array(text, VersionFields::default, VersionFields::set)?
            .into_iter()
            .map(VersionFields::finish)
            .collect()
    }

    /// Appends the record as the adapter stores it.
    pub fn write_json(&self, out: &mut String) {
        let mut object = ObjectWriter::new(out);
        object
            .str("id", &self.id)
            .str("memoryId", &self.memory_id)
            .str("operation", self.operation.as_str())
            .opt_str("path", self.path.as_deref())
            .opt_int("size", self.size.map(|s| s as i64))
            .opt_str("sha256", self.sha256.as_deref());
        // Left out rather than null, so that IndexedDB's `content` index skips the record.
        if let Some(content) = &self.content {
            object.str("content", content);
        }
        object
            .int("createdAt", self.created_at)
            .raw("createdBy", &self.created_by)
            .opt_int("redactedAt", self.redacted_at)
            .opt_int("keptAt", self.kept_at)
            .finish();
    }

    /// The version as the memory stores API shows it (`type: "memory_version"`), with its
    /// `content` when given.
    pub fn write_api_json(&self, out: &mut String, content: Option<&[u8]>) {
        let mut object = ObjectWriter::new(out);
        object
            .str("type", "memory_version")
            .str("id", &self.id)
            .str("memory_id", &self.memory_id)
            .str("operation", self.operation.as_str())
            .opt_str("path", self.path.as_deref())
            .opt_str("content_sha256", self.sha256.as_deref())
            .opt_int("content_size_bytes", self.size.map(|s| s as i64))
            .str("created_at", &rfc3339(self.created_at))
            .raw("created_by", &self.created_by)
            .opt_str("redacted_at", self.redacted_at.map(rfc3339).as_deref());
        if let Some(at) = self.kept_at {
            object.str("kept_at", &rfc3339(at));
        }
        if let Some(bytes) = content {
            write_content_members(&mut object, bytes);
        }
        object.finish();
    }
}

/// The content key of bytes a head writes at file key `path` as version `version_id`: the
/// path, `\0`, the version id. A file's newest bytes are then found by its key alone
/// (`Read::HeadContent`), in the round that reads its record; a path holds no control
/// character, so no other file's keys share the prefix. Keys written before (a version id
/// alone, or a version 1 store's memory id) stay valid: a record names its key.
pub(crate) fn content_key(path: &str, version_id: &str) -> String {
    crate::format::render::cat(&[path, "\0", version_id])
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ids::version_id_floor;
    use crate::model::ids::IdSource;
    use crate::model::ids::VersionIds;

    #[test]
    fn a_history_read_from_its_text_is_the_history_read_as_a_tree() {
        let text = r#"[
            {"id":"memver_1","memoryId":"mem_1","operation":"created","path":"/a","size":3,"sha256":"s","content":"k","createdAt":5,"createdBy":{"type":"tool","tool_use_id":"t\u0001"}},
            {"id":"memver_2","memoryId":"mem_1","operation":"deleted","path":null,"size":1.5,"createdAt":6,"createdBy":"api","redactedAt":7,"keptAt":8,"other":[1,{"x":true}]},
            {"id":"memver_3","memoryId":"mem_2","operation":"modified","size":-4,"createdAt":9,"createdBy":null,"createdAt":10}
        ]"#;
        let tree = match Json::parse(text) {
            Some(Json::Array(items)) => items
                .iter()
                .map(VersionRecord::from_json)
                .collect::<Option<Vec<_>>>(),
            _ => None,
        };
        let fast = VersionRecord::list_from_json(text);
        assert!(fast.is_some());
        assert_eq!(fast, tree);
        // Any record it cannot read: none, as the tree gives.
        for bad in [
            r#"[{"id":"memver_1","memoryId":"mem_1","operation":"moved","createdAt":1}]"#,
            r#"[{"id":"memver_1","memoryId":"mem_1","operation":"created"}]"#,
            r#"[{"id":1,"memoryId":"mem_1","operation":"created","createdAt":1}]"#,
            r#"[3]"#,
            r#"{}"#,
        ] {
            assert_eq!(VersionRecord::list_from_json(bad), None, "{bad}");
        }
    }
    use crate::model::time::parse_rfc3339;

    #[test]
    fn hashes() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn ids_are_deterministic_and_distinct() {
        let mut a = IdSource::new([7; 16]);
        let mut b = IdSource::new([7; 16]);
        let first = a.next("mem_");
        assert_eq!(first, b.next("mem_"));
        assert_ne!(first, a.next("mem_"));
        assert_eq!(first.len(), 4 + 24);
    }

    #[test]
    fn version_ids_sort_in_write_order() {
        let mut ids = IdSource::new([1; 16]);
        let mut clock = VersionIds::after(None, 1_000);
        let a = clock.next(&mut ids);
        let b = clock.next(&mut ids);
        assert!(a < b && a.len() == 28, "{a} {b}");
        // The clock went backwards: ids still follow the newest one.
        let mut behind = VersionIds::after(Some(&b), 10);
        let c = behind.next(&mut ids);
        assert!(b < c, "{b} {c}");
        assert!(version_id_floor(1_000) <= a && a < version_id_floor(1_001));
        let old = serde_free_version(&a);
        assert_eq!(old.map(|v| v.id), Some(a));
    }

    fn serde_free_version(id: &str) -> Option<VersionRecord> {
        let v = VersionRecord {
            id: id.into(),
            memory_id: "mem_1".into(),
            operation: Change::Deleted,
            path: Some("/p".into()),
            size: None,
            sha256: None,
            content: None,
            created_at: 5,
            created_by: r#"{"type":"api"}"#.into(),
            redacted_at: None,
            kept_at: None,
        };
        let mut text = String::new();
        v.write_json(&mut text);
        let back = Json::parse(&text).and_then(|j| VersionRecord::from_json(&j))?;
        (back == v).then_some(back)
    }

    #[test]
    fn times_round_trip() {
        for ms in [0, 951_782_400_000, 1_796_161_274_123, 4_102_444_799_999] {
            assert_eq!(parse_rfc3339(&rfc3339(ms)), Some(ms));
        }
        assert_eq!(
            parse_rfc3339("2026-11-29T21:41:14+00:00"),
            Some(1_795_988_474_000)
        );
        assert_eq!(
            parse_rfc3339("2026-11-29T21:41:14.5Z"),
            Some(1_795_988_474_500)
        );
        assert_eq!(parse_rfc3339("2026-13-29T21:41:14Z"), None);
        assert_eq!(parse_rfc3339("yesterday"), None);
    }

    #[test]
    fn times() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_796_161_274_123), "2026-12-01T21:41:14.123Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        // Years outside 0..=9999 as `{year:04}` writes them: the sign within the four columns.
        assert_eq!(rfc3339(-62_167_219_200_000), "0000-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(-62_167_219_200_001), "-001-12-31T23:59:59.999Z");
        assert_eq!(rfc3339(253_402_300_800_000), "10000-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn times_as_format_wrote_them() {
        fn formatted(ms: i64) -> String {
            let (year, month, day, rem) = crate::model::time::civil(ms);
            format!(
                "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
                rem / 3_600_000,
                rem / 60_000 % 60,
                rem / 1000 % 60,
                rem % 1000
            )
        }
        let mut ms: i64 = -400_000_000_000_000;
        while ms < 400_000_000_000_000 {
            assert_eq!(rfc3339(ms), formatted(ms), "{ms}");
            ms += 9_876_543_210_987;
        }
        for ms in [
            -62_167_219_200_001,
            -62_135_596_800_001,
            -1,
            0,
            1,
            999,
            86_399_999,
        ] {
            assert_eq!(rfc3339(ms), formatted(ms), "{ms}");
        }
    }

    #[test]
    fn fractions_give_milliseconds() {
        for (fraction, ms) in [
            ("", 0),
            (".1", 100),
            (".12", 120),
            (".123", 123),
            (".1239", 123),
        ] {
            let text = ["1970-01-01T00:00:00", fraction, "Z"].concat();
            assert_eq!(parse_rfc3339(&text), Some(ms), "{text}");
        }
    }

    #[test]
    fn record_round_trip() {
        let r = FileRecord {
            path: "/a \"b\".md".into(),
            id: "mem_x".into(),
            size: 3,
            sha256: "00".into(),
            created_at: 1,
            updated_at: 2,
            version: Some("memver_1".into()),
            content: "memver_0".into(),
            accessed_at: Some(5),
            history: None,
        };
        let mut text = String::new();
        r.write_json(&mut text);
        let parsed = Json::parse(&text).and_then(|j| FileRecord::from_json(&j));
        assert_eq!(parsed, Some(r.clone()));
        // With its history count: both readers read it back.
        let counted = FileRecord {
            history: Some(HistoryCount {
                versions: 7,
                bytes: 4096,
            }),
            ..r
        };
        let mut text = String::new();
        counted.write_json(&mut text);
        assert!(
            text.contains("\"historyVersions\":7,\"historyBytes\":4096"),
            "{text}"
        );
        let parsed = Json::parse(&text).and_then(|j| FileRecord::from_json(&j));
        assert_eq!(parsed.as_ref(), Some(&counted));
        let listed = FileRecord::list_from_json(&["[", &text, "]"].concat());
        assert_eq!(listed, Some(vec![counted]));
        // A count that is not two integers of zero or more is no count (the record still reads).
        for bad in [
            r#""historyVersions":-1,"historyBytes":3"#,
            r#""historyVersions":2"#,
            r#""historyVersions":"2","historyBytes":3"#,
        ] {
            let text = [r#"{"path":"/a.md","id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2,"#, bad, "}"].concat();
            let parsed = Json::parse(&text).and_then(|j| FileRecord::from_json(&j));
            assert_eq!(parsed.map(|r| r.history), Some(None), "{text}");
            let listed = FileRecord::list_from_json(&["[", &text, "]"].concat());
            assert_eq!(
                listed.map(|l| l.into_iter().map(|r| r.history).collect::<Vec<_>>()),
                Some(vec![None]),
                "{text}"
            );
        }
    }

    #[test]
    fn a_list_of_records_reads_as_each_record_does() {
        use crate::format::json::Json;
        let one = |text: &str| -> Option<Vec<FileRecord>> {
            match Json::parse(text)? {
                Json::Array(items) => items.iter().map(FileRecord::from_json).collect(),
                _ => None,
            }
        };
        let record = r#"{"path":"/a.md","id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2,"version":"v1","content":"v1"}"#;
        let cases = [
            "[]".to_string(),
            " [ ] ".to_string(),
            format!("[{record}]"),
            format!("[{record},{record}]"),
            format!(" [ {record} , {record} ] "),
            // Older records: no version, no content (bytes under the memory id).
            r#"[{"path":"/a.md","id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2}]"#.into(),
            r#"[{"path":"/a.md","id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2,"version":null,"content":null}]"#.into(),
            r#"[{"path":"/a.md","id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2,"version":7,"content":[1]}]"#.into(),
            // Repeated keys: the last one counts, whatever the first was.
            r#"[{"path":1,"path":"/b.md","id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2}]"#.into(),
            r#"[{"path":"/b.md","path":1,"id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2}]"#.into(),
            // Numbers: 2.0 and 3e0 are whole, 2.5 is not; negative sizes clamp to 0.
            r#"[{"path":"/a.md","id":"mem_1","size":3e0,"sha256":"ab","createdAt":1.0,"updatedAt":2}]"#.into(),
            r#"[{"path":"/a.md","id":"mem_1","size":2.5,"sha256":"ab","createdAt":1,"updatedAt":2}]"#.into(),
            r#"[{"path":"/a.md","id":"mem_1","size":-4,"sha256":"ab","createdAt":1,"updatedAt":2}]"#.into(),
            // Escapes in keys and values, unknown and nested members, null where a value must be.
            r#"[{"p\u0061th":"/\u00e9.md","id":"mem_1","size":3,"sha256":"ab","createdAt":1,"updatedAt":2,"x":{"y":[1,{"z":null}]}}]"#.into(),
            r#"[{"path":"/a.md","id":null,"size":3,"sha256":"ab","createdAt":1,"updatedAt":2}]"#.into(),
            r#"[{"path":"/a.md","size":3,"sha256":"ab","createdAt":1,"updatedAt":2}]"#.into(),
            // Not a list of objects, or not JSON.
            "null".into(),
            "{}".into(),
            "[1]".into(),
            format!("[{record}"),
            format!("[{record},]"),
            format!("[{record}] x"),
            r#"[{"path":"/a.md" "id":"mem_1"}]"#.into(),
            "[{\"path\":\"/a\u{1}.md\"}]".into(),
        ];
        for text in &cases {
            assert_eq!(FileRecord::list_from_json(text), one(text), "{text}");
        }
        assert_eq!(
            FileRecord::list_from_json(&format!("[{record}]")).unwrap()[0].path,
            "/a.md"
        );
    }
}

/// The members of a stored version record, as `parse_object_array` finds them.
#[derive(Default)]
struct VersionFields {
    id: Option<Scalar>,
    memory_id: Option<Scalar>,
    operation: Option<Scalar>,
    path: Option<Scalar>,
    size: Option<Scalar>,
    sha256: Option<Scalar>,
    content: Option<Scalar>,
    created_at: Option<Scalar>,
    created_by: Option<Scalar>,
    redacted_at: Option<Scalar>,
    kept_at: Option<Scalar>,
}

impl VersionFields {
    fn set(&mut self, key: &str, value: Scalar) {
        let slot = match key {
            "id" => &mut self.id,
            "memoryId" => &mut self.memory_id,
            "operation" => &mut self.operation,
            "path" => &mut self.path,
            "size" => &mut self.size,
            "sha256" => &mut self.sha256,
            "content" => &mut self.content,
            "createdAt" => &mut self.created_at,
            "createdBy" => &mut self.created_by,
            "redactedAt" => &mut self.redacted_at,
            "keptAt" => &mut self.kept_at,
            _ => return,
        };
        *slot = Some(value);
    }

    /// The record, by `VersionRecord::from_json`'s rules.
    fn finish(self) -> Option<VersionRecord> {
        let created_by = match self.created_by {
            Some(Scalar::Other(actor @ Json::Object(_))) => write_value(&actor),
            _ => "null".to_string(),
        };
        Some(VersionRecord {
            id: text(self.id)?,
            memory_id: text(self.memory_id)?,
            operation: Change::parse(&text(self.operation)?)?,
            path: text(self.path),
            size: integer(self.size).map(|n| n.max(0) as u64),
            sha256: text(self.sha256),
            content: text(self.content),
            created_at: integer(self.created_at)?,
            created_by,
            redacted_at: integer(self.redacted_at),
            kept_at: integer(self.kept_at),
        })
    }
}
