//! The protocol's wire codec: reads as JSON for the adapter, answers read from its JSON,
//! outcomes as JSON (docs/ARCHITECTURE.md#the-wasm-boundary).

use super::{Answer, Content, Decision, Outcome, Read, Write};
use crate::format::json::{quote, write_str, Json, ObjectWriter};
use crate::format::listing::ListingEntry;
use crate::format::render::{decimal, fill, push_decimal};
use crate::model::clock::StoreClock;
use crate::model::error::Detail;
use crate::model::record::{FileRecord, VersionRecord};

impl Read {
    /// The read's kind as the adapter names it (the `kind` of its JSON).
    pub fn kind(&self) -> &'static str {
        match self {
            Read::File(_) => "file",
            Read::Subtree(_) => "subtree",
            Read::HasChildren(_) => "hasChildren",
            Read::Count => "count",
            Read::FilesAfter { .. } => "filesAfter",
            Read::Archived => "archived",
            Read::Content(_) => "content",
            Read::Contents(_) => "contents",
            Read::HeadContent(_) => "headContent",
            Read::FileById(_) => "fileById",
            Read::Version(_) => "version",
            Read::VersionsDesc { .. } => "versionsDesc",
            Read::VersionsBelow(_) => "versionsBelow",
            Read::VersionsAfter { .. } => "versionsAfter",
            Read::History(_) => "history",
            Read::VersionsWithContent(_) => "versionsWithContent",
            Read::NewestVersionId => "newestVersionId",
            Read::Clock => "clock",
            Read::VersionIds => "versionIds",
            Read::Listing(_) | Read::MountListing(_) => "listing",
            Read::Policy { .. } => "policy",
        }
    }

    /// The read as JSON for the adapter.
    pub fn to_json(&self) -> String {
        match self {
            Read::File(p) => fill("{\"kind\":\"file\",\"path\":{}}", &[&quote(p)]),
            Read::Subtree(p) => fill("{\"kind\":\"subtree\",\"path\":{}}", &[&quote(p)]),
            Read::HasChildren(p) => fill("{\"kind\":\"hasChildren\",\"path\":{}}", &[&quote(p)]),
            Read::Count => "{\"kind\":\"count\"}".to_string(),
            Read::FilesAfter { after, limit } => {
                let mut out = String::new();
                ObjectWriter::new(&mut out)
                    .str("kind", "filesAfter")
                    .opt_str("after", after.as_deref())
                    .int("limit", *limit as i64)
                    .finish();
                out
            }
            Read::Archived => "{\"kind\":\"archived\"}".to_string(),
            Read::Content(id) => fill("{\"kind\":\"content\",\"id\":{}}", &[&quote(id)]),
            Read::Contents(ids) => {
                let mut out = String::from("{\"kind\":\"contents\",\"ids\":[");
                for (i, id) in ids.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(&mut out, id);
                }
                out.push_str("]}");
                out
            }
            Read::HeadContent(p) => fill("{\"kind\":\"headContent\",\"path\":{}}", &[&quote(p)]),
            Read::FileById(id) => fill("{\"kind\":\"fileById\",\"id\":{}}", &[&quote(id)]),
            Read::Version(id) => fill("{\"kind\":\"version\",\"id\":{}}", &[&quote(id)]),
            Read::VersionsDesc {
                memory,
                below,
                limit,
            } => {
                let mut out = String::new();
                ObjectWriter::new(&mut out)
                    .str("kind", "versionsDesc")
                    .opt_str("memoryId", memory.as_deref())
                    .opt_str("below", below.as_deref())
                    .int("limit", *limit as i64)
                    .finish();
                out
            }
            Read::VersionsAfter { after, limit } => {
                let mut out = String::new();
                ObjectWriter::new(&mut out)
                    .str("kind", "versionsAfter")
                    .opt_str("after", after.as_deref())
                    .int("limit", *limit as i64)
                    .finish();
                out
            }
            Read::VersionsBelow(id) => {
                fill("{\"kind\":\"versionsBelow\",\"id\":{}}", &[&quote(id)])
            }
            Read::History(id) => fill("{\"kind\":\"history\",\"memoryId\":{}}", &[&quote(id)]),
            Read::VersionsWithContent(key) => fill(
                "{\"kind\":\"versionsWithContent\",\"id\":{}}",
                &[&quote(key)],
            ),
            Read::NewestVersionId => "{\"kind\":\"newestVersionId\"}".to_string(),
            Read::Clock => "{\"kind\":\"clock\"}".to_string(),
            Read::VersionIds => "{\"kind\":\"versionIds\"}".to_string(),
            Read::Listing(p) => fill("{\"kind\":\"listing\",\"path\":{}}", &[&quote(p)]),
            Read::MountListing(n) => fill(
                "{\"kind\":\"listing\",\"path\":\"\",\"mount\":{}}",
                &[&decimal(*n as u64)],
            ),
            Read::Policy {
                path,
                source,
                operation,
                old_path,
                bytes,
            } => {
                let mut out = String::new();
                ObjectWriter::new(&mut out)
                    .str("kind", "policy")
                    .str("path", path)
                    .str("source", source)
                    .str("operation", operation.as_str())
                    .opt_str("oldPath", old_path.as_deref())
                    .raw("hasContent", if bytes.is_some() { "true" } else { "false" })
                    .finish();
                out
            }
        }
    }
}

impl Answer {
    /// The answer to `read` given as bytes: a content read's bytes (`None`: missing), or, for a
    /// policy read, the content the host's policy rewrote the write to.
    #[cfg_attr(not(all(feature = "wasm", target_arch = "wasm32")), allow(dead_code))]
    pub fn from_bytes(read: &Read, bytes: Option<Vec<u8>>) -> Answer {
        match (read, bytes) {
            (Read::Policy { .. }, Some(bytes)) => Answer::Policy(Decision::Rewrite(bytes)),
            (_, bytes) => Answer::Content(bytes),
        }
    }

    /// Reads the adapter's JSON answer to `read` (not for content, which comes as bytes).
    pub fn from_json(read: &Read, text: &str) -> Option<Answer> {
        // The big answers (every record of a store): straight into records, no tree.
        match read {
            Read::Subtree(_) | Read::FilesAfter { .. } => {
                return FileRecord::list_from_json_lenient(text)
                    .map(|(records, damaged)| Answer::Subtree(records, damaged))
            }
            Read::VersionsDesc { .. }
            | Read::VersionsBelow(_)
            | Read::VersionsAfter { .. }
            | Read::History(_) => return VersionRecord::list_from_json(text).map(Answer::Versions),
            // Not JSON: entry keys joined with `\n`.
            Read::Listing(_) | Read::MountListing(_) => {
                return ListingEntry::parse_all(text).map(Answer::Listing)
            }
            _ => {}
        }
        let json = Json::parse(text)?;
        match read {
            Read::File(_) | Read::FileById(_) => match json {
                Json::Null => Some(Answer::File(None)),
                other => Some(
                    FileRecord::from_json(&other)
                        .map_or(Answer::DamagedFile, |r| Answer::File(Some(r))),
                ),
            },
            Read::Version(_) => match json {
                Json::Null => Some(Answer::Version(None)),
                other => VersionRecord::from_json(&other).map(|r| Answer::Version(Some(r))),
            },
            Read::VersionsWithContent(_) | Read::VersionIds => match json {
                Json::Array(items) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .map(Answer::Ids),
                _ => None,
            },
            Read::Policy { .. } => match json.get("decision").and_then(Json::as_str) {
                Some("allow") => Some(Answer::Policy(Decision::Allow)),
                Some("refuse") => {
                    let reason = json.get("reason").and_then(Json::as_str);
                    let reason = reason.unwrap_or("the host's write policy refused it");
                    Some(Answer::Policy(Decision::Refuse(reason.to_string())))
                }
                _ => None,
            },
            Read::NewestVersionId => match json {
                Json::Null => Some(Answer::VersionId(None)),
                Json::Str(s) => Some(Answer::VersionId(Some(s.text))),
                _ => None,
            },
            Read::Clock => match json {
                Json::Null => Some(Answer::Clock(None)),
                // A record that cannot be read is as good as none: the first open's rule.
                other => Some(Answer::Clock(StoreClock::from_json(&other))),
            },
            Read::Subtree(_)
            | Read::FilesAfter { .. }
            | Read::VersionsDesc { .. }
            | Read::VersionsBelow(_)
            | Read::VersionsAfter { .. }
            | Read::History(_)
            | Read::Listing(_)
            | Read::MountListing(_) => None,
            Read::HasChildren(_) | Read::Archived => json.as_bool().map(Answer::Flag),
            Read::Count => json.as_integer().map(|n| Answer::Count(n.max(0) as u64)),
            Read::Content(_) | Read::HeadContent(_) | Read::Contents(_) => None,
        }
    }

    /// The answer to a `Contents` read as the adapter gives it in one call: the values' bytes
    /// one after another, `lengths[i]` how many are value `i`'s, `present[i]` 0 where value `i`
    /// is missing (its length is then 0). `None` when the lengths run past the bytes.
    pub fn contents_from_parts(bytes: &[u8], lengths: &[u32], present: &[u8]) -> Option<Answer> {
        let mut values = Vec::with_capacity(lengths.len());
        let mut offset = 0usize;
        for (i, &length) in lengths.iter().enumerate() {
            let end = offset.checked_add(length as usize)?;
            let value = bytes.get(offset..end)?;
            offset = end;
            values.push((present.get(i).copied().unwrap_or(0) != 0).then(|| value.to_vec()));
        }
        Some(Answer::Contents(values))
    }
}

impl Outcome {
    /// `{"content":…,"isError":…,"code"?:…,"writes":[…],"value"?:…}`; a `putContent` write
    /// carries `"bytes": n`, its own place in `writes` (see `content_write`), and `"size"`,
    /// how many bytes it puts.
    pub fn to_json(&self) -> String {
        self.json(true, true)
    }

    /// `to_json` with `"content":null` in place of a text: the text crosses to JS on its own
    /// (`text_content`), with no escaping on the way out and no parsing on the way in.
    pub fn to_json_without_text(&self) -> String {
        self.json(false, true)
    }

    /// `to_json_without_text` with `"writeCount": n` in place of `"writes"`: the host takes
    /// the writes a slice at a time (`writes_json`), so no one call turns them all to JSON.
    pub fn to_json_head(&self) -> String {
        self.json(false, false)
    }

    /// The writes from number `from` on, as the JSON list `to_json` has them: at most
    /// `max_writes`, and none after the one that brings their content to `max_bytes` or
    /// more; one at least, while any are left (an empty list past the end).
    pub fn writes_json(&self, from: usize, max_writes: usize, max_bytes: usize) -> String {
        let mut out = String::from("[");
        let mut bytes = 0usize;
        for (i, write) in self.writes.iter().enumerate().skip(from) {
            if i > from {
                if i - from >= max_writes || bytes >= max_bytes {
                    break;
                }
                out.push(',');
            }
            if let Write::PutContent { bytes: b, .. } = write {
                bytes = bytes.saturating_add(b.len());
            }
            write_json(&mut out, i, write);
        }
        out.push(']');
        out
    }

    fn json(&self, with_text: bool, with_writes: bool) -> String {
        let mut out = String::from("{\"content\":");
        match &self.content {
            Content::Text(t) if with_text => out.push_str(&quote(t)),
            Content::Text(_) => out.push_str("null"),
            Content::Image { media_type, data } => out.push_str(&fill(
                "[{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":{},\"data\":{}}}]",
                &[&quote(media_type), &quote(data)],
            )),
        }
        out.push_str(if self.is_error() {
            ",\"isError\":true"
        } else {
            ",\"isError\":false"
        });
        if let Some(code) = self.error {
            out.push_str(",\"code\":");
            write_str(&mut out, code.as_str());
        }
        if with_writes {
            out.push_str(",\"writes\":[");
            for (i, write) in self.writes.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(&mut out, i, write);
            }
            out.push(']');
        } else {
            out.push_str(",\"writeCount\":");
            push_decimal(&mut out, self.writes.len() as u64, 0);
        }
        if !self.touched.is_empty() {
            out.push_str(",\"touched\":[");
            for (i, key) in self.touched.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(&mut out, key);
            }
            out.push(']');
        }
        if let Some(value) = &self.value {
            out.push_str(",\"value\":");
            out.push_str(value);
        }
        out.push('}');
        out
    }
}

/// Write number `i` of an outcome as JSON; a `putContent` names its bytes by `i`.
fn write_json(out: &mut String, i: usize, write: &Write) {
    match write {
        Write::PutFile {
            record,
            previous_size,
        } => {
            out.push_str("{\"op\":\"putFile\",\"record\":");
            record.write_json(out);
            out.push_str(",\"previousSize\":");
            match previous_size {
                Some(size) => push_decimal(out, *size, 0),
                None => out.push_str("null"),
            }
            out.push('}');
        }
        Write::DeleteFile { path, size, tree } => {
            out.push_str("{\"op\":\"deleteFile\",\"path\":");
            write_str(out, path);
            out.push_str(",\"size\":");
            push_decimal(out, *size, 0);
            if let Some(tree) = tree {
                out.push_str(",\"tree\":");
                write_str(out, tree);
            }
            out.push('}');
        }
        Write::PutContent { id, bytes } => {
            out.push_str("{\"op\":\"putContent\",\"id\":");
            write_str(out, id);
            out.push_str(",\"bytes\":");
            push_decimal(out, i as u64, 0);
            out.push_str(",\"size\":");
            push_decimal(out, bytes.len() as u64, 0);
            out.push('}');
        }
        Write::DeleteContent(id) => {
            out.push_str("{\"op\":\"deleteContent\",\"id\":");
            write_str(out, id);
            out.push('}');
        }
        Write::PutVersion(record) => {
            out.push_str("{\"op\":\"putVersion\",\"record\":");
            record.write_json(out);
            out.push('}');
        }
        Write::KeepVersion(record) => {
            out.push_str("{\"op\":\"keepVersion\",\"record\":");
            record.write_json(out);
            out.push('}');
        }
        Write::DeleteVersion(id) => {
            out.push_str("{\"op\":\"deleteVersion\",\"id\":");
            write_str(out, id);
            out.push('}');
        }
        Write::PutClock(clock) => {
            out.push_str("{\"op\":\"putClock\",\"clock\":");
            clock.write_json(out);
            out.push('}');
        }
    }
}

impl Detail {
    /// The detail as the JSON object of a typed error's `detail`.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let mut object = ObjectWriter::new(&mut out);
        match self {
            Detail::Conflict { memory_id, path } => object
                .opt_str("conflicting_memory_id", memory_id.as_deref())
                .str("conflicting_path", path),
            Detail::Changed { current, expected } => object
                .str("current_content_sha256", current)
                .str("expected_content_sha256", expected),
            Detail::Head { memory_id } => object.str("memory_id", memory_id),
        };
        object.finish();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Answer, Decision, Read};
    use crate::protocol::{Outcome, Write, WriteKind};

    #[test]
    fn a_content_writes_bytes_are_found_at_the_place_its_json_names() {
        let put = |id: &str, bytes: &[u8]| Write::PutContent {
            id: id.into(),
            bytes: bytes.into(),
        };
        let writes = vec![
            Write::DeleteContent("gone".into()),
            put("a", b"one"),
            Write::DeleteContent("gone too".into()),
            put("b", b"four"),
        ];
        let outcome = Outcome::value("{}".into(), writes);
        let json = outcome.to_json();
        assert!(
            json.contains(r#"{"op":"putContent","id":"a","bytes":1,"size":3}"#),
            "{json}"
        );
        assert!(
            json.contains(r#"{"op":"putContent","id":"b","bytes":3,"size":4}"#),
            "{json}"
        );
        assert_eq!(outcome.content_write(1), Some(&b"one"[..]));
        assert_eq!(outcome.content_write(3), Some(&b"four"[..]));
        assert_eq!(outcome.content_write(0), None);
        assert_eq!(outcome.content_write(9), None);
    }

    #[test]
    fn the_writes_come_a_slice_at_a_time_each_named_by_its_place_in_the_whole() {
        let put = |id: &str, n: usize| Write::PutContent {
            id: id.into(),
            bytes: vec![b'x'; n].into(),
        };
        let writes = vec![
            Write::DeleteContent("0".into()),
            put("1", 10),
            put("2", 10),
            Write::DeleteContent("3".into()),
            put("4", 100),
        ];
        let outcome = Outcome::value("{}".into(), writes);
        assert!(outcome.to_json_head().contains(r#""writeCount":5"#));
        assert!(!outcome.to_json_head().contains("\"writes\""));
        // At most two writes.
        assert_eq!(
            outcome.writes_json(0, 2, 1000),
            r#"[{"op":"deleteContent","id":"0"},{"op":"putContent","id":"1","bytes":1,"size":10}]"#
        );
        // None after the one that brings the content to the bytes asked for.
        assert_eq!(
            outcome.writes_json(1, 10, 15),
            r#"[{"op":"putContent","id":"1","bytes":1,"size":10},{"op":"putContent","id":"2","bytes":2,"size":10}]"#
        );
        // One at least, however big.
        assert_eq!(
            outcome.writes_json(4, 0, 0),
            r#"[{"op":"putContent","id":"4","bytes":4,"size":100}]"#
        );
        assert_eq!(outcome.writes_json(5, 10, 10), "[]");
        assert_eq!(outcome.writes_json(usize::MAX, 10, 10), "[]");
        // The slices, joined, are the whole list.
        let mut from = 0;
        let mut joined = Vec::new();
        while from < 5 {
            let slice = outcome.writes_json(from, 2, 15);
            let items = slice.matches("\"op\"").count();
            assert!(items >= 1);
            joined.push(
                slice
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_string(),
            );
            from += items;
        }
        assert!(outcome
            .to_json()
            .contains(&format!("\"writes\":[{}]", joined.join(","))));
    }

    #[test]
    fn bytes_answer_a_content_read_and_rewrite_a_policy_read() {
        let policy = Read::Policy {
            path: "/memories/a.md".into(),
            source: "tool".into(),
            operation: WriteKind::Create,
            old_path: None,
            bytes: Some(b"x".to_vec()),
        };
        assert_eq!(
            Answer::from_bytes(&policy, Some(b"y".to_vec())),
            Answer::Policy(Decision::Rewrite(b"y".to_vec()))
        );
        let content = Read::Content("/a\0memver_1".into());
        assert_eq!(
            Answer::from_bytes(&content, Some(b"y".to_vec())),
            Answer::Content(Some(b"y".to_vec()))
        );
        assert_eq!(Answer::from_bytes(&content, None), Answer::Content(None));
    }

    #[test]
    fn a_reads_kind_is_the_kind_its_json_names() {
        let reads = [
            Read::File("/a".into()),
            Read::Subtree("/a".into()),
            Read::HasChildren("/a".into()),
            Read::Count,
            Read::FilesAfter {
                after: None,
                limit: 3,
            },
            Read::Archived,
            Read::Content("k".into()),
            Read::Contents(vec!["k".into(), "l".into()]),
            Read::HeadContent("/a".into()),
            Read::FileById("mem_1".into()),
            Read::Version("memver_1".into()),
            Read::VersionsDesc {
                memory: None,
                below: None,
                limit: 1,
            },
            Read::VersionsBelow("memver_1".into()),
            Read::VersionsAfter {
                after: None,
                limit: 2,
            },
            Read::History("mem_1".into()),
            Read::VersionsWithContent("k".into()),
            Read::NewestVersionId,
            Read::Clock,
            Read::VersionIds,
            Read::Listing("/a".into()),
            Read::MountListing(1),
            Read::Policy {
                path: "/memories/a".into(),
                source: "tool".into(),
                operation: WriteKind::Create,
                old_path: None,
                bytes: None,
            },
        ];
        for read in reads {
            let json = read.to_json();
            let named = format!("\"kind\":\"{}\"", read.kind());
            assert!(json.contains(&named), "{json} does not name {named}");
        }
    }
}
