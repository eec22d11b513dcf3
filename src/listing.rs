//! The directory view: two levels deep, hidden names left out, sizes summed (SPEC §3 view).

use crate::record::FileRecord;
use crate::render::format_size;
use std::cmp::Ordering;
use std::collections::HashMap;

/// Orders names as JavaScript's default `Array.prototype.sort` does: by UTF-16 code units.
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The order of `keys` by UTF-16 code units, as indexes: the one sort of the crate (each
/// `sort_by` on another type would add its own copy of the sort to the wasm).
pub fn utf16_order(keys: &[&str]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|a, b| utf16_cmp(keys.get(*a).unwrap_or(&""), keys.get(*b).unwrap_or(&"")));
    order
}

/// `items` sorted by the UTF-16 order of `key`.
pub fn sorted_by_utf16<T>(items: &[T], key: impl Fn(&T) -> &str) -> Vec<&T> {
    let keys: Vec<&str> = items.iter().map(&key).collect();
    utf16_order(&keys)
        .into_iter()
        .filter_map(|i| items.get(i))
        .collect()
}

fn is_hidden(name: &str) -> bool {
    name.starts_with('.') || name == "node_modules"
}

#[derive(Default)]
struct Entry {
    size: u64,
    is_dir: bool,
    children: Vec<(String, Entry)>,
    index: HashMap<String, usize>,
}

impl Entry {
    fn child(&mut self, name: &str) -> Option<&mut Entry> {
        let slot = match self.index.get(name) {
            Some(&slot) => slot,
            None => {
                self.index.insert(name.to_string(), self.children.len());
                self.children.push((name.to_string(), Entry::default()));
                self.children.len() - 1
            }
        };
        self.children.get_mut(slot).map(|(_, e)| e)
    }
}

/// Renders the view of the directory `dir_key` (`""` for the root), shown at tool path
/// `shown_path`, from every file record below it. The header echoes the path as the model sent
/// it (`raw_path`); the lines use the canonical tool path.
pub fn render_directory(
    raw_path: &str,
    shown_path: &str,
    dir_key: &str,
    files: &[FileRecord],
) -> String {
    render_tree(raw_path, shown_path, dir_key, files, &[])
}

/// `render_directory`, with `empty_dirs` (child names) shown as directories even when nothing
/// lies below them: the mounts of `/memories`.
pub fn render_tree(
    raw_path: &str,
    shown_path: &str,
    dir_key: &str,
    files: &[FileRecord],
    empty_dirs: &[&str],
) -> String {
    let mut root = Entry::default();
    for name in empty_dirs {
        if let Some(child) = root.child(name) {
            child.is_dir = true;
        }
    }
    let prefix_len = dir_key.len() + 1;
    for file in files {
        let Some(relative) = file.path.get(prefix_len..) else {
            continue;
        };
        root.size += file.size;
        let mut segments = relative.split('/');
        let Some(first) = segments.next() else {
            continue;
        };
        let second = segments.next();
        let deeper = second.is_some() && segments.next().is_some();
        let Some(child) = root.child(first) else {
            continue;
        };
        child.size += file.size;
        if let Some(second) = second {
            child.is_dir = true;
            if let Some(grandchild) = child.child(second) {
                grandchild.size += file.size;
                grandchild.is_dir = deeper;
            }
        }
    }
    let mut out = format!(
        "Here're the files and directories up to 2 levels deep in {raw_path}, excluding hidden items and node_modules:\n{}\t{shown_path}",
        format_size(root.size)
    );
    push_entries(&mut out, &mut root, shown_path, 1);
    out
}

fn push_entries(out: &mut String, entry: &mut Entry, base: &str, depth: usize) {
    let names: Vec<&str> = entry.children.iter().map(|(n, _)| n.as_str()).collect();
    let order = utf16_order(&names);
    let mut children: Vec<Option<(String, Entry)>> = std::mem::take(&mut entry.children)
        .into_iter()
        .map(Some)
        .collect();
    for slot in order {
        let Some((name, mut child)) = children.get_mut(slot).and_then(Option::take) else {
            continue;
        };
        if is_hidden(&name) {
            continue;
        }
        let path = format!("{base}/{name}");
        out.push('\n');
        out.push_str(&format_size(child.size));
        out.push('\t');
        out.push_str(&path);
        if child.is_dir {
            out.push('/');
            if depth < 2 {
                push_entries(out, &mut child, &path, depth + 1);
            }
        }
    }
}
