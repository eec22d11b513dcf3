//! Path validation and canonical form (docs/TOOL.md#paths).
//!
//! A store keys its files by *store path*: `/notes/todo.md`, the tool path without the
//! `/memories` mount point (as the hosted memory stores name memories). The root is the empty
//! key. Keys are in Unicode NFC, so one name has one spelling.

use crate::format::render::echo;
use crate::format::render::{cat, fill, group};
use crate::format::texts;
use crate::model::error::{ErrorCode, ToolError};
use crate::model::uneven;

/// Where the tool mounts the store.
pub(crate) const MOUNT: &str = "/memories";
/// The longest path accepted, in bytes of UTF-8 (docs/TOOL.md#path-length).
pub(crate) const MAX_PATH_BYTES: usize = 1024;

/// A checked tool path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryPath {
    raw: String,
    key: String,
    raw_segments: Vec<String>,
    trailing_slash: bool,
    /// Leading raw segments that name the mount (1 under `/memories/<slug>/`, else 0).
    mount_segments: usize,
}

impl MemoryPath {
    /// Checks a path the model sent (docs/TOOL.md#path-rules). `lone_surrogate` says the string held half a
    /// surrogate pair, which is refused as a control character.
    pub fn parse(raw: &str, lone_surrogate: bool) -> Result<MemoryPath, ToolError> {
        let rest = raw
            .strip_prefix(MOUNT)
            .filter(|r| r.is_empty() || r.starts_with('/'));
        let Some(rest) = rest else {
            return Err(ToolError::new(
                ErrorCode::InvalidPath,
                fill(texts::PATH_OUTSIDE, &[&echo(raw)]),
            ));
        };
        let trailing_slash = rest.ends_with('/');
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let segments: Vec<&str> = match rest.strip_prefix('/') {
            Some(inner) => inner.split('/').collect(),
            None => Vec::new(),
        };
        check_segments(&segments, lone_surrogate, raw.len()).map_err(|problem| match problem {
            SegmentProblem::Escape => ToolError::new(
                ErrorCode::InvalidPath,
                fill(texts::PATH_ESCAPES, &[&echo(raw)]),
            ),
            SegmentProblem::Invalid(reason) => ToolError::new(
                ErrorCode::InvalidPath,
                fill(texts::PATH_INVALID, &[&echo(raw), &reason]),
            ),
        })?;
        let mut key = String::with_capacity(rest.len());
        for segment in &segments {
            key.push('/');
            key.push_str(segment);
        }
        // NFC can lengthen a name (a few characters decompose): the stored spelling must obey
        // the limit too, or the listed spelling could not be used.
        let key = nfc(&key);
        if MOUNT.len() + key.len() > MAX_PATH_BYTES {
            return Err(ToolError::new(
                ErrorCode::InvalidPath,
                fill(
                    texts::PATH_TOO_LONG,
                    &[&echo(raw), &group(MAX_PATH_BYTES as u64)],
                ),
            ));
        }
        Ok(MemoryPath {
            raw: raw.to_string(),
            key,
            raw_segments: segments.iter().map(|s| s.to_string()).collect(),
            trailing_slash,
            mount_segments: 0,
        })
    }

    /// The same path seen from inside the mount named by its first segment: the key loses
    /// that segment (`/slug/a/b` → `/a/b`). The raw spelling stays, for messages.
    pub fn rebased(&self) -> MemoryPath {
        let key = match self.key.get(1..).and_then(|k| k.find('/')) {
            Some(at) => self.key.get(at + 1..).unwrap_or_default().to_string(),
            None => String::new(),
        };
        MemoryPath {
            key,
            mount_segments: 1,
            ..self.clone()
        }
    }

    /// The first segment of the key (a mount's slug when there are several mounts).
    pub fn first_segment(&self) -> Option<&str> {
        self.key.get(1..).map(|k| k.split('/').next().unwrap_or(k))
    }

    /// The path as the model spelled it.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The store key: `""` for `/memories`, else `/a/b` in NFC.
    pub fn key(&self) -> &str {
        &self.key
    }

    pub fn is_root(&self) -> bool {
        self.key.is_empty()
    }

    /// Whether the model wrote a trailing `/`.
    pub fn has_trailing_slash(&self) -> bool {
        self.trailing_slash
    }

    /// Keys of the directories between the root and this path, outermost first.
    pub fn ancestor_keys(&self) -> Vec<String> {
        ancestor_keys(&self.key)
    }

    /// The raw path cut after the key's segment number `depth` (1-based), as the model
    /// spelled it.
    pub fn raw_prefix(&self, depth: usize) -> String {
        let mut out = String::from(MOUNT);
        for segment in self.raw_segments.iter().take(depth + self.mount_segments) {
            out.push('/');
            out.push_str(segment);
        }
        out
    }
}

/// The keys of the directories strictly between the root and `key`, outermost first.
pub(crate) fn ancestor_keys(key: &str) -> Vec<String> {
    key.match_indices('/')
        .skip(1)
        .filter_map(|(i, _)| key.get(..i).map(str::to_string))
        .collect()
}

/// The tool path of a store key.
pub fn tool_path(key: &str) -> String {
    cat(&[MOUNT, key])
}

/// Checks a store path prefix for listings: `/` or `/a/b/` (docs/TOOL.md#listing-memories). Returns the key of the
/// directory it names (`""` for `/`).
pub(crate) fn parse_store_prefix(raw: &str) -> Result<String, ToolError> {
    let invalid = |why: String| {
        ToolError::new(
            ErrorCode::InvalidPath,
            fill("Invalid path_prefix {}: {}", &[raw, &why]),
        )
    };
    if !raw.starts_with('/') || !raw.ends_with('/') {
        return Err(invalid("it must start and end with '/'".to_string()));
    }
    let inner = raw.get(1..raw.len() - 1).unwrap_or("");
    if inner.is_empty() {
        return Ok(String::new());
    }
    let segments: Vec<&str> = inner.split('/').collect();
    check_segments(&segments, false, raw.len()).map_err(|problem| match problem {
        SegmentProblem::Escape => invalid(texts::PATH_DOTDOT_SEGMENT.to_string()),
        SegmentProblem::Invalid(reason) => invalid(reason),
    })?;
    Ok(nfc(&cat(&["/", inner])))
}

/// Checks a store path as hosts write it (`/notes/todo.md`, docs/TOOL.md#store-paths) and returns its key. The
/// rules are the tool's (docs/TOOL.md#path-rules), with the 1,024-byte limit applying to the tool path.
pub(crate) fn parse_store_path(raw: &str) -> Result<String, ToolError> {
    parse_store_path_checked(raw, false)
}

/// `parse_store_path` for a string that held half a surrogate pair when `lone_surrogate` is set
/// (refused, as in tool paths).
pub(crate) fn parse_store_path_checked(
    raw: &str,
    lone_surrogate: bool,
) -> Result<String, ToolError> {
    let invalid = |why: String| {
        ToolError::new(
            ErrorCode::InvalidPath,
            fill("Invalid path {}: {}", &[&echo(raw), &why]),
        )
    };
    let Some(inner) = raw.strip_prefix('/') else {
        return Err(invalid("it must start with '/'".to_string()));
    };
    if inner.is_empty() || inner.ends_with('/') {
        return Err(invalid(
            "a memory path names a file and must not end with '/'".to_string(),
        ));
    }
    let segments: Vec<&str> = inner.split('/').collect();
    check_segments(&segments, lone_surrogate, MOUNT.len() + raw.len()).map_err(|problem| {
        match problem {
            SegmentProblem::Escape => invalid(texts::PATH_DOTDOT_SEGMENT.to_string()),
            SegmentProblem::Invalid(reason) => invalid(reason),
        }
    })?;
    Ok(nfc(raw))
}

/// `s` in Unicode NFC, without copying when it already is.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm")))]
pub(crate) fn nfc(s: &str) -> String {
    use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};
    if is_nfc_quick(s.chars()) == IsNormalized::Yes {
        s.to_string()
    } else {
        s.nfc().collect()
    }
}

/// `s` in Unicode NFC, by the JS engine (a pure call: nothing re-enters the core). Names that
/// pass the path rules hold no character engines normalise differently
/// ([`normalised_unevenly`]), so every engine gives them the spelling the tables give.
#[cfg(all(target_arch = "wasm32", feature = "wasm"))]
pub(crate) fn nfc(s: &str) -> String {
    if s.is_ascii() {
        return s.to_string();
    }
    String::from(js_sys::JsString::from(s).normalize("NFC"))
}

/// Whether `c` is a character JavaScript engines may normalise differently
/// (docs/TOOL.md#path-rules): one of [`uneven::UNEVEN`] anywhere; in the package's module also,
/// when the engine's Unicode is older than 15.0, a mark added since that it does not know.
pub(crate) fn normalised_unevenly(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    #[cfg(all(target_arch = "wasm32", feature = "wasm"))]
    if uneven::unknown_to(engine_unicode(), c) {
        return true;
    }
    uneven::uneven(c)
}

/// Whether every JS engine (and the native tables) gives `name` one NFC spelling: it holds no
/// character [`normalised_unevenly`]. What the path rules require of every segment.
pub fn normalises_alike(name: &str) -> bool {
    !name.chars().any(normalised_unevenly)
}

/// The Unicode version this engine's `normalize` follows (`150` for 15.0), probed once.
#[cfg(all(target_arch = "wasm32", feature = "wasm"))]
fn engine_unicode() -> u8 {
    use core::sync::atomic::{AtomicU8, Ordering};
    static PROBED: AtomicU8 = AtomicU8::new(0);
    let known = PROBED.load(Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    let version =
        uneven::engine_version(|s| String::from(js_sys::JsString::from(s).normalize("NFC")));
    PROBED.store(version, Ordering::Relaxed);
    version
}

enum SegmentProblem {
    Escape,
    Invalid(String),
}

/// docs/TOOL.md#path-rules rules 3 and 4: each rule over every segment, in the contract's order.
fn check_segments(
    segments: &[&str],
    lone_surrogate: bool,
    raw_bytes: usize,
) -> Result<(), SegmentProblem> {
    let invalid = |reason: &str| Err(SegmentProblem::Invalid(reason.to_string()));
    if segments.contains(&"..") {
        return Err(SegmentProblem::Escape);
    }
    if segments.iter().any(|s| s.is_empty()) {
        return invalid(texts::PATH_EMPTY_SEGMENT);
    }
    if segments.contains(&".") {
        return invalid(texts::PATH_DOT_SEGMENT);
    }
    if segments.iter().any(|s| s.contains('\\')) {
        return invalid(texts::PATH_BACKSLASH);
    }
    if lone_surrogate || segments.iter().any(|s| s.chars().any(is_control)) {
        return invalid(texts::PATH_CONTROL);
    }
    if segments.iter().any(|s| s.chars().any(is_invisible)) {
        return invalid(texts::PATH_INVISIBLE);
    }
    if segments.iter().any(|s| s.chars().any(normalised_unevenly)) {
        return invalid(texts::PATH_UNEVEN);
    }
    if segments.iter().any(|s| hides_separator(s)) {
        return invalid(texts::PATH_PERCENT);
    }
    if raw_bytes > MAX_PATH_BYTES {
        return Err(SegmentProblem::Invalid(fill(
            texts::PATH_LONGER_THAN,
            &[&group(MAX_PATH_BYTES as u64)],
        )));
    }
    Ok(())
}

/// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
pub(crate) fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}')
}

/// Characters that change how text looks without being seen (ZWNJ and ZWJ stay allowed).
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// Whether percent-decoding the segment once or twice yields a dot segment, a separator or a
/// control character: servers and tools that decode paths must not be led outside.
fn hides_separator(segment: &str) -> bool {
    if !segment.contains('%') {
        return false;
    }
    let once = percent_decode(segment);
    let twice = percent_decode(&once);
    [once, twice].iter().any(|d| {
        d == "." || d == ".." || d.contains('/') || d.contains('\\') || d.chars().any(is_control)
    })
}

/// Decodes `%XX` escapes (either case); other `%` stay; invalid UTF-8 becomes U+FFFD.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hi = bytes.get(i + 1).and_then(|h| (*h as char).to_digit(16));
        let lo = bytes.get(i + 2).and_then(|l| (*l as char).to_digit(16));
        match (b, hi, lo) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(raw: &str) -> String {
        match MemoryPath::parse(raw, false) {
            Ok(p) => format!("ok {}", p.key()),
            Err(e) => e.message,
        }
    }

    #[test]
    fn accepts_and_canonicalises() {
        assert_eq!(err("/memories"), "ok ");
        assert_eq!(err("/memories/"), "ok ");
        assert_eq!(err("/memories/notes/"), "ok /notes");
        assert_eq!(err("/memories/a..b/..."), "ok /a..b/...");
        assert_eq!(err("/memories/100%.md"), "ok /100%.md");
        assert_eq!(err("/memories/%c0%ae"), "ok /%c0%ae");
        assert_eq!(err("/memories/cafe\u{301}.md"), "ok /café.md");
        assert_eq!(err("/memories/a\u{200d}b"), "ok /a\u{200d}b");
        // Characters every engine normalises alike: a 16.0 emoji, a 15.0 mark reordered.
        assert_eq!(err("/memories/\u{1FAE9}"), "ok /\u{1FAE9}");
        assert_eq!(err("/memories/a\u{10EFD}\u{334}"), "ok /a\u{334}\u{10EFD}");
    }

    #[test]
    fn refuses_in_contract_order() {
        let cases = [
            ("/memories_backup/x", "Error: Path must be /memories or start with /memories/, got: /memories_backup/x"),
            ("/Memories", "Error: Path must be /memories or start with /memories/, got: /Memories"),
            ("memories/x", "Error: Path must be /memories or start with /memories/, got: memories/x"),
            ("//memories", "Error: Path must be /memories or start with /memories/, got: //memories"),
            ("/memories/a/../b", "Error: Path /memories/a/../b would escape /memories directory"),
            ("/memories//a/..", "Error: Path /memories//a/.. would escape /memories directory"),
            ("/memories//a", "Error: Invalid path /memories//a: empty segment"),
            ("/memories//", "Error: Invalid path /memories//: empty segment"),
            ("/memories/./a", "Error: Invalid path /memories/./a: '.' segments are not allowed"),
            ("/memories/a\\b", "Error: Invalid path /memories/a\\b: backslashes are not allowed"),
            ("/memories/a\u{0}", "Error: Invalid path /memories/a\\u{0000}: control characters are not allowed"),
            ("/memories/a\u{85}", "Error: Invalid path /memories/a\\u{0085}: control characters are not allowed"),
            ("/memories/a\u{2028}", "Error: Invalid path /memories/a\\u{2028}: control characters are not allowed"),
            ("/memories/a\u{202e}b", "Error: Invalid path /memories/a\\u{202E}b: invisible formatting characters are not allowed"),
            ("/memories/\u{e0041}", "Error: Invalid path /memories/\\u{E0041}: invisible formatting characters are not allowed"),
            ("/memories/%2e%2e", "Error: Invalid path /memories/%2e%2e: percent-encoded '.', '/', '\\' or control characters are not allowed"),
            ("/memories/%252E%252e", "Error: Invalid path /memories/%252E%252e: percent-encoded '.', '/', '\\' or control characters are not allowed"),
            ("/memories/\u{105D2}\u{307}.md", "Error: Invalid path /memories/\u{105D2}\u{307}.md: characters that browsers may normalise differently are not allowed"),
            ("/memories/a\u{378}", "Error: Invalid path /memories/a\u{378}: characters that browsers may normalise differently are not allowed"),
            ("/memories/a\u{200b}\u{105C9}", "Error: Invalid path /memories/a\\u{200B}\u{105C9}: invisible formatting characters are not allowed"),
            ("/memories/\u{105C9}%2e%2e", "Error: Invalid path /memories/\u{105C9}%2e%2e: characters that browsers may normalise differently are not allowed"),
            ("/memories/a%2fb", "Error: Invalid path /memories/a%2fb: percent-encoded '.', '/', '\\' or control characters are not allowed"),
            ("/memories/a%5C", "Error: Invalid path /memories/a%5C: percent-encoded '.', '/', '\\' or control characters are not allowed"),
            ("/memories/a%00", "Error: Invalid path /memories/a%00: percent-encoded '.', '/', '\\' or control characters are not allowed"),
            ("/memories/%e2%80%a8", "Error: Invalid path /memories/%e2%80%a8: percent-encoded '.', '/', '\\' or control characters are not allowed"),
        ];
        for (raw, want) in cases {
            assert_eq!(err(raw), want, "{raw:?}");
        }
        let long = format!("/memories/{}", "a".repeat(1015));
        assert_eq!(long.len(), 1025);
        assert_eq!(
            err(&long),
            format!("Error: Invalid path {long}: longer than 1,024 bytes")
        );
        assert_eq!(err(&long[..1024]), format!("ok {}", &long[9..1024]));
        let lone = MemoryPath::parse("/memories/a\u{FFFD}", true).map_err(|e| e.message);
        assert_eq!(
            lone,
            Err(
                "Error: Invalid path /memories/a\u{FFFD}: control characters are not allowed"
                    .into()
            )
        );
    }

    #[test]
    fn the_stored_spelling_obeys_the_length_limit_too() {
        // U+1D15E is 4 bytes and becomes 7 in NFC (it is excluded from composition).
        let raw = format!("/memories/{}", "\u{1d15e}".repeat(253));
        assert!(raw.len() <= 1024);
        assert_eq!(
            err(&raw),
            format!("Error: Invalid path {raw}: longer than 1,024 bytes")
        );
    }

    #[test]
    fn ancestors_and_prefixes() {
        assert_eq!(
            ancestor_keys("/a/b/c"),
            vec!["/a".to_string(), "/a/b".to_string()]
        );
        assert!(ancestor_keys("/a").is_empty());
        let p = MemoryPath::parse("/memories/x/cafe\u{301}/z", false).map_err(|e| e.message);
        assert_eq!(
            p.map(|p| p.raw_prefix(2)),
            Ok("/memories/x/cafe\u{301}".to_string())
        );
        assert_eq!(parse_store_prefix("/"), Ok(String::new()));
        assert_eq!(parse_store_prefix("/notes/"), Ok("/notes".to_string()));
        assert!(parse_store_prefix("/notes").is_err());
        assert!(parse_store_prefix("/a/../").is_err());
    }
}
