// Command sequences for the differential test (differential.test.mjs): each runs through the
// official SDK's BetaLocalFilesystemMemoryTool and through ours, from an empty store.
//
// A step is one of
//   same(input, expected?)          both sides must give the identical result (exact comparison);
//                                   `expected`, when given, pins the text too.
//   differ(input, {sdk, ours, why}) the documented departures of docs/TOOL.md#departures-from-the-sdk: each side must give
//                                   exactly its own variant. `sdk` may be a function of the SDK side
//                                   (its temp dir shows up in host errors, its directory sizes come
//                                   from the filesystem) or a RegExp for texts Node itself words.
//   put(path, bytes)                the host writes a file (ours: writeFile; SDK: bytes on disk).
//   custom(why, fn)                 anything else (disk checks, parallel calls).
// Every `why` names a row of WHY, and every row of WHY is used by some case (checked by the test).

import assert from "node:assert/strict";
import fs from "node:fs";

/** The rows of docs/TOOL.md#departures-from-the-sdk (same numbering, 1–22). */
export const WHY = {
  prefix: "docs/TOOL.md#departures-from-the-sdk row 1: the SDK prefixes every error with `Error: `; we keep the docs' texts",
  pathMessage: "docs/TOOL.md#departures-from-the-sdk row 2: `Path must start with /memories` vs `Path must be /memories or start with /memories/`",
  sizes: "docs/TOOL.md#departures-from-the-sdk row 3: SDK prints exact multiples as `4K` and directories as the filesystem's size; we print `4.0K` and sum a directory's files",
  rawListing: "docs/TOOL.md#departures-from-the-sdk row 4: SDK listing lines echo the raw path (`/memories//x`); ours are canonical",
  backup: "docs/TOOL.md#departures-from-the-sdk row 5: SDK maps `/memories_backup/x` to `<root>/_backup/x`; we refuse it",
  normalise: "docs/TOOL.md#departures-from-the-sdk row 6: SDK normalises `..`, `.` and empty segments and takes `%2e%2e` and `\\` as names; we refuse them",
  characters: "docs/TOOL.md#departures-from-the-sdk row 7: SDK accepts control and invisible formatting characters and leaves name length to the host; we refuse them and allow 1,024-byte paths",
  nfc: "docs/TOOL.md#departures-from-the-sdk row 8: SDK keeps NFC and NFD spellings as two files; we store one file in NFC",
  inputChecks: "docs/TOOL.md#departures-from-the-sdk row 9: SDK does no input checks (JavaScript errors, coercions, handler methods as commands); we give the errors of docs/TOOL.md#input-errors",
  strReplace: "docs/TOOL.md#departures-from-the-sdk row 10: SDK matches per line (multi-line old_str never matches, two on one line pass), writes `undefined` for a missing new_str, prepends for an empty old_str",
  snippet: "docs/TOOL.md#departures-from-the-sdk row 11: SDK snippet is lines L-2..L+2 whatever new_str holds; ours reaches 2 lines past the inserted text",
  viewRange: "docs/TOOL.md#departures-from-the-sdk row 12: SDK ignores a view_range of the wrong shape, prints odd line numbers for non-integers and a bare header out of range; we give the text editor tool's errors",
  viewLimit: "docs/TOOL.md#departures-from-the-sdk row 13: SDK has no view limit; ours cuts at 16,000 characters with a note",
  binary: "docs/TOOL.md#departures-from-the-sdk row 14: SDK shows images and binaries as garbled text and edits them as text; we return image blocks and refuse text commands on binaries",
  hostErrors: "docs/TOOL.md#departures-from-the-sdk row 15: raw host errors (ENOTDIR, EINVAL, ENAMETOOLONG, host paths) reach the model through the SDK; ours name only the model's paths",
  leftovers: "docs/TOOL.md#departures-from-the-sdk row 16: a failed SDK create/rename leaves empty files or directories behind, and empty directories linger; ours changes nothing and directories are implicit",
  trailingSlash: "docs/TOOL.md#departures-from-the-sdk row 17: SDK `create /memories/new/` creates a file `new`; we refuse it",
  concurrency: "docs/TOOL.md#departures-from-the-sdk row 18: concurrent SDK edits lose one; ours are serializable",
  notAFile: "docs/TOOL.md#departures-from-the-sdk row 19: SDK says `The path {path} is not a file.` for a directory and adds `Please provide a valid path.` for insert on a missing file; we use the docs' `does not exist` texts",
  maxLines: "docs/TOOL.md#departures-from-the-sdk row 20: SDK `File {path} has too many lines (n). Maximum is 999,999 lines.`; ours is the docs' text",
  limits: "docs/TOOL.md#departures-from-the-sdk row 21: SDK has no size or count limits and no read-only mode",
  echoes: "docs/TOOL.md#departures-from-the-sdk row 22: SDK results echo inputs raw and whole and list every matching line; ours escape, cut at 2,000 characters and list at most 100 lines",
};

// ---------------------------------------------------------------- result and text builders

/** A success result. */
/** Controls and invisible formatting characters, which results echo escaped (docs/TOOL.md#result-shape). */
const HIDDEN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;
/** @param {string} text an input as results echo it: `\t`, `\n`, `\r`, else `\u{XXXX}` */
export const escaped = (text) =>
  text.replace(HIDDEN, (c) =>
    c === "\t" ? "\\t" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : `\\u{${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`,
  );
export const ok = (content) => ({ content, isError: false });
/** An error result. */
export const err = (content) => ({ content, isError: true });

const num = (n, line) => `${String(n).padStart(6, " ")}\t${line}`;
const numbered = (lines, start = 1) => lines.map((l, i) => num(start + i, l)).join("\n");

/** The text of a file view of `lines`, the first numbered `start`. */
export const fileView = (p, lines, start = 1) =>
  `Here's the content of ${p} with line numbers:\n${numbered(lines, start)}`;
/** A directory listing: header, then `rows` ("{size}\t{path}"). */
export const listing = (p, rows) =>
  [`Here're the files and directories up to 2 levels deep in ${p}, excluding hidden items and node_modules:`, ...rows].join("\n");
/** A str_replace success text. */
export const snippet = (lines, start) =>
  `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${numbered(lines, start)}`;

const created = (p) => ok(`File created successfully at: ${p}`);
const edited = (p) => ok(`The file ${p} has been edited.`);
const deleted = (p) => ok(`Successfully deleted ${p}`);
const renamed = (a, b) => ok(`Successfully renamed ${a} to ${b}`);

// ---------------------------------------------------------------- inputs

const view = (path, view_range) => (view_range === undefined ? { command: "view", path } : { command: "view", path, view_range });
const create = (path, file_text) => ({ command: "create", path, file_text });
const strReplace = (path, old_str, new_str) =>
  new_str === undefined ? { command: "str_replace", path, old_str } : { command: "str_replace", path, old_str, new_str };
const insert = (path, insert_line, insert_text) => ({ command: "insert", path, insert_line, insert_text });
const del = (path) => ({ command: "delete", path });
const rename = (old_path, new_path) => ({ command: "rename", old_path, new_path });

// ---------------------------------------------------------------- steps

export const same = (input, expected) => ({ kind: "same", input, expected });
export const differ = (input, { sdk, ours, why }) => ({ kind: "differ", input, sdk, ours, why: [].concat(why) });
/** The SDK's text is ours with `Error: ` in front; nothing else differs. */
export const prefixed = (input, text) => differ(input, { sdk: err(`Error: ${text}`), ours: err(text), why: "prefix" });
export const put = (path, bytes) => ({ kind: "put", path, bytes });
export const custom = (why, fn) => ({ kind: "custom", why: [].concat(why), fn });
/** Opens ours again over the same storage with other options (the case needs `sharedStorage`). */
export const reopenOurs = (options) => ({ kind: "reopen", options });

/** `sdk` expectation: the SDK's raw host error for a realpath of `memPath` (its temp dir included). */
const sdkRealpathError = (code, text, memPath) => (sdk) => err(`Error: ${code}: ${text}, realpath '${sdk.disk(memPath)}'`);
/** Asserts an SDK-side file on disk. */
const sdkDiskFile = (memPath, expectedBytes) => (sdk) => {
  const st = fs.statSync(sdk.disk(memPath));
  assert.ok(st.isFile(), `SDK left a file at ${memPath}`);
  assert.deepEqual(new Uint8Array(fs.readFileSync(sdk.disk(memPath))), new Uint8Array(Buffer.from(expectedBytes)));
};
const sdkDiskDir = (memPath, entries) => (sdk) => {
  assert.ok(fs.statSync(sdk.disk(memPath)).isDirectory(), `SDK left a directory at ${memPath}`);
  assert.deepEqual(fs.readdirSync(sdk.disk(memPath)).sort(), entries);
};

// ---------------------------------------------------------------- the cases

const FIVE = "l1\nl2\nl3\nl4\nl5"; // 5 lines, no trailing newline
const FIVE_LINES = ["l1", "l2", "l3", "l4", "l5"];
const F = "/memories/f.md";
const rangeHeader = (p) => `Here's the content of ${p} with line numbers:\n`;

const S = "/memories/s.md";
const GREEK = "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\n"; // 8 lines, the last empty

/** What the SDK answers for commands that are not its six (`handlers[command]`). */
const SDK_UNKNOWN = new Map([
  ["foo", err("Error: foo not implemented")],
  ["VIEW", err("Error: VIEW not implemented")],
  ["toString", ok("[object Object]")],
  ["__proto__", err("Error: handler.bind is not a function")],
  ["constructor", err("Error: Class constructor BetaLocalFilesystemMemoryTool cannot be invoked without 'new'")],
  // valueOf hands the host object itself to the model as the tool result
  ["valueOf", { check: (r, sdk) => assert.ok(r.isError === false && r.content === sdk.handlers, "valueOf returns the handler object") }],
  // Object.prototype methods answer a boolean, as a success
  ["hasOwnProperty", { check: (r) => assert.deepEqual(r, { content: false, isError: false }) }],
  // a private method of the class, reachable by name
  ["validatePath", err("Error: memoryPath.startsWith is not a function")],
]);

/** @type {Array<{name: string, ours?: object, sharedStorage?: boolean, slow?: boolean, steps: object[]}>} */
export const CASES = [
  {
    name: "view of an empty /memories",
    steps: [
      differ(view("/memories"), {
        sdk: (sdk) => ok(listing("/memories", [`${sdk.dsz("/memories")}\t/memories`])),
        ours: ok(listing("/memories", ["0B\t/memories"])),
        why: "sizes",
      }),
      differ(view("/memories/"), {
        sdk: (sdk) => ok(listing("/memories/", [`${sdk.dsz("/memories")}\t/memories/`])),
        ours: ok(listing("/memories/", ["0B\t/memories"])),
        why: ["sizes", "rawListing"],
      }),
    ],
  },
  {
    name: "create and view text files",
    steps: [
      same(create("/memories/notes.md", "hello\nworld\n"), created("/memories/notes.md")),
      same(view("/memories/notes.md"), ok(fileView("/memories/notes.md", ["hello", "world", ""]))),
      same(create("/memories/plain.md", "no newline"), created("/memories/plain.md")),
      same(view("/memories/plain.md"), ok(fileView("/memories/plain.md", ["no newline"]))),
      same(create("/memories/empty.md", ""), created("/memories/empty.md")),
      same(view("/memories/empty.md"), ok(`Here's the content of /memories/empty.md with line numbers:\n     1\t`)),
      same(create("/memories/crlf.md", "a\r\nb\r\n"), created("/memories/crlf.md")),
      same(view("/memories/crlf.md"), ok(fileView("/memories/crlf.md", ["a\r", "b\r", ""]))),
      same(create("/memories/uni.md", "héllo 👋\n日本語"), created("/memories/uni.md")),
      same(view("/memories/uni.md"), ok(fileView("/memories/uni.md", ["héllo 👋", "日本語"]))),
      // a lone surrogate is written as U+FFFD on both sides
      same(create("/memories/sur.md", "a\uD800b"), created("/memories/sur.md")),
      same(view("/memories/sur.md"), ok(fileView("/memories/sur.md", ["a\uFFFDb"]))),
      same(create("/memories/deep/er/x.md", "x"), created("/memories/deep/er/x.md")),
      same(view("/memories/deep/er/x.md"), ok(fileView("/memories/deep/er/x.md", ["x"]))),
      same(create("/memories/.hidden", "h"), created("/memories/.hidden")),
      same(view("/memories/.hidden"), ok(fileView("/memories/.hidden", ["h"]))),
      // a trailing slash names the entry itself
      same(view("/memories/plain.md/"), ok(fileView("/memories/plain.md/", ["no newline"]))),
      // unknown fields are ignored
      same({ command: "view", path: "/memories/plain.md", extra: 1, view_range: null }, ok(fileView("/memories/plain.md", ["no newline"]))),
      same(create("/memories/notes.md", "again"), err("Error: File /memories/notes.md already exists")),
      same(create("/memories/deep", "x"), err("Error: File /memories/deep already exists")),
      same(create("/memories/deep/", "x"), err("Error: File /memories/deep/ already exists")),
      same(create("/memories", "x"), err("Error: File /memories already exists")),
      same(create("/memories/", "x"), err("Error: File /memories/ already exists")),
      same(view("/memories/notes.md"), ok(fileView("/memories/notes.md", ["hello", "world", ""]))),
      prefixed(view("/memories/missing.md"), "The path /memories/missing.md does not exist. Please provide a valid path."),
      prefixed(view("/memories/deep/nope"), "The path /memories/deep/nope does not exist. Please provide a valid path."),
      // names made of dots only, a literal percent sign, ZWJ/ZWNJ: ordinary names on both sides
      same(create("/memories/a..b.md", "1"), created("/memories/a..b.md")),
      same(create("/memories/.../x.md", "2"), created("/memories/.../x.md")),
      same(create("/memories/100%.md", "3"), created("/memories/100%.md")),
      same(create("/memories/%c0%ae.md", "4"), created("/memories/%c0%ae.md")),
      same(create("/memories/👩\u200D💻.md", "5"), created("/memories/👩\u200D💻.md")),
      same(create("/memories/\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645.md", "6"), created("/memories/\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645.md")),
      same(view("/memories/100%.md"), ok(fileView("/memories/100%.md", ["3"]))),
      same(view("/memories/👩\u200D💻.md"), ok(fileView("/memories/👩\u200D💻.md", ["5"]))),
      // `..` that leaves /memories: the same refusal on both sides
      same(view("/memories/../etc/passwd"), err("Error: Path /memories/../etc/passwd would escape /memories directory")),
      same(view("/memories/.."), err("Error: Path /memories/.. would escape /memories directory")),
      // case-sensitive names
      same(create("/memories/Notes.md", "N"), created("/memories/Notes.md")),
      same(view("/memories/Notes.md"), ok(fileView("/memories/Notes.md", ["N"]))),
    ],
  },
  {
    name: "view_range",
    steps: [
      same(create(F, FIVE), created(F)),
      same(view(F, [2, 3]), ok(fileView(F, ["l2", "l3"], 2))),
      same(view(F, [2, -1]), ok(fileView(F, ["l2", "l3", "l4", "l5"], 2))),
      same(view(F, [0, 2]), ok(fileView(F, ["l1", "l2"]))),
      same(view(F, [-3, 2]), ok(fileView(F, ["l1", "l2"]))),
      same(view(F, [3, 100]), ok(fileView(F, ["l3", "l4", "l5"], 3))),
      same(view(F, [1, 5]), ok(fileView(F, FIVE_LINES))),
      same(view(F, [5, 5]), ok(fileView(F, ["l5"], 5))),
      same(view(F, [5, -1]), ok(fileView(F, ["l5"], 5))),
      same(view(F, [2, -2]), ok(fileView(F, ["l2", "l3"], 2))),
      same(view(F, null), ok(fileView(F, FIVE_LINES))),
      same(view(F, [-1, -1]), ok(fileView(F, FIVE_LINES))),
      same(view(F, [0, -1]), ok(fileView(F, FIVE_LINES))),
      differ(view(F, [6, 7]), {
        sdk: ok(rangeHeader(F)),
        ours: err("Error: Invalid `view_range`: [6, 7]. Its first element `6` should be within the range of lines of the file: [1, 5]"),
        why: "viewRange",
      }),
      differ(view(F, [6, -1]), {
        sdk: ok(rangeHeader(F)),
        ours: err("Error: Invalid `view_range`: [6, -1]. Its first element `6` should be within the range of lines of the file: [1, 5]"),
        why: "viewRange",
      }),
      differ(view(F, [4, 2]), {
        sdk: ok(rangeHeader(F)),
        ours: err("Error: Invalid `view_range`: [4, 2]. Its second element `2` should be larger or equal than its first `4`"),
        why: "viewRange",
      }),
      differ(view(F, [0, 0]), {
        sdk: ok(rangeHeader(F)),
        ours: err("Error: Invalid `view_range`: [0, 0]. Its second element `0` (line 0) should be larger or equal than its first `0` (line 1)"),
        why: "viewRange",
      }),
      differ(view(F, [3, -3]), {
        sdk: ok(rangeHeader(F)),
        ours: err("Error: Invalid `view_range`: [3, -3]. Its second element `-3` (line 2) should be larger or equal than its first `3`"),
        why: "viewRange",
      }),
      ...[[1, 2, 3], [2], "1-2", {}, []].map((range) =>
        differ(view(F, range), {
          sdk: ok(fileView(F, FIVE_LINES)),
          ours: err("Error: Invalid `view_range`. It should be a list of two integers."),
          why: "viewRange",
        }),
      ),
      differ(view(F, [1.5, 2]), {
        sdk: ok(`${rangeHeader(F)}   1.5\tl1\n   2.5\tl2`),
        ours: err("Error: Invalid `view_range`. It should be a list of two integers."),
        why: "viewRange",
      }),
      differ(view(F, ["1", "2"]), {
        sdk: ok(fileView(F, ["l1", "l2"])),
        ours: err("Error: Invalid `view_range`. It should be a list of two integers."),
        why: ["viewRange", "inputChecks"],
      }),
      differ(view(F, [1, null]), {
        sdk: ok(rangeHeader(F)),
        ours: err("Error: Invalid `view_range`. It should be a list of two integers."),
        why: "viewRange",
      }),
      // a well-formed view_range is ignored for directories (the listing differs only by the directory row)
      differ(view("/memories", [1, 2]), {
        sdk: (sdk) => ok(listing("/memories", [`${sdk.dsz("/memories")}\t/memories`, `14B\t/memories/f.md`])),
        ours: ok(listing("/memories", ["14B\t/memories", "14B\t/memories/f.md"])),
        why: "sizes",
      }),
      // a malformed one is an input error before the path is looked at
      differ(view("/memories", [1]), {
        sdk: (sdk) => ok(listing("/memories", [`${sdk.dsz("/memories")}\t/memories`, `14B\t/memories/f.md`])),
        ours: err("Error: Invalid `view_range`. It should be a list of two integers."),
        why: ["viewRange", "sizes"],
      }),
      same(create("/memories/t.md", "a\nb\n"), created("/memories/t.md")),
      same(view("/memories/t.md", [2, -1]), ok(fileView("/memories/t.md", ["b", ""], 2))),
      same(view("/memories/t.md", [3, 3]), ok(fileView("/memories/t.md", [""], 3))),
    ],
  },
  {
    name: "echoes: escaped, cut and capped",
    steps: [
      same(create("/memories/e.md", "x\n".repeat(150)), created("/memories/e.md")),
      differ(strReplace("/memories/e.md", "a\u202Eb\tc", "y"), {
        sdk: err("Error: No replacement was performed, old_str `a\u202Eb\tc` did not appear verbatim in /memories/e.md."),
        ours: err("No replacement was performed, old_str `a\\u{202E}b\\tc` did not appear verbatim in /memories/e.md."),
        why: ["prefix", "echoes"],
      }),
      differ(strReplace("/memories/e.md", "q".repeat(5000), "y"), {
        sdk: err(`Error: No replacement was performed, old_str \`${"q".repeat(5000)}\` did not appear verbatim in /memories/e.md.`),
        ours: err(`No replacement was performed, old_str \`${"q".repeat(2000)}… [5,000 characters in all]\` did not appear verbatim in /memories/e.md.`),
        why: ["prefix", "echoes"],
      }),
      differ(strReplace("/memories/e.md", "x", "y"), {
        sdk: err(`Error: No replacement was performed. Multiple occurrences of old_str \`x\` in lines: ${Array.from({ length: 150 }, (_, i) => i + 1).join(", ")}. Please ensure it is unique`),
        ours: err(`No replacement was performed. Multiple occurrences of old_str \`x\` in lines: ${Array.from({ length: 100 }, (_, i) => i + 1).join(", ")}, … (150 in all). Please ensure it is unique`),
        why: ["prefix", "echoes"],
      }),
      same(view("/memories/e.md", [1, 1]), ok(fileView("/memories/e.md", ["x"], 1))),
    ],
  },
  {
    name: "str_replace: texts both sides share",
    steps: [
      same(create(S, GREEK), created(S)),
      same(strReplace(S, "delta", "DELTA"), ok(snippet(["beta", "gamma", "DELTA", "epsilon", "zeta"], 2))),
      same(strReplace(S, "alpha", "ALPHA"), ok(snippet(["ALPHA", "beta", "gamma"], 1))),
      same(strReplace(S, "gamma", "$&-$1-$$-$`"), ok(snippet(["ALPHA", "beta", "$&-$1-$$-$`", "DELTA", "epsilon"], 1))),
      same(strReplace(S, "psi", ""), ok(snippet(["$&-$1-$$-$`", "DELTA", "elon", "zeta", "eta"], 3))),
      same(view(S), ok(fileView(S, ["ALPHA", "beta", "$&-$1-$$-$`", "DELTA", "elon", "zeta", "eta", ""]))),
      prefixed(strReplace(S, "omega", "x"), "No replacement was performed, old_str `omega` did not appear verbatim in /memories/s.md."),
      prefixed(strReplace(S, "eta", "x"), "No replacement was performed. Multiple occurrences of old_str `eta` in lines: 2, 6, 7. Please ensure it is unique"),
      same(view(S), ok(fileView(S, ["ALPHA", "beta", "$&-$1-$$-$`", "DELTA", "elon", "zeta", "eta", ""]))),
      same(create("/memories/aaa.md", "aaa\n"), created("/memories/aaa.md")),
      same(strReplace("/memories/aaa.md", "aa", "X"), ok(snippet(["Xa", ""], 1))),
      same(strReplace("/memories/nope.md", "a", "b"), err("Error: The path /memories/nope.md does not exist. Please provide a valid path.")),
      same(strReplace("/memories/s.md/", "beta", "BETA"), ok(snippet(["ALPHA", "BETA", "$&-$1-$$-$`", "DELTA"], 1))),
      same(create("/memories/end.md", "a\nb\nc\n"), created("/memories/end.md")),
      same(strReplace("/memories/end.md", "c", "C"), ok(snippet(["a", "b", "C", ""], 1))),
      same(create("/memories/crlf.md", "x\r\ny\r\n"), created("/memories/crlf.md")),
      same(strReplace("/memories/crlf.md", "y\r", "Y"), ok(snippet(["x\r", "Y", ""], 1))),
      same(insert("/memories/crlf.md", 1, "mid\r\n"), edited("/memories/crlf.md")),
      same(view("/memories/crlf.md"), ok(fileView("/memories/crlf.md", ["x\r", "mid\r", "Y", ""]))),
    ],
  },
  {
    name: "str_replace: multi-line old_str",
    steps: [
      same(create(S, GREEK), created(S)),
      differ(strReplace(S, "beta\ngamma", "BG"), {
        sdk: err("Error: No replacement was performed, old_str `beta\ngamma` did not appear verbatim in /memories/s.md."),
        ours: ok(snippet(["alpha", "BG", "delta", "epsilon"], 1)),
        why: "strReplace",
      }),
      differ(view(S), {
        sdk: ok(fileView(S, GREEK.split("\n"))),
        ours: ok(fileView(S, ["alpha", "BG", "delta", "epsilon", "zeta", "eta", ""])),
        why: "strReplace",
      }),
    ],
  },
  {
    name: "str_replace: two matches on one line",
    steps: [
      same(create("/memories/two.md", "foo foo\nbar\n"), created("/memories/two.md")),
      differ(strReplace("/memories/two.md", "foo", "baz"), {
        sdk: ok(snippet(["baz foo", "bar", ""], 1)),
        ours: err("No replacement was performed. Multiple occurrences of old_str `foo` in lines: 1, 1. Please ensure it is unique"),
        why: "strReplace",
      }),
      differ(view("/memories/two.md"), {
        sdk: ok(fileView("/memories/two.md", ["baz foo", "bar", ""])),
        ours: ok(fileView("/memories/two.md", ["foo foo", "bar", ""])),
        why: "strReplace",
      }),
      // occurrences on two lines: the same line list on both sides, only the prefix differs
      same(create("/memories/three.md", "x\nfoo\nfoo foo\n"), created("/memories/three.md")),
      differ(strReplace("/memories/three.md", "foo", "baz"), {
        sdk: err("Error: No replacement was performed. Multiple occurrences of old_str `foo` in lines: 2, 3. Please ensure it is unique"),
        ours: err("No replacement was performed. Multiple occurrences of old_str `foo` in lines: 2, 3, 3. Please ensure it is unique"),
        why: ["strReplace", "prefix"],
      }),
    ],
  },
  {
    name: "str_replace: missing new_str",
    steps: [
      same(create("/memories/n.md", "keep\ndrop me\nkeep too"), created("/memories/n.md")),
      differ(strReplace("/memories/n.md", "drop me"), {
        sdk: ok(snippet(["keep", "undefined", "keep too"], 1)),
        ours: ok(snippet(["keep", "", "keep too"], 1)),
        why: "strReplace",
      }),
      differ(view("/memories/n.md"), {
        sdk: ok(fileView("/memories/n.md", ["keep", "undefined", "keep too"])),
        ours: ok(fileView("/memories/n.md", ["keep", "", "keep too"])),
        why: "strReplace",
      }),
      // null counts as absent: ours deletes, the SDK writes `null`
      differ(strReplace("/memories/n.md", "too", null), {
        sdk: ok(snippet(["keep", "undefined", "keep null"], 1)),
        ours: ok(snippet(["keep", "", "keep "], 1)),
        why: "strReplace",
      }),
    ],
  },
  {
    name: "str_replace: empty old_str",
    steps: [
      same(create("/memories/one.md", "abc"), created("/memories/one.md")),
      differ(strReplace("/memories/one.md", "", "X"), {
        sdk: ok(snippet(["Xabc"], 1)),
        ours: err("Error: Parameter `old_str` must not be empty"),
        why: "strReplace",
      }),
      differ(view("/memories/one.md"), {
        sdk: ok(fileView("/memories/one.md", ["Xabc"])),
        ours: ok(fileView("/memories/one.md", ["abc"])),
        why: "strReplace",
      }),
      same(create("/memories/two.md", "a\nb"), created("/memories/two.md")),
      differ(strReplace("/memories/two.md", "", "X"), {
        sdk: err("Error: No replacement was performed. Multiple occurrences of old_str `` in lines: 1, 2. Please ensure it is unique"),
        ours: err("Error: Parameter `old_str` must not be empty"),
        why: "strReplace",
      }),
    ],
  },
  {
    name: "str_replace: snippet reaches past a multi-line new_str",
    steps: [
      same(create(S, GREEK), created(S)),
      differ(strReplace(S, "delta", "D1\nD2\nD3\nD4"), {
        sdk: ok(snippet(["beta", "gamma", "D1", "D2", "D3"], 2)),
        ours: ok(snippet(["beta", "gamma", "D1", "D2", "D3", "D4", "epsilon", "zeta"], 2)),
        why: "snippet",
      }),
      same(view(S), ok(fileView(S, ["alpha", "beta", "gamma", "D1", "D2", "D3", "D4", "epsilon", "zeta", "eta", ""]))),
    ],
  },
  {
    name: "str_replace: parameters of the wrong type",
    steps: [
      same(create("/memories/c.md", "x5y\n"), created("/memories/c.md")),
      differ(strReplace("/memories/c.md", 5, "Z"), {
        sdk: ok(snippet(["xZy", ""], 1)),
        ours: err("Error: Parameter `old_str` must be a string"),
        why: "inputChecks",
      }),
      same(create("/memories/d.md", "abc\n"), created("/memories/d.md")),
      differ(strReplace("/memories/d.md", "b", 7), {
        sdk: ok(snippet(["a7c", ""], 1)),
        ours: err("Error: Parameter `new_str` must be a string"),
        why: "inputChecks",
      }),
      differ({ command: "str_replace", path: "/memories/d.md", new_str: "x" }, {
        sdk: err("Error: No replacement was performed, old_str `undefined` did not appear verbatim in /memories/d.md."),
        ours: err("Error: Missing required parameter `old_str` for command `str_replace`"),
        why: "inputChecks",
      }),
      differ(view("/memories/d.md"), {
        sdk: ok(fileView("/memories/d.md", ["a7c", ""])),
        ours: ok(fileView("/memories/d.md", ["abc", ""])),
        why: "inputChecks",
      }),
    ],
  },
  {
    name: "str_replace and insert on a directory, insert on a missing file",
    steps: [
      same(create("/memories/dir/a.md", "a"), created("/memories/dir/a.md")),
      differ(strReplace("/memories/dir", "a", "b"), {
        sdk: err("Error: The path /memories/dir is not a file."),
        ours: err("Error: The path /memories/dir does not exist. Please provide a valid path."),
        why: "notAFile",
      }),
      differ(strReplace("/memories", "a", "b"), {
        sdk: err("Error: The path /memories is not a file."),
        ours: err("Error: The path /memories does not exist. Please provide a valid path."),
        why: "notAFile",
      }),
      differ(insert("/memories/dir", 0, "x"), {
        sdk: err("Error: The path /memories/dir is not a file."),
        ours: err("Error: The path /memories/dir does not exist"),
        why: "notAFile",
      }),
      differ(insert("/memories/missing.md", 0, "x"), {
        sdk: err("Error: The path /memories/missing.md does not exist. Please provide a valid path."),
        ours: err("Error: The path /memories/missing.md does not exist"),
        why: "notAFile",
      }),
    ],
  },
  {
    name: "insert",
    steps: [
      same(create("/memories/i.md", "one\ntwo\nthree\n"), created("/memories/i.md")),
      same(insert("/memories/i.md", 0, "zero"), edited("/memories/i.md")),
      same(view("/memories/i.md"), ok(fileView("/memories/i.md", ["zero", "one", "two", "three", ""]))),
      same(insert("/memories/i.md", 2, "mid\n"), edited("/memories/i.md")),
      same(view("/memories/i.md"), ok(fileView("/memories/i.md", ["zero", "one", "mid", "two", "three", ""]))),
      same(insert("/memories/i.md", 6, "last"), edited("/memories/i.md")),
      same(view("/memories/i.md"), ok(fileView("/memories/i.md", ["zero", "one", "mid", "two", "three", "", "last"]))),
      same(insert("/memories/i.md", 8, "x"), err("Error: Invalid `insert_line` parameter: 8. It should be within the range of lines of the file: [0, 7]")),
      same(insert("/memories/i.md", -1, "x"), err("Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 7]")),
      same(insert("/memories/i.md", 10000000000, "x"), err("Error: Invalid `insert_line` parameter: 10000000000. It should be within the range of lines of the file: [0, 7]")),
      same(insert("/memories/i.md", 7, "a\nb\n\n"), edited("/memories/i.md")),
      same(view("/memories/i.md"), ok(fileView("/memories/i.md", ["zero", "one", "mid", "two", "three", "", "last", "a", "b", ""]))),
      same(insert("/memories/i.md/", 1, "slash"), edited("/memories/i.md/")),
      same(view("/memories/i.md", [1, 3]), ok(fileView("/memories/i.md", ["zero", "slash", "one"]))),
      same(create("/memories/e.md", ""), created("/memories/e.md")),
      same(insert("/memories/e.md", 1, "x"), edited("/memories/e.md")),
      same(view("/memories/e.md"), ok(fileView("/memories/e.md", ["", "x"]))),
      same(insert("/memories/e.md", 0, ""), edited("/memories/e.md")),
      same(view("/memories/e.md"), ok(fileView("/memories/e.md", ["", "", "x"]))),
    ],
  },
  {
    name: "insert: no input checks in the SDK",
    steps: [
      same(create("/memories/i.md", "one\ntwo"), created("/memories/i.md")),
      differ(insert("/memories/i.md", "1", "A"), {
        sdk: edited("/memories/i.md"),
        ours: err("Error: Parameter `insert_line` must be an integer"),
        why: "inputChecks",
      }),
      differ({ command: "insert", path: "/memories/i.md", insert_text: "B" }, {
        sdk: edited("/memories/i.md"),
        ours: err("Error: Missing required parameter `insert_line` for command `insert`"),
        why: "inputChecks",
      }),
      differ(insert("/memories/i.md", null, "C"), {
        sdk: edited("/memories/i.md"),
        ours: err("Error: Missing required parameter `insert_line` for command `insert`"),
        why: "inputChecks",
      }),
      differ(insert("/memories/i.md", 1.5, "D"), {
        sdk: edited("/memories/i.md"),
        ours: err("Error: Parameter `insert_line` must be an integer"),
        why: "inputChecks",
      }),
      differ(insert("/memories/i.md", true, "E"), {
        sdk: edited("/memories/i.md"),
        ours: err("Error: Parameter `insert_line` must be an integer"),
        why: "inputChecks",
      }),
      differ({ command: "insert", path: "/memories/i.md", insert_line: 0 }, {
        sdk: err("Error: Cannot read properties of undefined (reading 'replace')"),
        ours: err("Error: Missing required parameter `insert_text` for command `insert`"),
        why: "inputChecks",
      }),
      differ(insert("/memories/i.md", 0, 42), {
        sdk: err("Error: command.insert_text.replace is not a function"),
        ours: err("Error: Parameter `insert_text` must be a string"),
        why: "inputChecks",
      }),
      differ(view("/memories/i.md"), {
        // "1" → after line 1; missing and null → at the top; 1.5 and true → after line 1
        sdk: ok(fileView("/memories/i.md", ["C", "E", "D", "B", "one", "A", "two"])),
        ours: ok(fileView("/memories/i.md", ["one", "two"])),
        why: "inputChecks",
      }),
    ],
  },
  {
    name: "delete",
    steps: [
      same(create("/memories/a.md", "a"), created("/memories/a.md")),
      same(create("/memories/d/x.md", "x"), created("/memories/d/x.md")),
      same(create("/memories/d/e/y.md", "y"), created("/memories/d/e/y.md")),
      same(create("/memories/k/z.md", "z"), created("/memories/k/z.md")),
      same(del("/memories/a.md"), deleted("/memories/a.md")),
      prefixed(view("/memories/a.md"), "The path /memories/a.md does not exist. Please provide a valid path."),
      same(del("/memories/a.md"), err("Error: The path /memories/a.md does not exist")),
      same(del("/memories/d"), deleted("/memories/d")),
      prefixed(view("/memories/d/e/y.md"), "The path /memories/d/e/y.md does not exist. Please provide a valid path."),
      same(del("/memories/k/"), deleted("/memories/k/")),
      same(del("/memories"), err("Error: Cannot delete the /memories directory itself")),
      same(del("/memories/"), err("Error: Cannot delete the /memories directory itself")),
      same(del("/memories/none/deeper.md"), err("Error: The path /memories/none/deeper.md does not exist")),
      differ(view("/memories"), {
        sdk: (sdk) => ok(listing("/memories", [`${sdk.dsz("/memories")}\t/memories`])),
        ours: ok(listing("/memories", ["0B\t/memories"])),
        why: "sizes",
      }),
    ],
  },
  {
    name: "empty directories linger in the SDK",
    steps: [
      same(create("/memories/d/only.md", "1"), created("/memories/d/only.md")),
      same(del("/memories/d/only.md"), deleted("/memories/d/only.md")),
      differ(view("/memories"), {
        sdk: (sdk) => ok(listing("/memories", [`${sdk.dsz("/memories")}\t/memories`, `${sdk.dsz("/memories/d")}\t/memories/d/`])),
        ours: ok(listing("/memories", ["0B\t/memories"])),
        why: ["leftovers", "sizes"],
      }),
      differ(view("/memories/d"), {
        sdk: (sdk) => ok(listing("/memories/d", [`${sdk.dsz("/memories/d")}\t/memories/d`])),
        ours: err("The path /memories/d does not exist. Please provide a valid path."),
        why: "leftovers",
      }),
      differ(del("/memories/d"), {
        sdk: deleted("/memories/d"),
        ours: err("Error: The path /memories/d does not exist"),
        why: "leftovers",
      }),
    ],
  },
  {
    name: "rename",
    steps: [
      same(create("/memories/a.md", "A"), created("/memories/a.md")),
      same(create("/memories/c.md", "C"), created("/memories/c.md")),
      same(rename("/memories/a.md", "/memories/b.md"), renamed("/memories/a.md", "/memories/b.md")),
      same(view("/memories/b.md"), ok(fileView("/memories/b.md", ["A"]))),
      prefixed(view("/memories/a.md"), "The path /memories/a.md does not exist. Please provide a valid path."),
      same(rename("/memories/b.md", "/memories/x/y/b.md"), renamed("/memories/b.md", "/memories/x/y/b.md")),
      same(rename("/memories/x", "/memories/z"), renamed("/memories/x", "/memories/z")),
      same(view("/memories/z/y/b.md"), ok(fileView("/memories/z/y/b.md", ["A"]))),
      same(rename("/memories/z/y/b.md", "/memories/c.md"), err("Error: The destination /memories/c.md already exists")),
      same(rename("/memories/c.md", "/memories/z"), err("Error: The destination /memories/z already exists")),
      same(rename("/memories/c.md", "/memories/z/y"), err("Error: The destination /memories/z/y already exists")),
      same(rename("/memories/c.md", "/memories"), err("Error: The destination /memories already exists")),
      same(rename("/memories/c.md", "/memories/c.md"), err("Error: The destination /memories/c.md already exists")),
      same(rename("/memories/ghost.md", "/memories/z/g.md"), err("Error: The path /memories/ghost.md does not exist")),
      same(rename("/memories", "/memories/q"), err("Error: Cannot rename the /memories directory itself")),
      same(rename("/memories/", "/memories/q"), err("Error: Cannot rename the /memories directory itself")),
      same(rename("/memories/z/", "/memories/w"), renamed("/memories/z/", "/memories/w")),
      same(view("/memories/w/y/b.md"), ok(fileView("/memories/w/y/b.md", ["A"]))),
      same(view("/memories/c.md"), ok(fileView("/memories/c.md", ["C"]))),
      differ(rename("/memories/c.md", "/etc/c.md"), {
        sdk: err("Error: Path must start with /memories, got: /etc/c.md"),
        ours: err("Error: Path must be /memories or start with /memories/, got: /etc/c.md"),
        why: "pathMessage",
      }),
      same(rename("/memories/c.md", "/memories/../c.md"), err("Error: Path /memories/../c.md would escape /memories directory")),
    ],
  },
  {
    name: "rename: host errors and leftovers",
    steps: [
      same(create("/memories/d/e.md", "e"), created("/memories/d/e.md")),
      same(create("/memories/a.md", "a"), created("/memories/a.md")),
      differ(rename("/memories/d", "/memories/d/sub"), {
        sdk: (sdk) => err(`Error: EINVAL: invalid argument, rename '${sdk.disk("/memories/d")}' -> '${sdk.disk("/memories/d/sub")}'`),
        ours: err("Error: Cannot move /memories/d into itself"),
        why: "hostErrors",
      }),
      differ(rename("/memories/a.md", "/memories/a.md/x"), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/a.md/x"),
        ours: err("Error: Cannot move /memories/a.md into itself"),
        why: "hostErrors",
      }),
      differ(rename("/memories/a.md", "/memories/d/e.md/q"), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/d/e.md/q"),
        ours: err("Error: Cannot create /memories/d/e.md/q: /memories/d/e.md is a file"),
        why: "hostErrors",
      }),
      differ(rename("/memories/a.md", "/memories/d/e.md/q/r.md"), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/d/e.md/q/r.md"),
        ours: err("Error: Cannot create /memories/d/e.md/q/r.md: /memories/d/e.md is a file"),
        why: "hostErrors",
      }),
      // the same text, but the SDK made the destination's directories before it found no source
      same(rename("/memories/ghost.md", "/memories/new/dir/g.md"), err("Error: The path /memories/ghost.md does not exist")),
      custom("leftovers", ({ sdk }) => sdkDiskDir("/memories/new/dir", [])(sdk)),
      differ(view("/memories"), {
        sdk: (sdk) =>
          ok(listing("/memories", [
            `${sdk.dsz("/memories")}\t/memories`,
            `1B\t/memories/a.md`,
            `${sdk.dsz("/memories/d")}\t/memories/d/`,
            `1B\t/memories/d/e.md`,
            `${sdk.dsz("/memories/new")}\t/memories/new/`,
            `${sdk.dsz("/memories/new/dir")}\t/memories/new/dir/`,
          ])),
        ours: ok(listing("/memories", ["2B\t/memories", "1B\t/memories/a.md", "1B\t/memories/d/", "1B\t/memories/d/e.md"])),
        why: ["leftovers", "sizes"],
      }),
    ],
  },
  {
    name: "create: a trailing slash",
    steps: [
      differ(create("/memories/new/", "q"), {
        sdk: created("/memories/new/"),
        ours: err("Error: Cannot create /memories/new/: a file path must not end with '/'"),
        why: "trailingSlash",
      }),
      custom("trailingSlash", ({ sdk }) => sdkDiskFile("/memories/new", "q")(sdk)),
      differ(view("/memories/new"), {
        sdk: ok(fileView("/memories/new", ["q"])),
        ours: err("The path /memories/new does not exist. Please provide a valid path."),
        why: "trailingSlash",
      }),
    ],
  },
  {
    name: "create: host errors",
    steps: [
      same(create("/memories/a.md", "a"), created("/memories/a.md")),
      differ(create("/memories/a.md/x", ""), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/a.md/x"),
        ours: err("Error: Cannot create /memories/a.md/x: /memories/a.md is a file"),
        why: "hostErrors",
      }),
      differ(create("/memories/a.md/y/z.md", ""), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/a.md/y/z.md"),
        ours: err("Error: Cannot create /memories/a.md/y/z.md: /memories/a.md is a file"),
        why: "hostErrors",
      }),
      differ(view("/memories/a.md/x"), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/a.md/x"),
        ours: err("The path /memories/a.md/x does not exist. Please provide a valid path."),
        why: "hostErrors",
      }),
      differ(del("/memories/a.md/x"), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/a.md/x"),
        ours: err("Error: The path /memories/a.md/x does not exist"),
        why: "hostErrors",
      }),
      differ(strReplace("/memories/a.md/x", "a", "b"), {
        sdk: sdkRealpathError("ENOTDIR", "not a directory", "/memories/a.md/x"),
        ours: err("Error: The path /memories/a.md/x does not exist. Please provide a valid path."),
        why: "hostErrors",
      }),
      same(view("/memories/a.md"), ok(fileView("/memories/a.md", ["a"]))),
    ],
  },
  {
    name: "create: no input checks, leftovers of failed creates",
    steps: [
      differ({ command: "create", path: "/memories/x.md" }, {
        sdk: err(/^Error: The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView\. Received undefined$/),
        ours: err("Error: Missing required parameter `file_text` for command `create`"),
        why: "inputChecks",
      }),
      custom("leftovers", ({ sdk }) => sdkDiskFile("/memories/x.md", "")(sdk)),
      differ(view("/memories/x.md"), {
        sdk: ok(fileView("/memories/x.md", [""])),
        ours: err("The path /memories/x.md does not exist. Please provide a valid path."),
        why: "leftovers",
      }),
      differ(create("/memories/p/q/z.md", 5), {
        sdk: err(/^Error: The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView\. Received type number \(5\)$/),
        ours: err("Error: Parameter `file_text` must be a string"),
        why: "inputChecks",
      }),
      custom("leftovers", ({ sdk }) => sdkDiskFile("/memories/p/q/z.md", "")(sdk)),
      differ(create("/memories/arr.md", ["a", "b"]), {
        sdk: created("/memories/arr.md"),
        ours: err("Error: Parameter `file_text` must be a string"),
        why: "inputChecks",
      }),
      differ(view("/memories/arr.md"), {
        sdk: ok(fileView("/memories/arr.md", ["ab"])),
        ours: err("The path /memories/arr.md does not exist. Please provide a valid path."),
        why: "inputChecks",
      }),
      differ(view("/memories"), {
        sdk: (sdk) =>
          ok(listing("/memories", [
            `${sdk.dsz("/memories")}\t/memories`,
            `2B\t/memories/arr.md`,
            `${sdk.dsz("/memories/p")}\t/memories/p/`,
            `${sdk.dsz("/memories/p/q")}\t/memories/p/q/`,
            `0B\t/memories/x.md`,
          ])),
        ours: ok(listing("/memories", ["0B\t/memories"])),
        why: ["leftovers", "inputChecks", "sizes"],
      }),
    ],
  },
  {
    name: "no input checks: tool input, command and path",
    steps: [
      ...[
        [null, "Error: Cannot read properties of null (reading 'command')"],
        [5, "Error: undefined not implemented"],
        ["view", "Error: undefined not implemented"],
        [["view"], "Error: undefined not implemented"],
      ].map(([input, sdkText]) =>
        differ(input, { sdk: err(sdkText), ours: err("Error: Tool input must be a JSON object"), why: "inputChecks" }),
      ),
      differ({ path: "/memories" }, {
        sdk: err("Error: undefined not implemented"),
        ours: err("Error: Missing required parameter `command`"),
        why: "inputChecks",
      }),
      differ({ command: null, path: "/memories" }, {
        sdk: err("Error: null not implemented"),
        ours: err("Error: Missing required parameter `command`"),
        why: "inputChecks",
      }),
      differ({ command: 5 }, { sdk: err("Error: 5 not implemented"), ours: err("Error: Parameter `command` must be a string"), why: "inputChecks" }),
      differ({ command: ["view"], path: "/memories" }, {
        sdk: (sdk) => ok(listing("/memories", [`${sdk.dsz("/memories")}\t/memories`])),
        ours: err("Error: Parameter `command` must be a string"),
        why: "inputChecks",
      }),
      ...["foo", "VIEW", "toString", "__proto__", "constructor", "valueOf", "hasOwnProperty", "validatePath"].map((command) =>
        differ({ command, path: "/memories" }, {
          sdk: SDK_UNKNOWN.get(command),
          ours: err(`Error: Unknown command \`${command}\`. Valid commands are: view, create, str_replace, insert, delete, rename`),
          why: "inputChecks",
        }),
      ),
      differ({ command: "view" }, {
        sdk: err("Error: Cannot read properties of undefined (reading 'startsWith')"),
        ours: err("Error: Missing required parameter `path` for command `view`"),
        why: "inputChecks",
      }),
      differ({ command: "view", path: 5 }, {
        sdk: err("Error: memoryPath.startsWith is not a function"),
        ours: err("Error: Parameter `path` must be a string"),
        why: "inputChecks",
      }),
      differ({ command: "delete" }, {
        sdk: err("Error: Cannot read properties of undefined (reading 'startsWith')"),
        ours: err("Error: Missing required parameter `path` for command `delete`"),
        why: "inputChecks",
      }),
      differ({ command: "create", file_text: "x" }, {
        sdk: err("Error: Cannot read properties of undefined (reading 'startsWith')"),
        ours: err("Error: Missing required parameter `path` for command `create`"),
        why: "inputChecks",
      }),
      differ({ command: "rename", old_path: "/memories/a" }, {
        sdk: err("Error: Cannot read properties of undefined (reading 'startsWith')"),
        ours: err("Error: Missing required parameter `new_path` for command `rename`"),
        why: "inputChecks",
      }),
      differ({ command: "rename", new_path: "/memories/a", old_path: ["/memories/b"] }, {
        sdk: err("Error: memoryPath.startsWith is not a function"),
        ours: err("Error: Parameter `old_path` must be a string"),
        why: "inputChecks",
      }),
    ],
  },
  {
    name: "paths outside /memories",
    steps: [
      ...["/etc/passwd", "/Memories/x", "memories/x", "//memories", "", "/"].map((p) =>
        differ(view(p), {
          sdk: err(`Error: Path must start with /memories, got: ${p}`),
          ours: err(`Error: Path must be /memories or start with /memories/, got: ${p}`),
          why: "pathMessage",
        }),
      ),
      differ(create("/memories_backup/x", "secret"), {
        sdk: created("/memories_backup/x"),
        ours: err("Error: Path must be /memories or start with /memories/, got: /memories_backup/x"),
        why: "backup",
      }),
      custom("backup", ({ sdk }) => sdkDiskFile("/memories/_backup/x", "secret")(sdk)),
      differ(view("/memories_backup/x"), {
        sdk: ok(fileView("/memories_backup/x", ["secret"])),
        ours: err("Error: Path must be /memories or start with /memories/, got: /memories_backup/x"),
        why: "backup",
      }),
      differ(view("/memoriesx"), {
        sdk: err("Error: The path /memoriesx does not exist. Please provide a valid path."),
        ours: err("Error: Path must be /memories or start with /memories/, got: /memoriesx"),
        why: "backup",
      }),
    ],
  },
  {
    name: "paths: `..`, `.`, empty segments, percent-encoding, backslashes",
    steps: [
      same(create("/memories/b.md", "b"), created("/memories/b.md")),
      differ(create("/memories/a/../c.md", "c"), {
        sdk: created("/memories/a/../c.md"),
        ours: err("Error: Path /memories/a/../c.md would escape /memories directory"),
        why: "normalise",
      }),
      custom("normalise", ({ sdk }) => sdkDiskFile("/memories/c.md", "c")(sdk)),
      differ(view("/memories/a/../b.md"), {
        sdk: ok(fileView("/memories/a/../b.md", ["b"])),
        ours: err("Error: Path /memories/a/../b.md would escape /memories directory"),
        why: "normalise",
      }),
      differ(view("/memories/./b.md"), {
        sdk: ok(fileView("/memories/./b.md", ["b"])),
        ours: err("Error: Invalid path /memories/./b.md: '.' segments are not allowed"),
        why: "normalise",
      }),
      differ(view("/memories//b.md"), {
        sdk: ok(fileView("/memories//b.md", ["b"])),
        ours: err("Error: Invalid path /memories//b.md: empty segment"),
        why: "normalise",
      }),
      differ(view("/memories/b.md//"), {
        sdk: ok(fileView("/memories/b.md//", ["b"])),
        ours: err("Error: Invalid path /memories/b.md//: empty segment"),
        why: "normalise",
      }),
      ...["%2e%2e", "%252e%252e", "%2E", "a%2fb", "a%5cb", "a%00b", "%2e%2e%2fetc"].map((name) =>
        differ(create(`/memories/${name}/x.md`, "p"), {
          sdk: created(`/memories/${name}/x.md`),
          ours: err(`Error: Invalid path /memories/${name}/x.md: percent-encoded '.', '/', '\\' or control characters are not allowed`),
          why: "normalise",
        }),
      ),
      ...["a\\b.md", "..\\x.md", "\\"].map((name) =>
        differ(create(`/memories/${name}`, "s"), {
          sdk: created(`/memories/${name}`),
          ours: err(`Error: Invalid path /memories/${name}: backslashes are not allowed`),
          why: "normalise",
        }),
      ),
      custom("normalise", ({ sdk }) => sdkDiskFile("/memories/a\\b.md", "s")(sdk)),
      differ(view("/memories"), {
        sdk: (sdk) =>
          ok(listing("/memories", [
            `${sdk.dsz("/memories")}\t/memories`,
            `${sdk.dsz("/memories/%252e%252e")}\t/memories/%252e%252e/`,
            `1B\t/memories/%252e%252e/x.md`,
            `${sdk.dsz("/memories/%2E")}\t/memories/%2E/`,
            `1B\t/memories/%2E/x.md`,
            `${sdk.dsz("/memories/%2e%2e")}\t/memories/%2e%2e/`,
            `1B\t/memories/%2e%2e/x.md`,
            `${sdk.dsz("/memories/%2e%2e%2fetc")}\t/memories/%2e%2e%2fetc/`,
            `1B\t/memories/%2e%2e%2fetc/x.md`,
            `1B\t/memories/\\`,
            `${sdk.dsz("/memories/a%00b")}\t/memories/a%00b/`,
            `1B\t/memories/a%00b/x.md`,
            `${sdk.dsz("/memories/a%2fb")}\t/memories/a%2fb/`,
            `1B\t/memories/a%2fb/x.md`,
            `${sdk.dsz("/memories/a%5cb")}\t/memories/a%5cb/`,
            `1B\t/memories/a%5cb/x.md`,
            `1B\t/memories/a\\b.md`,
            `1B\t/memories/b.md`,
            `1B\t/memories/c.md`,
          ])),
        ours: ok(listing("/memories", ["1B\t/memories", "1B\t/memories/b.md"])),
        why: ["normalise", "sizes"],
      }),
    ],
  },
  {
    name: "paths: control and invisible characters, length",
    steps: [
      ...["a\nb.md", "a\tb.md", "a\u001Bb.md", "a\u007Fb.md", "a\u0085b.md", "a\u2028b.md", "a\u2029b.md"].map((name) =>
        differ(create(`/memories/${name}`, "c"), {
          sdk: created(`/memories/${name}`),
          ours: err(`Error: Invalid path /memories/${escaped(name)}: control characters are not allowed`),
          why: "characters",
        }),
      ),
      // NUL: Node refuses it before the filesystem sees it
      differ(create("/memories/a\u0000b.md", "c"), {
        sdk: err(/^Error: The argument 'path' must be a string, Uint8Array, or URL without null bytes\. Received /),
        ours: err("Error: Invalid path /memories/a\\u{0000}b.md: control characters are not allowed"),
        why: ["characters", "hostErrors"],
      }),
      ...["a\u200Bb.md", "evil\u202Etxt.md", "\uFEFFbom.md", "soft\u00ADhyphen.md", "tag\u{E0041}.md"].map((name) =>
        differ(create(`/memories/${name}`, "i"), {
          sdk: created(`/memories/${name}`),
          ours: err(`Error: Invalid path /memories/${escaped(name)}: invisible formatting characters are not allowed`),
          why: "characters",
        }),
      ),
      same(create(`/memories/${"s".repeat(200)}/${"t".repeat(200)}/${"u".repeat(200)}/${"v".repeat(200)}/${"w".repeat(200)}/123456789`, "1024 bytes"),
        created(`/memories/${"s".repeat(200)}/${"t".repeat(200)}/${"u".repeat(200)}/${"v".repeat(200)}/${"w".repeat(200)}/123456789`)),
      differ(create(`/memories/${"s".repeat(200)}/${"t".repeat(200)}/${"u".repeat(200)}/${"v".repeat(200)}/${"w".repeat(200)}/1234567890`, "1025 bytes"), {
        sdk: created(`/memories/${"s".repeat(200)}/${"t".repeat(200)}/${"u".repeat(200)}/${"v".repeat(200)}/${"w".repeat(200)}/1234567890`),
        ours: err(`Error: Invalid path /memories/${"s".repeat(200)}/${"t".repeat(200)}/${"u".repeat(200)}/${"v".repeat(200)}/${"w".repeat(200)}/1234567890: longer than 1,024 bytes`),
        why: "characters",
      }),
      differ(create(`/memories/${"n".repeat(300)}.md`, "long name"), {
        sdk: sdkRealpathError("ENAMETOOLONG", "name too long", `/memories/${"n".repeat(300)}.md`),
        ours: created(`/memories/${"n".repeat(300)}.md`),
        why: ["characters", "hostErrors"],
      }),
      differ(view(`/memories/${"n".repeat(300)}.md`), {
        sdk: sdkRealpathError("ENAMETOOLONG", "name too long", `/memories/${"n".repeat(300)}.md`),
        ours: ok(fileView(`/memories/${"n".repeat(300)}.md`, ["long name"])),
        why: ["characters", "hostErrors"],
      }),
    ],
  },
  {
    name: "paths: NFC and NFD",
    steps: [
      same(create("/memories/caf\u00E9.md", "one"), created("/memories/caf\u00E9.md")),
      differ(create("/memories/cafe\u0301.md", "two"), {
        sdk: created("/memories/cafe\u0301.md"),
        ours: err("Error: File /memories/cafe\u0301.md already exists"),
        why: "nfc",
      }),
      differ(view("/memories/cafe\u0301.md"), {
        sdk: ok(fileView("/memories/cafe\u0301.md", ["two"])),
        ours: ok(fileView("/memories/cafe\u0301.md", ["one"])),
        why: "nfc",
      }),
      same(create("/memories/re\u0301sume\u0301.md", "cv"), created("/memories/re\u0301sume\u0301.md")),
      differ(view("/memories"), {
        sdk: (sdk) =>
          ok(listing("/memories", [
            `${sdk.dsz("/memories")}\t/memories`,
            "3B\t/memories/cafe\u0301.md",
            "3B\t/memories/caf\u00E9.md",
            "2B\t/memories/re\u0301sume\u0301.md",
          ])),
        ours: ok(listing("/memories", ["5B\t/memories", "3B\t/memories/caf\u00E9.md", "2B\t/memories/r\u00E9sum\u00E9.md"])),
        why: ["nfc", "sizes"],
      }),
      differ(strReplace("/memories/r\u00E9sum\u00E9.md", "cv", "CV"), {
        sdk: err("Error: The path /memories/r\u00E9sum\u00E9.md does not exist. Please provide a valid path."),
        ours: ok(snippet(["CV"], 1)),
        why: "nfc",
      }),
      differ(rename("/memories/r\u00E9sum\u00E9.md", "/memories/cv.md"), {
        sdk: err("Error: The path /memories/r\u00E9sum\u00E9.md does not exist"),
        ours: renamed("/memories/r\u00E9sum\u00E9.md", "/memories/cv.md"),
        why: "nfc",
      }),
      // the same text, but the SDK deleted the NFD file and kept the NFC one
      same(del("/memories/cafe\u0301.md"), deleted("/memories/cafe\u0301.md")),
      differ(view("/memories/caf\u00E9.md"), {
        sdk: ok(fileView("/memories/caf\u00E9.md", ["one"])),
        ours: err("The path /memories/caf\u00E9.md does not exist. Please provide a valid path."),
        why: "nfc",
      }),
    ],
  },
  {
    name: "listings: sizes, hidden entries, depth, order, raw paths",
    steps: [
      same(create("/memories/a.md", "hello\n"), created("/memories/a.md")),
      same(create("/memories/B.md", "x"), created("/memories/B.md")),
      same(create("/memories/.hidden", "secret"), created("/memories/.hidden")),
      same(create("/memories/node_modules/pkg.js", "js"), created("/memories/node_modules/pkg.js")),
      same(create("/memories/docs/readme.md", "r".repeat(1024)), created("/memories/docs/readme.md")),
      same(create("/memories/docs/.cache", "cc"), created("/memories/docs/.cache")),
      same(create("/memories/docs/deep/more/x.md", "deep"), created("/memories/docs/deep/more/x.md")),
      same(create("/memories/docs/deep/y.md", "y".repeat(4096)), created("/memories/docs/deep/y.md")),
      same(create("/memories/_u/z.md", "z".repeat(5632)), created("/memories/_u/z.md")),
      same(create("/memories/big.md", "b".repeat(100000)), created("/memories/big.md")),
      differ(view("/memories"), {
        sdk: (sdk) =>
          ok(listing("/memories", [
            `${sdk.dsz("/memories")}\t/memories`,
            "1B\t/memories/B.md",
            `${sdk.dsz("/memories/_u")}\t/memories/_u/`,
            "5.5K\t/memories/_u/z.md",
            "6B\t/memories/a.md",
            "97.7K\t/memories/big.md",
            `${sdk.dsz("/memories/docs")}\t/memories/docs/`,
            `${sdk.dsz("/memories/docs/deep")}\t/memories/docs/deep/`,
            "1K\t/memories/docs/readme.md",
          ])),
        // 110,773 bytes in all (hidden files and node_modules count); docs: 1,024 + 2 + 4 + 4,096
        ours: ok(listing("/memories", [
          "108.2K\t/memories",
          "1B\t/memories/B.md",
          "5.5K\t/memories/_u/",
          "5.5K\t/memories/_u/z.md",
          "6B\t/memories/a.md",
          "97.7K\t/memories/big.md",
          "5.0K\t/memories/docs/",
          "4.0K\t/memories/docs/deep/",
          "1.0K\t/memories/docs/readme.md",
        ])),
        why: "sizes",
      }),
      differ(view("/memories/docs"), {
        sdk: (sdk) =>
          ok(listing("/memories/docs", [
            `${sdk.dsz("/memories/docs")}\t/memories/docs`,
            `${sdk.dsz("/memories/docs/deep")}\t/memories/docs/deep/`,
            `${sdk.dsz("/memories/docs/deep/more")}\t/memories/docs/deep/more/`,
            "4K\t/memories/docs/deep/y.md",
            "1K\t/memories/docs/readme.md",
          ])),
        ours: ok(listing("/memories/docs", [
          "5.0K\t/memories/docs",
          "4.0K\t/memories/docs/deep/",
          "4B\t/memories/docs/deep/more/",
          "4.0K\t/memories/docs/deep/y.md",
          "1.0K\t/memories/docs/readme.md",
        ])),
        why: "sizes",
      }),
      differ(view("/memories/docs/"), {
        sdk: (sdk) =>
          ok(listing("/memories/docs/", [
            `${sdk.dsz("/memories/docs")}\t/memories/docs/`,
            `${sdk.dsz("/memories/docs/deep")}\t/memories/docs//deep/`,
            `${sdk.dsz("/memories/docs/deep/more")}\t/memories/docs//deep/more/`,
            "4K\t/memories/docs//deep/y.md",
            "1K\t/memories/docs//readme.md",
          ])),
        ours: ok(listing("/memories/docs/", [
          "5.0K\t/memories/docs",
          "4.0K\t/memories/docs/deep/",
          "4B\t/memories/docs/deep/more/",
          "4.0K\t/memories/docs/deep/y.md",
          "1.0K\t/memories/docs/readme.md",
        ])),
        why: ["sizes", "rawListing"],
      }),
      differ(view("/memories/node_modules"), {
        sdk: (sdk) => ok(listing("/memories/node_modules", [`${sdk.dsz("/memories/node_modules")}\t/memories/node_modules`, "2B\t/memories/node_modules/pkg.js"])),
        ours: ok(listing("/memories/node_modules", ["2B\t/memories/node_modules", "2B\t/memories/node_modules/pkg.js"])),
        why: "sizes",
      }),
      same(view("/memories/docs/.cache"), ok(fileView("/memories/docs/.cache", ["cc"]))),
      same(view("/memories/node_modules/pkg.js"), ok(fileView("/memories/node_modules/pkg.js", ["js"]))),
    ],
  },
  {
    name: "listings: order by UTF-16 code units, hidden entries below the top",
    steps: [
      ...[
        ["/memories/a/child.md", "1"],
        ["/memories/a.md", "2"],
        ["/memories/a-b.md", "3"],
        ["/memories/a b.md", "4"],
        ["/memories/A.md", "5"],
        ["/memories/\u00E4.md", "6"],
        ["/memories/\u{1F600}.md", "7"],
        ["/memories/\uFB00.md", "8"],
        ["/memories/x/node_modules/y.md", "9"],
        ["/memories/.git/config", "10"],
        ["/memories/x/.env", "11"],
      ].map(([p, text]) => same(create(p, text), created(p))),
      differ(view("/memories"), {
        // U+1F600 is D83D DE00 in UTF-16, so it sorts before U+FB00 (code point order would not)
        sdk: (sdk) =>
          ok(listing("/memories", [
            `${sdk.dsz("/memories")}\t/memories`,
            "1B\t/memories/A.md",
            `${sdk.dsz("/memories/a")}\t/memories/a/`,
            "1B\t/memories/a/child.md",
            "1B\t/memories/a b.md",
            "1B\t/memories/a-b.md",
            "1B\t/memories/a.md",
            `${sdk.dsz("/memories/x")}\t/memories/x/`,
            "1B\t/memories/\u00E4.md",
            "1B\t/memories/\u{1F600}.md",
            "1B\t/memories/\uFB00.md",
          ])),
        ours: ok(listing("/memories", [
          "13B\t/memories",
          "1B\t/memories/A.md",
          "1B\t/memories/a/",
          "1B\t/memories/a/child.md",
          "1B\t/memories/a b.md",
          "1B\t/memories/a-b.md",
          "1B\t/memories/a.md",
          "3B\t/memories/x/",
          "1B\t/memories/\u00E4.md",
          "1B\t/memories/\u{1F600}.md",
          "1B\t/memories/\uFB00.md",
        ])),
        why: "sizes",
      }),
      same(view("/memories/.git/config"), ok(fileView("/memories/.git/config", ["10"]))),
      differ(view("/memories/.git"), {
        sdk: (sdk) => ok(listing("/memories/.git", [`${sdk.dsz("/memories/.git")}\t/memories/.git`, "2B\t/memories/.git/config"])),
        ours: ok(listing("/memories/.git", ["2B\t/memories/.git", "2B\t/memories/.git/config"])),
        why: "sizes",
      }),
    ],
  },
  {
    name: "listings: megabyte sizes (limits raised on our side)",
    ours: { limits: { maxFileBytes: 2_000_000 } },
    steps: [
      same(create("/memories/m/a", "a".repeat(1_048_575)), created("/memories/m/a")),
      same(create("/memories/m/b", "b".repeat(1_048_576)), created("/memories/m/b")),
      same(create("/memories/m/c", "c".repeat(1_258_291)), created("/memories/m/c")),
      differ(view("/memories/m"), {
        sdk: (sdk) =>
          ok(listing("/memories/m", [`${sdk.dsz("/memories/m")}\t/memories/m`, "1024.0K\t/memories/m/a", "1M\t/memories/m/b", "1.2M\t/memories/m/c"])),
        // 3,355,442 bytes
        ours: ok(listing("/memories/m", ["3.2M\t/memories/m", "1024.0K\t/memories/m/a", "1.0M\t/memories/m/b", "1.2M\t/memories/m/c"])),
        why: "sizes",
      }),
    ],
  },
  {
    name: "long views",
    steps: (() => {
      const p = "/memories/long.md";
      const lines = Array.from({ length: 3001 }, (_, i) => `line ${i + 1}`);
      const wide = "/memories/wide.md";
      const a20k = "a".repeat(20000);
      return [
        same(create(p, lines.join("\n")), created(p)),
        // lines 1–9 take 13 characters, 10–99 14, 100–999 15, from 1,000 on 16; with the 1,005
        // newlines between them lines 1–1,006 take 15,994 characters, 1–1,007 would take 16,011
        differ(view(p), {
          sdk: ok(fileView(p, lines)),
          ours: ok(`${fileView(p, lines.slice(0, 1006))}\n[Truncated: showing lines 1-1006 of 3,001. Use view_range [1007, -1] to read on.]`),
          why: "viewLimit",
        }),
        // from line 2,000: 941 lines of 16 characters and 940 newlines = 15,996
        differ(view(p, [2000, -1]), {
          sdk: ok(fileView(p, lines.slice(1999), 2000)),
          ours: ok(`${fileView(p, lines.slice(1999, 2940), 2000)}\n[Truncated: showing lines 2000-2940 of 3,001. Use view_range [2941, -1] to read on.]`),
          why: "viewLimit",
        }),
        same(view(p, [2990, 3001]), ok(fileView(p, lines.slice(2989), 2990))),
        same(create(wide, `${a20k}\nsecond`), created(wide)),
        differ(view(wide), {
          sdk: ok(fileView(wide, [a20k, "second"])),
          ours: ok(`${fileView(wide, ["a".repeat(15993)])}\n[Truncated: line 1 is 20,000 characters long and was cut after 15,993; lines longer than 16,000 characters cannot be shown whole.]`),
          why: "viewLimit",
        }),
        same(view(wide, [2, 2]), ok(fileView(wide, ["second"], 2))),
        // the limit applies to str_replace snippets too
        same(create("/memories/snip.md", "a\nTARGET\nb"), created("/memories/snip.md")),
        differ(strReplace("/memories/snip.md", "TARGET", "x".repeat(20000)), {
          sdk: ok(snippet(["a", "x".repeat(20000), "b"], 1)),
          ours: ok(`${snippet(["a"], 1)}\n[Truncated: showing lines 1-1 of 3. Use view_range [2, -1] to read on.]`),
          why: "viewLimit",
        }),
        same(create("/memories/snip1.md", "TARGET"), created("/memories/snip1.md")),
        differ(strReplace("/memories/snip1.md", "TARGET", "y".repeat(20000)), {
          sdk: ok(snippet(["y".repeat(20000)], 1)),
          ours: ok(`${snippet(["y".repeat(15993)], 1)}\n[Truncated: line 1 is 20,000 characters long and was cut after 15,993; lines longer than 16,000 characters cannot be shown whole.]`),
          why: "viewLimit",
        }),
      ];
    })(),
  },
  {
    name: "more than 999,999 lines (limits raised on our side)",
    ours: { limits: { maxFileBytes: 2_000_000 } },
    slow: true,
    steps: [
      same(create("/memories/max.md", "\n".repeat(999_998)), created("/memories/max.md")),
      same(view("/memories/max.md", [999_998, -1]), ok(`Here's the content of /memories/max.md with line numbers:\n999998\t\n999999\t`)),
      differ(view("/memories/max.md"), {
        sdk: { check: (r) => assert.ok(r.isError === false && r.content.length === 999_999 * 8 - 1 + "Here's the content of /memories/max.md with line numbers:\n".length, "SDK shows all 999,999 lines") },
        ours: ok(`${fileView("/memories/max.md", Array(2000).fill(""))}\n[Truncated: showing lines 1-2000 of 999,999. Use view_range [2001, -1] to read on.]`),
        why: "viewLimit",
      }),
      same(create("/memories/big.md", "\n".repeat(999_999)), created("/memories/big.md")),
      differ(view("/memories/big.md"), {
        sdk: err("Error: File /memories/big.md has too many lines (1000000). Maximum is 999,999 lines."),
        ours: err("File /memories/big.md exceeds maximum line limit of 999,999 lines."),
        why: "maxLines",
      }),
      differ(view("/memories/big.md", [1, 2]), {
        sdk: err("Error: File /memories/big.md has too many lines (1000000). Maximum is 999,999 lines."),
        ours: err("File /memories/big.md exceeds maximum line limit of 999,999 lines."),
        why: "maxLines",
      }),
    ],
  },
  {
    name: "images and binary files",
    steps: (() => {
      const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x0a, 0x7f];
      const jpeg = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01];
      const gif = [...Buffer.from("GIF89a"), 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xff, 0xff, 0xff];
      const webp = [...Buffer.from("RIFF"), 0x24, 0x00, 0x00, 0x00, ...Buffer.from("WEBPVP8 "), 0x9d, 0x01, 0x2a, 0xff];
      const blob = [0x00, 0x01, 0xfe, 0xff, 0x41, 0x0a];
      const image = (type, bytes) => ok([{ type: "image", source: { type: "base64", media_type: type, data: Buffer.from(bytes).toString("base64") } }]);
      // what the SDK shows: the bytes read as UTF-8 (invalid sequences become U+FFFD), numbered as text
      const garbled = (p, bytes) => ok(fileView(p, Buffer.from(bytes).toString("utf8").split("\n")));
      const steps = [];
      for (const [p, type, bytes] of [
        ["/memories/img/photo.png", "image/png", png],
        ["/memories/img/photo.jpg", "image/jpeg", jpeg],
        ["/memories/img/anim.gif", "image/gif", gif],
        ["/memories/img/pic.webp", "image/webp", webp],
        ["/memories/img/no-extension.dat", "image/png", png],
      ]) {
        steps.push(put(p, bytes));
        steps.push(differ(view(p), { sdk: garbled(p, bytes), ours: image(type, bytes), why: "binary" }));
      }
      steps.push(
        differ(view("/memories/img/photo.png", [1, 1]), {
          sdk: ok(fileView("/memories/img/photo.png", Buffer.from(png).toString("utf8").split("\n").slice(0, 1))),
          ours: image("image/png", png),
          why: "binary",
        }),
        put("/memories/blob.bin", blob),
        differ(view("/memories/blob.bin"), {
          sdk: garbled("/memories/blob.bin", blob),
          ours: err("Error: The file /memories/blob.bin is binary (6B) and cannot be shown as text"),
          why: "binary",
        }),
        differ(strReplace("/memories/blob.bin", "A", "B"), {
          sdk: ok(snippet(["\u0000\u0001\uFFFD\uFFFDB", ""], 1)),
          ours: err("Error: The file /memories/blob.bin is not a text file"),
          why: "binary",
        }),
        // the SDK wrote the U+FFFDs back: 0xFE 0xFF are gone
        custom("binary", ({ sdk }) => sdkDiskFile("/memories/blob.bin", [0x00, 0x01, 0xef, 0xbf, 0xbd, 0xef, 0xbf, 0xbd, 0x42, 0x0a])(sdk)),
        differ(insert("/memories/img/photo.jpg", 0, "text"), {
          sdk: edited("/memories/img/photo.jpg"),
          ours: err("Error: The file /memories/img/photo.jpg is not a text file"),
          why: "binary",
        }),
        differ(view("/memories/img/photo.jpg"), {
          sdk: ok(fileView("/memories/img/photo.jpg", ["text", ...Buffer.from(jpeg).toString("utf8").split("\n")])),
          ours: image("image/jpeg", jpeg),
          why: "binary",
        }),
        // valid UTF-8 is text whatever the name says
        put("/memories/img/fake.png", Buffer.from("not an image\n")),
        same(view("/memories/img/fake.png"), ok(fileView("/memories/img/fake.png", ["not an image", ""]))),
        same(strReplace("/memories/img/fake.png", "not ", ""), ok(snippet(["an image", ""], 1))),
      );
      return steps;
    })(),
  },
  {
    name: "concurrent edits",
    steps: [
      same(create("/memories/c.md", "l1\nl2\nl3\nl4\nl5"), created("/memories/c.md")),
      custom("concurrency", async ({ sdk, ours }) => {
        const edits = [1, 2, 3, 4, 5].map((i) => strReplace("/memories/c.md", `l${i}`, `L${i}`));
        const sdkResults = await Promise.all(edits.map((e) => sdk.run(e)));
        const ourResults = await Promise.all(edits.map((e) => ours.run(e)));
        for (const r of [...sdkResults, ...ourResults]) {
          assert.equal(r.isError, false, `every edit reports success: ${JSON.stringify(r)}`);
          assert.match(r.content, /^The memory file has been edited\./);
        }
        const sdkFinal = fs.readFileSync(sdk.disk("/memories/c.md"), "utf8");
        const kept = sdkFinal.split("\n").filter((l) => l.startsWith("L")).length;
        assert.ok(kept < 5, `the SDK lost at least one of 5 concurrent edits (kept ${kept}: ${JSON.stringify(sdkFinal)})`);
        assert.deepEqual(await ours.run(view("/memories/c.md")), ok(fileView("/memories/c.md", ["L1", "L2", "L3", "L4", "L5"])));
      }),
    ],
  },
  {
    name: "limits: bytes per file",
    steps: [
      same(create("/memories/max.md", "m".repeat(102_400)), created("/memories/max.md")),
      differ(create("/memories/over.md", "o".repeat(102_401)), {
        sdk: created("/memories/over.md"),
        ours: err("Error: Cannot write /memories/over.md: 102,401 bytes is over the limit of 102,400 bytes per file"),
        why: "limits",
      }),
      differ(create("/memories/multi.md", "é".repeat(51_201)), {
        sdk: created("/memories/multi.md"),
        ours: err("Error: Cannot write /memories/multi.md: 102,402 bytes is over the limit of 102,400 bytes per file"),
        why: "limits",
      }),
      same(create("/memories/grow.md", `X${"a".repeat(102_399)}`), created("/memories/grow.md")),
      differ(strReplace("/memories/grow.md", "X", "XY"), {
        sdk: ok(snippet([`XY${"a".repeat(102_399)}`], 1)),
        ours: err("Error: Cannot write /memories/grow.md: 102,401 bytes is over the limit of 102,400 bytes per file"),
        why: "limits",
      }),
      differ(insert("/memories/max.md", 1, ""), {
        sdk: edited("/memories/max.md"),
        ours: err("Error: Cannot write /memories/max.md: 102,401 bytes is over the limit of 102,400 bytes per file"),
        why: "limits",
      }),
    ],
  },
  {
    name: "limits: files per store (2 on our side)",
    ours: { limits: { maxFiles: 2 } },
    steps: [
      same(create("/memories/a.md", "a"), created("/memories/a.md")),
      same(create("/memories/b.md", "b"), created("/memories/b.md")),
      differ(create("/memories/c.md", "c"), {
        sdk: created("/memories/c.md"),
        ours: err("Error: Cannot create /memories/c.md: the store already holds 2 files, its limit"),
        why: "limits",
      }),
      same(create("/memories/a.md", "again"), err("Error: File /memories/a.md already exists")),
      same(rename("/memories/a.md", "/memories/d/a.md"), renamed("/memories/a.md", "/memories/d/a.md")),
    ],
  },
  {
    name: "limits: read-only access",
    sharedStorage: true,
    steps: [
      same(create("/memories/a.md", "a\nb"), created("/memories/a.md")),
      reopenOurs({ access: "read_only" }),
      same(view("/memories/a.md"), ok(fileView("/memories/a.md", ["a", "b"]))),
      differ(create("/memories/n.md", "n"), { sdk: created("/memories/n.md"), ours: err("Error: Cannot create /memories/n.md: this memory is read-only"), why: "limits" }),
      differ(strReplace("/memories/a.md", "a", "A"), {
        sdk: ok(snippet(["A", "b"], 1)),
        ours: err("Error: Cannot str_replace /memories/a.md: this memory is read-only"),
        why: "limits",
      }),
      differ(insert("/memories/a.md", 0, "top"), { sdk: edited("/memories/a.md"), ours: err("Error: Cannot insert /memories/a.md: this memory is read-only"), why: "limits" }),
      differ(rename("/memories/a.md", "/memories/b.md"), {
        sdk: renamed("/memories/a.md", "/memories/b.md"),
        ours: err("Error: Cannot rename /memories/a.md: this memory is read-only"),
        why: "limits",
      }),
      differ(del("/memories/b.md"), { sdk: deleted("/memories/b.md"), ours: err("Error: Cannot delete /memories/b.md: this memory is read-only"), why: "limits" }),
      // read-only comes after the input and path checks, before existence
      differ(del("/memories/ghost.md"), {
        sdk: err("Error: The path /memories/ghost.md does not exist"),
        ours: err("Error: Cannot delete /memories/ghost.md: this memory is read-only"),
        why: "limits",
      }),
      same(del("/memories/../x"), err("Error: Path /memories/../x would escape /memories directory")),
      differ(view("/memories/a.md"), {
        sdk: err("Error: The path /memories/a.md does not exist. Please provide a valid path."),
        ours: ok(fileView("/memories/a.md", ["a", "b"])),
        why: "limits",
      }),
    ],
  },
];
