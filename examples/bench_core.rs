//! Benchmarks of the native core: each command run through `MemStore` (the core plus a store in
//! Rust maps), so the times are the core's own work (parsing, checks, rendering, hashing) and
//! the map reads and writes, with no wasm boundary and no IndexedDB.
//!
//!   cargo run --release --example bench_core [-- --json] [-- --budget-ms N]
//!
//! Prints a table of median, p95 and min per case; `--json` prints one JSON object per line
//! instead (`npm run bench` reads those). Each case warms up first, then runs for about
//! `--budget-ms` of wall time (default 600), at least `MIN_RUNS` times. These are numbers to
//! read, not a test: nothing here asserts on time.

use memory_tool_wasm::{Config, MemStore, Operation};
use std::hint::black_box;
use std::time::{Duration, Instant};

const KB: usize = 1024;
/// The two strings `str_replace` swaps back and forth: same length, each in the file at most once.
const MARKER_A: &str = "@@bench-marker-alpha@@";
const MARKER_B: &str = "@@bench-marker-omega@@";
/// Fewest measured runs per case, whatever the budget.
const MIN_RUNS: usize = 30;
/// Most measured runs per case (keeps memory bounded for the cases that grow the store).
const MAX_RUNS: usize = 100_000;

fn main() {
    let mut json = false;
    let mut budget_ms: u64 = 600;
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
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    let budget = Duration::from_millis(budget_ms);
    let mut rows = Vec::new();
    let mut report = |row: Row| {
        if json {
            println!("{}", row.to_json());
        } else {
            eprintln!("bench_core: {} done", row.case);
        }
        rows.push(row);
    };

    for &size in &[10 * KB, 100 * KB] {
        report(view_file(size, budget));
    }
    for &count in &[1_000, 10_000] {
        report(view_root(count, budget));
    }
    report(create(10 * KB, budget));
    for &size in &[10 * KB, 100 * KB] {
        report(str_replace(size, budget));
    }
    report(insert(10 * KB, budget));
    report(rename_dir(1_000, budget));
    report(delete_dir(1_000, budget));

    if !json {
        print_table(&rows);
    }
}

fn usage(problem: &str) -> ! {
    if !problem.is_empty() {
        eprintln!("bench_core: {problem}");
    }
    eprintln!("usage: cargo run --release --example bench_core [-- --json] [-- --budget-ms N]");
    std::process::exit(if problem.is_empty() { 0 } else { 2 });
}

// ---------------------------------------------------------------------------------------------
// The cases

fn view_file(size: usize, budget: Duration) -> Row {
    let mut store = store_with_file("/memories/doc.md", size);
    let input = r#"{"command":"view","path":"/memories/doc.md"}"#;
    let stats = measure(budget, MAX_RUNS, || (), |()| must(store.execute(input)));
    Row::new(format!("view {} file", kb(size)), "view", stats)
        .file_bytes(size)
        .store_files(1)
}

fn view_root(count: usize, budget: Duration) -> Row {
    let mut store = store_with_files("/memories", count, 2 * KB);
    let input = r#"{"command":"view","path":"/memories"}"#;
    let stats = measure(budget, MAX_RUNS, || (), |()| must(store.execute(input)));
    Row::new(
        format!("view /memories, {} files", group(count)),
        "view",
        stats,
    )
    .file_bytes(2 * KB)
    .store_files(count)
}

fn create(size: usize, budget: Duration) -> Row {
    // A fresh path every run, so the store grows by one file per run from 100 files: cap the
    // runs well below the 10,000-file limit (and the memory the contents take).
    let mut store = store_with_files("/memories/old", 100, 2 * KB);
    let text = text_of_size(size, "");
    let mut n = 0u64;
    let stats = measure(
        budget,
        5_000,
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
    Row::new(format!("create {} file", kb(size)), "create", stats)
        .file_bytes(size)
        .store_files(100)
}

fn str_replace(size: usize, budget: Duration) -> Row {
    let mut store = store_with_file("/memories/doc.md", size);
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
    let stats = measure(
        budget,
        MAX_RUNS,
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
    Row::new(
        format!("str_replace in {} file", kb(size)),
        "str_replace",
        stats,
    )
    .file_bytes(size)
    .store_files(1)
}

fn insert(size: usize, budget: Duration) -> Row {
    // Every run inserts into the same 10 KB file: each starts from a copy of the original store
    // (made outside the timed part), so the file does not grow from run to run.
    let base = store_with_file("/memories/doc.md", size);
    let input = r#"{"command":"insert","path":"/memories/doc.md","insert_line":40,"insert_text":"an inserted line of text\n"}"#;
    let stats = measure(
        budget,
        MAX_RUNS,
        || base.clone(),
        |mut store| {
            must(store.execute(input));
            store
        },
    );
    Row::new(format!("insert into {} file", kb(size)), "insert", stats)
        .file_bytes(size)
        .store_files(1)
}

fn rename_dir(count: usize, budget: Duration) -> Row {
    let base = store_with_files("/memories/dir", count, 2 * KB);
    let input = r#"{"command":"rename","old_path":"/memories/dir","new_path":"/memories/moved"}"#;
    let stats = measure(
        budget,
        MAX_RUNS,
        || base.clone(),
        |mut store| {
            must(store.execute(input));
            store
        },
    );
    Row::new(
        format!("rename dir of {} files", group(count)),
        "rename",
        stats,
    )
    .file_bytes(2 * KB)
    .store_files(count)
}

fn delete_dir(count: usize, budget: Duration) -> Row {
    let base = store_with_files("/memories/dir", count, 2 * KB);
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
    Row::new(
        format!("delete dir of {} files", group(count)),
        "delete",
        stats,
    )
    .file_bytes(2 * KB)
    .store_files(count)
}

// ---------------------------------------------------------------------------------------------
// Stores and texts

/// A store holding one text file of `size` bytes with `MARKER_A` once in its middle.
fn store_with_file(path: &str, size: usize) -> MemStore {
    let mut store = MemStore::new(Config::default());
    must(store.run(Operation::host_write(
        path,
        text_of_size(size, MARKER_A).into_bytes(),
    )));
    store
}

/// A store of `count` text files of `size` bytes each, named `{dir}/note-00001.md` and on.
fn store_with_files(dir: &str, count: usize, size: usize) -> MemStore {
    let mut store = MemStore::new(Config::default());
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
