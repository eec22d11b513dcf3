//! Substring search by bytes (Knuth–Morris–Pratt: linear in the text whatever the pattern).
//! The standard library's `str` searches would do the same, but they bring in its slicing
//! panic, whose message formats a `char` with `{:?}` and so ships the Unicode `printable`
//! tables (13.5 KB) in the wasm. Byte positions of a UTF-8 pattern in UTF-8 text are always
//! char boundaries, so the answers are those of `str::match_indices`.

/// Where `needle` occurs in `haystack`, from the left and without overlap, as
/// `haystack.match_indices(needle)` gives them. An empty `needle` matches nowhere.
pub(crate) fn match_indices<'a>(haystack: &'a str, needle: &'a str) -> Matches<'a> {
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

/// The iterator of [`match_indices`]: byte offsets of the matches.
pub(crate) struct Matches<'a> {
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
        let first = *self.pattern.first()?;
        let mut k = 0;
        loop {
            if k == 0 {
                // Nothing matched yet: skip to the next byte that can start a match in one
                // tight scan (most of the text, for the patterns edits use).
                self.pos += find_byte(self.text.get(self.pos..)?, first)?;
            }
            let &b = self.text.get(self.pos)?;
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
    }
}

/// The first place `needle` occurs in `hay`: eight bytes at a time, then byte by byte.
fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(needle);
    let mut start = 0;
    for chunk in hay.chunks_exact(8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        // A zero byte in `x` is a byte equal to `needle`.
        let x = u64::from_le_bytes(word) ^ pattern;
        if x.wrapping_sub(ONES) & !x & HIGHS != 0 {
            break;
        }
        start += 8;
    }
    let tail = hay.get(start..)?;
    tail.iter().position(|&b| b == needle).map(|at| start + at)
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
            assert_eq!(match_indices(text, pattern).next(), text.find(pattern));
        }
        assert_eq!(match_indices("abc", "").next(), None);
    }

    #[test]
    fn finds_bytes_at_every_offset() {
        for len in 0..40 {
            for at in 0..=len {
                let mut hay = vec![b'x'; len];
                if let Some(b) = hay.get_mut(at) {
                    *b = b'@';
                }
                let want = hay.iter().position(|&b| b == b'@');
                assert_eq!(find_byte(&hay, b'@'), want, "{len} {at}");
                assert_eq!(find_byte(&hay, 0x80 | b'@'), None);
            }
        }
    }

    #[test]
    fn agrees_with_the_standard_library_on_every_short_text() {
        // Every text of up to 9 characters over {a, b, é} against every pattern of 1 to 3.
        let alphabet = ['a', 'b', 'é'];
        let words = |max: u32| {
            (0..=max).flat_map(move |len| {
                (0..3usize.pow(len)).map(move |mut n| {
                    (0..len)
                        .map(|_| {
                            let c = alphabet[n % 3];
                            n /= 3;
                            c
                        })
                        .collect::<String>()
                })
            })
        };
        let patterns: Vec<String> = words(3).filter(|p| !p.is_empty()).collect();
        for text in words(9) {
            for pattern in &patterns {
                let want: Vec<usize> = text
                    .match_indices(pattern.as_str())
                    .map(|(at, _)| at)
                    .collect();
                let got: Vec<usize> = match_indices(&text, pattern).collect();
                assert_eq!(got, want, "{text:?} {pattern:?}");
            }
        }
    }
}
