// The result texts of the memory tool's commands (docs/TOOL.md#commands), written in plain
// JavaScript as a web developer would to match them: the file view with line numbers and its
// long-view cut, the directory listing two levels deep, sizes, the str_replace snippet. Shared
// by the hand-written alternatives (idb.mjs, dexie.mjs), which only differ in how they reach
// IndexedDB. Nothing here touches storage.

/** The view limit: characters of numbered lines (or of a listing) a result shows (docs/TOOL.md#output-limit). */
export const MAX_VIEW_CHARS = 16_000;
const NUMBER_WIDTH = 6;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A result as `MemoryTool.execute` gives it. @typedef {{ content: string, isError: boolean }} Result */

/** @param {string} content @returns {Result} */
export const ok = (content) => ({ content, isError: false });
/** @param {string} content @returns {Result} */
export const fail = (content) => ({ content, isError: true });

/** The UTF-8 bytes of a text, and back: content is stored as text, sizes are bytes. */
export const byteLength = (/** @type {string} */ text) => encoder.encode(text).length;
export const decode = (/** @type {Uint8Array} */ bytes) => decoder.decode(bytes);

/** Characters as the package counts them: code points. @param {string} s */
function chars(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** `s` cut after its first `n` code points. @param {string} s @param {number} n */
function firstChars(s, n) {
  let out = 0;
  for (const c of s) {
    if (n-- === 0) break;
    out += c.length;
  }
  return s.slice(0, out);
}

/** `102,401` @param {number} n */
export const group = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A byte count as listings show it: `44B`, `1.0K`, `97.7K` (docs/TOOL.md#sizes). @param {number} bytes */
export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)}K`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)}M`;
  return `${(bytes / 1024 ** 3).toFixed(1)}G`;
}

/**
 * Numbered lines (the first numbered `first`), cut at a line boundary to `max` characters,
 * with the note that says how to read on (docs/TOOL.md#output-limit).
 * @param {string[]} lines
 * @param {number} first
 * @param {number} total the file's line count
 */
export function numberedLines(lines, first, total, max = MAX_VIEW_CHARS) {
  const out = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const cost = (i > 0 ? 1 : 0) + NUMBER_WIDTH + 1 + chars(lines[i]);
    if (used + cost > max) break;
    out.push(`${String(first + i).padStart(NUMBER_WIDTH)}\t${lines[i]}`);
    used += cost;
  }
  if (out.length === lines.length) return out.join("\n");
  if (out.length === 0) {
    const line = lines[0];
    const keep = max - NUMBER_WIDTH - 1;
    return (
      `${String(first).padStart(NUMBER_WIDTH)}\t${firstChars(line, keep)}` +
      `\n[Truncated: line ${first} is ${group(chars(line))} characters long and was cut after ${group(keep)}; ` +
      `lines longer than ${group(max)} characters cannot be shown whole.]`
    );
  }
  const last = first + out.length - 1;
  return `${out.join("\n")}\n[Truncated: showing lines ${first}-${last} of ${group(total)}. Use view_range [${last + 1}, -1] to read on.]`;
}

/** The view of a text file. @param {string} path as sent @param {string} text */
export function fileView(path, text) {
  const lines = text.split("\n");
  return `Here's the content of ${path} with line numbers:\n${numberedLines(lines, 1, lines.length)}`;
}

/** UTF-16 code unit order, as `Array.prototype.sort` sorts. @param {string} a @param {string} b */
const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const hidden = (/** @type {string} */ name) => name.startsWith(".") || name === "node_modules";

/**
 * The listing of directory `dir` (canonical tool path, `/memories` for the root) from every
 * file below it, two levels deep, cut at the view limit (docs/TOOL.md#directory-listing).
 * @param {string} path as sent
 * @param {string} dir
 * @param {Array<{ path: string, size: number }>} files tool paths below `dir`
 */
export function directoryListing(path, dir, files) {
  /** @type {Map<string, { size: number, isDir: boolean, children: Map<string, { size: number, isDir: boolean }> }>} */
  const top = new Map();
  let total = 0;
  for (const file of files) {
    const [first, second, ...deeper] = file.path.slice(dir.length + 1).split("/");
    total += file.size;
    let entry = top.get(first);
    if (!entry) top.set(first, (entry = { size: 0, isDir: false, children: new Map() }));
    entry.size += file.size;
    if (second === undefined) continue;
    entry.isDir = true;
    let child = entry.children.get(second);
    if (!child) entry.children.set(second, (child = { size: 0, isDir: false }));
    child.size += file.size;
    if (deeper.length > 0) child.isDir = true;
  }
  const lines = [
    `Here're the files and directories up to 2 levels deep in ${path}, excluding hidden items and node_modules:\n${formatSize(total)}\t${dir}`,
  ];
  for (const name of [...top.keys()].sort(byName)) {
    if (hidden(name)) continue;
    const entry = /** @type {any} */ (top.get(name));
    lines.push(`${formatSize(entry.size)}\t${dir}/${name}${entry.isDir ? "/" : ""}`);
    for (const sub of [...entry.children.keys()].sort(byName)) {
      if (hidden(sub)) continue;
      const child = entry.children.get(sub);
      lines.push(`${formatSize(child.size)}\t${dir}/${name}/${sub}${child.isDir ? "/" : ""}`);
    }
  }
  return cutListing(lines);
}

/** The listing's lines joined, cut after the last whole entry within the view limit. @param {string[]} lines */
function cutListing(lines) {
  const whole = lines.join("\n");
  if (whole.length <= MAX_VIEW_CHARS && chars(whole) <= MAX_VIEW_CHARS) return whole;
  // lines[0] holds the header and the directory's own line: it always stays.
  let used = chars(lines[0]);
  let shown = 1;
  while (shown < lines.length && used + 1 + chars(lines[shown]) <= MAX_VIEW_CHARS) used += 1 + chars(lines[shown++]);
  return `${lines.slice(0, shown).join("\n")}\n[Truncated: showing ${group(shown - 1)} of ${group(lines.length - 1)} entries. View a directory inside it to list the rest.]`;
}

/**
 * str_replace on `text`: the new text, or the error result (docs/TOOL.md#str_replace).
 * @param {string} path as sent
 * @param {string} text
 * @param {string} oldStr
 * @param {string} newStr
 * @returns {{ text: string, result: Result } | { error: Result }}
 */
export function replaceOnce(path, text, oldStr, newStr = "") {
  const at = text.indexOf(oldStr);
  if (at < 0 || oldStr === "") {
    return { error: fail(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`) };
  }
  const again = text.indexOf(oldStr, at + oldStr.length);
  if (again >= 0) {
    const lines = [];
    for (let i = at; i >= 0; i = text.indexOf(oldStr, i + oldStr.length)) lines.push(lineOf(text, i));
    const listed = lines.slice(0, 100).join(", ") + (lines.length > 100 ? `, … (${group(lines.length)} in all)` : "");
    return { error: fail(`No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${listed}. Please ensure it is unique`) };
  }
  const next = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  const startLine = lineOf(text, at);
  const endLine = startLine + newStr.split("\n").length - 1;
  const lines = next.split("\n");
  const from = Math.max(1, startLine - 2);
  const to = Math.min(lines.length, endLine + 2);
  const snippet = numberedLines(lines.slice(from - 1, to), from, lines.length);
  return {
    text: next,
    result: ok(`The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${snippet}`),
  };
}

/** The 1-based line of offset `at`. @param {string} text @param {number} at */
function lineOf(text, at) {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * insert on `text`: the new text, or the error result (docs/TOOL.md#insert).
 * @param {string} path as sent
 * @param {string} text
 * @param {number} insertLine
 * @param {string} insertText
 * @returns {{ text: string, result: Result } | { error: Result }}
 */
export function insertAt(path, text, insertLine, insertText) {
  const lines = text.split("\n");
  if (!Number.isInteger(insertLine) || insertLine < 0 || insertLine > lines.length) {
    return {
      error: fail(`Error: Invalid \`insert_line\` parameter: ${insertLine}. It should be within the range of lines of the file: [0, ${lines.length}]`),
    };
  }
  lines.splice(insertLine, 0, insertText.endsWith("\n") ? insertText.slice(0, -1) : insertText);
  return { text: lines.join("\n"), result: ok(`The file ${path} has been edited.`) };
}

/**
 * A tool path made canonical the simple way: `/memories` or below it, no trailing `/`; null
 * for anything else. (No check of `..`, percent-encoding, NFC, hidden names or lengths.)
 * @param {unknown} path
 */
export function canonical(path) {
  if (typeof path !== "string") return null;
  const trimmed = path.length > "/memories".length && path.endsWith("/") ? path.slice(0, -1) : path;
  if (trimmed === "/memories") return trimmed;
  return trimmed.startsWith("/memories/") ? trimmed : null;
}

/** Each directory on the way to `path`, below /memories: `/memories/a`, `/memories/a/b`. @param {string} path */
export function ancestors(path) {
  const out = [];
  for (let i = path.indexOf("/", "/memories/".length); i > 0; i = path.indexOf("/", i + 1)) out.push(path.slice(0, i));
  return out;
}

/** The invalid-path result the alternatives give (the package's texts differ by case). @param {unknown} path */
export const badPath = (path) => fail(`Error: The path ${String(path)} is not under /memories`);
