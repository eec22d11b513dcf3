// A line diff for the history view: Myers' O(ND) algorithm over lines, then hunks with a few
// lines of context, as `diff -u` shows them. Pure functions, no DOM (tests run them in Node).

/**
 * One line of a diff: kept, removed from the old text, or added in the new one. Line numbers
 * count from 1; a removed line has no new number, an added line no old one.
 * @typedef {{ type: "same" | "del" | "add", text: string, oldLine: number | null, newLine: number | null }} DiffLine
 */

/**
 * A run of changes with its context, as a unified diff's hunk header counts it (old start and count, new start and count).
 * @typedef {{ oldStart: number, oldCount: number, newStart: number, newCount: number, lines: DiffLine[] }} Hunk
 */

/** Past this many differing lines the diff gives up finding a short script and replaces the middle whole. */
const MAX_EDIT_DISTANCE = 1000;

/**
 * Splits a text into lines the way an editor numbers them: `"a\nb\n"` is `["a", "b", ""]`,
 * so a trailing newline shows as a last empty line (as the memory tool's view numbers it).
 * @param {string} text
 * @returns {string[]}
 */
export function splitLines(text) {
  return text.split("\n");
}

/**
 * The line diff of two texts: every line of both, in order, marked same, del or add.
 * @param {string} oldText
 * @param {string} newText
 * @returns {DiffLine[]}
 */
export function diffLines(oldText, newText) {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // Common head and tail first: cheap, and most edits touch a few lines of a file.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  /** @type {DiffLine[]} */
  const out = [];
  for (let i = 0; i < head; i++) out.push({ type: "same", text: a[i], oldLine: i + 1, newLine: i + 1 });
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  let oldLine = head + 1;
  let newLine = head + 1;
  for (const [type, text] of middle) {
    if (type === "same") out.push({ type, text, oldLine: oldLine++, newLine: newLine++ });
    else if (type === "del") out.push({ type, text, oldLine: oldLine++, newLine: null });
    else out.push({ type, text, oldLine: null, newLine: newLine++ });
  }
  for (let i = a.length - tail; i < a.length; i++) {
    out.push({ type: "same", text: a[i], oldLine: oldLine++, newLine: newLine++ });
  }
  return out;
}

/**
 * Myers' shortest edit script between two line lists, as `[type, text]` pairs in order.
 * @param {string[]} a
 * @param {string[]} b
 * @returns {Array<["same" | "del" | "add", string]>}
 */
function myers(a, b) {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((text) => /** @type {["add", string]} */ (["add", text]));
  if (m === 0) return a.map((text) => /** @type {["del", string]} */ (["del", text]));
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  /** @type {Int32Array[]} */
  const trace = [];
  let v = new Int32Array(2 * max + 3);
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = next;
  }
  if (found < 0) {
    // Too different to be worth a shortest script: everything old out, everything new in.
    return [
      ...a.map((text) => /** @type {["del", string]} */ (["del", text])),
      ...b.map((text) => /** @type {["add", string]} */ (["add", text])),
    ];
  }
  // Walk back through the saved frontiers, collecting the script from its end.
  /** @type {Array<["same" | "del" | "add", string]>} */
  const script = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && prev[offset + k - 1] < prev[offset + k + 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = prev[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      script.push(["same", a[x]]);
    }
    if (down) script.push(["add", b[--y]]);
    else script.push(["del", a[--x]]);
  }
  while (x > 0 && y > 0) {
    script.push(["same", a[--x]]);
    y--;
  }
  return script.reverse();
}

/**
 * Groups a diff into hunks: each run of changes with up to `context` kept lines either side;
 * runs closer than twice the context share a hunk. No changes, no hunks.
 * @param {DiffLine[]} lines
 * @param {number} [context]
 * @returns {Hunk[]}
 */
export function hunks(lines, context = 3) {
  /** @type {Hunk[]} */
  const out = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].type === "same") {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is within reach of this one's context.
    for (;;) {
      while (end < lines.length && lines[end].type !== "same") end++;
      let gap = end;
      while (gap < lines.length && lines[gap].type === "same") gap++;
      if (gap < lines.length && gap - end <= 2 * context) end = gap;
      else break;
    }
    const stop = Math.min(lines.length, end + context);
    const slice = lines.slice(start, stop);
    const firstOld = slice.find((l) => l.oldLine !== null)?.oldLine ?? oldBefore(lines, start) + 1;
    const firstNew = slice.find((l) => l.newLine !== null)?.newLine ?? newBefore(lines, start) + 1;
    const oldCount = slice.filter((l) => l.type !== "add").length;
    const newCount = slice.filter((l) => l.type !== "del").length;
    out.push({
      oldStart: oldCount === 0 ? firstOld - 1 : firstOld,
      oldCount,
      newStart: newCount === 0 ? firstNew - 1 : firstNew,
      newCount,
      lines: slice,
    });
    i = stop;
  }
  return out;
}

/** @param {DiffLine[]} lines @param {number} index the old line number last seen before `index` */
function oldBefore(lines, index) {
  for (let i = index - 1; i >= 0; i--) if (lines[i].oldLine !== null) return /** @type {number} */ (lines[i].oldLine);
  return 0;
}

/** @param {DiffLine[]} lines @param {number} index the new line number last seen before `index` */
function newBefore(lines, index) {
  for (let i = index - 1; i >= 0; i--) if (lines[i].newLine !== null) return /** @type {number} */ (lines[i].newLine);
  return 0;
}

/**
 * How many lines a diff adds and removes.
 * @param {DiffLine[]} lines
 * @returns {{ added: number, removed: number }}
 */
export function diffStats(lines) {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.type === "add") added++;
    else if (line.type === "del") removed++;
  }
  return { added, removed };
}

/**
 * The diff as `diff -u` prints its hunks (no file header): for copying, and for tests.
 * @param {Hunk[]} list
 * @returns {string}
 */
export function unifiedText(list) {
  const sign = { same: " ", del: "-", add: "+" };
  return list
    .map(
      (h) =>
        `@@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@\n` +
        h.lines.map((l) => `${sign[l.type]}${l.text}`).join("\n"),
    )
    .join("\n");
}
