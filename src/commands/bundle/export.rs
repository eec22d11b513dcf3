//! `export`: a store's bundle (docs/TOOL.md#bundles), one rule set however it is driven.
//! `ExportCursor` walks the store in pages of reads, each page one read-only transaction, and
//! writes the bundle a batch of entries at a time; the one-call `export` is the same cursor run
//! to its end over one snapshot (one transaction, no limits), the streamed export (the
//! adapter's `exportBlob`) the cursor driven page by page, with the page given a turn between
//! batches. What is read next, what each entry is, what is left out and why, the envelope, and
//! whether the store changed under it are the cursor's alone.

use super::entries::{matches_record, write_memory_entry, write_version_entry};
use super::FORMAT;
use crate::format::json::{write_str, ObjectWriter};
use crate::format::listing::utf16_order;
use crate::format::render::{decimal, fill};
use crate::model::record::{sha256_hex, Change, FileRecord, VersionRecord};
use crate::protocol::{Answer, Outcome, Read, Snapshot, Stop};
use std::collections::{HashMap, HashSet};

/// An id above every version id, to read the whole history.
const ALL_VERSIONS: &str = "memver_~";

// Why an entry is left out (the bundle's `skipped`, docs/TOOL.md#damaged-records).
/// A memory or version whose bytes are not in storage.
const MISSING: &str = "its content is missing";
/// A stored record that cannot be read.
const UNREADABLE: &str = "its record cannot be read";
/// A memory or version whose bytes are not the ones its record names (changed outside the
/// package): an import would refuse it, and repair keeps the bytes as the memory's new text.
const CHANGED: &str = "its content does not match its content_sha256";
/// A version of a live memory left out: a bundle's history replays to its memories (an import
/// checks it), while a deleted memory's history, which ends in its deletion, comes along.
const LEFT_OUT: &str = "its memory was left out";

/// Bytes of content read per page (one read-only transaction) of the streamed export: a
/// transaction costs a round trip to the storage, so fewer and bigger pages are faster; but a
/// page of records is handed over in one callback (the browser takes its records in, all in one
/// task), so its size is also how long the page may wait. For 10,000 × 1 KB in Chromium
/// (`node bench/run.mjs --only stream`, docs/BENCHMARKS.md#streamed-export): 1 MiB, stalls of
/// 27–73 ms; 512 KiB, 11–77 ms on a loaded machine; 256 KiB halves that task for ~15% more time.
const CHUNK_BYTES: u64 = 256 * 1024;
/// Entries per page at most, whatever their size.
const CHUNK_ITEMS: usize = 1000;
/// Records in the first page of records. Later pages hold about CHUNK_BYTES by the sizes the
/// last page's records stated, so a page of big files stays small.
const FIRST_PAGE_ITEMS: usize = 32;
/// Bytes of content per `format` call: 192 KiB took 5–10 ms in Chromium, so ~96 KiB keeps a
/// call to a few ms on a busy machine too.
const BATCH_BYTES: u64 = 96 * 1024;
/// Entries per `format` call at most.
const BATCH_ITEMS: usize = 200;
/// How many times the streamed export starts again when the store changes under it.
const RETRIES: u32 = 3;
/// Version records per page of the history in the streamed export: the history in one answer
/// (10,000 versions: 3.5 MB of JSON, ~33 ms for the core to read, as long again for the
/// storage to hand over and the adapter to write) would hold the page for one long task; a page
/// of 1,000 takes a few ms. The entries wait until the history is whole (a version's rules
/// need its memory's last one, and the totals all of it), which costs a round trip a page.
const HISTORY_ITEMS: usize = 1000;

/// What the host does next with an `ExportCursor` (see its calling contract).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportStep {
    /// Run a page: a read-only transaction over `page_reads`, round after round.
    Read,
    /// Give the page a turn, then call `format` and keep its text.
    Format,
    /// Wait until the page under way has finished.
    Wait,
    /// The store changed under the export: drop every text so far; the cursor starts again.
    Restart,
    /// The store kept changing: the export fails with `failure`.
    Failed,
    /// Everything is written but the end: call `finish`.
    Done,
}

impl ExportStep {
    /// The step's name as the adapter reads it.
    pub fn as_str(self) -> &'static str {
        match self {
            ExportStep::Read => "read",
            ExportStep::Format => "format",
            ExportStep::Wait => "wait",
            ExportStep::Restart => "restart",
            ExportStep::Failed => "failed",
            ExportStep::Done => "done",
        }
    }
}

/// One entry of the bundle to be, in bundle order.
#[derive(Debug)]
enum Entry {
    Memory(FileRecord),
    Version(VersionRecord),
    /// A stored record that cannot be read, by its key.
    Unreadable(String),
}

impl Entry {
    /// The size its record states (what a page or batch counts).
    fn size(&self) -> u64 {
        match self {
            Entry::Memory(record) => record.size,
            Entry::Version(version) => version.size.unwrap_or(0),
            Entry::Unreadable(_) => 0,
        }
    }

    /// The content key it is written with: a redacted version, a deletion, a record that
    /// cannot be read have none.
    fn key(&self) -> Option<&str> {
        match self {
            Entry::Memory(record) => Some(&record.content),
            Entry::Version(version) if version.redacted_at.is_none() => version.content.as_deref(),
            Entry::Version(_) | Entry::Unreadable(_) => None,
        }
    }

    fn is_version(&self) -> bool {
        matches!(self, Entry::Version(_))
    }

    /// The key it sorts by among the records of a page.
    fn path(&self) -> &str {
        match self {
            Entry::Memory(record) => &record.path,
            Entry::Unreadable(key) => key,
            Entry::Version(version) => &version.id,
        }
    }
}

/// Entries whose contents are read, waiting to be formatted, each with its bytes: last first
/// (the next to format is popped from the end).
type Chunk = Vec<(Entry, Option<Vec<u8>>)>;

/// A page under way: the reads of its current round and their answers, and the chunks whose
/// contents it reads (with the index of their `Contents` read in the round).
#[derive(Debug, Default)]
struct Page {
    round: Vec<Read>,
    answers: Vec<Option<Answer>>,
    cut: Vec<(Vec<Entry>, Option<usize>)>,
}

/// One try of the export: what is read, what is left, what is written.
#[derive(Debug)]
struct Run {
    /// The store's newest version id when the first page read it (every change of a memory
    /// writes a version, so a page that reads another one saw the store changed).
    stamp: Option<Option<String>>,
    /// The first page was begun / answered (the totals are known).
    started: bool,
    listed: bool,
    total: u64,
    done: u64,
    reported: Option<u64>,
    /// The last key of the records read so far, and whether none are left.
    after: Option<String>,
    exhausted: bool,
    page_items: usize,
    /// The history, until the records are all read (then its entries follow theirs).
    versions: Vec<VersionRecord>,
    /// The history is read whole (or not asked for), and the last version id read so far.
    history_done: bool,
    history_after: Option<String>,
    /// The history's entries are listed (or there is none to list).
    queued: bool,
    /// What made the export fail, other than the store changing.
    broken: Option<String>,
    /// Entries listed, their contents not yet asked for.
    /// (Last first: the next to cut is popped from the end, see `queue`.)
    pending: Vec<Entry>,
    /// Entries read, not yet formatted, a chunk (one page's) at a time.
    /// (The next to format is the first.)
    chunks: Vec<Chunk>,
    page: Option<Page>,
    changed: bool,
    head_written: bool,
    wrote_memory: bool,
    wrote_version: bool,
    in_versions: bool,
    /// The memories written (their versions come along).
    exported: HashSet<String>,
    /// The content keys of the memories written, with the SHA-256 their bytes were found to
    /// have: a version naming one of them with that hash needs no second hashing.
    verified: HashMap<String, String>,
    /// Whether each memory's history ends in its deletion.
    ends_deleted: HashMap<String, bool>,
    /// The `skipped` list so far, without its closing bracket.
    skipped: String,
}

impl Run {
    fn new(include_versions: bool) -> Run {
        Run {
            stamp: None,
            started: false,
            listed: false,
            total: 0,
            done: 0,
            reported: None,
            after: None,
            exhausted: false,
            page_items: FIRST_PAGE_ITEMS,
            versions: Vec::new(),
            history_done: !include_versions,
            history_after: None,
            queued: !include_versions,
            broken: None,
            pending: Vec::new(),
            chunks: Vec::new(),
            page: None,
            changed: false,
            head_written: false,
            wrote_memory: false,
            wrote_version: false,
            in_versions: false,
            exported: HashSet::new(),
            verified: HashMap::new(),
            ends_deleted: HashMap::new(),
            skipped: String::new(),
        }
    }
}

/// A store's export in progress (docs/TOOL.md#bundles).
///
/// Calling contract, for a host that streams the bundle (the adapter's `exportBlob`):
/// 1. `step()` says what to do, until it says `Done`:
///    - `Read`: run a page: open a read-only transaction; issue every read of `page_reads()`
///      (one round, in any order), `page_supply` each answer, then `page_resume()`: false asks
///      for another round of `page_reads()` in the same transaction, true ends the page (or
///      run `session::task::Task::export_page`, the page as an ordinary task, which does
///      this). Do not await the page: ask `step()` again at once (the next page is read while
///      the last is formatted). At most one page is under way at a time.
///    - `Format`: give the page a turn (a yield), then append `format()`'s text to the bundle.
///    - `Wait`: wait until the page under way has ended.
///    - `Restart`: the store changed under the export; drop the text so far (the cursor has
///      started again, from its first page).
///    - `Failed`: the store kept changing (or answered what the walk cannot use); the export
///      fails with `failure()`.
/// 2. `finish()` gives the bundle's end. The text of every `format` and `finish`, in order, is
///    the bundle, byte for byte what the one-call `export` gives of the same store.
///
/// With `include_versions`, the history is read a page at a time (riding along with the pages
/// of records) and whole before the first entry is formatted: a version's rules need its
/// memory's last version, and the progress its total. `progress()` says, after any call,
/// whether a progress report is due and what it says. The cursor holds at most two pages of
/// contents at once (the one formatted, the one read).
#[derive(Debug)]
pub struct ExportCursor {
    include_versions: bool,
    /// The one-call export: one snapshot, so one page with every read, no limits, no stamp.
    whole: bool,
    attempt: u32,
    run: Run,
}

impl ExportCursor {
    /// The streamed export's cursor.
    pub fn streamed(include_versions: bool) -> ExportCursor {
        ExportCursor {
            include_versions,
            whole: false,
            attempt: 0,
            run: Run::new(include_versions),
        }
    }

    fn whole(include_versions: bool) -> ExportCursor {
        ExportCursor {
            whole: true,
            ..ExportCursor::streamed(include_versions)
        }
    }

    /// What to do next (see the calling contract); `Read` begins the page it asks for.
    pub fn step(&mut self) -> ExportStep {
        if self.run.broken.is_some() {
            return if self.run.page.is_some() {
                ExportStep::Wait
            } else {
                ExportStep::Failed
            };
        }
        if self.run.changed {
            if self.run.page.is_some() {
                return ExportStep::Wait;
            }
            self.attempt = self.attempt.saturating_add(1);
            if self.attempt >= RETRIES {
                return ExportStep::Failed;
            }
            self.run = Run::new(self.include_versions);
            return ExportStep::Restart;
        }
        let run = &self.run;
        let listing = !run.started || !run.exhausted || !run.pending.is_empty();
        let more = listing || !run.queued;
        // At most one page ahead of the one formatted; the history, until whole, regardless.
        if run.page.is_none() && (!run.history_done || (listing && run.chunks.len() <= 1)) {
            self.begin_page();
            return ExportStep::Read;
        }
        if !run.chunks.is_empty() && run.history_done {
            return ExportStep::Format;
        }
        if run.page.is_some() {
            return ExportStep::Wait;
        }
        if more {
            // Nothing under way and nothing to read or format, yet not done: a storage whose
            // answers left the walk nowhere to go (cannot happen with answers that fit).
            self.run.broken = Some("The export's reads ended before the store was read.".into());
            return ExportStep::Failed;
        }
        ExportStep::Done
    }

    /// Why the export failed (after `Failed`).
    pub fn failure(&self) -> String {
        if let Some(broken) = &self.run.broken {
            return broken.clone();
        }
        fill(
            "The store kept changing during the export ({} tries); export it when it is quiet.",
            &[&decimal(u64::from(RETRIES))],
        )
    }

    /// The reads of the page's current round (none when no page is under way).
    pub fn page_reads(&self) -> &[Read] {
        self.run.page.as_ref().map_or(&[], |p| p.round.as_slice())
    }

    /// Answers read `index` of the page's current round. Out-of-range indexes are ignored.
    pub fn page_supply(&mut self, index: usize, answer: Answer) {
        if let Some(slot) = self
            .run
            .page
            .as_mut()
            .and_then(|p| p.answers.get_mut(index))
        {
            *slot = Some(answer);
        }
    }

    fn begin_page(&mut self) {
        let include_versions = self.include_versions;
        let run = &mut self.run;
        let mut round = Vec::new();
        if !self.whole {
            round.push(Read::NewestVersionId);
        }
        let mut lists = true;
        // A page of the history only, while two chunks wait to be formatted.
        let entries = !run.started || run.chunks.len() <= 1;
        if !run.started {
            run.started = true;
            if self.whole {
                round.push(Read::Subtree(String::new()));
                if include_versions {
                    round.push(Read::VersionsBelow(ALL_VERSIONS.to_string()));
                }
            } else {
                round.push(Read::Count);
                round.push(Read::FilesAfter {
                    after: None,
                    limit: FIRST_PAGE_ITEMS,
                });
            }
        } else if !entries {
            lists = false;
        } else if run.pending.is_empty() && !run.exhausted {
            round.push(Read::FilesAfter {
                after: run.after.clone(),
                limit: run.page_items,
            });
        } else {
            lists = false;
        }
        if !self.whole && !run.history_done {
            round.push(Read::VersionsAfter {
                after: run.history_after.clone(),
                limit: HISTORY_ITEMS,
            });
        }
        let mut page = Page {
            round,
            ..Page::default()
        };
        if !lists && entries {
            self.cut_into(&mut page);
        }
        page.answers = page.round.iter().map(|_| None).collect();
        self.run.page = Some(page);
    }

    /// Cuts the page's chunk (the one-call export: every chunk) from the entries listed, and
    /// asks for its contents in the page's round.
    fn cut_into(&mut self, page: &mut Page) {
        let (items, bytes) = if self.whole {
            (usize::MAX, u64::MAX)
        } else {
            (CHUNK_ITEMS, CHUNK_BYTES)
        };
        loop {
            let chunk = cut(&mut self.run.pending, items, bytes);
            if chunk.is_empty() {
                break;
            }
            let keys: Vec<String> = chunk
                .iter()
                .filter_map(Entry::key)
                .map(str::to_string)
                .collect();
            let read = (!keys.is_empty()).then(|| {
                page.round.push(Read::Contents(keys));
                page.round.len() - 1
            });
            page.cut.push((chunk, read));
            if !self.whole {
                break;
            }
        }
    }

    /// Takes the page's round of answers: true when the page has ended, false when it asks
    /// for another round of `page_reads` in the same transaction.
    pub fn page_resume(&mut self) -> bool {
        let Some(mut page) = self.run.page.take() else {
            return true;
        };
        if page.answers.iter().any(Option::is_none) {
            self.run.page = Some(page);
            return false;
        }
        let reads = std::mem::take(&mut page.round);
        let answers = std::mem::take(&mut page.answers);
        let mut listed = false;
        // Each `Contents` answer, by its index in the round.
        let mut contents: Vec<Option<Vec<Option<Vec<u8>>>>> = reads.iter().map(|_| None).collect();
        for (i, (read, answer)) in reads.into_iter().zip(answers).enumerate() {
            let run = &mut self.run;
            match (read, answer) {
                (Read::NewestVersionId, Some(Answer::VersionId(id))) => match &run.stamp {
                    None => run.stamp = Some(id),
                    Some(stamp) if *stamp != id => run.changed = true,
                    Some(_) => {}
                },
                (Read::Count, Some(Answer::Count(n))) => run.total += n,
                (Read::VersionsBelow(_), Some(Answer::Versions(versions))) => {
                    run.total += versions.len() as u64;
                    run.versions = versions;
                    run.history_done = true;
                }
                (Read::VersionsAfter { limit, .. }, Some(Answer::Versions(versions))) => {
                    run.total += versions.len() as u64;
                    match versions.last() {
                        // Ids only grow: a page that does not get past the last one ends it.
                        Some(last) if run.history_after.as_ref().is_none_or(|a| *a < last.id) => {
                            run.history_after = Some(last.id.clone());
                        }
                        _ => run.history_done = true,
                    }
                    if versions.len() < limit {
                        run.history_done = true;
                    }
                    run.versions.extend(versions);
                }
                (Read::Subtree(_), Some(Answer::Subtree(records, damaged))) => {
                    run.total += (records.len() + damaged.len()) as u64;
                    let entries = in_key_order(records, damaged);
                    queue(&mut run.pending, entries);
                    run.exhausted = true;
                    listed = true;
                }
                (Read::FilesAfter { limit, .. }, Some(Answer::Subtree(records, damaged))) => {
                    take_page(run, records, damaged, limit);
                    listed = true;
                }
                (Read::Contents(_), Some(Answer::Contents(values))) => {
                    if let Some(slot) = contents.get_mut(i) {
                        *slot = Some(values);
                    }
                }
                _ => {}
            }
        }
        self.run.listed = true;
        self.queue_history();
        let run = &mut self.run;
        if run.changed {
            return true;
        }
        if listed && page.cut.is_empty() {
            self.cut_into(&mut page);
            if !page.round.is_empty() {
                page.answers = page.round.iter().map(|_| None).collect();
                self.run.page = Some(page);
                return false;
            }
        }
        for (entries, read) in page.cut {
            let mut values = read
                .and_then(|i| contents.get_mut(i).and_then(Option::take))
                .unwrap_or_default()
                .into_iter();
            let mut chunk: Chunk = entries
                .into_iter()
                .map(|entry| {
                    let bytes = match entry.key() {
                        Some(_) => values.next().flatten(),
                        None => None,
                    };
                    (entry, bytes)
                })
                .collect();
            chunk.reverse();
            self.run.chunks.push(chunk);
        }
        true
    }

    /// Runs the page under way over `snap`, the answers of its transaction so far: its rounds
    /// of `page_reads` in turn, each `page_supply`d from `snap` and `page_resume`d, until one
    /// is not all answered (`Stop::Need` asks for what is missing) or the page ends (`Ok`).
    fn run_page(&mut self, snap: &Snapshot) -> Result<(), Stop> {
        loop {
            let reads = self.page_reads().to_vec();
            snap.need(reads.clone())?;
            for (i, read) in reads.iter().enumerate() {
                if let Some(answer) = snap.answer_of(read) {
                    self.page_supply(i, answer);
                }
            }
            if self.page_resume() {
                return Ok(());
            }
        }
    }

    /// Once the records are all listed and the history read: the history's entries after
    /// theirs, oldest first.
    fn queue_history(&mut self) {
        let run = &mut self.run;
        if run.queued || !run.exhausted || !run.history_done {
            return;
        }
        run.queued = true;
        let mut entries = Vec::with_capacity(run.versions.len());
        for version in std::mem::take(&mut run.versions) {
            run.ends_deleted.insert(
                version.memory_id.clone(),
                version.operation == Change::Deleted,
            );
            entries.push(Entry::Version(version));
        }
        queue(&mut run.pending, entries);
    }

    /// The bundle's next text: the next batch of entries (about BATCH_BYTES of content; in the
    /// one-call export, a whole chunk), with the bundle's start before the first.
    pub fn format(&mut self) -> String {
        let (items, bytes) = if self.whole {
            (usize::MAX, u64::MAX)
        } else {
            (BATCH_ITEMS, BATCH_BYTES)
        };
        let mut out = String::new();
        self.write_head(&mut out);
        if self.run.chunks.is_empty() {
            return out;
        }
        let mut chunk = self.run.chunks.remove(0);
        let (mut n, mut size) = (0usize, 0u64);
        while n < items && (n == 0 || size < bytes) {
            let Some((entry, content)) = chunk.pop() else {
                break;
            };
            n += 1;
            size = size.saturating_add(entry.size());
            self.write_entry(&mut out, entry, content);
            self.run.done += 1;
        }
        if !chunk.is_empty() {
            self.run.chunks.insert(0, chunk);
        }
        out
    }

    /// The bundle's end: the lists closed, what was left out and why.
    pub fn finish(&mut self) -> String {
        let mut out = String::new();
        self.write_head(&mut out);
        let run = &mut self.run;
        if !run.in_versions {
            out.push(']');
            if self.include_versions {
                out.push_str(",\"versions\":[");
            }
        }
        if self.include_versions {
            out.push(']');
        }
        if !run.skipped.is_empty() {
            out.push_str(",\"skipped\":");
            out.push_str(&run.skipped);
            out.push(']');
        }
        out.push('}');
        // The store's count of its files was off (a damaged store): the end is where it ended.
        run.total = run.done;
        out
    }

    /// A progress report due now, `(done, total)` in entries: the first once the store is
    /// listed, then about every hundredth of the total, and the end.
    pub fn progress(&mut self) -> Option<(u64, u64)> {
        let run = &mut self.run;
        if !run.listed || !run.history_done {
            return None;
        }
        let (done, total) = (run.done, run.total.max(run.done));
        let step = (total / 100).max(1);
        let due = match run.reported {
            None => true,
            Some(last) => done != last && (done == total || done / step > last / step),
        };
        if !due {
            return None;
        }
        run.reported = Some(done);
        Some((done, total))
    }

    fn write_head(&mut self, out: &mut String) {
        if self.run.head_written {
            return;
        }
        self.run.head_written = true;
        out.push('{');
        write_str(out, "format");
        out.push(':');
        write_str(out, FORMAT);
        out.push_str(",\"format_version\":1,\"memories\":[");
    }

    fn skip(&mut self, what: &str, key: &str, reason: &str) {
        let skipped = &mut self.run.skipped;
        skipped.push(if skipped.is_empty() { '[' } else { ',' });
        ObjectWriter::new(skipped)
            .str(what, key)
            .str("reason", reason)
            .finish();
    }

    /// Whether a version's bytes are the text it names (its size and SHA-256): bytes changed
    /// outside the package under a version's key (which repair keeps as the memory's new text,
    /// not as this version's) would make a bundle that import refuses.
    fn holds_its_text(&self, version: &VersionRecord, content: Option<&[u8]>) -> bool {
        let (Some(bytes), Some(key), Some(sha)) = (content, &version.content, &version.sha256)
        else {
            return true;
        };
        if self.run.verified.get(key) == Some(sha) {
            return true;
        }
        version.size.is_none_or(|size| size == bytes.len() as u64) && sha256_hex(bytes) == *sha
    }

    fn write_entry(&mut self, out: &mut String, entry: Entry, content: Option<Vec<u8>>) {
        let has_key = entry.key().is_some();
        match entry {
            Entry::Unreadable(key) => self.skip("path", &key, UNREADABLE),
            Entry::Memory(record) => match content {
                None => self.skip("path", &record.path, MISSING),
                Some(bytes) if !matches_record(&record, &bytes) => {
                    self.skip("path", &record.path, CHANGED)
                }
                Some(bytes) => {
                    if self.run.wrote_memory {
                        out.push(',');
                    }
                    self.run.wrote_memory = true;
                    write_memory_entry(out, &record, &bytes, self.include_versions);
                    self.run.verified.insert(record.content, record.sha256);
                    self.run.exported.insert(record.id);
                }
            },
            Entry::Version(version) => {
                if !self.run.in_versions {
                    out.push_str("],\"versions\":[");
                    self.run.in_versions = true;
                }
                let memory = version.memory_id.as_str();
                if !self.run.exported.contains(memory)
                    && self.run.ends_deleted.get(memory) != Some(&true)
                {
                    self.skip("version_id", &version.id, LEFT_OUT);
                } else if has_key && content.is_none() {
                    self.skip("version_id", &version.id, MISSING);
                } else if !self.holds_its_text(&version, content.as_deref()) {
                    self.skip("version_id", &version.id, CHANGED);
                } else {
                    if self.run.wrote_version {
                        out.push(',');
                    }
                    self.run.wrote_version = true;
                    write_version_entry(out, &version, content.as_deref());
                }
            }
        }
    }
}

/// Entries from the front of `pending`, of one kind: at least one, at most `items`, about
/// `bytes` by the sizes their records state.
fn cut(pending: &mut Vec<Entry>, items: usize, bytes: u64) -> Vec<Entry> {
    let mut out = Vec::new();
    let Some(kind) = pending.last().map(Entry::is_version) else {
        return out;
    };
    let mut size = 0u64;
    while out.len() < items && (out.is_empty() || size < bytes) {
        match pending.last() {
            Some(entry) if entry.is_version() == kind => {}
            _ => break,
        }
        let Some(entry) = pending.pop() else {
            break;
        };
        size = size.saturating_add(entry.size());
        out.push(entry);
    }
    out
}

/// Puts `entries` after those `pending` holds (which it keeps last first).
fn queue(pending: &mut Vec<Entry>, mut entries: Vec<Entry>) {
    entries.reverse();
    entries.append(pending);
    *pending = entries;
}

/// Records and the keys of those that cannot be read, as entries in key order (UTF-16 code
/// units, as IndexedDB orders keys).
fn in_key_order(records: Vec<FileRecord>, damaged: Vec<String>) -> Vec<Entry> {
    let entries: Vec<Entry> = records
        .into_iter()
        .map(Entry::Memory)
        .chain(damaged.into_iter().map(Entry::Unreadable))
        .collect();
    let order = utf16_order(&entries.iter().map(Entry::path).collect::<Vec<_>>());
    let mut slots: Vec<Option<Entry>> = entries.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// A page of records (asked `limit`) taken in: its entries listed, where the next page starts
/// and how many records it asks for (about CHUNK_BYTES by this page's mean size).
fn take_page(run: &mut Run, records: Vec<FileRecord>, damaged: Vec<String>, limit: usize) {
    let found = records.len() + damaged.len();
    let bytes: u64 = records.iter().map(|r| r.size).sum();
    let entries = in_key_order(records, damaged);
    if let Some(last) = entries.last().map(Entry::path) {
        // A page that does not get past the last one (a record without a readable key last)
        // ends the walk rather than reading it again.
        let ahead = run
            .after
            .as_deref()
            .is_none_or(|after| after.encode_utf16().lt(last.encode_utf16()));
        if ahead {
            run.after = Some(last.to_string());
        } else {
            run.exhausted = true;
        }
    }
    if found < limit {
        run.exhausted = true;
    }
    let mean = if found > 0 {
        (bytes as f64 / found as f64).max(1.0)
    } else {
        1.0
    };
    run.page_items = ((CHUNK_BYTES as f64 / mean).floor() as usize).clamp(1, CHUNK_ITEMS);
    queue(&mut run.pending, entries);
}

/// `export({ include_versions })`: every memory with its content, in path order; with
/// `include_versions`, the whole retained history too, oldest first. A damaged store still
/// exports what can be read (docs/TOOL.md#damaged-records), and the bundle says what it left
/// out under `skipped`. The cursor of the streamed export, run to its end over this snapshot.
pub(crate) fn export(include_versions: bool, snap: &Snapshot) -> Result<Outcome, Stop> {
    let mut cursor = ExportCursor::whole(include_versions);
    let mut out = String::new();
    loop {
        match cursor.step() {
            ExportStep::Read => cursor.run_page(snap)?,
            ExportStep::Format => out.push_str(&cursor.format()),
            // One snapshot: nothing is under way between calls, and nothing changes.
            ExportStep::Wait | ExportStep::Restart | ExportStep::Failed | ExportStep::Done => break,
        }
    }
    out.push_str(&cursor.finish());
    Ok(Outcome::value(out, vec![]))
}
