//! `check()` and `repair()` (docs/TOOL.md#damaged-records): what in a store cannot be trusted —
//! a file record that is malformed, a memory whose content is missing, a content whose bytes
//! no longer match the record's `sha256` — found a page of records at a time, and with
//! `repair`, mended in that page's transaction, keeping every text that can still be read:
//! a malformed record is removed (its listing key with it), a memory without content is
//! deleted as a version (there is no text to keep), and a content that was changed outside
//! the package is kept as it is, recorded as a new version whose hash is its own. Each
//! damaged item says what repair did (`action`), so a report never hides a change.

use super::history::{clock_read, Bytes, History};
use super::rules::{refuse_if_read_only, Voice};
use crate::commands::Context;
use crate::format::json::{write_str, ObjectWriter};
use crate::format::sort::sort_strs;
use crate::model::record::{sha256_hex, FileRecord};
use crate::protocol::{Outcome, Read, Snapshot, Stop, Write};

/// Records read per page.
const PAGE_RECORDS: usize = 256;
/// Content read per page, at most (a page holds at least one record whatever its size): the
/// bytes the core holds at once while it checks their hashes.
const PAGE_BYTES: u64 = 4 * 1024 * 1024;

/// One damaged item of a page.
enum Found<'s> {
    Record(&'s str),
    Missing(&'s FileRecord),
    Changed(&'s FileRecord, &'s [u8]),
}

/// One page of `check` (or `repair`), after the record at store key `after` (`None`: from the
/// first). The value is the page's report with `next`, the key to go on after, or `null`.
pub(super) fn run(
    repair: bool,
    after: Option<&str>,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    if repair {
        refuse_if_read_only(cx, snap, Voice::Host, "repair the store")?;
    }
    let page = Read::FilesAfter {
        after: after.map(str::to_string),
        limit: PAGE_RECORDS,
    };
    let mut first_reads = vec![page.clone()];
    if repair {
        first_reads.push(clock_read());
    }
    snap.need(first_reads)?;
    let (records, damaged_keys) = snap.files_after(&page);
    // The records whose contents fit this page's bytes, in key order.
    let mut budget = 0u64;
    let mut taken = 0;
    for record in records {
        if taken > 0 && budget.saturating_add(record.size) > PAGE_BYTES {
            break;
        }
        budget = budget.saturating_add(record.size);
        taken += 1;
    }
    let checked = records.get(..taken).unwrap_or(records);
    let full_page = records.len() + damaged_keys.len() >= PAGE_RECORDS;
    let last_checked = checked.last().map(|r| r.path.as_str());
    // A malformed record counts on the page that read it: those after the last checked one
    // wait for the next page, unless this page read the end of the store.
    let mut damaged_records: Vec<&str> = damaged_keys
        .iter()
        .map(String::as_str)
        .filter(|k| taken == records.len() || last_checked.is_some_and(|last| *k <= last))
        .collect();
    sort_strs(&mut damaged_records);
    let mut reads: Vec<Read> = checked
        .iter()
        .map(|r| Read::Content(r.content.clone()))
        .collect();
    if repair && !damaged_records.is_empty() {
        // The sizes the listing knows, so a removed record's listing key goes with it.
        reads.push(Read::Listing(String::new()));
    }
    snap.need(reads)?;
    let mut found: Vec<Found<'_>> = damaged_records.iter().map(|k| Found::Record(k)).collect();
    for record in checked {
        match snap.content(&record.content) {
            None => found.push(Found::Missing(record)),
            Some(bytes) => {
                if bytes.len() as u64 != record.size || sha256_hex(bytes) != record.sha256 {
                    found.push(Found::Changed(record, bytes));
                }
            }
        }
    }
    let next = if taken < records.len() {
        last_checked
    } else if full_page {
        records
            .last()
            .map(|r| r.path.as_str())
            .into_iter()
            .chain(damaged_keys.iter().map(String::as_str))
            .max()
    } else {
        None
    };

    let mut out = String::from("{\"type\":\"store_check\",\"files\":");
    out.push_str(&(checked.len() + damaged_records.len()).to_string());
    out.push_str(",\"repaired\":");
    out.push_str(if repair { "true" } else { "false" });
    out.push_str(",\"damaged\":[");
    for (i, item) in found.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let (path, problem, id, action) = match item {
            Found::Record(key) => (*key, "record", None, "removed"),
            Found::Missing(r) => (r.path.as_str(), "content", Some(r.id.as_str()), "deleted"),
            Found::Changed(r, _) => (r.path.as_str(), "sha256", Some(r.id.as_str()), "kept"),
        };
        let mut object = ObjectWriter::new(&mut out);
        object
            .str("path", path)
            .str("problem", problem)
            .opt_str("memory_id", id);
        if repair {
            object.str("action", action);
        }
        object.finish();
    }
    out.push_str("],\"next\":");
    match next {
        Some(key) => write_str(&mut out, key),
        None => out.push_str("null"),
    }
    out.push('}');
    if !repair || found.is_empty() {
        return Ok(Outcome::value(out, vec![]));
    }
    let mut history = History::new(cx, snap);
    for item in found {
        match item {
            Found::Record(key) => {
                // Its size as the listing knows it, so the listing key goes with it.
                let size = snap
                    .listing("")
                    .iter()
                    .find(|e| e.path == key)
                    .map_or(0, |e| e.size);
                history.push(Write::DeleteFile {
                    path: key.to_string(),
                    size,
                    tree: None,
                });
            }
            Found::Missing(record) => history.delete(record),
            // The text as it is now is the text there is: kept, as a version of its own (under
            // a key of its own). The bytes under the old key are not the text the versions that
            // name it say (their size and hash are the lost text's): they go, so those versions
            // read as what they are, versions whose content is missing (an export leaves them
            // out, a restore of one is refused), never as a text they do not hold.
            Found::Changed(record, bytes) => {
                let new = history.modify(record, &record.path, Bytes::New(bytes));
                if new.content != record.content {
                    history.push(Write::DeleteContent(record.content.clone()));
                }
            }
        }
    }
    Ok(Outcome::value(out, history.finish(snap, Voice::Host)?))
}
