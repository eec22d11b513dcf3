// The demo's line diff (www/line-diff.js), which the history view shows between versions: a
// shortest edit script, hunks with context, `diff -u` text. Pure functions, run in Node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { diffLines, hunks, unifiedText, diffStats } from "../../www/line-diff.js";

/** Rebuilds both sides from a diff: every diff must give back exactly what it compared. */
function sides(/** @type {import("../../www/line-diff.js").DiffLine[]} */ lines) {
  return {
    old: lines.filter((l) => l.type !== "add").map((l) => l.text).join("\n"),
    new: lines.filter((l) => l.type !== "del").map((l) => l.text).join("\n"),
  };
}

test("equal texts: every line kept, no hunks", () => {
  const lines = diffLines("a\nb\n", "a\nb\n");
  assert.deepEqual(lines.map((l) => l.type), ["same", "same", "same"]);
  assert.deepEqual(hunks(lines), []);
});

test("one changed line, with context and line numbers", () => {
  const before = "# Lisbon trip\n- dates: 12–16 May\n- status: planning\n";
  const after = "# Lisbon trip\n- dates: 2–6 June\n- hotel: Alfama Guesthouse\n- status: planning\n";
  const lines = diffLines(before, after);
  assert.deepEqual(sides(lines), { old: before, new: after });
  assert.deepEqual(diffStats(lines), { added: 2, removed: 1 });
  assert.equal(
    unifiedText(hunks(lines)),
    [
      "@@ -1,4 +1,5 @@",
      " # Lisbon trip",
      "-- dates: 12–16 May",
      "+- dates: 2–6 June",
      "+- hotel: Alfama Guesthouse",
      " - status: planning",
      " ",
    ].join("\n"),
  );
  const removed = lines.find((l) => l.type === "del");
  assert.deepEqual(removed, { type: "del", text: "- dates: 12–16 May", oldLine: 2, newLine: null });
});

test("from nothing and to nothing", () => {
  assert.equal(unifiedText(hunks(diffLines("", "a\nb"))), "@@ -1,1 +1,2 @@\n-\n+a\n+b");
  const gone = diffLines("a\nb", "");
  assert.deepEqual(sides(gone), { old: "a\nb", new: "" });
});

test("far-apart changes make two hunks; near ones share one", () => {
  const base = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  const far = [...base];
  far[1] = "changed 2";
  far[25] = "changed 26";
  const farHunks = hunks(diffLines(base.join("\n"), far.join("\n")));
  assert.equal(farHunks.length, 2);
  assert.deepEqual(
    farHunks.map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount]),
    [
      [1, 5, 1, 5],
      [23, 7, 23, 7],
    ],
  );
  const near = [...base];
  near[10] = "x";
  near[15] = "y";
  assert.equal(hunks(diffLines(base.join("\n"), near.join("\n"))).length, 1);
});

test("a shortest script on shuffled lines, and both sides rebuilt", () => {
  const a = "a\nb\nc\na\nb\nb\na";
  const b = "c\nb\na\nb\na\nc";
  const lines = diffLines(a, b);
  assert.deepEqual(sides(lines), { old: a, new: b });
  // Myers' classic example: 5 edits.
  const { added, removed } = diffStats(lines);
  assert.equal(added + removed, 5);
});

test("large and very different texts stay correct", () => {
  const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join("\n");
  const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join("\n");
  const lines = diffLines(a, b);
  assert.deepEqual(sides(lines), { old: a, new: b });
  assert.deepEqual(diffStats(lines), { added: 3000, removed: 3000 });
});
