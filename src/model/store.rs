//! A memory store's record and its mount slug (docs/TOOL.md#memory-stores).

use crate::format::json::{Json, ObjectWriter};
use crate::model::lowercase::lowercase;
use crate::model::path::{nfc, normalised_unevenly};
use crate::model::time::{parse_rfc3339, rfc3339};

/// The longest slug, in bytes of UTF-8: the longest file name common file systems allow, and
/// what leaves every store at least 758 bytes of the 1,024-byte path limit below its folder.
pub(crate) const MAX_SLUG_BYTES: usize = 255;

/// A store's mount slug, its folder under `/memories` (docs/TOOL.md#stores-and-slugs): the name
/// in NFC, lowercased character by character (Σ is always σ); letters and digits of every
/// script are kept, and so are combining marks right after a kept character; each run of other
/// characters (those the path rules refuse as normalised differently by some browsers among
/// them) becomes one `-`; no `-` leads or trails; cut to 255 bytes at a character.
/// "Demo Memory" → `demo-memory`, "Café Ideas" → `café-ideas`, "笔记 2026" → `笔记-2026`.
///
/// A slug is in NFC, is a valid path segment (no `/`, `\`, control or invisible character, never
/// `.` or `..`), and is its own slug: `slug(&slug(x)) == slug(x)`. It is empty when the name has
/// no letter or digit.
pub fn slug(name: &str) -> String {
    // Character by character: `str::to_lowercase`'s final-sigma rule would cost the module
    // 5.7 KB (gzipped) of tables for one Greek letter's end-of-word form; and by `lowercase`,
    // `char::to_lowercase` from a smaller table. Lowercasing can leave a string that is not NFC:
    // normalise again before filtering.
    let lower: String = nfc(&evenly(name)).chars().flat_map(lowercase).collect();
    let lower = nfc(&lower);
    let mut out = String::with_capacity(lower.len().min(MAX_SLUG_BYTES));
    // Whether the character before was kept: a mark is kept only on a kept character, so
    // "Cafe\u{301}" keeps its accent and a mark alone does not make a slug.
    let mut after_kept = false;
    for c in lower.chars() {
        let keep = c.is_alphanumeric() || (after_kept && is_mark(c));
        let push = if keep {
            Some(c)
        } else if after_kept {
            Some('-')
        } else {
            None
        };
        if let Some(p) = push {
            if out.len() + p.len_utf8() > MAX_SLUG_BYTES {
                break;
            }
            out.push(p);
        }
        after_kept = keep;
    }
    if out.ends_with('-') {
        out.pop();
    }
    out
}

/// `name` with each character and the marks after it made a space when one of them is a
/// character engines may normalise differently (docs/TOOL.md#path-rules): taken out before
/// normalising, whole, so every engine makes one slug of a name, and canonically equivalent
/// names (which differ only in the order of such marks, or in composing them) make one slug.
fn evenly(name: &str) -> String {
    if !name.chars().any(normalised_unevenly) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(first) = chars.next() {
        let mut cluster = vec![first];
        while let Some(&next) = chars.peek() {
            if !is_mark(next) {
                break;
            }
            cluster.push(next);
            chars.next();
        }
        if cluster.iter().any(|&c| normalised_unevenly(c)) {
            out.push(' ');
        } else {
            out.extend(cluster);
        }
    }
    out
}

/// Whether `c` is a combining mark (Unicode general category M: Mn, Mc, Me).
fn is_mark(c: char) -> bool {
    // `MARKS` lists where membership flips: inside a range after an odd number of bounds.
    c >= '\u{300}' && MARKS.partition_point(|&bound| bound <= u32::from(c)) % 2 == 1
}

/// A store's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreRecord {
    pub id: String,
    pub name: String,
    pub description: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub archived_at: Option<i64>,
    pub max_file_bytes: Option<i64>,
    pub max_files: Option<i64>,
    /// The store's history budget (docs/TOOL.md#history-budget), when it has its own; shown
    /// only when set.
    pub max_versions_per_memory: Option<i64>,
    pub max_history_bytes_per_memory: Option<i64>,
}

impl StoreRecord {
    /// The record as the API shows it (and as the registry stores it).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let mut limits = String::new();
        let mut writer = ObjectWriter::new(&mut limits);
        writer
            .opt_int("max_file_bytes", self.max_file_bytes)
            .opt_int("max_files", self.max_files);
        for (key, value) in [
            ("max_versions_per_memory", self.max_versions_per_memory),
            (
                "max_history_bytes_per_memory",
                self.max_history_bytes_per_memory,
            ),
        ] {
            if let Some(n) = value {
                writer.int(key, n);
            }
        }
        writer.finish();
        ObjectWriter::new(&mut out)
            .str("type", "memory_store")
            .str("id", &self.id)
            .str("name", &self.name)
            .str("description", &self.description)
            .str("slug", &slug(&self.name))
            .str("created_at", &rfc3339(self.created_at))
            .str("updated_at", &rfc3339(self.updated_at))
            .opt_str("archived_at", self.archived_at.map(rfc3339).as_deref())
            .raw("limits", &limits)
            .finish();
        out
    }

    pub fn from_json(json: &Json) -> Option<StoreRecord> {
        let text = |k: &str| json.field(k).and_then(Json::as_str).map(str::to_string);
        let limits = json.field("limits");
        let limit = |k: &str| limits.and_then(|l| l.field(k)).and_then(Json::as_integer);
        Some(StoreRecord {
            id: text("id")?,
            name: text("name")?,
            description: text("description").unwrap_or_default(),
            created_at: parse_rfc3339(&text("created_at")?)?,
            updated_at: parse_rfc3339(&text("updated_at")?)?,
            archived_at: text("archived_at").and_then(|t| parse_rfc3339(&t)),
            max_file_bytes: limit("max_file_bytes"),
            max_files: limit("max_files"),
            max_versions_per_memory: limit("max_versions_per_memory"),
            max_history_bytes_per_memory: limit("max_history_bytes_per_memory"),
        })
    }
}

/// General category M (Unicode 18.0, as the `unicode-normalization` crate has it), as the code
/// points where membership flips: `[MARKS[0], MARKS[1])` is the first range of marks, and so on.
/// The test `marks_are_general_category_m` checks it and prints it anew when Unicode moves on.
const MARKS: [u32; 666] = [
    0x0300, 0x0370, 0x0483, 0x048A, 0x0591, 0x05BE, 0x05BF, 0x05C0, 0x05C1, 0x05C3, 0x05C4, 0x05C6,
    0x05C7, 0x05CA, 0x0610, 0x061B, 0x064B, 0x0660, 0x0670, 0x0671, 0x06D6, 0x06DD, 0x06DF, 0x06E5,
    0x06E7, 0x06E9, 0x06EA, 0x06EE, 0x0711, 0x0712, 0x0730, 0x074B, 0x07A6, 0x07B1, 0x07EB, 0x07F4,
    0x07FD, 0x07FE, 0x0816, 0x081A, 0x081B, 0x0824, 0x0825, 0x0828, 0x0829, 0x082E, 0x0859, 0x085C,
    0x0897, 0x08A0, 0x08CA, 0x08E2, 0x08E3, 0x0904, 0x093A, 0x093D, 0x093E, 0x0950, 0x0951, 0x0958,
    0x0962, 0x0964, 0x0981, 0x0984, 0x09BC, 0x09BD, 0x09BE, 0x09C5, 0x09C7, 0x09C9, 0x09CB, 0x09CE,
    0x09D7, 0x09D8, 0x09E2, 0x09E4, 0x09FE, 0x09FF, 0x0A01, 0x0A04, 0x0A3C, 0x0A3D, 0x0A3E, 0x0A43,
    0x0A47, 0x0A49, 0x0A4B, 0x0A4E, 0x0A51, 0x0A52, 0x0A70, 0x0A72, 0x0A75, 0x0A76, 0x0A81, 0x0A84,
    0x0ABC, 0x0ABD, 0x0ABE, 0x0AC6, 0x0AC7, 0x0ACA, 0x0ACB, 0x0ACE, 0x0AE2, 0x0AE4, 0x0AFA, 0x0B00,
    0x0B01, 0x0B04, 0x0B3C, 0x0B3D, 0x0B3E, 0x0B45, 0x0B47, 0x0B49, 0x0B4B, 0x0B4E, 0x0B53, 0x0B58,
    0x0B62, 0x0B64, 0x0B82, 0x0B83, 0x0BBE, 0x0BC3, 0x0BC6, 0x0BC9, 0x0BCA, 0x0BCE, 0x0BD7, 0x0BD8,
    0x0C00, 0x0C05, 0x0C3C, 0x0C3D, 0x0C3E, 0x0C45, 0x0C46, 0x0C49, 0x0C4A, 0x0C4E, 0x0C55, 0x0C57,
    0x0C62, 0x0C64, 0x0C81, 0x0C84, 0x0CBC, 0x0CBD, 0x0CBE, 0x0CC5, 0x0CC6, 0x0CC9, 0x0CCA, 0x0CCE,
    0x0CD5, 0x0CD7, 0x0CE2, 0x0CE4, 0x0CF3, 0x0CF4, 0x0D00, 0x0D04, 0x0D3B, 0x0D3D, 0x0D3E, 0x0D45,
    0x0D46, 0x0D49, 0x0D4A, 0x0D4E, 0x0D57, 0x0D58, 0x0D62, 0x0D64, 0x0D81, 0x0D84, 0x0DCA, 0x0DCB,
    0x0DCF, 0x0DD5, 0x0DD6, 0x0DD7, 0x0DD8, 0x0DE0, 0x0DF2, 0x0DF4, 0x0E31, 0x0E32, 0x0E34, 0x0E3B,
    0x0E47, 0x0E4F, 0x0EB1, 0x0EB2, 0x0EB4, 0x0EBD, 0x0EC8, 0x0ECF, 0x0F18, 0x0F1A, 0x0F35, 0x0F36,
    0x0F37, 0x0F38, 0x0F39, 0x0F3A, 0x0F3E, 0x0F40, 0x0F71, 0x0F85, 0x0F86, 0x0F88, 0x0F8D, 0x0F98,
    0x0F99, 0x0FBD, 0x0FC6, 0x0FC7, 0x102B, 0x103F, 0x1056, 0x105A, 0x105E, 0x1061, 0x1062, 0x1065,
    0x1067, 0x106E, 0x1071, 0x1075, 0x1082, 0x108E, 0x108F, 0x1090, 0x109A, 0x109E, 0x135D, 0x1360,
    0x1712, 0x1716, 0x1732, 0x1735, 0x1752, 0x1754, 0x1772, 0x1774, 0x17B4, 0x17D4, 0x17DD, 0x17DE,
    0x180B, 0x180E, 0x180F, 0x1810, 0x1885, 0x1887, 0x18A9, 0x18AA, 0x1920, 0x192C, 0x1930, 0x193C,
    0x1A17, 0x1A1C, 0x1A55, 0x1A5F, 0x1A60, 0x1A7D, 0x1A7F, 0x1A80, 0x1AB0, 0x1AF1, 0x1B00, 0x1B05,
    0x1B34, 0x1B45, 0x1B6B, 0x1B74, 0x1B80, 0x1B83, 0x1BA1, 0x1BAE, 0x1BE6, 0x1BF4, 0x1C24, 0x1C38,
    0x1CD0, 0x1CD3, 0x1CD4, 0x1CE9, 0x1CED, 0x1CEE, 0x1CF4, 0x1CF5, 0x1CF7, 0x1CFA, 0x1DC0, 0x1E00,
    0x20D0, 0x20F1, 0x2CEF, 0x2CF2, 0x2D7F, 0x2D80, 0x2DE0, 0x2E00, 0x302A, 0x3030, 0x3099, 0x309B,
    0xA66F, 0xA673, 0xA674, 0xA67E, 0xA69E, 0xA6A0, 0xA6F0, 0xA6F2, 0xA802, 0xA803, 0xA806, 0xA807,
    0xA80B, 0xA80C, 0xA823, 0xA828, 0xA82C, 0xA82D, 0xA880, 0xA882, 0xA8B4, 0xA8C6, 0xA8E0, 0xA8F2,
    0xA8FF, 0xA900, 0xA926, 0xA92E, 0xA947, 0xA954, 0xA980, 0xA984, 0xA9B3, 0xA9C1, 0xA9E5, 0xA9E6,
    0xAA29, 0xAA37, 0xAA43, 0xAA44, 0xAA4C, 0xAA4E, 0xAA7B, 0xAA7E, 0xAAB0, 0xAAB1, 0xAAB2, 0xAAB5,
    0xAAB7, 0xAAB9, 0xAABE, 0xAAC0, 0xAAC1, 0xAAC2, 0xAAEB, 0xAAF0, 0xAAF5, 0xAAF7, 0xABE3, 0xABEB,
    0xABEC, 0xABEE, 0xFB1E, 0xFB1F, 0xFE00, 0xFE10, 0xFE20, 0xFE30, 0x101FD, 0x101FE, 0x102E0,
    0x102E1, 0x10376, 0x1037B, 0x10A01, 0x10A04, 0x10A05, 0x10A07, 0x10A0C, 0x10A10, 0x10A38,
    0x10A3B, 0x10A3F, 0x10A40, 0x10AE5, 0x10AE7, 0x10D24, 0x10D28, 0x10D69, 0x10D6E, 0x10EAB,
    0x10EAD, 0x10ECB, 0x10ED0, 0x10EF0, 0x10F00, 0x10F46, 0x10F51, 0x10F82, 0x10F86, 0x11000,
    0x11003, 0x11038, 0x11047, 0x11070, 0x11071, 0x11073, 0x11075, 0x1107F, 0x11083, 0x110B0,
    0x110BB, 0x110C2, 0x110C3, 0x11100, 0x11103, 0x11127, 0x11135, 0x11145, 0x11147, 0x11173,
    0x11174, 0x11180, 0x11183, 0x111B3, 0x111C1, 0x111C9, 0x111CD, 0x111CE, 0x111D0, 0x1122C,
    0x11238, 0x1123E, 0x1123F, 0x11241, 0x11242, 0x112DF, 0x112EB, 0x11300, 0x11304, 0x1133B,
    0x1133D, 0x1133E, 0x11345, 0x11347, 0x11349, 0x1134B, 0x1134E, 0x11357, 0x11358, 0x11362,
    0x11364, 0x11366, 0x1136D, 0x11370, 0x11375, 0x113B8, 0x113C1, 0x113C2, 0x113C3, 0x113C5,
    0x113C6, 0x113C7, 0x113CB, 0x113CC, 0x113D1, 0x113D2, 0x113D3, 0x113E1, 0x113E3, 0x11435,
    0x11447, 0x1145E, 0x1145F, 0x114B0, 0x114C4, 0x115AF, 0x115B6, 0x115B8, 0x115C1, 0x115DC,
    0x115DE, 0x11630, 0x11641, 0x116AB, 0x116B8, 0x1171D, 0x1172C, 0x1182C, 0x1183B, 0x11930,
    0x11936, 0x11937, 0x11939, 0x1193B, 0x1193F, 0x11940, 0x11941, 0x11942, 0x11944, 0x119D1,
    0x119D8, 0x119DA, 0x119E1, 0x119E4, 0x119E5, 0x11A01, 0x11A0B, 0x11A33, 0x11A3A, 0x11A3B,
    0x11A3F, 0x11A47, 0x11A48, 0x11A51, 0x11A5C, 0x11A8A, 0x11A9A, 0x11B60, 0x11B68, 0x11C2F,
    0x11C37, 0x11C38, 0x11C40, 0x11C92, 0x11CA8, 0x11CA9, 0x11CB7, 0x11D31, 0x11D37, 0x11D3A,
    0x11D3B, 0x11D3C, 0x11D3E, 0x11D3F, 0x11D46, 0x11D47, 0x11D48, 0x11D8A, 0x11D8F, 0x11D90,
    0x11D92, 0x11D93, 0x11D98, 0x11DF0, 0x11DF1, 0x11EF3, 0x11EF7, 0x11F00, 0x11F02, 0x11F03,
    0x11F04, 0x11F34, 0x11F3B, 0x11F3E, 0x11F43, 0x11F5A, 0x11F5B, 0x13440, 0x13441, 0x13447,
    0x13456, 0x1611E, 0x16130, 0x16AF0, 0x16AF5, 0x16B30, 0x16B37, 0x16F4F, 0x16F50, 0x16F51,
    0x16F88, 0x16F8F, 0x16F93, 0x16FE4, 0x16FE5, 0x16FF0, 0x16FF2, 0x1BC9D, 0x1BC9F, 0x1CF00,
    0x1CF2E, 0x1CF30, 0x1CF47, 0x1D127, 0x1D129, 0x1D165, 0x1D16A, 0x1D16D, 0x1D173, 0x1D17B,
    0x1D183, 0x1D185, 0x1D18C, 0x1D1AA, 0x1D1AE, 0x1D242, 0x1D245, 0x1D250, 0x1D253, 0x1D25B,
    0x1D25D, 0x1D25F, 0x1D260, 0x1D280, 0x1D282, 0x1DA00, 0x1DA37, 0x1DA3B, 0x1DA6D, 0x1DA75,
    0x1DA76, 0x1DA84, 0x1DA85, 0x1DA9B, 0x1DAA0, 0x1DAA1, 0x1DAB0, 0x1E000, 0x1E007, 0x1E008,
    0x1E019, 0x1E01B, 0x1E022, 0x1E023, 0x1E025, 0x1E026, 0x1E02B, 0x1E08F, 0x1E090, 0x1E130,
    0x1E137, 0x1E2AE, 0x1E2AF, 0x1E2EC, 0x1E2F0, 0x1E4EC, 0x1E4F0, 0x1E5EE, 0x1E5F0, 0x1E6E3,
    0x1E6E4, 0x1E6E6, 0x1E6E7, 0x1E6EE, 0x1E6F0, 0x1E6F5, 0x1E6F6, 0x1E8D0, 0x1E8D7, 0x1E944,
    0x1E94B, 0xE0100, 0xE01F0,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        let cases = [
            ("Demo Memory", "demo-memory"),
            ("  Team -- Handbook!! 2026 ", "team-handbook-2026"),
            ("Café Ideas", "café-ideas"),
            ("Cafe\u{301} Ideas", "café-ideas"),
            ("メモ", "メモ"),
            ("Заметки", "заметки"),
            ("笔记 2026", "笔记-2026"),
            ("Ünïcode Notes", "ünïcode-notes"),
            ("İstanbul", "i\u{307}stanbul"),
            ("ΟΔΟΣ ΚΑΙ", "οδοσ-και"),
            ("\u{301}a", "a"),
            ("***", ""),
            ("already-a-slug", "already-a-slug"),
            // Todhri (Unicode 16.0), which not every engine normalises: an other character.
            ("x\u{105D2}\u{307}y", "x-y"),
            ("x\u{105C9}y", "x-y"),
            // A 16.0 mark takes the character it follows with it, in either order.
            ("ab\u{1ACF}\u{5B0}c", "a-c"),
            ("ab\u{5B0}\u{1ACF}c", "a-c"),
        ];
        for (name, want) in cases {
            assert_eq!(slug(name), want, "{name:?}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn marks_are_general_category_m() {
        use unicode_normalization::char::is_combining_mark;
        let mut bounds = Vec::new();
        let mut inside = false;
        for u in 0..=0x11_0000u32 {
            let mark = char::from_u32(u).is_some_and(is_combining_mark);
            if mark != inside {
                bounds.push(u);
                inside = mark;
            }
        }
        let listed: Vec<String> = bounds.iter().map(|b| format!("0x{b:04X}")).collect();
        assert!(
            MARKS[..] == bounds[..],
            "MARKS is out of date; it should be\nconst MARKS: [u32; {}] = [{}];",
            bounds.len(),
            listed.join(", ")
        );
        assert!(is_mark('\u{301}') && is_mark('\u{94d}') && is_mark('\u{e01ef}'));
        assert!(!is_mark('a') && !is_mark('\u{2ff}') && !is_mark('\u{10ffff}'));
    }
}
