// Text with line numbers, and a line diff between two texts, as DOM: a gutter of numbers
// beside the lines, additions and removals marked by colour and by a +/− sign (so the diff
// reads without colour too).

import { el } from "../render.js";
import { diffLines, hunks, diffStats, splitLines } from "../line-diff.js";

/**
 * A text with a line-number gutter, as an editor shows it.
 * @param {string} text
 * @param {{ testid?: string }} [options]
 */
export function renderNumbered(text, { testid } = {}) {
  const lines = splitLines(text);
  const width = String(lines.length).length;
  return el(
    "div",
    { className: "numbered", dataset: testid ? { testid } : {}, tabindex: 0, role: "region", "aria-label": "Text with line numbers" },
    ...lines.map((line, i) =>
      el(
        "div",
        { className: "line" },
        el("span", { className: "ln", "aria-hidden": "true" }, String(i + 1).padStart(width, " ")),
        el("span", { className: "code" }, line),
      ),
    ),
  );
}

/**
 * The changes from `oldText` to `newText`: hunks with three lines of context, a summary line,
 * or "no changes".
 * @param {string} oldText
 * @param {string} newText
 * @param {{ oldLabel: string, newLabel: string, testid?: string, noChanges?: string }} labels
 *   `noChanges`: what to say when the texts are the same (a rename says it was a rename)
 */
export function renderDiff(oldText, newText, { oldLabel, newLabel, testid = "diff", noChanges = "No changes: the texts are the same." }) {
  const lines = diffLines(oldText, newText);
  const { added, removed } = diffStats(lines);
  const list = hunks(lines, 3);
  const head = el(
    "p",
    { className: "diff-head meta" },
    el("span", { className: "diff-old-label" }, `− ${oldLabel}`),
    el("span", { className: "diff-new-label" }, `+ ${newLabel}`),
    el("span", { dataset: { testid: `${testid}-stats` } }, `${added} line${added === 1 ? "" : "s"} added, ${removed} removed`),
  );
  if (list.length === 0) {
    return el("div", { className: "diff", dataset: { testid } }, head, el("p", { className: "placeholder", dataset: { testid: `${testid}-same` } }, noChanges));
  }
  const width = String(Math.max(splitLines(oldText).length, splitLines(newText).length)).length;
  const pad = (/** @type {number | null} */ n) => (n === null ? "" : String(n)).padStart(width, " ");
  const sign = { same: " ", del: "−", add: "+" };
  return el(
    "div",
    { className: "diff", dataset: { testid } },
    head,
    el(
      "div",
      { className: "diff-body", tabindex: 0, role: "region", "aria-label": `Changes from ${oldLabel} to ${newLabel}` },
      ...list.flatMap((hunk) => [
        el("div", { className: "diff-hunk" }, `@@ −${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} @@`),
        ...hunk.lines.map((line) =>
          el(
            "div",
            { className: `diff-line diff-${line.type}`, dataset: { testid: `${testid}-${line.type}` } },
            el("span", { className: "ln", "aria-hidden": "true" }, pad(line.oldLine)),
            el("span", { className: "ln", "aria-hidden": "true" }, pad(line.newLine)),
            el("span", { className: "sign" }, sign[line.type]),
            el("span", { className: "code" }, line.text),
          ),
        ),
      ]),
    ),
  );
}
