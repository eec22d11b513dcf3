//! Names are stored in NFC (docs/TOOL.md#canonical-form). In wasm the core normalises with
//! the JS engine's `String.prototype.normalize("NFC")`; native builds and `cargo test` use the
//! `unicode-normalization` tables. Both must give every name the path rules accept the same
//! spelling, or a file written in one browser could not be found by the spelling another (or
//! the native tests) gives it. This compares them in each engine (`bash
//! scripts/browser-tests.sh`: Chromium, Firefox and WebKit) on every scalar value alone, every
//! combining mark after a few bases, the whole Hangul syllable range, every character with a
//! canonical decomposition (composition exclusions and singletons among them), and
//! pseudo-random mixtures of those.
//!
//! Engines normalise by the Unicode of their ICU, and WebKit's can be older than Chromium's
//! (WebKitGTK 2.50 on Debian 12: Unicode 15.0, while the tables are newer). The path rules
//! refuse the characters engines may normalise differently (`normalises_alike`,
//! src/model/uneven.rs): inputs holding one are counted and shown, and every other input must
//! come back from the engine exactly as the tables give it, with no allowance.
#![cfg(target_arch = "wasm32")]

use js_sys::JsString;
use memory_tool_wasm::{normalises_alike, MemoryPath};
use unicode_normalization::char::{canonical_combining_class, decompose_canonical};
use unicode_normalization::UnicodeNormalization;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// NFC as the core computes it in wasm.
fn browser_nfc(s: &str) -> String {
    String::from(JsString::from(s).normalize("NFC"))
}

/// How many cases go to the browser in one `normalize` call.
const BATCH: usize = 2048;

/// [`browser_nfc`] of each case, in far fewer calls: cases are joined with U+000A, a starter
/// that never composes, reorders or decomposes, so normalisation cannot cross it and the
/// result splits back into one string per case. A batch holding a case that contains U+000A
/// goes one call per case.
fn browser_nfc_batch(cases: &[String]) -> Vec<String> {
    if cases.iter().any(|case| case.contains('\n')) {
        return cases.iter().map(|case| browser_nfc(case)).collect();
    }
    let joined = browser_nfc(&cases.join("\n"));
    let parts: Vec<String> = joined.split('\n').map(String::from).collect();
    assert_eq!(
        parts.len(),
        cases.len(),
        "a batch came back in a different number of parts"
    );
    parts
}

/// `U+0061 U+0301` for "á" decomposed.
fn code_points(s: &str) -> String {
    let points: Vec<String> = s
        .chars()
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect();
    points.join(" ")
}

/// Normalises each case both ways; fails on any difference in a case the path rules accept.
fn compare(label: &str, cases: impl IntoIterator<Item = String>) {
    let (mut checked, mut refused, mut real) = (0usize, 0usize, Vec::new());
    let mut cases = cases.into_iter().peekable();
    while cases.peek().is_some() {
        let batch: Vec<String> = cases.by_ref().take(BATCH).collect();
        checked += batch.len();
        for (case, browser) in batch.iter().zip(browser_nfc_batch(&batch)) {
            if !normalises_alike(case) {
                refused += 1;
                continue;
            }
            let tables: String = case.nfc().collect();
            if browser != tables {
                real.push(format!(
                    "{} → browser {}, tables {}",
                    code_points(case),
                    code_points(&browser),
                    code_points(&tables)
                ));
            }
        }
    }
    console_log!(
        "{label}: {checked} inputs; {refused} hold a character the path rules refuse as normalised unevenly; the other {} normalise as the tables do: {}",
        checked - refused,
        real.is_empty()
    );
    assert!(
        real.is_empty(),
        "{label}: {} of {} accepted inputs normalise differently in this engine:\n{}",
        real.len(),
        checked - refused,
        real.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn scalars() -> impl Iterator<Item = char> {
    (0..=0x10_ffff).filter_map(char::from_u32)
}

/// Characters with a canonical combining class above 0 (the marks NFC reorders).
fn marks() -> Vec<char> {
    scalars()
        .filter(|&c| canonical_combining_class(c) > 0)
        .collect()
}

/// Characters whose canonical decomposition is not themselves: precomposed letters, Hangul
/// syllables, singletons (Ω U+2126 → Ω), composition exclusions (क़ U+0958).
fn decomposable() -> Vec<char> {
    scalars()
        .filter(|&c| {
            let mut same = true;
            decompose_canonical(c, |d| same &= d == c);
            !same
        })
        .collect()
}

fn nfd(s: &str) -> String {
    s.nfd().collect()
}

/// Bases the marks go after: Latin vowels, Hangul jamo sequences and a syllable, Greek alpha,
/// Cyrillic и, Arabic alef, Devanagari ka.
const BASES: [&str; 11] = [
    "a",
    "e",
    "o",
    "u",
    "\u{1100}\u{1161}",
    "\u{1100}\u{1161}\u{11a8}",
    "\u{ac00}",
    "\u{3b1}",
    "\u{438}",
    "\u{627}",
    "\u{915}",
];

/// Marks of different classes, for ordering pairs: nukta 7, virama 9, sheva 10, horn 216,
/// dot below 220, ogonek 202, acute 230, ypogegrammeni 240.
const SECONDS: [char; 8] = [
    '\u{93c}', '\u{94d}', '\u{5b0}', '\u{31b}', '\u{323}', '\u{328}', '\u{301}', '\u{345}',
];

#[wasm_bindgen_test]
fn the_core_normalises_with_the_browser() {
    let key = MemoryPath::parse("/memories/cafe\u{301}/\u{1100}\u{1161}", false)
        .map(|p| p.key().to_string());
    assert_eq!(key, Ok("/caf\u{e9}/\u{ac00}".to_string()));
}

/// The path rules trust engines whose Unicode is 15.0 or later (an older one refuses more):
/// this one reorders a mark Unicode 15.0 added, so it accepts it.
#[wasm_bindgen_test]
fn this_engine_knows_unicode_15() {
    let key = MemoryPath::parse("/memories/a\u{10EFD}\u{334}", false).map(|p| p.key().to_string());
    assert_eq!(key, Ok("/a\u{334}\u{10EFD}".to_string()));
}

/// A Todhri letter (Unicode 16.0) with its dot above: Chromium and Firefox compose it to
/// U+105C9, an engine of Unicode 15.0 leaves it. Both spellings are refused, with one text.
#[wasm_bindgen_test]
fn names_engines_normalise_differently_are_refused() {
    for raw in ["/memories/\u{105D2}\u{307}.md", "/memories/\u{105C9}.md"] {
        let refused = MemoryPath::parse(raw, false).map_err(|e| e.message);
        assert_eq!(
            refused,
            Err(format!(
                "Error: Invalid path {raw}: characters that browsers may normalise differently are not allowed"
            ))
        );
    }
}

#[wasm_bindgen_test]
fn every_scalar_value_alone() {
    compare("scalar values", scalars().map(String::from));
}

#[wasm_bindgen_test]
fn every_combining_mark_after_bases() {
    let marks = marks();
    let cases = BASES.iter().flat_map(|base| {
        marks.iter().flat_map(move |&mark| {
            let alone = std::iter::once(format!("{base}{mark}"));
            let pairs = SECONDS.iter().flat_map(move |&second| {
                [
                    format!("{base}{mark}{second}"),
                    format!("{base}{second}{mark}"),
                ]
            });
            alone.chain(pairs)
        })
    });
    compare("marks after bases", cases);
}

#[wasm_bindgen_test]
fn hangul_syllables_compose() {
    let (l, v, t) = (0x1100u32..0x1113, 0x1161u32..0x1176, 0x11a7u32..0x11c4);
    let jamo = |u: u32| char::from_u32(u).map(String::from).unwrap_or_default();
    let mut cases = Vec::new();
    for lead in l.clone() {
        for vowel in v.clone() {
            let lv = jamo(lead) + &jamo(vowel);
            // U+11A7 and U+11C3 lie just outside the trailing consonants that compose.
            for trail in t.clone() {
                cases.push(lv.clone() + &jamo(trail));
            }
            cases.push(lv);
        }
    }
    // Precomposed LV and LVT syllables followed by a trailing consonant or a mark.
    for syllable in 0xac00u32..=0xd7a3 {
        for next in [0x11a7, 0x11a8, 0x11c2, 0x11c3, 0x301] {
            cases.push(jamo(syllable) + &jamo(next));
        }
    }
    // Old jamo, which do not compose, next to modern ones.
    for (a, b) in [
        (0x1113, 0x1161),
        (0x1100, 0x1176),
        (0x115f, 0x1161),
        (0x1100, 0x1160),
    ] {
        cases.push(jamo(a) + &jamo(b));
        cases.push(jamo(a) + &jamo(b) + &jamo(0x11a8));
    }
    compare("Hangul", cases);
}

#[wasm_bindgen_test]
fn decompositions_exclusions_and_singletons() {
    let cases = decomposable().into_iter().flat_map(|c| {
        let decomposed = nfd(&c.to_string());
        [
            decomposed.clone(),
            format!("{decomposed}\u{301}"),
            format!("{decomposed}\u{323}\u{301}"),
            format!("{c}\u{301}"),
            format!("{c}\u{323}"),
            format!("a{c}"),
        ]
    });
    compare("canonical decompositions", cases);
}

/// xorshift64*: the same sequence on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

#[wasm_bindgen_test]
fn pseudo_random_mixtures() {
    let marks = marks();
    let decomposable = decomposable();
    let jamo: Vec<char> = (0x1100..0x1200).filter_map(char::from_u32).collect();
    let all: Vec<char> = scalars().collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = Vec::new();
    for _ in 0..5000 {
        let mut case = String::new();
        for _ in 0..1 + rng.below(12) {
            let piece = match rng.below(7) {
                0 => rng.pick(&all).map(|c| c.to_string()),
                1 | 2 => rng.pick(&marks).map(|c| c.to_string()),
                3 => rng.pick(&BASES).map(|b| b.to_string()),
                4 => rng.pick(&jamo).map(|c| c.to_string()),
                5 => rng.pick(&decomposable).map(|c| c.to_string()),
                _ => rng.pick(&decomposable).map(|c| nfd(&c.to_string())),
            };
            case.push_str(&piece.unwrap_or_default());
        }
        cases.push(case);
    }
    compare("pseudo-random mixtures", cases);
}
