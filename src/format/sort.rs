//! Sorting without the standard library's sorts: each element type given to its stable sort
//! (and each `BTreeSet` element type, which sorts as it is built) adds its own ~4 KB copy of
//! the sort to the wasm. Everything here sorts indexes with one comparator type.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`, as `v.sort_by(cmp)` does (a stable sort by one total order has one
/// result). Not the standard library's: each of its instances is ~4 KB of wasm. Bottom-up merges
/// of runs that double in width; keys that come sorted (storage lists them so) cost one pass.
pub(crate) fn sort_indexes(v: &mut Vec<usize>, cmp: &dyn Fn(usize, usize) -> Ordering) {
    if v.windows(2)
        .all(|pair| matches!(pair, &[a, b] if cmp(a, b) != Ordering::Greater))
    {
        return;
    }
    let n = v.len();
    let mut from = std::mem::take(v);
    let mut to: Vec<usize> = Vec::with_capacity(n);
    let mut width = 1;
    while width < n {
        to.clear();
        let mut start = 0;
        while start < n {
            let mid = n.min(start + width);
            let end = n.min(start + 2 * width);
            let (left, right) = (
                from.get(start..mid).unwrap_or_default(),
                from.get(mid..end).unwrap_or_default(),
            );
            match (left.last(), right.first()) {
                (Some(&l), Some(&r)) if cmp(l, r) == Ordering::Greater => {
                    let (mut i, mut j) = (0, 0);
                    while let (Some(&l), Some(&r)) = (left.get(i), right.get(j)) {
                        // Equal keys: the left run's first, which keeps the sort stable.
                        if cmp(r, l) == Ordering::Less {
                            to.push(r);
                            j += 1;
                        } else {
                            to.push(l);
                            i += 1;
                        }
                    }
                    to.extend_from_slice(left.get(i..).unwrap_or_default());
                    to.extend_from_slice(right.get(j..).unwrap_or_default());
                }
                _ => {
                    to.extend_from_slice(left);
                    to.extend_from_slice(right);
                }
            }
            start = end;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    *v = from;
}

/// `keys` sorted stably in byte order (`str`'s `Ord`), as `keys.sort()` does.
pub(crate) fn sort_strs(keys: &mut Vec<&str>) {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    sort_indexes(&mut order, &|a, b| keys.get(a).cmp(&keys.get(b)));
    *keys = order.iter().filter_map(|&i| keys.get(i).copied()).collect();
}

/// `keys` in byte order, each once: what collecting them into a `BTreeSet<&str>` gives.
pub(crate) fn sorted_unique(mut keys: Vec<&str>) -> Vec<&str> {
    sort_strs(&mut keys);
    keys.dedup();
    keys
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    #[test]
    fn as_the_standard_library_sorts() {
        let words = [
            "b",
            "a",
            "",
            "ab",
            "b",
            "é",
            "a",
            "Z",
            "\u{10000}",
            "\u{e000}",
            "ab",
        ];
        for n in 0..=words.len() {
            let keys: Vec<&str> = words.iter().copied().take(n).collect();
            let mut want = keys.clone();
            want.sort();
            let mut got = keys.clone();
            super::sort_strs(&mut got);
            assert_eq!(got, want);
            let set: BTreeSet<&str> = keys.iter().copied().collect();
            assert_eq!(
                super::sorted_unique(keys),
                set.into_iter().collect::<Vec<_>>()
            );
        }
    }
}
