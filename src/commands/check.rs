//! `check()` and `repair()` (docs/TOOL.md#damaged-records): what in a store cannot be read —
//! a file record that is malformed, a memory whose content is missing — found without
//! reading any content, and with `repair`, taken out: a malformed record is removed (its
//! listing key with it), a memory without content is deleted as a version, so the history
//! says what happened.

use super::history::{clock_read, History};
use super::rules::{refuse_if_read_only, Voice};
use crate::commands::Context;
use crate::format::json::ObjectWriter;
use crate::format::listing::sorted_by_utf16;
use crate::format::sort::sort_strs;
use crate::protocol::{Outcome, Read, Snapshot, Stop, Write};
use std::collections::HashSet;

pub(super) fn run(repair: bool, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    if repair {
        refuse_if_read_only(cx, snap, Voice::Host, "repair the store")?;
    }
    let mut reads = vec![
        Read::Subtree(String::new()),
        Read::Listing(String::new()),
        Read::ContentKeys,
    ];
    if repair {
        reads.push(clock_read());
    }
    snap.need(reads)?;
    let stored: HashSet<&str> = snap
        .ids(&Read::ContentKeys)
        .iter()
        .map(String::as_str)
        .collect();
    let records = sorted_by_utf16(snap.subtree(""), |r| r.path.as_str());
    let mut damaged_records: Vec<&str> =
        snap.damaged_below("").iter().map(String::as_str).collect();
    sort_strs(&mut damaged_records);
    let missing: Vec<_> = records
        .iter()
        .filter(|r| !stored.contains(r.content.as_str()))
        .collect();

    let mut out = String::from("{\"type\":\"store_check\",\"files\":");
    out.push_str(&(records.len() + damaged_records.len()).to_string());
    out.push_str(",\"repaired\":");
    out.push_str(if repair { "true" } else { "false" });
    out.push_str(",\"damaged\":[");
    let mut first = true;
    let mut item = |out: &mut String, path: &str, problem: &str, id: Option<&str>| {
        if !first {
            out.push(',');
        }
        first = false;
        ObjectWriter::new(out)
            .str("path", path)
            .str("problem", problem)
            .opt_str("memory_id", id)
            .finish();
    };
    for key in &damaged_records {
        item(&mut out, key, "record", None);
    }
    for record in &missing {
        item(&mut out, &record.path, "content", Some(&record.id));
    }
    out.push_str("]}");
    if !repair || (damaged_records.is_empty() && missing.is_empty()) {
        return Ok(Outcome::value(out, vec![]));
    }
    let mut history = History::new(cx, snap);
    for key in damaged_records {
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
    for record in missing {
        history.delete(record);
    }
    Ok(Outcome::value(out, history.finish(snap, Voice::Host)?))
}
