//! The streamed export's cursor (docs/TOOL.md#bundles), driven as the JS adapter drives it (a
//! page read while the last is formatted, or each page read at once), gives exactly the text of
//! the one-call `export`, which is the same cursor run over one snapshot: one rule set, one
//! format. It reads the store in pages of about 256 KiB, starts again when the store changes
//! under it, and gives up after three tries.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code, unreachable_pub)]
mod targets;

use memory_tool_wasm::{
    Answer, Config, ExportCursor, ExportStep, Json, MemStore, Operation, Read, Target, Task,
};
use std::cell::RefCell;
use std::rc::Rc;

fn store() -> MemStore {
    let mut store = MemStore::new(Config::default());
    for input in [
        r#"{"command":"create","path":"/memories/b.md","file_text":"bee\n"}"#,
        r#"{"command":"create","path":"/memories/a/é.md","file_text":"accent \"quoted\" \\ tab\t"}"#,
        r#"{"command":"str_replace","path":"/memories/b.md","old_str":"bee","new_str":"B"}"#,
        r#"{"command":"create","path":"/memories/z.md","file_text":"gone"}"#,
        r#"{"command":"delete","path":"/memories/z.md"}"#,
        // Above the BMP and in it: UTF-16 order differs from byte order.
        r#"{"command":"create","path":"/memories/\ud83d\ude00.md","file_text":"smile"}"#,
        r#"{"command":"create","path":"/memories/\uff5e.md","file_text":"tilde"}"#,
    ] {
        assert!(!store.execute(input).is_error(), "{input}");
    }
    let png = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00];
    assert!(!store
        .run(Operation::host_write("/memories/img.png", png.to_vec()))
        .is_error());
    store
}

/// How a page is read: as soon as it is asked for, or (as the adapter does) once the cursor
/// waits for it, after the formatting of the page before.
#[derive(Clone, Copy, Debug)]
enum Order {
    AtOnce,
    Overlapped,
}

/// What a run of the cursor came to.
#[derive(Debug, Default)]
struct Run {
    text: String,
    pages: usize,
    formats: usize,
    restarts: usize,
    failed: bool,
    /// The reads of each page, by kind, round after round.
    rounds: Vec<Vec<Vec<&'static str>>>,
    reports: Vec<(u64, u64)>,
}

/// The harness keeps its files in byte order; the adapter's storages (and IndexedDB) in UTF-16
/// order, which is the order a page comes in.
fn sorted(answer: Answer, read: &Read) -> Answer {
    match (answer, read) {
        (Answer::Subtree(mut records, damaged), Read::FilesAfter { after, limit }) => {
            records = all_sorted(records);
            records.retain(|r| {
                after
                    .as_ref()
                    .is_none_or(|a| a.encode_utf16().lt(r.path.encode_utf16()))
            });
            records.truncate(*limit);
            Answer::Subtree(records, damaged)
        }
        (answer, _) => answer,
    }
}

fn all_sorted(mut records: Vec<memory_tool_wasm::FileRecord>) -> Vec<memory_tool_wasm::FileRecord> {
    records.sort_by(|a, b| a.path.encode_utf16().cmp(b.path.encode_utf16()));
    records
}

/// A `MemStore` that answers `FilesAfter` over every record, not only the first `limit` in
/// byte order.
fn paged(store: &MemStore, read: &Read) -> Answer {
    match read {
        Read::FilesAfter { .. } => {
            let all = Read::Subtree(String::new());
            sorted(store.answer(&all), read)
        }
        _ => store.answer(read),
    }
}

fn drive(
    store: &mut MemStore,
    include_versions: bool,
    order: Order,
    between: &mut dyn FnMut(&mut MemStore),
) -> Run {
    let mut cursor = ExportCursor::streamed(include_versions);
    let mut run = Run::default();
    let mut under_way = false;
    for _ in 0..100_000 {
        let step = cursor.step();
        match step {
            ExportStep::Read => {
                run.pages += 1;
                match order {
                    Order::AtOnce => read_page_paged(&mut cursor, store, between, &mut run),
                    Order::Overlapped => under_way = true,
                }
            }
            ExportStep::Format => {
                run.formats += 1;
                run.text.push_str(&cursor.format());
            }
            ExportStep::Wait => {
                assert!(under_way, "the cursor waits with no page under way");
                under_way = false;
                read_page_paged(&mut cursor, store, between, &mut run);
            }
            ExportStep::Restart => {
                run.restarts += 1;
                run.text.clear();
            }
            ExportStep::Failed => {
                run.failed = true;
                return run;
            }
            ExportStep::Done => {
                run.text.push_str(&cursor.finish());
                if let Some(report) = cursor.progress() {
                    run.reports.push(report);
                }
                return run;
            }
        }
        if let Some(report) = cursor.progress() {
            run.reports.push(report);
        }
    }
    panic!("the export did not end");
}

fn read_page_paged(
    cursor: &mut ExportCursor,
    store: &mut MemStore,
    between: &mut dyn FnMut(&mut MemStore),
    run: &mut Run,
) {
    between(store);
    let mut rounds = Vec::new();
    loop {
        let reads = cursor.page_reads().to_vec();
        rounds.push(reads.iter().map(Read::kind).collect());
        for (i, read) in reads.iter().enumerate() {
            cursor.page_supply(i, paged(store, read));
        }
        if cursor.page_resume() {
            break;
        }
    }
    run.rounds.push(rounds);
}

fn export(store: &mut MemStore, include_versions: bool) -> String {
    let call = format!(r#"{{"call":"export","include_versions":{include_versions}}}"#);
    let outcome = store.run(Operation::host(&call));
    assert!(!outcome.is_error(), "{}", outcome.text_content());
    outcome.value.unwrap_or_default()
}

fn many(n: usize, size: usize) -> MemStore {
    let mut store = MemStore::new(Config::default());
    for i in 0..n {
        let path = format!("/memories/d/n{i:04}.md");
        let outcome = store.run(Operation::host_write(
            &path,
            (i % 10).to_string().repeat(size).into_bytes(),
        ));
        assert!(!outcome.is_error(), "{}", outcome.text_content());
    }
    store
}

#[test]
fn the_streamed_export_is_the_export_however_its_pages_are_read() {
    for mut store in [store(), targets::seeded_history_store(), many(700, 1000)] {
        for include_versions in [false, true] {
            let whole = export(&mut store, include_versions);
            for order in [Order::AtOnce, Order::Overlapped] {
                let run = drive(&mut store, include_versions, order, &mut |_| {});
                assert_eq!(
                    run.text, whole,
                    "include_versions: {include_versions}, {order:?}"
                );
                assert_eq!(run.restarts, 0);
                let total = run.reports.last().map(|r| r.1);
                assert_eq!(run.reports.first().map(|r| r.0), Some(0));
                assert_eq!(run.reports.last().map(|r| r.0), total);
            }
        }
    }
}

/// The cursor driven as the adapter's `exportBlob` drives it: each page an ordinary task
/// (`Task::export_page`), run as the driver runs any task. Its text and the reads of its pages.
fn drive_as_tasks(
    store: &MemStore,
    include_versions: bool,
) -> (String, Vec<Vec<Vec<&'static str>>>) {
    let cursor = Rc::new(RefCell::new(ExportCursor::streamed(include_versions)));
    let mut text = String::new();
    let mut pages = Vec::new();
    for _ in 0..100_000 {
        let step = cursor.borrow_mut().step();
        match step {
            ExportStep::Read => {
                let mut task = Task::export_page(Rc::clone(&cursor));
                assert!(!task.writes());
                assert_eq!(task.target(), Target::Mount(0));
                assert_eq!(task.read_scope(), None);
                let mut rounds = Vec::new();
                // A page takes two rounds at most (its records, then their contents).
                for _ in 0..2 {
                    if task.outcome().is_some() {
                        break;
                    }
                    let reads = task.reads().to_vec();
                    rounds.push(reads.iter().map(Read::kind).collect());
                    for (i, read) in reads.iter().enumerate() {
                        task.supply(i, paged(store, read));
                    }
                    task.resume();
                }
                let outcome = task.take_outcome();
                assert!(outcome.as_ref().is_some_and(|o| !o.is_error()
                    && o.writes.is_empty()
                    && o.text_content().is_empty()));
                pages.push(rounds);
            }
            ExportStep::Format => text.push_str(&cursor.borrow_mut().format()),
            ExportStep::Done => {
                text.push_str(&cursor.borrow_mut().finish());
                return (text, pages);
            }
            other => panic!("{other:?} from a store that does not change"),
        }
    }
    panic!("the export did not end");
}

#[test]
fn a_page_run_as_a_task_reads_and_writes_what_the_cursor_does() {
    for mut store in [store(), targets::seeded_history_store(), many(700, 1000)] {
        for include_versions in [false, true] {
            let run = drive(&mut store, include_versions, Order::AtOnce, &mut |_| {});
            let (text, rounds) = drive_as_tasks(&store, include_versions);
            assert_eq!(text, export(&mut store, include_versions));
            assert_eq!(text, run.text);
            assert_eq!(rounds, run.rounds);
        }
    }
}

#[test]
fn pages_of_about_256_kib_and_calls_of_about_96_kib() {
    // 2,500 memories of 1,000 bytes: the first page lists 32 records (with the count), the
    // next ones 262 (a page's worth by the last page's sizes) and the last 110: 11 pages, each
    // one transaction of two rounds (the records, then their contents in one read).
    let mut store = many(2500, 1000);
    let run = drive(&mut store, false, Order::Overlapped, &mut |_| {});
    assert_eq!(run.text, export(&mut store, false));
    assert_eq!(run.pages, 11);
    assert_eq!(
        run.rounds[0],
        vec![
            vec!["newestVersionId", "count", "filesAfter"],
            vec!["contents"]
        ]
    );
    for rounds in &run.rounds[1..] {
        assert_eq!(
            rounds,
            &vec![vec!["newestVersionId", "filesAfter"], vec!["contents"]]
        );
    }
    // 99 memories make a call past 96 KiB: 1 call for the first page, 3 (99 + 99 + 64) for
    // each of the nine of 262, 2 for the last.
    assert_eq!(run.formats, 1 + 27 + 2);
    // Progress about every hundredth, from 0 to the end.
    assert_eq!(run.reports.first(), Some(&(0, 2500)));
    assert_eq!(run.reports.last(), Some(&(2500, 2500)));
    assert!(run.reports.len() <= 102, "{} reports", run.reports.len());

    // 30 memories of 100,000 bytes: one page lists them all; pages of 3 (the third past
    // 256 KiB), the later ones reading only contents, in one round.
    let mut store = MemStore::new(Config {
        max_file_bytes: 100_000,
        ..Config::default()
    });
    for i in 0..30 {
        let path = format!("/memories/f{i:02}.md");
        let bytes = (i % 10).to_string().repeat(100_000).into_bytes();
        assert!(!store.run(Operation::host_write(&path, bytes)).is_error());
    }
    let run = drive(&mut store, true, Order::Overlapped, &mut |_| {});
    assert_eq!(run.text, export(&mut store, true));
    // 10 pages of memories, 10 of their versions.
    assert_eq!(run.pages, 20);
    assert_eq!(run.rounds[1], vec![vec!["newestVersionId", "contents"]]);
}

#[test]
fn a_store_that_changes_under_the_export_is_exported_again_then_given_up() {
    let mut store = many(100, 5000);
    let whole = export(&mut store, true);
    // A change before the second page: the export starts again, and then gives the bundle.
    let mut pages = 0;
    let run = drive(&mut store, true, Order::Overlapped, &mut |store| {
        pages += 1;
        if pages == 2 {
            let outcome = store.run(Operation::host_write("/memories/new.md", b"new".to_vec()));
            assert!(!outcome.is_error());
        }
    });
    assert_eq!(run.restarts, 1);
    assert!(!run.failed);
    assert_eq!(run.text, export(&mut store, true));
    assert_ne!(run.text, whole);
    // A change before every page: three tries, then the export fails.
    let mut n = 0;
    let run = drive(&mut store, true, Order::AtOnce, &mut |store| {
        n += 1;
        let path = format!("/memories/more{n}.md");
        assert!(!store
            .run(Operation::host_write(&path, b"x".to_vec()))
            .is_error());
    });
    assert_eq!(run.restarts, 2);
    assert!(run.failed);
}

#[test]
fn a_damaged_store_with_history_exports_what_can_be_read_and_that_imports() {
    let mut store = targets::seeded_history_store();
    // One memory's content missing, another's changed outside the package.
    let missing = store.files["/notes/c.md"].content.clone();
    store.contents.remove(&missing);
    let changed = store.files["/a.md"].content.clone();
    store.contents.insert(changed, b"edited by hand".to_vec());
    let whole = export(&mut store, true);
    for order in [Order::AtOnce, Order::Overlapped] {
        let run = drive(&mut store, true, order, &mut |_| {});
        assert_eq!(run.text, whole);
    }
    assert!(
        whole.contains(
            r#"{"path":"/a.md","reason":"its content does not match its content_sha256"}"#
        ),
        "{whole}"
    );
    assert!(
        whole.contains(r#"{"path":"/notes/c.md","reason":"its content is missing"}"#),
        "{whole}"
    );
    assert!(
        whole.contains(r#""reason":"its memory was left out""#),
        "{whole}"
    );
    let bundle = Json::parse(&whole).unwrap_or(Json::Null);
    let mut fresh = MemStore::new(Config::default());
    assert!(targets::check_import(&mut fresh, &bundle, "fail"));
    assert!(fresh.files.contains_key("/img.bin") && !fresh.files.contains_key("/a.md"));
}

#[test]
fn a_record_that_cannot_be_read_is_skipped_in_key_order() {
    let mut store = store();
    let whole = export(&mut store, false);
    // As a storage answers a record it cannot read: its key among the damaged ones.
    let mut cursor = ExportCursor::streamed(false);
    let mut text = String::new();
    loop {
        match cursor.step() {
            ExportStep::Read => loop {
                let reads = cursor.page_reads().to_vec();
                for (i, read) in reads.iter().enumerate() {
                    let answer = match paged(&store, read) {
                        Answer::Subtree(records, _)
                            if matches!(read, Read::FilesAfter { after: None, .. }) =>
                        {
                            Answer::Subtree(records, vec!["/c.md".to_string()])
                        }
                        answer => answer,
                    };
                    cursor.page_supply(i, answer);
                }
                if cursor.page_resume() {
                    break;
                }
            },
            ExportStep::Format => text.push_str(&cursor.format()),
            ExportStep::Done => break,
            step => panic!("{step:?}"),
        }
    }
    text.push_str(&cursor.finish());
    let expected = whole.replacen(
        "]}",
        r#"],"skipped":[{"path":"/c.md","reason":"its record cannot be read"}]}"#,
        1,
    );
    assert_eq!(text, expected);
}

#[test]
fn a_long_history_is_read_a_page_at_a_time_before_any_entry() {
    // 2,500 memories, 834 of them written twice: 3,334 versions, read 1,000 a page (the
    // history in one answer would hold the page for one long task), riding along with the
    // pages of records; nothing is formatted before the history is whole, so the first
    // report has the whole total.
    let mut store = many(2500, 10);
    for i in (0..2500).step_by(3) {
        let path = format!("/memories/d/n{i:04}.md");
        assert!(!store
            .run(Operation::host_write(&path, b"again".to_vec()))
            .is_error());
    }
    let whole = export(&mut store, true);
    let run = drive(&mut store, true, Order::Overlapped, &mut |_| {});
    assert_eq!(run.text, whole);
    let history_pages: Vec<usize> = run
        .rounds
        .iter()
        .enumerate()
        .filter(|(_, rounds)| rounds.iter().flatten().any(|k| *k == "versionsAfter"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(history_pages, vec![0, 1, 2, 3]);
    assert_eq!(run.reports.first(), Some(&(0, 2500 + 3334)));
    assert_eq!(run.reports.last(), Some(&(5834, 5834)));
}
