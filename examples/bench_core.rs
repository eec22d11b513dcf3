//! Benchmarks of the native core: each command run through `MemStore` (the core plus a store in
//! Rust maps), so the times are the core's own work (parsing, checks, rendering, hashing) and
//! the map reads and writes, with no wasm boundary and no IndexedDB.
//!
//!   cargo run --release --example bench_core [-- --json] [-- --budget-ms N] [-- --only WORD]
//!
//! The cases are the rows of docs/BENCHMARKS.md's table, the same as the Chromium part of `npm run bench`:
//! view file / create / str_replace / insert on files of 1 KB, 10 KB and 100 KB (in a store of
//! 100 other files), and view /memories / rename directory / delete directory over stores of
//! 100, 1,000 and 10,000 files of 1 KB (all in `/memories/dir`).
//!
//! Prints a table of median, p95 and min per case; `--json` prints one JSON object per line
//! instead (`npm run bench` reads those). Each case warms up first, then runs for about
//! `--budget-ms` of wall time (default 300), at least `MIN_RUNS` times. `--only WORD` runs the
//! cases whose name contains WORD. These are numbers to read, not a test: nothing here asserts
//! on time.

use memory_tool_wasm::{Config, MemStore, Operation};
use std::hint::black_box;
use std::time::{Duration, Instant};

const KB: usize = 1024;
/// The two strings `str_replace` swaps back and forth: same length, each in the file at most once.
const MARKER_A: &str = "@@bench-marker-alpha@@";
const MARKER_B: &str = "@@bench-marker-omega@@";
/// Fewest measured runs per case, whatever the budget.
const MIN_RUNS: usize = 20;
/// Most measured runs per case.
const MAX_RUNS: usize = 100_000;
/// File sizes of the per-file cases.
const SIZES: [usize; 3] = [KB, 10 * KB, 100 * KB];
/// Store sizes of the directory cases (files of `DIR_FILE_BYTES`).
const STORES: [usize; 3] = [100, 1_000, 10_000];
const DIR_FILE_BYTES: usize = KB;
/// Files beside the document in the per-file cases' store.
const SMALL_STORE: usize = 100;

fn main() {
    let mut json = false;
    let mut budget_ms: u64 = 300;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--budget-ms" => {
                budget_ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage("--budget-ms needs a number of milliseconds"));
            }
            "--only" => only = Some(args.next().unwrap_or_else(|| usage("--only needs a word"))),
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    let budget = Duration::from_millis(budget_ms);
    let mut rows = Vec::new();
    let wanted = |case: &str| only.as_deref().is_none_or(|w| case.contains(w));
    let mut report = |row: Row| {
        if json {
            println!("{}", row.to_json());
        } else {
            eprintln!("bench_core: {} done", row.case);
        }
        rows.push(row);
    };

    for &size in &SIZES {
        if wanted(&case_name("view file", size, 0)) {
            report(view_file(size, budget));
        }
    }
    for &count in &STORES {
        if wanted(&case_name("view /memories", 0, count)) {
            report(view_root(count, budget));
        }
    }
    for &size in &SIZES {
        if wanted(&case_name("create", size, 0)) {
            report(create(size, budget));
        }
    }
    for &size in &SIZES {
        if wanted(&case_name("str_replace", size, 0)) {
            report(str_replace(size, budget));
        }
    }
    for &size in &SIZES {
        if wanted(&case_name("insert", size, 0)) {
            report(insert(size, budget));
        }
    }
    for &count in &STORES {
        if wanted(&case_name("rename dir", 0, count)) {
            report(rename_dir(count, budget));
        }
    }
    for &count in &STORES {
        if wanted(&case_name("delete dir", 0, count)) {
            report(delete_dir(count, budget));
        }
    }

    if !json {
        print_table(&rows);
    }
}

fn usage(problem: &str) -> ! {
    if !problem.is_empty() {
        eprintln!("bench_core: {problem}");
    }
    eprintln!(
        "usage: cargo run --release --example bench_core [-- --json] [-- --budget-ms N] [-- --only WORD]"
    );
    std::process::exit(if problem.is_empty() { 0 } else { 2 });
}

/// The case names, shared with bench/workload.mjs (`caseName`) so the table can line rows up:
/// `view file, 10 KB`, `rename dir, 1,000 files`.
fn case_name(command: &str, file_bytes: usize, store_files: usize) -> String {
    if store_files > 0 {
        format!("{command}, {} files", group(store_files))
    } else {
        format!("{command}, {}", kb(file_bytes))
    }
}

/// The bench's limits: room for 10,000 files plus the ones `create` adds, and for `insert` to
/// grow a 100 KB file.
fn config() -> Config {
    Config {
        max_file_bytes: 1 << 20,
        max_files: 1_000_000,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// The cases

fn view_file(size: usize, budget: Duration) -> Row {
    let mut store = store_with_doc(size);
    let input = r#"{"command":"view","path":"/memories/doc.md"}"#;
    let stats = measure(budget, MAX_RUNS, || (), |()| must(store.execute(input)));
    Row::new(case_name("view file", size, 0), "view", stats)
        .file_bytes(size)
        .store_files(SMALL_STORE + 1)
}

fn view_root(count: usize, budget: Duration) -> Row {
    let mut store = store_with_files("/memories/dir", count, DIR_FILE_BYTES);
    let input = r#"{"command":"view","path":"/memories"}"#;
    let stats = measure(budget, MAX_RUNS, || (), |()| must(store.execute(input)));
    Row::new(case_name("view /memories", 0, count), "view", stats)
        .file_bytes(DIR_FILE_BYTES)
        .store_files(count)
}

fn create(size: usize, budget: Duration) -> Row {
    // A fresh path every run, so the store grows by one file per run: cap the runs so the
    // contents stay under 64 MB.
    let mut store = store_with_doc(size);
    let text = text_of_size(size, "");
    let mut n = 0u64;
    let stats = measure(
        budget,
        ((64 << 20) / size).min(5_000),
        || {
            n += 1;
            command_json(&[
                ("command", "create"),
                ("path", &format!("/memories/new/file-{n:06}.md")),
                ("file_text", &text),
            ])
        },
        |input| must(store.execute(&input)),
    );
    Row::new(case_name("create", size, 0), "create", stats)
        .file_bytes(size)
        .store_files(SMALL_STORE + 1)
}

fn str_replace(size: usize, budget: Duration) -> Row {
    let mut store = store_with_doc(size);
    let forward = command_json(&[
        ("command", "str_replace"),
        ("path", "/memories/doc.md"),
        ("old_str", MARKER_A),
        ("new_str", MARKER_B),
    ]);
    let back = command_json(&[
        ("command", "str_replace"),
        ("path", "/memories/doc.md"),
        ("old_str", MARKER_B),
        ("new_str", MARKER_A),
    ]);
    let mut flip = false;
    // Every run keeps a version of the file: cap the runs so they stay under 64 MB.
    let stats = measure(
        budget,
        ((64 << 20) / size).min(MAX_RUNS),
        || {
            flip = !flip;
            if flip {
                &forward
            } else {
                &back
            }
        },
        |input| must(store.execute(input)),
    );
    Row::new(case_name("str_replace", size, 0), "str_replace", stats)
        .file_bytes(size)
        .store_files(SMALL_STORE + 1)
}

fn insert(size: usize, budget: Duration) -> Row {
    // Every run inserts into the same file of `size` bytes: each starts from a copy of the
    // store (made outside the clock, and dropped outside it), so the file does not grow.
    let base = store_with_doc(size);
    let input = r#"{"command":"insert","path":"/memories/doc.md","insert_line":10,"insert_text":"an inserted line of text"}"#;
    let stats = measure(
        budget,
        MAX_RUNS,
        || base.clone(),
        |mut store| {
            must(store.execute(input));
            store
        },
    );
    Row::new(case_name("insert", size, 0), "insert", stats)
        .file_bytes(size)
        .store_files(SMALL_STORE + 1)
}

fn rename_dir(count: usize, budget: Duration) -> Row {
    // Back and forth, as in the browser: every run moves every file of the store.
    let mut store = store_with_files("/memories/dir", count, DIR_FILE_BYTES);
    let there = r#"{"command":"rename","old_path":"/memories/dir","new_path":"/memories/moved"}"#;
    let back = r#"{"command":"rename","old_path":"/memories/moved","new_path":"/memories/dir"}"#;
    let mut flip = false;
    let stats = measure(
        budget,
        MAX_RUNS,
        || {
            flip = !flip;
            if flip {
                there
            } else {
                back
            }
        },
        |input| must(store.execute(input)),
    );
    Row::new(case_name("rename dir", 0, count), "rename", stats)
        .file_bytes(DIR_FILE_BYTES)
        .store_files(count)
}

fn delete_dir(count: usize, budget: Duration) -> Row {
    // Every run starts from a copy of the full store (made outside the clock; the copy the
    // command leaves behind is dropped outside it too).
    let base = store_with_files("/memories/dir", count, DIR_FILE_BYTES);
    let input = r#"{"command":"delete","path":"/memories/dir"}"#;
    let stats = measure(
        budget,
        MAX_RUNS,
        || base.clone(),
        |mut store| {
            must(store.execute(input));
            store
        },
    );
    Row::new(case_name("delete dir", 0, count), "delete", stats)
        .file_bytes(DIR_FILE_BYTES)
        .store_files(count)
}

// ---------------------------------------------------------------------------------------------
// Stores and texts

/// The per-file cases' store: `SMALL_STORE` files of 1 KB in `/memories/dir`, and
/// `/memories/doc.md` of `size` bytes with `MARKER_A` once in its middle.
fn store_with_doc(size: usize) -> MemStore {
    let mut store = store_with_files("/memories/dir", SMALL_STORE, DIR_FILE_BYTES);
    must(store.run(Operation::host_write(
        "/memories/doc.md",
        text_of_size(size, MARKER_A).into_bytes(),
    )));
    store
}

/// A store of `count` text files of `size` bytes each, named `{dir}/note-00001.md` and on.
fn store_with_files(dir: &str, count: usize, size: usize) -> MemStore {
    let mut store = MemStore::new(config());
    for i in 1..=count {
        let text = text_of_size(size, &format!("note {i}"));
        must(store.run(Operation::host_write(
            &format!("{dir}/note-{i:05}.md"),
            text.into_bytes(),
        )));
    }
    store
}

/// `size` bytes of ASCII lines (64 bytes each), with `middle` placed halfway through.
fn text_of_size(size: usize, middle: &str) -> String {
    let half = (size - middle.len()) / 2;
    let mut text = filler(half, 1);
    text.push_str(middle);
    text.push_str(&filler(size - text.len(), 100_000));
    debug_assert_eq!(text.len(), size);
    text
}

/// `bytes` bytes of numbered lines, the first numbered `first`.
fn filler(bytes: usize, first: usize) -> String {
    let mut out = String::with_capacity(bytes + 64);
    let mut n = first;
    while out.len() < bytes {
        // 64 bytes per line, newline included.
        out.push_str(&format!(
            "{n:06} the quick brown fox jumps over the lazy dog, then rests.\n"
        ));
        n += 1;
    }
    out.truncate(bytes);
    out
}

/// A JSON object of string fields (the core's input).
fn command_json(fields: &[(&str, &str)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{}", json_string(k), json_string(v)))
        .collect();
    format!("{{{}}}", body.join(","))
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Stops the benchmark if a command failed: a failing command would time its error path.
fn must(outcome: memory_tool_wasm::Outcome) -> memory_tool_wasm::Outcome {
    if outcome.is_error() {
        eprintln!(
            "bench_core: a benchmarked command failed: {}",
            outcome.text_content()
        );
        std::process::exit(1);
    }
    outcome
}

// ---------------------------------------------------------------------------------------------
// Measuring

struct Stats {
    runs: usize,
    median: Duration,
    p95: Duration,
    min: Duration,
    mean: Duration,
}

/// Runs `op` on what `setup` made, timing only `op` (its result is dropped after the clock
/// stops). Warms up for a tenth of the budget (at least 3 runs), then measures until the budget
/// is spent, at least `MIN_RUNS` and at most `max_runs` times.
fn measure<S, R>(
    budget: Duration,
    max_runs: usize,
    mut setup: impl FnMut() -> S,
    mut op: impl FnMut(S) -> R,
) -> Stats {
    let warm_up = budget / 10;
    let start = Instant::now();
    let mut warm_runs = 0;
    while warm_runs < 3 || start.elapsed() < warm_up {
        let input = setup();
        black_box(op(black_box(input)));
        warm_runs += 1;
    }
    let mut samples = Vec::new();
    let start = Instant::now();
    while samples.len() < max_runs && (samples.len() < MIN_RUNS || start.elapsed() < budget) {
        let input = setup();
        let t0 = Instant::now();
        let result = op(black_box(input));
        let took = t0.elapsed();
        black_box(result);
        samples.push(took);
    }
    samples.sort_unstable();
    let n = samples.len();
    let median = if n % 2 == 1 {
        samples[n / 2]
    } else {
        (samples[n / 2 - 1] + samples[n / 2]) / 2
    };
    Stats {
        runs: n,
        median,
        // Nearest rank: the smallest sample with at least 95% of samples at or below it.
        p95: samples[(n * 95).div_ceil(100) - 1],
        min: samples[0],
        mean: samples.iter().sum::<Duration>() / n as u32,
    }
}

// ---------------------------------------------------------------------------------------------
// Output

struct Row {
    case: String,
    command: &'static str,
    stats: Stats,
    file_bytes: Option<usize>,
    store_files: Option<usize>,
}

impl Row {
    fn new(case: String, command: &'static str, stats: Stats) -> Row {
        Row {
            case,
            command,
            stats,
            file_bytes: None,
            store_files: None,
        }
    }

    fn file_bytes(mut self, n: usize) -> Row {
        self.file_bytes = Some(n);
        self
    }

    fn store_files(mut self, n: usize) -> Row {
        self.store_files = Some(n);
        self
    }

    /// One JSON object: the row format `npm run bench -- --json` writes.
    fn to_json(&self) -> String {
        let ms = |d: Duration| format!("{:.6}", d.as_secs_f64() * 1e3);
        let mut out = format!(
            "{{\"suite\":\"native\",\"case\":{},\"command\":{},\"runs\":{},\"median_ms\":{},\"p95_ms\":{},\"min_ms\":{},\"mean_ms\":{}",
            json_string(&self.case),
            json_string(self.command),
            self.stats.runs,
            ms(self.stats.median),
            ms(self.stats.p95),
            ms(self.stats.min),
            ms(self.stats.mean),
        );
        if let Some(n) = self.file_bytes {
            out.push_str(&format!(",\"file_bytes\":{n}"));
        }
        if let Some(n) = self.store_files {
            out.push_str(&format!(",\"store_files\":{n}"));
        }
        out.push('}');
        out
    }
}

fn print_table(rows: &[Row]) {
    let title = "native core (MemStore)";
    let width = rows
        .iter()
        .map(|r| r.case.len())
        .fold(title.len(), usize::max);
    println!(
        "{:<width$}  {:>7}  {:>10}  {:>10}  {:>10}",
        title, "runs", "median", "p95", "min"
    );
    for row in rows {
        println!(
            "{:<width$}  {:>7}  {:>10}  {:>10}  {:>10}",
            row.case,
            row.stats.runs,
            human(row.stats.median),
            human(row.stats.p95),
            human(row.stats.min)
        );
    }
}

/// A duration in µs below 1 ms, else in ms.
fn human(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1_000.0 {
        format!("{us:.1} µs")
    } else {
        format!("{:.3} ms", us / 1e3)
    }
}

fn kb(bytes: usize) -> String {
    format!("{} KB", bytes / KB)
}

/// `10000` → `10,000`.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
