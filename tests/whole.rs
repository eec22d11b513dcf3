//! The model-based test of the whole core (docs/RELIABILITY.md#nothing-lost): random sequences
//! of every feature that writes, deletes or prunes — tool commands, host writes, restores,
//! redactions, kept versions (a sync conflict's), clock moves (forward, a wrong clock for one
//! visit, backward), opens with retention pruning and expiry (in its two steps, with uses in
//! between), on-demand pruning, the history budget, damage and repair — checked after every
//! step against a model that only knows what was written and when, in true time:
//!
//! - every live memory holds the text the model last gave it;
//! - every text that stopped being live less than `retentionDays` ago (true time) is still held
//!   by some version, unless it was redacted or destroyed by damage; with the history budget
//!   on, the budget may take superseded texts, never the last text of a deleted memory nor a
//!   kept one (a conflict's, a restore's) within the period;
//! - expiry takes only memories unused (by true time) for its whole period, and never one used
//!   between its choice and its deletion.
//!
//! Seeded and reproducible: a failure prints the seed and the steps. `WHOLE_SEQUENCES` (default
//! 300) and `WHOLE_STEPS` (default 60) set the size; `npm run soak` runs 10,000 sequences.

use memory_tool_wasm::{import_in_parts, Config, Json, MemStore, Operation, Outcome};
use std::collections::{BTreeMap, HashMap};

const DAY: i64 = 86_400_000;
const MINUTE: i64 = 60_000;
const RETENTION_DAYS: i64 = 30;
const EXPIRY_DAYS: i64 = 20;

/// A small seeded generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A text the model knows: where it came from, and what became of it.
#[derive(Clone, Debug)]
struct Text {
    /// The memory it is a text of.
    memory: String,
    /// When it stopped being live (true time), if it has.
    stopped: Option<i64>,
    /// The last text of a memory that was then deleted.
    deleted_last: bool,
    /// When a conflict set it aside or a restore brought it back (true time).
    kept: Option<i64>,
    /// Redacted or destroyed by damage: nothing is owed.
    gone: bool,
}

/// A live memory as the model knows it.
#[derive(Clone, Debug)]
struct Live {
    id: String,
    text: String,
    /// The model's last use of it, in true time.
    used: i64,
}

struct World {
    store: MemStore,
    rng: Rng,
    /// True time (ms); the store's clock is this plus `skew`.
    now: i64,
    skew: i64,
    budget: bool,
    live: BTreeMap<String, Live>,
    texts: HashMap<String, Text>,
    counter: u64,
    log: Vec<String>,
    /// Whether the last open was on a wrong clock: the next is on a right one. (A clock wrong
    /// for two opens in a row, ten minutes apart, is taken for right: nothing on a device can
    /// tell it from a user who was away, docs/TOOL.md#a-clock-that-can-be-trusted.)
    skewed_last: bool,
    /// The latest time a visit on a clock ahead stamped (ids after it follow it).
    ahead_until: i64,
    /// What a step found wrong while it ran (reported by `check`, with the steps).
    violations: Vec<String>,
}

fn value(outcome: &Outcome) -> Json {
    Json::parse(outcome.value.as_deref().unwrap_or("null")).unwrap_or(Json::Null)
}

impl World {
    fn new(seed: u64) -> World {
        let mut rng = Rng(seed);
        let budget = rng.chance(40);
        let config = Config {
            retention_ms: RETENTION_DAYS * DAY,
            max_versions_per_memory: if budget { 4 } else { 100_000 },
            ..Config::default()
        };
        let mut store = MemStore::new(config);
        store.clock = 1_800_000_000_000;
        World {
            now: store.clock,
            store,
            rng,
            skew: 0,
            budget,
            live: BTreeMap::new(),
            texts: HashMap::new(),
            counter: 0,
            log: Vec::new(),
            skewed_last: false,
            ahead_until: i64::MIN,
            violations: Vec::new(),
        }
    }

    /// Sets the store's clock from true time and the skew (the harness adds 1 ms per call).
    fn sync_clock(&mut self) {
        self.store.clock = self.now + self.skew;
    }

    fn fresh_text(&mut self) -> String {
        self.counter += 1;
        format!("text {} {}\n", self.counter, self.rng.below(1000))
    }

    fn tool(&mut self, input: String) -> Outcome {
        self.sync_clock();
        let outcome = self.store.execute(&input);
        self.log
            .push(format!("{input} -> {}", outcome.text_content()));
        self.now += 1;
        outcome
    }

    fn host(&mut self, call: String) -> Outcome {
        self.sync_clock();
        let outcome = self.store.run(Operation::host(&call));
        self.log.push(format!(
            "{call} -> {:?} {}",
            outcome.error,
            outcome.value.as_deref().unwrap_or("")
        ));
        self.now += 1;
        outcome
    }

    fn stop_text(&mut self, text: &str, deleted: bool) {
        if let Some(t) = self.texts.get_mut(text) {
            if t.stopped.is_none() {
                t.stopped = Some(self.now);
            }
            t.deleted_last |= deleted;
        }
    }

    /// A memory just created at `path` with `text`: live, used now (on a right clock; a use
    /// on a wrong one does not count in true time).
    fn new_live(&mut self, path: String, text: String) {
        let id = self
            .store
            .files
            .get(&path)
            .map(|r| r.id.clone())
            .unwrap_or_default();
        self.new_text(&text, &id);
        let used = if self.skew == 0 {
            self.now
        } else {
            i64::MIN / 2
        };
        self.live.insert(path, Live { id, text, used });
    }

    fn new_text(&mut self, text: &str, memory: &str) {
        self.texts.insert(
            text.to_string(),
            Text {
                memory: memory.to_string(),
                stopped: None,
                deleted_last: false,
                kept: None,
                gone: false,
            },
        );
    }

    /// A use by the model: the model counts it in true time only on a right clock (a use on
    /// a clock gone back is recorded at the store's own time, docs/TOOL.md#last-use-and-expiry).
    fn used(&mut self, path: &str) {
        if self.skew != 0 {
            return;
        }
        let now = self.now;
        if let Some(l) = self.live.get_mut(path) {
            l.used = now;
        }
    }

    fn pick_live(&mut self) -> Option<String> {
        let n = self.live.len() as u64;
        if n == 0 {
            return None;
        }
        let i = self.rng.below(n) as usize;
        self.live.keys().nth(i).cloned()
    }

    fn record_use(&mut self, outcome: &Outcome) {
        if !outcome.touched.is_empty() {
            let paths: Vec<String> = outcome
                .touched
                .iter()
                .map(|p| memory_tool_wasm::quote(p))
                .collect();
            self.host(format!(
                r#"{{"call":"memories.touch","paths":[{}]}}"#,
                paths.join(",")
            ));
        }
    }

    /// One random step.
    fn step(&mut self) {
        let roll = self.rng.below(106);
        match roll {
            0..=14 => {
                // create
                let path = format!("/d{}/f{}.md", self.rng.below(3), self.rng.below(8));
                let text = self.fresh_text();
                let out = self.tool(format!(
                    r#"{{"command":"create","path":"/memories{path}","file_text":{}}}"#,
                    memory_tool_wasm::quote(&text)
                ));
                if !out.is_error() {
                    self.new_live(path, text);
                }
            }
            15..=29 => {
                // str_replace the whole text
                if let Some(path) = self.pick_live() {
                    let old = self.live[&path].text.clone();
                    let text = self.fresh_text();
                    let out = self.tool(format!(
                        r#"{{"command":"str_replace","path":"/memories{path}","old_str":{},"new_str":{}}}"#,
                        memory_tool_wasm::quote(&old),
                        memory_tool_wasm::quote(&text)
                    ));
                    if !out.is_error() {
                        self.stop_text(&old, false);
                        let id = self.live[&path].id.clone();
                        self.new_text(&text, &id);
                        if let Some(l) = self.live.get_mut(&path) {
                            l.text = text;
                        }
                        self.used(&path);
                    }
                }
            }
            30..=37 => {
                // view (a use)
                if let Some(path) = self.pick_live() {
                    let out =
                        self.tool(format!(r#"{{"command":"view","path":"/memories{path}"}}"#));
                    if !out.is_error() {
                        self.used(&path);
                        self.record_use(&out);
                    }
                }
            }
            38..=44 => {
                // delete
                if let Some(path) = self.pick_live() {
                    let out = self.tool(format!(
                        r#"{{"command":"delete","path":"/memories{path}"}}"#
                    ));
                    if !out.is_error() {
                        let gone = self.live.remove(&path);
                        if let Some(l) = gone {
                            self.stop_text(&l.text, true);
                        }
                    }
                }
            }
            45..=49 => {
                // rename (same text, a new version)
                if let Some(path) = self.pick_live() {
                    let to = format!("/r{}/f{}.md", self.rng.below(2), self.rng.below(8));
                    let out = self.tool(format!(
                        r#"{{"command":"rename","old_path":"/memories{path}","new_path":"/memories{to}"}}"#
                    ));
                    if !out.is_error() {
                        if let Some(l) = self.live.remove(&path) {
                            self.live.insert(to.clone(), l);
                            self.used(&to);
                        }
                    }
                }
            }
            50..=55 => {
                // restore a version that holds a text
                let candidates: Vec<(String, String)> = self
                    .store
                    .versions
                    .values()
                    .filter(|v| v.content.is_some() && v.redacted_at.is_none())
                    .map(|v| (v.id.clone(), v.memory_id.clone()))
                    .collect();
                if !candidates.is_empty() {
                    let (vid, mid) =
                        candidates[self.rng.below(candidates.len() as u64) as usize].clone();
                    let text = self
                        .store
                        .versions
                        .get(&vid)
                        .and_then(|v| v.content.as_ref())
                        .and_then(|k| self.store.contents.get(k))
                        .and_then(|b| String::from_utf8(b.clone()).ok());
                    let out = self.host(format!(
                        r#"{{"call":"versions.restore","id":{}}}"#,
                        memory_tool_wasm::quote(&vid)
                    ));
                    if let (false, Some(text)) = (out.is_error(), text) {
                        let now = self.now;
                        let path = value(&out)
                            .get("path")
                            .and_then(Json::as_str)
                            .map(str::to_string)
                            .unwrap_or_default();
                        // The memory's text before (if live) stopped being live; the restored
                        // text is kept and live again.
                        // A restore of the text a memory holds changes nothing, and is no use.
                        let mut used = if self.skew == 0 { now } else { i64::MIN / 2 };
                        if let Some((old_path, old)) = self
                            .live
                            .iter()
                            .find(|(_, l)| l.id == mid)
                            .map(|(p, l)| (p.clone(), l.clone()))
                        {
                            self.live.remove(&old_path);
                            if old.text != text {
                                self.stop_text(&old.text, false);
                            } else {
                                used = old.used;
                            }
                        }
                        // Live again: what it held when deleted is history now, like any other.
                        for t in self.texts.values_mut().filter(|t| t.memory == mid) {
                            t.deleted_last = false;
                        }
                        if let Some(t) = self.texts.get_mut(&text) {
                            t.kept = Some(now);
                            t.stopped = None;
                        }
                        self.live.insert(
                            path,
                            Live {
                                id: mid,
                                text,
                                used,
                            },
                        );
                    }
                }
            }
            56..=58 => {
                // a conflict: the live text is set aside (kept) and replaced
                if let Some(path) = self.pick_live() {
                    let l = self.live[&path].clone();
                    let head = self.store.files.get(&path).and_then(|r| r.version.clone());
                    let text = self.fresh_text();
                    if let Some(head) = head {
                        let out = self.host(format!(
                            r#"{{"call":"memories.update","id":{},"content":{},"keep_version_id":{}}}"#,
                            memory_tool_wasm::quote(&l.id),
                            memory_tool_wasm::quote(&text),
                            memory_tool_wasm::quote(&head)
                        ));
                        if !out.is_error() {
                            self.stop_text(&l.text, false);
                            let now = self.now;
                            if let Some(t) = self.texts.get_mut(&l.text) {
                                t.kept = Some(now);
                            }
                            self.new_text(&text, &l.id);
                            if let Some(live) = self.live.get_mut(&path) {
                                live.text = text;
                            }
                            self.used(&path);
                        }
                    }
                }
            }
            59..=60 => {
                // redact an old version: its text is purged on purpose
                let heads: Vec<String> = self
                    .store
                    .files
                    .values()
                    .filter_map(|r| r.version.clone())
                    .collect();
                let old: Vec<(String, Option<String>)> = self
                    .store
                    .versions
                    .values()
                    .filter(|v| v.content.is_some() && !heads.contains(&v.id))
                    .map(|v| (v.id.clone(), v.content.clone()))
                    .collect();
                if !old.is_empty() {
                    let (vid, key) = old[self.rng.below(old.len() as u64) as usize].clone();
                    let text = key
                        .and_then(|k| self.store.contents.get(&k))
                        .and_then(|b| String::from_utf8(b.clone()).ok());
                    let out = self.host(format!(
                        r#"{{"call":"versions.redact","id":{}}}"#,
                        memory_tool_wasm::quote(&vid)
                    ));
                    if let (false, Some(text)) = (out.is_error(), text) {
                        if let Some(t) = self.texts.get_mut(&text) {
                            t.gone = true;
                        }
                    }
                }
            }
            61..=72 => {
                // time passes
                let by = match self.rng.below(4) {
                    0 => self.rng.below(60) as i64 * MINUTE,
                    1 => self.rng.below(48) as i64 * 60 * MINUTE,
                    2 => (1 + self.rng.below(10) as i64) * DAY,
                    _ => (10 + self.rng.below(40) as i64) * DAY,
                };
                self.now += by;
                self.log.push(format!("time +{} min", by / MINUTE));
            }
            73..=84 => self.open(),
            85..=88 => {
                // a prune on demand, on a right clock
                if self.skew == 0 {
                    self.host(r#"{"call":"versions.prune"}"#.to_string());
                }
            }
            89..=91 => self.damage(),
            100..=102 => self.bundle_round_trip(),
            103..=105 => self.pull_page(),
            _ if self.skewed_last => self.open(),
            _ => {
                // a page visit with a wrong clock: an open, then commands, then the clock is right again
                let skew = if self.rng.chance(70) {
                    120 * DAY
                } else {
                    -60 * DAY
                };
                self.skew = skew;
                if skew > 0 {
                    self.ahead_until = self.ahead_until.max(self.now + skew + DAY);
                }
                self.log.push(format!("clock skew {} days", skew / DAY));
                self.open();
                for _ in 0..self.rng.below(4) {
                    if skew > 0 {
                        self.step_writes_only();
                    } else if let Some(path) = self.pick_live() {
                        // A clock behind: views only. A write would be stamped with the newest
                        // time the store knows, which may be days before the truth, and the
                        // retention of the text it replaced would count from then
                        // (docs/TOOL.md#a-clock-that-can-be-trusted says so).
                        let out =
                            self.tool(format!(r#"{{"command":"view","path":"/memories{path}"}}"#));
                        self.record_use(&out);
                    }
                }
                self.skew = 0;
                self.log.push("clock right".into());
            }
        }
    }

    /// A command that writes, for the wrong-clock visit (no nested visits).
    fn step_writes_only(&mut self) {
        if let Some(path) = self.pick_live() {
            let old = self.live[&path].text.clone();
            let text = self.fresh_text();
            let out = self.tool(format!(
                r#"{{"command":"str_replace","path":"/memories{path}","old_str":{},"new_str":{}}}"#,
                memory_tool_wasm::quote(&old),
                memory_tool_wasm::quote(&text)
            ));
            if !out.is_error() {
                self.stop_text(&old, false);
                let id = self.live[&path].id.clone();
                self.new_text(&text, &id);
                if let Some(l) = self.live.get_mut(&path) {
                    l.text = text;
                }
                self.used(&path);
            }
        }
    }

    /// An open: retention pruning on the store's trusted clock, then, half the time, the
    /// background expiry in its two steps, with uses by "another tab" in between.
    fn open(&mut self) {
        self.log.push("open".into());
        self.skewed_last = self.skew != 0;
        self.host(r#"{"call":"versions.prune","on_open":true}"#.to_string());
        if !self.rng.chance(50) {
            return;
        }
        let chosen = self.host(format!(
            r#"{{"call":"memories.expire","older_than_days":{EXPIRY_DAYS},"dry_run":true,"on_open":true}}"#
        ));
        let due: Vec<(String, String, String)> = match value(&chosen).get("data") {
            Some(Json::Array(items)) => items
                .iter()
                .filter_map(|m| {
                    Some((
                        m.get("id")?.as_str()?.to_string(),
                        m.get("path")?.as_str()?.to_string(),
                        m.get("last_accessed_at")?.as_str()?.to_string(),
                    ))
                })
                .collect(),
            _ => Vec::new(),
        };
        // Another tab uses some of them meanwhile.
        let mut used_between = Vec::new();
        for (_, path, _) in &due {
            if self.rng.chance(30) && self.live.contains_key(path) {
                let out = self.tool(format!(r#"{{"command":"view","path":"/memories{path}"}}"#));
                if !out.is_error() {
                    self.used(path);
                    self.record_use(&out);
                    used_between.push(path.clone());
                }
            }
        }
        self.now += 2000;
        let only: Vec<String> = due
            .iter()
            .map(|(id, _, at)| {
                format!(
                    r#"{{"id":{},"last_accessed_at":{}}}"#,
                    memory_tool_wasm::quote(id),
                    memory_tool_wasm::quote(at)
                )
            })
            .collect();
        let expired = self.host(format!(
            r#"{{"call":"memories.expire","older_than_days":{EXPIRY_DAYS},"on_open":true,"only":[{}]}}"#,
            only.join(",")
        ));
        let gone: Vec<String> = match value(&expired).get("data") {
            Some(Json::Array(items)) => items
                .iter()
                .filter_map(|m| m.get("path")?.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        for path in gone {
            if used_between.contains(&path) {
                self.violations.push(format!(
                    "expiry took {path}, used between its choice and its deletion"
                ));
            }
            let Some(l) = self.live.remove(&path) else {
                self.violations.push(format!(
                    "expiry deleted {path}, which the model does not hold live"
                ));
                continue;
            };
            // A view records a use once a day at most: the store may see it up to a day late.
            if l.used > self.now - (EXPIRY_DAYS - 1) * DAY {
                self.violations.push(format!(
                    "expiry took {path}, used {} min ago (true time)",
                    (self.now - l.used) / MINUTE
                ));
            }
            // An expiry on a clock behind happens only where nothing could tell that clock from
            // the truth (a clock behind the last visit expires nothing): its deletion is stamped
            // by that clock, and retention counts from there, as it would for a user who was
            // away (docs/TOOL.md#a-clock-that-can-be-trusted). The model owes what the store
            // can know.
            let stopped_at = self.now + self.skew.min(0);
            self.stop_text(&l.text, true);
            if let Some(t) = self.texts.get_mut(&l.text) {
                t.stopped = t.stopped.map(|s| s.min(stopped_at));
            }
        }
    }

    /// Damage from outside, then `repair`: a content changed (repair keeps the new text) or
    /// lost (repair deletes the memory; its text is destroyed).
    fn damage(&mut self) {
        let Some(path) = self.pick_live() else {
            return;
        };
        let Some(key) = self.store.files.get(&path).map(|r| r.content.clone()) else {
            return;
        };
        let old = self.live[&path].text.clone();
        let changed = self.rng.chance(60);
        if changed {
            let text = self.fresh_text();
            self.store.contents.insert(key, text.clone().into_bytes());
            self.log.push(format!("damage: content of {path} changed"));
            if let Some(t) = self.texts.get_mut(&old) {
                t.gone = true;
            }
            let out = self.host(r#"{"call":"repair"}"#.to_string());
            if out.is_error() {
                self.violations.push("repair failed".into());
            }
            let id = self.live[&path].id.clone();
            self.new_text(&text, &id);
            if let Some(l) = self.live.get_mut(&path) {
                l.text = text;
            }
        } else {
            self.store.contents.remove(&key);
            self.log.push(format!("damage: content of {path} lost"));
            if let Some(t) = self.texts.get_mut(&old) {
                t.gone = true;
            }
            let out = self.host(r#"{"call":"repair"}"#.to_string());
            if out.is_error() {
                self.violations.push("repair failed".into());
            }
            self.live.remove(&path);
        }
    }

    /// A sync's first download: a page of memories created at once by a hosted store's pull
    /// (`memories.createMany`, all or none), each a new live memory.
    fn pull_page(&mut self) {
        let n = 1 + self.rng.below(4);
        let mut items = Vec::new();
        let mut page = Vec::new();
        for i in 0..n {
            let path = format!("/p{}/f{}.md", self.rng.below(2), self.rng.below(6));
            if page.iter().any(|(p, _)| p == &path) {
                continue;
            }
            let text = self.fresh_text();
            items.push(format!(
                r#"{{"path":{},"content":{},"content_sha256":"{}","memory_version_id":"memver_hosted{}_{i}"}}"#,
                memory_tool_wasm::quote(&path),
                memory_tool_wasm::quote(&text),
                memory_tool_wasm::sha256_hex(text.as_bytes()),
                self.counter
            ));
            page.push((path, text));
        }
        let actor = std::mem::replace(
            &mut self.store.actor,
            r#"{"type":"api","memory_store_id":"memstore_whole"}"#.to_string(),
        );
        let out = self.host(format!(
            r#"{{"call":"memories.createMany","memories":[{}]}}"#,
            items.join(",")
        ));
        self.store.actor = actor;
        let taken = page.iter().any(|(path, _)| self.live.contains_key(path));
        if out.is_error() != taken && !self.is_refused_for_place(&out) {
            self.violations.push(format!(
                "createMany: error {:?} where the model expected {}",
                out.error,
                if taken {
                    "a refusal"
                } else {
                    "the page written"
                }
            ));
        }
        if out.is_error() {
            return;
        }
        // A pull is no use by this device's model (docs/TOOL.md#last-use-and-expiry): its last
        // use is the hosted one, which this model does not follow; the memory is new here, so
        // it is not due for the whole period.
        for (path, text) in page {
            self.new_live(path, text);
        }
    }

    /// Whether `out` refused a page for a place it cannot take (a file on the way, a
    /// directory there), which the model does not track.
    fn is_refused_for_place(&self, out: &Outcome) -> bool {
        out.error.map(|c| c.as_str()) == Some("PATH_CONFLICT")
    }

    /// A move to a new device by bundle: `export` with the history, `import` into a fresh
    /// store; the fresh store holds every live text and every text still owed.
    fn bundle_round_trip(&mut self) {
        let exported = self.host(r#"{"call":"export","include_versions":true}"#.to_string());
        let Some(bundle) = exported.value.clone() else {
            self.violations
                .push(format!("export failed: {:?}", exported.error));
            return;
        };
        // A version whose bytes damage changed or took is left out (its text is gone, and owed
        // no more: repair keeps what is left); nothing else may be.
        if let Some(skipped) = bundle.split("\"skipped\":").nth(1) {
            let reasons = skipped.matches("\"reason\":").count();
            let damaged = skipped
                .matches("\"reason\":\"its content does not match its content_sha256\"")
                .count()
                + skipped
                    .matches("\"reason\":\"its content is missing\"")
                    .count();
            if reasons != damaged {
                self.violations
                    .push(format!("export skipped more than damage: {skipped}"));
                return;
            }
        }
        let mut fresh = MemStore::new(self.store.config.clone());
        fresh.clock = self.store.clock;
        // Whole, or read into the core a few memories and versions at a time, as the adapter
        // hands a big bundle over: the same import either way.
        let part = self.rng.below(4) as usize;
        let operation = match part {
            0 => Operation::host(&format!(
                r#"{{"call":"import","bundle":{bundle},"on_conflict":"fail"}}"#
            )),
            _ => match import_in_parts(&bundle, "fail", part) {
                Some(operation) => operation,
                None => {
                    self.violations
                        .push(format!("the export is not a JSON object: {bundle}"));
                    return;
                }
            },
        };
        let imported = fresh.run(operation);
        // A store that ran on a clock ahead holds versions stamped after true time; import
        // refuses a bundle from the future (docs/TOOL.md#bundles), so such a store's bundle
        // waits until that time has passed. Every other refusal is a violation.
        let ahead = self.ahead_until > self.now;
        if imported.is_error()
            && ahead
            && imported
                .text_content()
                .contains("cannot come from the future")
        {
            self.log.push(
                "bundle round trip: refused, the store holds versions from a clock ahead".into(),
            );
            return;
        }
        if imported.is_error() {
            self.violations.push(format!(
                "the export does not import: {:?} {}",
                imported.error,
                imported.text_content()
            ));
            return;
        }
        for (path, l) in &self.live {
            if fresh.text_at(path) != Some(l.text.as_str()) {
                self.violations.push(format!(
                    "after a bundle round trip {path} holds {:?}, the model {:?}",
                    fresh.text_at(path),
                    l.text
                ));
                return;
            }
        }
        let held = held_texts(&fresh);
        for text in self.owed_texts() {
            if !held.contains(text) {
                self.violations
                    .push(format!("{text:?} is owed but the bundle lost it"));
                return;
            }
        }
    }

    /// The texts the store owes now (stopped being live within the period, or kept).
    fn owed_texts(&self) -> Vec<&String> {
        let period = RETENTION_DAYS * DAY;
        self.texts
            .iter()
            .filter(|(_, t)| !t.gone)
            .filter(|(_, t)| {
                let Some(stopped) = t.stopped else {
                    return false;
                };
                let owed_by_time = self.now - stopped < period;
                let kept = t.kept.is_some_and(|k| self.now - k < period);
                if self.budget {
                    (t.deleted_last && owed_by_time) || kept
                } else {
                    owed_by_time || kept
                }
            })
            .map(|(text, _)| text)
            .collect()
    }

    /// The invariants, after every step.
    fn check(&self) -> Result<(), String> {
        if let Some(v) = self.violations.first() {
            return Err(v.clone());
        }
        for (path, l) in &self.live {
            match self.store.text_at(path) {
                Some(text) if text == l.text => {}
                other => return Err(format!("{path} holds {other:?}, the model {:?}", l.text)),
            }
        }
        let live_paths = self.store.files.len();
        if live_paths != self.live.len() {
            return Err(format!(
                "the store holds {live_paths} memories, the model {}",
                self.live.len()
            ));
        }
        let held = held_texts(&self.store);
        let period = RETENTION_DAYS * DAY;
        for (text, t) in &self.texts {
            if t.gone {
                continue;
            }
            let Some(stopped) = t.stopped else {
                continue;
            };
            let owed_by_time = self.now - stopped < period;
            let kept = t.kept.is_some_and(|k| self.now - k < period);
            let owed = if self.budget {
                (t.deleted_last && owed_by_time) || kept
            } else {
                owed_by_time || kept
            };
            if owed && !held.contains(text) {
                return Err(format!(
                    "{text:?} is lost: stopped being live {} min ago (deleted: {}, kept: {:?})",
                    (self.now - stopped) / MINUTE,
                    t.deleted_last,
                    t.kept.map(|k| (self.now - k) / MINUTE)
                ));
            }
        }
        Ok(())
    }
}

/// Every text some version of `store` holds.
fn held_texts(store: &MemStore) -> std::collections::HashSet<String> {
    store
        .versions
        .values()
        .filter(|v| v.redacted_at.is_none())
        .filter_map(|v| v.content.as_ref())
        .filter_map(|k| store.contents.get(k))
        .filter_map(|b| String::from_utf8(b.clone()).ok())
        .collect()
}

fn run_sequence(seed: u64, steps: usize) {
    let mut world = World::new(seed);
    for step in 0..steps {
        world.step();
        if let Err(problem) = world.check() {
            let tail: Vec<&String> = world
                .log
                .iter()
                .rev()
                .take(40)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            panic!(
                "sequence {seed} (budget: {}), step {step}: {problem}\nlast steps:\n{}",
                world.budget,
                tail.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn nothing_is_lost_when_every_feature_meets() {
    let sequences = env_number("WHOLE_SEQUENCES", 300);
    let steps = env_number("WHOLE_STEPS", 60);
    let first = env_number("WHOLE_FIRST_SEED", 1) as u64;
    for seed in first..first + sequences as u64 {
        run_sequence(seed, steps);
    }
    println!("whole: {sequences} sequences of {steps} steps, no violation");
}
