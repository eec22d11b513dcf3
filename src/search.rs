//! Substring search by bytes (Knuth–Morris–Pratt: linear in the text whatever the pattern).
//! The standard library's `str` searches would do the same, but they bring in its slicing
//! panic, whose message formats a `char` with `{:?}` and so ships the Unicode `printable`
//! tables (13.5 KB) in the wasm. Byte positions of a UTF-8 pattern in UTF-8 text are always
//! char boundaries, so the answers are those of `str::match_indices`.

/// Where `needle` occurs in `haystack`, from the left and without overlap, as
/// `haystack.match_indices(needle)` gives them. An empty `needle` matches nowhere.
pub fn match_indices<'a>(haystack: &'a str, needle: &'a str) -> Matches<'a> {
    let pattern = needle.as_bytes();
    // fail[i]: the length of the longest proper border of pattern[..=i].
    let mut fail = vec![0usize; pattern.len()];
    let mut k = 0;
    for (i, &b) in pattern.iter().enumerate().skip(1) {
        while k > 0 && pattern.get(k) != Some(&b) {
            k = fail.get(k - 1).copied().unwrap_or(0);
        }
        if pattern.get(k) == Some(&b) {
            k += 1;
        }
        if let Some(slot) = fail.get_mut(i) {
            *slot = k;
        }
    }
    Matches {
        text: haystack.as_bytes(),
        pattern,
        fail,
        pos: 0,
    }
}

/// The first place `needle` occurs in `haystack`.
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    match_indices(haystack, needle).next()
}

/// Whether `needle` occurs in `haystack`.
pub fn contains(haystack: &str, needle: &str) -> bool {
    find(haystack, needle).is_some()
}

/// `haystack` with each occurrence of `from` replaced by `to`, as `str::replace` does.
pub fn replace(haystack: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(haystack.len());
    let mut last = 0;
    for at in match_indices(haystack, from) {
        out.push_str(haystack.get(last..at).unwrap_or(""));
        out.push_str(to);
        last = at + from.len();
    }
    out.push_str(haystack.get(last..).unwrap_or(""));
    out
}

/// The iterator of [`match_indices`]: byte offsets of the matches.
pub struct Matches<'a> {
    text: &'a [u8],
    pattern: &'a [u8],
    fail: Vec<usize>,
    pos: usize,
}

impl Iterator for Matches<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.pattern.is_empty() {
            return None;
        }
        let mut k = 0;
        while let Some(&b) = self.text.get(self.pos) {
            self.pos += 1;
            while k > 0 && self.pattern.get(k) != Some(&b) {
                k = self.fail.get(k - 1).copied().unwrap_or(0);
            }
            if self.pattern.get(k) == Some(&b) {
                k += 1;
            }
            if k == self.pattern.len() {
                return Some(self.pos - k);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_standard_library() {
        let cases = [
            ("", "a"),
            ("a", "a"),
            ("aaaa", "aa"),
            ("abababab", "aba"),
            ("xxabcabcabdxx", "abcabd"),
            ("é€😀é€😀", "€😀"),
            ("sk-ant-sk-ant-x", "sk-ant-"),
            ("no match here", "zz"),
            ("aabaabaaab", "aaab"),
        ];
        for (text, pattern) in cases {
            let want: Vec<usize> = text.match_indices(pattern).map(|(at, _)| at).collect();
            let got: Vec<usize> = match_indices(text, pattern).collect();
            assert_eq!(got, want, "{text:?} {pattern:?}");
            assert_eq!(find(text, pattern), text.find(pattern));
            assert_eq!(replace(text, pattern, "<>"), text.replace(pattern, "<>"));
        }
        assert_eq!(match_indices("abc", "").next(), None);
    }
}
