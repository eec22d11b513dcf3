//! The directory view: two levels deep, hidden names left out, sizes summed (docs/TOOL.md#directory-listing).

use crate::format::render::{fill, format_size, group, push_size};
use crate::format::sort::sort_indexes;
use crate::format::texts;
use std::cmp::Ordering;

/// Orders names as JavaScript's default `Array.prototype.sort` does: by UTF-16 code units.
pub(crate) fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The order of `keys` by UTF-16 code units, as indexes, equal keys in their first order.
pub(crate) fn utf16_order(keys: &[&str]) -> Vec<usize> {
    // UTF-16 order differs from code point order (which is UTF-8 byte order) only between a
    // character from U+E000 up and one past U+FFFF: their UTF-8 forms start with a byte of
    // 0xEE or more. Two keys of which one has no such byte compare as bytes.
    let high: Vec<bool> = keys.iter().map(|k| k.bytes().any(|b| b >= 0xee)).collect();
    let mut order: Vec<usize> = (0..keys.len()).collect();
    sort_indexes(&mut order, &|a, b| {
        let (x, y) = (keys.get(a).unwrap_or(&""), keys.get(b).unwrap_or(&""));
        if high.get(a) == Some(&true) && high.get(b) == Some(&true) {
            utf16_cmp(x, y)
        } else {
            x.as_bytes().cmp(y.as_bytes())
        }
    });
    order
}

/// `items` sorted by the UTF-16 order of `key`.
pub(crate) fn sorted_by_utf16<T>(items: &[T], key: impl Fn(&T) -> &str) -> Vec<&T> {
    let keys: Vec<&str> = items.iter().map(&key).collect();
    utf16_order(&keys)
        .into_iter()
        .filter_map(|i| items.get(i))
        .collect()
}

fn is_hidden(name: &str) -> bool {
    name.starts_with('.') || name == "node_modules"
}

/// A file as the listing sees it: its first two names below the directory, and whether it
/// lies deeper still. Names borrow from the paths: a listing allocates per line, not per file.
struct Item<'a> {
    first: &'a str,
    second: Option<&'a str>,
    deeper: bool,
    size: u64,
}

/// One file of a directory listing: its store key and its size. The storage keeps these apart
/// from the file records (as `{path}\0{size}` keys with no value) so a listing reads no record:
/// listing 10,000 files is one key read, about a third of reading their records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingEntry {
    pub path: String,
    pub size: u64,
}

impl ListingEntry {
    /// Reads the storage's answer to a listing read: entry keys joined with `\n` (no entry:
    /// the empty text). `None` if an entry is not `{path}\0{size}`.
    /// An entry whose size is not a decimal (a record written malformed, see
    /// docs/TOOL.md#damaged-records) is left out; a line that is no entry at all makes the
    /// whole answer unusable.
    pub fn parse_all(text: &str) -> Option<Vec<ListingEntry>> {
        if text.is_empty() {
            return Some(Vec::new());
        }
        let mut entries = Vec::new();
        for line in text.split('\n') {
            let (path, size) = line.rsplit_once('\0')?;
            let well_formed =
                !size.is_empty() && size.len() <= 20 && size.bytes().all(|b| b.is_ascii_digit());
            if let Some(size) = well_formed.then(|| size.parse().ok()).flatten() {
                entries.push(ListingEntry {
                    path: path.to_string(),
                    size,
                });
            }
        }
        Some(entries)
    }
}

/// Renders the view of the directory `dir_key` (`""` for the root), shown at tool path
/// `shown_path`, from every file below it. The header echoes the path as the model sent
/// it (`raw_path`); the lines use the canonical tool path.
pub(crate) fn render_directory(
    raw_path: &str,
    shown_path: &str,
    dir_key: &str,
    files: &[ListingEntry],
) -> String {
    render_tree(raw_path, shown_path, dir_key, files, &[])
}

/// `listing` cut after its last whole entry within `max_chars` characters, with a note of how
/// many entries it shows of how many (a listing longer than the view limit); else as it is.
pub(crate) fn cut_listing(listing: String, max_chars: usize) -> String {
    let Some((limit, _)) = listing.char_indices().nth(max_chars) else {
        return listing;
    };
    // The header and the directory's own line always stay.
    let head = listing
        .match_indices('\n')
        .nth(1)
        .map_or(listing.len(), |(at, _)| at);
    let keep = listing
        .get(..limit)
        .and_then(|s| s.rfind('\n'))
        .filter(|&at| at >= head)
        .unwrap_or(head);
    let entries = |s: &str| s.matches('\n').count().saturating_sub(1) as u64;
    let total = entries(&listing);
    let mut out = listing.get(..keep).unwrap_or_default().to_string();
    let shown = entries(&out);
    out.push_str(&fill(
        texts::TRUNCATED_LISTING,
        &[&group(shown), &group(total)],
    ));
    out
}

/// `render_directory`, with `empty_dirs` (child names) shown as directories even when nothing
/// lies below them: the mounts of `/memories`.
pub(crate) fn render_tree(
    raw_path: &str,
    shown_path: &str,
    dir_key: &str,
    files: &[ListingEntry],
    empty_dirs: &[&str],
) -> String {
    let prefix_len = dir_key.len() + 1;
    let mut total = 0u64;
    let mut items: Vec<Item> = Vec::with_capacity(files.len() + empty_dirs.len());
    for file in files {
        let Some(relative) = file.path.get(prefix_len..) else {
            continue;
        };
        total += file.size;
        let mut segments = relative.split('/');
        let Some(first) = segments.next() else {
            continue;
        };
        let second = segments.next();
        let deeper = second.is_some() && segments.next().is_some();
        items.push(Item {
            first,
            second,
            deeper,
            size: file.size,
        });
    }
    // A mount is a directory even when empty: an item with no size that marks it as one.
    for name in empty_dirs {
        items.push(Item {
            first: name,
            second: None,
            deeper: true,
            size: 0,
        });
    }
    let mut out = fill(
        texts::DIRECTORY_LISTING,
        &[raw_path, &format_size(total), shown_path],
    );
    // Sorted by the first name, then each directory's items by the second: groups of equal
    // names are runs. (No map: sorting is needed anyway, and the runs give the groups.)
    let firsts: Vec<&str> = items.iter().map(|i| i.first).collect();
    let order = utf16_order(&firsts);
    let item_at = |slot: &usize| items.get(*slot);
    let mut at = 0;
    while let Some(first) = order.get(at).and_then(item_at).map(|i| i.first) {
        // The run of items under this first name.
        let run = order.get(at..).unwrap_or_default();
        let len = run
            .iter()
            .take_while(|&slot| item_at(slot).is_some_and(|i| i.first == first))
            .count()
            .max(1);
        let group = run.get(..len).unwrap_or_default();
        at += len;
        if is_hidden(first) {
            continue;
        }
        let size: u64 = group.iter().filter_map(item_at).map(|i| i.size).sum();
        let is_dir = group
            .iter()
            .filter_map(item_at)
            .any(|i| i.second.is_some() || i.deeper);
        push_line(&mut out, size, &[shown_path, "/", first], is_dir);
        if !is_dir {
            continue;
        }
        // Its own items, by their second name.
        let below: Vec<&Item> = group
            .iter()
            .filter_map(item_at)
            .filter(|i| i.second.is_some())
            .collect();
        let seconds: Vec<&str> = below.iter().filter_map(|i| i.second).collect();
        let order = utf16_order(&seconds);
        let mut at = 0;
        while let Some(&second) = order.get(at).and_then(|&i| seconds.get(i)) {
            let run = order.get(at..).unwrap_or_default();
            let len = run
                .iter()
                .take_while(|&&i| seconds.get(i) == Some(&second))
                .count()
                .max(1);
            at += len;
            if is_hidden(second) {
                continue;
            }
            let run = run.get(..len).unwrap_or_default();
            let size: u64 = run
                .iter()
                .filter_map(|&i| below.get(i))
                .map(|i| i.size)
                .sum();
            let is_dir = run.iter().filter_map(|&i| below.get(i)).any(|i| i.deeper);
            push_line(
                &mut out,
                size,
                &[shown_path, "/", first, "/", second],
                is_dir,
            );
        }
    }
    out
}

/// One line of a listing: the size, a TAB, the path (pieces), and `/` after a directory.
fn push_line(out: &mut String, size: u64, path: &[&str], is_dir: bool) {
    out.push('\n');
    push_size(out, size);
    out.push('\t');
    for piece in path {
        out.push_str(piece);
    }
    if is_dir {
        out.push('/');
    }
}

#[cfg(test)]
mod tests {
    use super::ListingEntry;

    /// An entry's storage key, `{path}\0{size}`, as the adapter's storage writes it.
    fn key(path: &str, size: u64) -> String {
        format!("{path}\u{0}{size}")
    }

    fn entry(path: &str, size: u64) -> ListingEntry {
        ListingEntry {
            path: path.into(),
            size,
        }
    }

    #[test]
    fn the_sort_is_utf16_order() {
        // Names mixing ASCII, BMP characters below and above U+E000, and astral ones.
        let pieces = [
            "a",
            "Z",
            "é",
            "\u{d7ff}",
            "\u{e000}",
            "\u{ffff}",
            "\u{10000}",
            "😀",
            "",
        ];
        let mut names: Vec<String> = Vec::new();
        for x in pieces {
            for y in pieces {
                for z in ["", "a", "\u{fffd}", "😀"] {
                    names.push(format!("{x}{y}{z}"));
                }
            }
        }
        let keys: Vec<&str> = names.iter().map(String::as_str).collect();
        let sorted: Vec<&str> = super::utf16_order(&keys)
            .into_iter()
            .filter_map(|i| keys.get(i).copied())
            .collect();
        let mut want = keys.clone();
        want.sort_by(|a, b| super::utf16_cmp(a, b));
        assert_eq!(sorted, want);
        // Stable, as `sort_by`: equal keys keep their first order, whatever the length.
        for n in [0, 1, 2, 3, 5, 8, 13, 64, 100] {
            let keys: Vec<&str> = (0..n).map(|i| ["b", "a", "c", "a"][i % 4]).collect();
            let mut want: Vec<usize> = (0..n).collect();
            want.sort_by(|&a, &b| keys[a].cmp(keys[b]));
            assert_eq!(super::utf16_order(&keys), want, "{n}");
        }
        // The difference the fast path must keep: U+E000 sorts after U+10000 in UTF-16.
        assert_eq!(super::utf16_order(&["\u{e000}", "\u{10000}"]), vec![1, 0]);
    }

    #[test]
    fn listing_answers_round_trip_and_refuse_what_is_not_an_entry() {
        assert_eq!(key("/a/b.md", 1024), "/a/b.md\u{0}1024");
        assert_eq!(ListingEntry::parse_all(""), Some(vec![]));
        let text = [key("/a/b.md", 1024), key("/c", 0), key("/d e", u64::MAX)].join("\n");
        assert_eq!(
            ListingEntry::parse_all(&text),
            Some(vec![
                entry("/a/b.md", 1024),
                entry("/c", 0),
                entry("/d e", u64::MAX)
            ])
        );
        for bad in ["/a", "/a\u{0}1\n", "/a\u{0}1\n\n/b\u{0}2"] {
            assert_eq!(ListingEntry::parse_all(bad), None, "{bad:?}");
        }
        // An entry with a size that is no decimal is left out, the others kept.
        for size in ["", "-1", "+1", "1.5", "eleven", "18446744073709551616"] {
            let text = ["/a\u{0}", size, "\n/b\u{0}2"].concat();
            assert_eq!(
                ListingEntry::parse_all(&text),
                Some(vec![entry("/b", 2)]),
                "{size:?}"
            );
        }
    }
}
