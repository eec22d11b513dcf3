// Example tool inputs for the console: one per command, then mistakes a model makes, each with
// the error text it gets back, then the clean-up. They build on each other in order (create
// first, then edit; the errors about a file need it, so rename and delete come last).

/**
 * @typedef {object} Example
 * @property {string} id      stable id (used in the picker and by tests)
 * @property {"Commands" | "Instructive errors" | "Clean up (run these last)"} group
 * @property {string} label   what the picker shows
 * @property {string} note    one sentence on what to expect
 * @property {unknown} input  a tool input, or a whole tool_use block
 */

/** @type {readonly Example[]} */
export const EXAMPLES = Object.freeze([
  {
    id: "view-root",
    group: "Commands",
    label: "view /memories (list the store)",
    note: "A directory view: sizes, two levels deep, hidden files left out. Models start here.",
    input: { command: "view", path: "/memories" },
  },
  {
    id: "create",
    group: "Commands",
    label: "create a note",
    note: "Creates the file and any missing folders on its way.",
    input: {
      command: "create",
      path: "/memories/notes/todo.md",
      file_text: "# Todo\n- buy milk\n- call mum",
    },
  },
  {
    id: "view-file",
    group: "Commands",
    label: "view a file",
    note: "Every line numbered (6 columns, a tab, the line), exactly as the model reads it.",
    input: { command: "view", path: "/memories/notes/todo.md" },
  },
  {
    id: "view-range",
    group: "Commands",
    label: "view lines 2–3 (view_range)",
    note: "view_range is 1-based and inclusive; -1 as the end means the last line.",
    input: { command: "view", path: "/memories/notes/todo.md", view_range: [2, 3] },
  },
  {
    id: "str-replace",
    group: "Commands",
    label: "str_replace a unique string",
    note: "old_str must appear exactly once; the result shows the edited lines with context.",
    input: {
      command: "str_replace",
      path: "/memories/notes/todo.md",
      old_str: "buy milk",
      new_str: "buy oat milk",
    },
  },
  {
    id: "insert",
    group: "Commands",
    label: "insert after line 1",
    note: "insert_line 0 inserts at the top; one trailing newline of insert_text is dropped.",
    input: {
      command: "insert",
      path: "/memories/notes/todo.md",
      insert_line: 1,
      insert_text: "- water the plants\n",
    },
  },
  {
    id: "tool-use",
    group: "Commands",
    label: "a whole tool_use block",
    note: "Paste a tool_use block from a Messages API response; its id comes back as tool_use_id.",
    input: {
      type: "tool_use",
      id: "toolu_01A09q90qw90lq917835lq9",
      name: "memory",
      input: { command: "view", path: "/memories" },
    },
  },
  {
    id: "error-traversal",
    group: "Instructive errors",
    label: "path traversal (..)",
    note: "Any .. segment is refused, even one that would lead back inside /memories.",
    input: { command: "view", path: "/memories/../secrets.txt" },
  },
  {
    id: "error-outside",
    group: "Instructive errors",
    label: "a path outside /memories",
    note: "Every path must be /memories or start with /memories/.",
    input: { command: "view", path: "/etc/passwd" },
  },
  {
    id: "error-missing",
    group: "Instructive errors",
    label: "view a missing file",
    note: "The model is told the path does not exist.",
    input: { command: "view", path: "/memories/nope.md" },
  },
  {
    id: "error-view-range",
    group: "Instructive errors",
    label: "view_range past the end",
    note: "The error names the file's real line range (run “create a note” first).",
    input: { command: "view", path: "/memories/notes/todo.md", view_range: [10, 12] },
  },
  {
    id: "error-view-range-shape",
    group: "Instructive errors",
    label: "view_range of the wrong shape",
    note: "view_range must be a list of two integers.",
    input: { command: "view", path: "/memories/notes/todo.md", view_range: "2-3" },
  },
  {
    id: "error-multiple",
    group: "Instructive errors",
    label: "str_replace that matches twice",
    note: "Nothing is replaced; the error lists the line of each match.",
    input: { command: "str_replace", path: "/memories/notes/todo.md", old_str: "- ", new_str: "* " },
  },
  {
    id: "error-exists",
    group: "Instructive errors",
    label: "create over an existing file",
    note: "create never overwrites; the model must str_replace, or delete first.",
    input: { command: "create", path: "/memories/notes/todo.md", file_text: "again" },
  },
  {
    id: "error-unknown",
    group: "Instructive errors",
    label: "an unknown command",
    note: "The error lists the six commands.",
    input: { command: "read", path: "/memories/notes/todo.md" },
  },
  {
    id: "rename",
    group: "Clean up (run these last)",
    label: "rename a folder",
    note: "A folder moves with everything below it; rename never overwrites.",
    input: { command: "rename", old_path: "/memories/notes", new_path: "/memories/archive" },
  },
  {
    id: "delete",
    group: "Clean up (run these last)",
    label: "delete a folder",
    note: "A folder goes with everything below it. /memories itself cannot be deleted.",
    input: { command: "delete", path: "/memories/archive" },
  },
]);

/**
 * The example with this id.
 * @param {string} id
 * @returns {Example | undefined}
 */
export function exampleById(id) {
  return EXAMPLES.find((e) => e.id === id);
}
