//! A bundle's entries, each written from its stored record and bytes: the one writer of a
//! memory and of a version, whichever export drives it (docs/TOOL.md#bundles).

use crate::format::json::ObjectWriter;
use crate::model::record::{write_content_members, FileRecord, VersionRecord};
use crate::model::time::rfc3339;

/// Whether `bytes` are the content `record` names: its size and its SHA-256.
pub(super) fn matches_record(record: &FileRecord, bytes: &[u8]) -> bool {
    record.size == bytes.len() as u64 && crate::model::record::sha256_hex(bytes) == record.sha256
}

/// One memory of a bundle, as `export` writes it.
pub(super) fn write_memory_entry(
    out: &mut String,
    record: &FileRecord,
    bytes: &[u8],
    include_versions: bool,
) {
    let mut item = ObjectWriter::new(out);
    item.str("id", &record.id).str("path", &record.path);
    write_content_members(&mut item, bytes);
    item.str("content_sha256", &record.sha256)
        .int("content_size_bytes", record.size as i64)
        .str("created_at", &rfc3339(record.created_at))
        .str("updated_at", &rfc3339(record.updated_at))
        .str("last_accessed_at", &rfc3339(record.last_used()));
    if include_versions {
        item.opt_str("memory_version_id", record.version.as_deref());
    }
    item.finish();
}

/// One version of a bundle's history, with its content when it has any.
pub(super) fn write_version_entry(
    out: &mut String,
    version: &VersionRecord,
    content: Option<&[u8]>,
) {
    let mut item = ObjectWriter::new(out);
    item.str("id", &version.id)
        .str("memory_id", &version.memory_id)
        .str("operation", version.operation.as_str())
        .opt_str("path", version.path.as_deref());
    match content {
        Some(bytes) => write_content_members(&mut item, bytes),
        None => {
            item.raw("content", "null");
        }
    }
    item.opt_str("content_sha256", version.sha256.as_deref())
        .opt_int("content_size_bytes", version.size.map(|s| s as i64))
        .str("created_at", &rfc3339(version.created_at))
        .raw("created_by", &version.created_by)
        .opt_str("redacted_at", version.redacted_at.map(rfc3339).as_deref())
        .finish();
}
