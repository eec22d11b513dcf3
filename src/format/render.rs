//! Text the model reads: grouped numbers, sizes, numbered lines and the long-view cut (docs/TOOL.md#view).

use crate::format::texts;

/// The pieces joined into one String, with one allocation and no formatting machinery: the
/// wasm build keeps `core::fmt` out of its messages this way (`format!` costs kilobytes).
pub(crate) fn cat(pieces: &[&str]) -> String {
    let mut out = String::with_capacity(pieces.iter().map(|p| p.len()).sum());
    for piece in pieces {
        out.push_str(piece);
    }
    out
}

/// `template` with each `{}` replaced by the next of `args`, in order: `format!` for text
/// pieces, without `core::fmt` (which costs the wasm kilobytes). A message stays one readable
/// pattern: `fill(texts::NOT_FOUND, &[path])`. Numbers go in as
/// `&decimal(n)`. Nothing else in the template is special; `args` are copied as they are.
pub(crate) fn fill(template: &str, args: &[&str]) -> String {
    debug_assert_eq!(
        template.matches("{}").count(),
        args.len(),
        "placeholders and arguments of {template:?}"
    );
    let mut out =
        String::with_capacity(template.len() + args.iter().map(|a| a.len()).sum::<usize>());
    let mut args = args.iter();
    let mut rest = template;
    while let Some(at) = rest.as_bytes().windows(2).position(|w| w == b"{}") {
        out.push_str(rest.get(..at).unwrap_or_default());
        out.push_str(args.next().copied().unwrap_or_default());
        rest = rest.get(at + 2..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// `n` in decimal, like `n.to_string()` without `core::fmt`.
pub(crate) fn decimal(n: u64) -> String {
    let mut out = String::with_capacity(20);
    push_decimal(&mut out, n, 0);
    out
}

/// A signed `n` in decimal, like `n.to_string()` without `core::fmt`.
pub(crate) fn signed(n: i64) -> String {
    let mut out = String::with_capacity(20);
    push_signed(&mut out, n);
    out
}

/// `signed`, appended to `out`.
pub(crate) fn push_signed(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_decimal(out, n.unsigned_abs(), 0);
}

/// `n` with `,` between groups of three digits: `102,401`.
pub(crate) fn group(n: u64) -> String {
    let digits = decimal(n);
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A byte count as listings show it: `44B`, `1.0K`, `97.7K`, `1024.0K`, `1.2M` (docs/TOOL.md#sizes).
pub fn format_size(bytes: u64) -> String {
    let mut out = String::with_capacity(8);
    push_size(&mut out, bytes);
    out
}

/// `format_size`, appended to `out` (a listing writes one per line).
pub(crate) fn push_size(out: &mut String, bytes: u64) {
    // The unit, as log2 of its bytes: 1024^k is 2^(10k).
    let (unit, bits) = match bytes {
        0..=1023 => {
            push_decimal(out, bytes, 0);
            out.push('B');
            return;
        }
        1024..=1_048_575 => ('K', 10),
        1_048_576..=1_073_741_823 => ('M', 20),
        _ => ('G', 30),
    };
    // `Number.prototype.toFixed(1)` rounds the exact value half up; bytes / 1024^k is exact in
    // binary, so integer arithmetic gives the same digits without float ties going astray:
    // tenths = round(bytes * 10 / 2^bits) = (bytes * 20 + 2^bits) / 2^(bits + 1), a shift
    // (u128: bytes * 20 does not fit u64 near its top; a listing writes one size per line).
    let tenths = ((u128::from(bytes) * 20 + (1u128 << bits)) >> (bits + 1)) as u64;
    push_decimal(out, tenths / 10, 0);
    out.push('.');
    push_decimal(out, tenths % 10, 0);
    out.push(unit);
}

/// Appends `n` in decimal, right-aligned with spaces to at least `width` columns (at most
/// 20), with no allocation and no formatting machinery: listings and views write one per line.
pub(crate) fn push_decimal(out: &mut String, n: u64, width: usize) {
    push_digits(out, n, width, b' ');
}

/// Appends `n` in decimal with leading zeros to at least `width` digits (at most 20), as
/// `{:0width$}` writes it: times and dates.
pub(crate) fn push_zero_padded(out: &mut String, n: u64, width: usize) {
    push_digits(out, n, width, b'0');
}

fn push_digits(out: &mut String, n: u64, width: usize, pad: u8) {
    let mut buf = [pad; 20];
    let mut start = buf.len();
    let mut rest = n;
    while let Some(slot) = start.checked_sub(1).and_then(|i| buf.get_mut(i)) {
        *slot = b'0' + (rest % 10) as u8;
        start -= 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let from = start.min(buf.len().saturating_sub(width));
    out.push_str(std::str::from_utf8(buf.get(from..).unwrap_or_default()).unwrap_or_default());
}

/// Width of the line-number column.
const NUMBER_WIDTH: usize = 6;

/// One numbered line: the number right-aligned in 6 columns, a TAB, the text.
pub(crate) fn numbered_line(out: &mut String, number: usize, line: &str) {
    push_decimal(out, number as u64, NUMBER_WIDTH);
    out.push('\t');
    out.push_str(line);
}

/// Numbers `lines` (the first being line `first`) joined with `\n`, cut at a line boundary to
/// at most `max_chars` characters, with the note that says how to read on. `total` is the
/// file's line count.
pub(crate) fn numbered_lines(
    lines: &[&str],
    first: usize,
    total: usize,
    max_chars: usize,
) -> String {
    let bytes: usize = lines.iter().map(|l| l.len() + NUMBER_WIDTH + 2).sum();
    let mut out = String::with_capacity(bytes.min(max_chars.saturating_mul(4)) + 200);
    let mut used = 0usize;
    let mut shown = 0usize;
    for (i, line) in lines.iter().enumerate() {
        let separator = usize::from(i > 0);
        let cost = NUMBER_WIDTH + 1 + line.chars().count();
        if used + separator + cost > max_chars {
            break;
        }
        if separator == 1 {
            out.push('\n');
        }
        numbered_line(&mut out, first + i, line);
        used += separator + cost;
        shown += 1;
    }
    if shown == lines.len() {
        return out;
    }
    if shown == 0 {
        let line = lines.first().copied().unwrap_or("");
        let keep = max_chars.saturating_sub(NUMBER_WIDTH + 1);
        let end = line.char_indices().nth(keep).map_or(line.len(), |(i, _)| i);
        numbered_line(&mut out, first, line.get(..end).unwrap_or(line));
        out.push_str(&fill(
            texts::TRUNCATED_LINE,
            &[
                &decimal(first as u64),
                &group(line.chars().count() as u64),
                &group(keep as u64),
                &group(max_chars as u64),
            ],
        ));
        return out;
    }
    let last = first + shown - 1;
    out.push_str(&fill(
        texts::TRUNCATED_LINES,
        &[
            &decimal(first as u64),
            &decimal(last as u64),
            &group(total as u64),
            &decimal(last as u64 + 1),
        ],
    ));
    out
}

/// Standard base64 with padding, for image content blocks.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                let index = ((n >> (18 - 6 * i)) & 63) as usize;
                out.push(char::from(ALPHABET[index]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes standard base64 (padding optional, no whitespace); `None` when malformed.
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    // Leftover bits must be padding zeros, and a lone trailing character is never valid.
    (bits < 6 && acc & ((1 << bits) - 1) == 0).then_some(out)
}

/// The most characters of one input a result echoes (a path, an `old_str`, a parameter): a
/// result stays bounded whatever the model sends, and ordinary inputs are echoed whole.
pub(crate) const ECHO_CHARS: usize = 2_000;

/// The most line numbers a `MULTIPLE_MATCHES` result lists.
pub(crate) const LISTED_LINES: usize = 100;

/// `text` as a result echoes it (docs/TOOL.md#result-shape): each control or invisible
/// formatting character written as an escape (`\t`, `\n`, `\r`, else `\u{XXXX}`), so an echo
/// never adds a line, a tab or a hidden character to a result; whole up to `ECHO_CHARS`
/// characters as shown, else cut there and followed by how long the input was.
pub(crate) fn echo(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(|c| escape(c).is_none()) && text.chars().nth(ECHO_CHARS).is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(ECHO_CHARS * 4) + 40);
    let mut shown = 0;
    for c in text.chars() {
        let piece = escape(c);
        let width = piece.as_ref().map_or(1, |p| p.chars().count());
        if shown + width > ECHO_CHARS {
            let total = text.chars().count() as u64;
            out.push_str(&fill(texts::ECHO_CUT, &[&group(total)]));
            return std::borrow::Cow::Owned(out);
        }
        shown += width;
        match piece {
            Some(escaped) => out.push_str(&escaped),
            None => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// How an echo writes `c` when it must not appear as it is: the C0 and C1 controls, DEL,
/// U+2028 and U+2029, and the invisible formatting characters paths refuse
/// (docs/TOOL.md#path-rules).
fn escape(c: char) -> Option<String> {
    let code = u32::from(c);
    let hidden = matches!(code,
        0x00..=0x1F | 0x7F..=0x9F | 0x2028 | 0x2029 | 0xAD | 0x61C | 0x180E | 0x200B | 0x200E
        | 0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0xFEFF
        | 0xE0000..=0xE007F);
    if !hidden {
        return None;
    }
    Some(match c {
        '\t' => "\\t".to_string(),
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        _ => {
            let mut out = String::from("\\u{");
            let digits = b"0123456789ABCDEF";
            let width = if code > 0xFFFF { 5 } else { 4 };
            for i in (0..width).rev() {
                let nibble = (code >> (4 * i)) & 0xF;
                out.push(char::from(
                    digits.get(nibble as usize).copied().unwrap_or(b'0'),
                ));
            }
            out.push('}');
            out
        }
    })
}

/// Line numbers as `MULTIPLE_MATCHES` lists them: `1, 2, 3`, at most `LISTED_LINES` of them
/// and then how many there are.
pub(crate) fn line_list(lines: &[usize]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().take(LISTED_LINES).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_decimal(&mut out, *line as u64, 0);
    }
    if lines.len() > LISTED_LINES {
        out.push_str(&fill(texts::MORE_LINES, &[&group(lines.len() as u64)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_pieces_as_format_writes_them() {
        assert_eq!(cat(&[]), "");
        assert_eq!(cat(&["/memories", "/", "notes"]), "/memories/notes");
        assert_eq!(fill("no placeholder", &[]), "no placeholder");
        assert_eq!(fill("{}", &["x"]), "x");
        assert_eq!(
            fill("Error: The path {} does not exist", &["/memories/{}"]),
            "Error: The path /memories/{} does not exist"
        );
        assert_eq!(
            fill("{\"kind\":\"file\",\"path\":{}}", &["\"/a\""]),
            r#"{"kind":"file","path":"/a"}"#
        );
        assert_eq!(fill("{}-{} of {}.", &["1", "2", "3"]), "1-2 of 3.");
        for n in [0, 1, 9, 10, 99, 100, 12_345, u64::MAX] {
            assert_eq!(decimal(n), n.to_string());
        }
        for n in [0, 1, -1, 42, -42, i64::MAX, i64::MIN] {
            assert_eq!(signed(n), n.to_string());
        }
        for (n, width) in [
            (0, 0),
            (0, 2),
            (7, 2),
            (42, 2),
            (7, 3),
            (123, 3),
            (1234, 3),
            (5, 4),
        ] {
            let mut out = String::new();
            push_zero_padded(&mut out, n, width);
            assert_eq!(out, format!("{n:0width$}"));
        }
    }

    #[test]
    fn groups() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(102_401), "102,401");
        assert_eq!(group(1_234_567), "1,234,567");
    }

    #[test]
    fn sizes() {
        let cases = [
            (0, "0B"),
            (44, "44B"),
            (1023, "1023B"),
            (1024, "1.0K"),
            (1280, "1.3K"), // 1.25 exactly: toFixed rounds half up
            (4096, "4.0K"),
            (5632, "5.5K"),
            (100_000, "97.7K"),
            (1_048_575, "1024.0K"),
            (1_048_576, "1.0M"),
            (1_258_291, "1.2M"),
            (1_073_741_824, "1.0G"),
        ];
        for (bytes, want) in cases {
            assert_eq!(format_size(bytes), want, "{bytes}");
        }
        // The shift agrees with dividing by 2 * 1024^k, over every unit's edges and a spread
        // of values up to u64::MAX.
        let by_division = |bytes: u64| {
            let scale: u128 = match bytes {
                0..=1023 => return format!("{bytes}B"),
                1024..=1_048_575 => 1 << 10,
                1_048_576..=1_073_741_823 => 1 << 20,
                _ => 1 << 30,
            };
            let unit = match scale {
                1024 => 'K',
                1_048_576 => 'M',
                _ => 'G',
            };
            let tenths = (u128::from(bytes) * 20 + scale) / (scale * 2);
            format!("{}.{}{unit}", tenths / 10, tenths % 10)
        };
        let mut x: u64 = 1;
        let mut values: Vec<u64> = (0..5000).chain(1_048_000..1_049_600).collect();
        values.extend([
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            1_073_741_823,
            1_073_741_824,
        ]);
        for _ in 0..20_000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            values.push(x >> (x % 64));
        }
        for bytes in values {
            assert_eq!(format_size(bytes), by_division(bytes), "{bytes}");
        }
    }

    #[test]
    fn numbers_right_aligned_in_six_columns_and_wider_when_needed() {
        for (n, want) in [
            (0, "     0\tx"),
            (1, "     1\tx"),
            (42, "    42\tx"),
            (999_999, "999999\tx"),
            (1_000_000, "1000000\tx"),
            (usize::MAX, &*format!("{}\tx", usize::MAX)),
        ] {
            let mut out = String::from(">");
            numbered_line(&mut out, n, "x");
            assert_eq!(out, format!(">{want}"), "{n}");
        }
    }

    #[test]
    fn numbering_and_cuts() {
        assert_eq!(
            numbered_lines(&["a", "b"], 1, 2, 100),
            "     1\ta\n     2\tb"
        );
        assert_eq!(numbered_lines(&[""], 1, 1, 100), "     1\t");
        // Each line costs 8 characters, 9 with its separator: two fit in 17.
        assert_eq!(
            numbered_lines(&["a", "b", "c"], 4, 3001, 17),
            "     4\ta\n     5\tb\n[Truncated: showing lines 4-5 of 3,001. Use view_range [6, -1] to read on.]"
        );
        assert_eq!(
            numbered_lines(&["abcdefghij"], 1, 1, 10),
            "     1\tabc\n[Truncated: line 1 is 10 characters long and was cut after 3; lines longer than 10 characters cannot be shown whole.]"
        );
    }

    #[test]
    fn base64_matches_reference() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        for sample in [&b""[..], b"f", b"fo", b"foo", b"\x89PNG\r\n\x1a\n\xff"] {
            assert_eq!(base64_decode(&base64(sample)).as_deref(), Some(sample));
        }
        assert_eq!(base64_decode("Zg"), Some(b"f".to_vec()));
        assert_eq!(base64_decode("Z"), None);
        assert_eq!(base64_decode("Zh=="), None);
        assert_eq!(base64_decode("Zm9v!"), None);
    }

    #[test]
    fn echoes_escape_controls_and_hidden_characters() {
        assert_eq!(echo("/memories/a.md"), "/memories/a.md");
        assert_eq!(echo("a\tb\nc\rd"), "a\\tb\\nc\\rd");
        assert_eq!(echo("nul\0here"), "nul\\u{0000}here");
        assert_eq!(
            echo("\u{7f}\u{85}\u{2028}\u{202e}\u{feff}"),
            "\\u{007F}\\u{0085}\\u{2028}\\u{202E}\\u{FEFF}"
        );
        assert_eq!(echo("tag\u{E0041}"), "tag\\u{E0041}");
        // ZWJ, accents, emoji and backslashes stay as they are.
        assert_eq!(echo("a\u{200D}b é 😀 \\n"), "a\u{200D}b é 😀 \\n");
        // The cut counts what is shown: 2,000 characters of escapes at most.
        let nuls = "\0".repeat(1_000);
        let shown = echo(&nuls);
        assert_eq!(
            shown,
            format!("{}… [1,000 characters in all]", "\\u{0000}".repeat(250))
        );
        let tabs = "\t".repeat(1_000);
        assert_eq!(echo(&tabs), "\\t".repeat(1_000));
    }
}
