// The tool console: type (or pick) a tool input or a whole tool_use block, run it through
// `memory.run`, and see the exact tool_result the model would receive.

import { EXAMPLES, exampleById } from "./examples.js";
import { el, renderContent, readableJson, editorJson, describeError } from "./render.js";

/**
 * @typedef {object} ToolConsoleOptions
 * @property {HTMLElement} root          the console panel (holds the elements by id below)
 * @property {() => import("memory-tool-wasm").MemoryTool} memory  the store open now
 */

/**
 * Wires the console panel to the page's store. (The memory browser hears each change the
 * console makes through the store's change events.)
 * @param {ToolConsoleOptions} options
 * @returns {{ run: () => Promise<void>, load: (exampleId: string) => void }}
 */
export function mountToolConsole({ root, memory }) {
  const picker = /** @type {HTMLSelectElement} */ (root.querySelector("#example-picker"));
  const note = /** @type {HTMLElement} */ (root.querySelector("#example-note"));
  const input = /** @type {HTMLTextAreaElement} */ (root.querySelector("#tool-input"));
  const runButton = /** @type {HTMLButtonElement} */ (root.querySelector("#run-button"));
  const result = /** @type {HTMLElement} */ (root.querySelector("#result"));

  let seq = 0; // results shown so far; tests wait on data-seq
  let toolUseCounter = 0;
  let running = false;

  // The picker: a prompt option, then the examples by group.
  picker.replaceChildren(el("option", { value: "" }, "Choose an example…"));
  /** @type {Map<string, HTMLOptGroupElement>} */
  const groups = new Map();
  for (const example of EXAMPLES) {
    let group = groups.get(example.group);
    if (!group) {
      group = /** @type {HTMLOptGroupElement} */ (el("optgroup", { label: example.group }));
      groups.set(example.group, group);
      picker.append(group);
    }
    group.append(el("option", { value: example.id }, example.label));
  }
  picker.addEventListener("change", () => {
    if (picker.value) load(picker.value);
  });

  runButton.addEventListener("click", () => void run());
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  });
  runButton.disabled = false;
  input.disabled = false;

  load("view-root");

  /** Puts an example into the editor (it does not run it). */
  function load(/** @type {string} */ id) {
    const example = exampleById(id);
    if (!example) return;
    picker.value = id;
    input.value = editorJson(example.input);
    note.textContent = example.note;
  }

  /** Runs what the editor holds and shows the result. */
  async function run() {
    if (running) return;
    const source = input.value;
    let parsed;
    try {
      parsed = JSON.parse(source);
    } catch (err) {
      show(inputProblem(`The editor does not hold valid JSON: ${/** @type {Error} */ (err).message}.`));
      return;
    }
    const toolUse = isToolUse(parsed)
      ? parsed
      : { type: "tool_use", id: `toolu_demo_${String(++toolUseCounter).padStart(3, "0")}`, name: "memory", input: parsed };

    // The button stays enabled (disabling it would drop keyboard focus); `running` guards.
    running = true;
    result.setAttribute("aria-busy", "true");
    const started = performance.now();
    try {
      const toolResult = await memory().run(toolUse);
      show(renderToolResult(toolUse, toolResult, performance.now() - started));
    } catch (err) {
      show(inputProblem(`memory.run threw instead of answering: ${describeError(err)}`));
    } finally {
      running = false;
      result.removeAttribute("aria-busy");
    }
  }

  /** Replaces the result area and bumps its sequence number. */
  function show(/** @type {Node} */ content) {
    seq += 1;
    result.replaceChildren(el("h3", { id: "result-title", className: "visually-hidden" }, "Result"), content);
    result.dataset.seq = String(seq);
  }

  return { run, load };
}

/**
 * Is this a whole tool_use block (rather than a bare tool input)?
 * @param {unknown} value
 */
function isToolUse(value) {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && /** @type {any} */ (value).type === "tool_use"
  );
}

/**
 * A problem before or around the tool call (bad JSON, a thrown error); not a tool_result.
 * @param {string} message
 */
function inputProblem(message) {
  return el(
    "div",
    { className: "result-body", dataset: { kind: "problem" } },
    el("p", { className: "badge badge-problem" }, "Not sent"),
    el("p", { className: "problem", dataset: { testid: "result-problem" } }, message),
  );
}

/**
 * The tool_result: an is_error badge, the content as the model reads it, and the JSON itself.
 * @param {any} toolUse
 * @param {any} toolResult
 * @param {number} ms
 */
function renderToolResult(toolUse, toolResult, ms) {
  const isError = toolResult && toolResult.is_error === true;
  const fullJson = JSON.stringify(toolResult, null, 2);
  const readable = readableJson(toolResult);
  const copyButton = el(
    "button",
    {
      type: "button",
      className: "small",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(fullJson);
          copyButton.textContent = "Copied";
        } catch {
          copyButton.textContent = "Copy failed (no clipboard access)";
        }
        setTimeout(() => (copyButton.textContent = "Copy JSON"), 1500);
      },
    },
    "Copy JSON",
  );
  return el(
    "div",
    { className: "result-body", dataset: { kind: "tool-result", isError: String(isError) } },
    el(
      "div",
      { className: "result-meta" },
      isError
        ? el("p", { className: "badge badge-error", dataset: { testid: "result-status" } }, "is_error: true")
        : el("p", { className: "badge badge-ok", dataset: { testid: "result-status" } }, "success"),
      el(
        "p",
        { className: "meta" },
        `${describeCall(toolUse.input)} · tool_use_id `,
        el("code", {}, String(toolResult?.tool_use_id)),
        ` · ${ms.toFixed(1)} ms`,
      ),
    ),
    el("h4", {}, "Content, as the model reads it"),
    renderContent(toolResult?.content, { testid: "result", isError }),
    el(
      "details",
      { className: "raw-json", open: true },
      el(
        "summary",
        {},
        "tool_result JSON",
        readable.length < fullJson.length ? " (image data shortened here; Copy JSON copies it whole)" : null,
      ),
      el("pre", { className: "json", dataset: { testid: "result-json" }, tabindex: 0 }, readable),
      copyButton,
    ),
  );
}

/**
 * A short label for the call: `view /memories`, `rename a → b`.
 * @param {any} input
 */
function describeCall(input) {
  if (!input || typeof input !== "object" || Array.isArray(input)) return "tool input";
  const command = typeof input.command === "string" ? input.command : "(no command)";
  if (typeof input.old_path === "string") return `${command} ${input.old_path} → ${input.new_path}`;
  return typeof input.path === "string" ? `${command} ${input.path}` : command;
}
