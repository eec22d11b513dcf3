// The agent panel: a chat that runs the whole tool-use loop in this page with the official
// SDK's tool runner and `memoryTool(memory)`. With the user's API key it talks to Claude;
// without one, a recorded model answers through the same runner (see scripted-model.js), so
// the memory tool really runs against this browser's IndexedDB either way.

import { el, describeError } from "../render.js";
import { Transcript } from "./transcript.js";
import { runAgent, describeAgentError, safeHistory, CONTEXT_MANAGEMENT, COMPACT_AT, LONG_RUNNING_BETAS } from "./agent-loop.js";
import { recordedConversations, scriptedFetch, RECORDED_MODEL, SCENARIOS } from "./scripted-model.js";
import { loadApiKey, saveApiKey, forgetApiKey, apiKeyProblem, maskApiKey } from "./api-key.js";
import { DEFAULT_MODELS, fetchModels, loadChosenModel, saveChosenModel } from "./models.js";

/**
 * @typedef {object} AgentPanelOptions
 * @property {HTMLElement} root
 * @property {() => Promise<{ memory: import("memory-tool-wasm").MemoryTool, system: string | null, root: string, label: string }>} openMemory
 *   the memory the agent works on now (the mounted stores), with the system prompt that goes with it
 *   and the mounts in words
 * @property {() => Promise<void>} startOver
 *   gives the agent an empty memory (a new store, which the browser shows)
 */

/**
 * The SDK and the package's SDK entry, loaded on first use: the rest of the demo works even
 * where they cannot load.
 * @type {Promise<{ Anthropic: any, memoryTool: (memory: any) => any }> | null}
 */
let sdkLoading = null;

function loadSdk() {
  sdkLoading ??= Promise.all([import("@anthropic-ai/sdk"), import("memory-tool-wasm/anthropic")]).then(
    ([sdk, entry]) => ({ Anthropic: sdk.default, memoryTool: entry.memoryTool }),
    (error) => {
      sdkLoading = null;
      throw error;
    },
  );
  return sdkLoading;
}

/**
 * Loads the SDK when the page is idle, so the first Send does not wait for it; a failure here
 * is said when Send needs the SDK.
 */
function preloadSdk() {
  const load = () => void loadSdk().catch(() => {});
  if (typeof requestIdleCallback === "function") requestIdleCallback(load, { timeout: 3000 });
  else setTimeout(load, 500);
}

/**
 * The Messages API endpoint the page was served for, if it is not the Anthropic API (the
 * server's $ANTHROPIC_BASE_URL, in <meta name="anthropic-base-url">; the page's
 * Content-Security-Policy lets requests reach only that origin and the Anthropic API).
 * @returns {{ baseURL?: string }}
 */
function apiBase() {
  const configured = document.querySelector('meta[name="anthropic-base-url"]')?.getAttribute("content")?.trim();
  return configured ? { baseURL: configured } : {};
}

/**
 * Wires the agent panel.
 * @param {AgentPanelOptions} options
 */
export function mountAgentPanel({ root, openMemory, startOver }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const modeText = $("agent-mode");
  const keyForm = /** @type {HTMLFormElement} */ ($("key-form"));
  const keyInput = /** @type {HTMLInputElement} */ ($("api-key"));
  const keyForget = /** @type {HTMLButtonElement} */ ($("key-forget"));
  const keyNote = $("key-note");
  const modelPicker = /** @type {HTMLSelectElement} */ ($("model-picker"));
  const scenarioPicker = /** @type {HTMLSelectElement} */ ($("scenario-picker"));
  const composer = /** @type {HTMLFormElement} */ ($("composer"));
  const input = /** @type {HTMLTextAreaElement} */ ($("agent-input"));
  const sendButton = /** @type {HTMLButtonElement} */ ($("agent-send"));
  const stopButton = /** @type {HTMLButtonElement} */ ($("agent-stop"));
  const newButton = /** @type {HTMLButtonElement} */ ($("agent-new"));
  const startOverButton = /** @type {HTMLButtonElement} */ ($("agent-start-over"));
  const startOverNote = $("agent-start-over-note");
  const status = $("agent-status");
  const transcript = new Transcript($("transcript"));
  const transcriptList = $("transcript");

  const params = new URLSearchParams(location.search);
  const replayDelay = Number(params.get("replayDelay") ?? 18);

  /** The key for this tab; also kept when sessionStorage refuses it. */
  let apiKey = loadApiKey();
  /** @type {any[]} the conversation so far (Messages API messages) */
  let history = [];
  /** Which recorded conversation the recorded model plays (0, 1, then 0 again). */
  let conversationIndex = 0;
  /** Whether the recorded model answered in this conversation (then "New conversation" moves on). */
  let recordedThisConversation = false;
  /** @type {AbortController | null} */
  let running = null;
  let runs = 0;
  /** Where the recorded model keeps its notes (the first writable mount's folder). */
  let scriptRoot = "/memories";
  /** The mounts, in words, the conversation's last run had (to say when they change). */
  let conversationMemory = "";

  // The model picker: defaults first; the API's list replaces them once a key is set.
  fillModels(DEFAULT_MODELS);
  modelPicker.addEventListener("change", () => saveChosenModel(modelPicker.value));

  keyForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = keyInput.value.trim();
    const problem = apiKeyProblem(typed);
    if (problem) {
      keyNote.textContent = problem;
      keyNote.classList.add("problem");
      keyInput.focus();
      return;
    }
    apiKey = typed;
    const kept = saveApiKey(typed);
    keyInput.value = "";
    keyNote.classList.remove("problem");
    keyNote.textContent = kept
      ? `Key kept in this tab's sessionStorage (gone when the tab closes); sent only to ${apiBase().baseURL ?? "the Anthropic API"}.`
      : "This browser refused sessionStorage: the key is used until you reload the page.";
    paintMode();
    void refreshModels();
  });
  keyForget.addEventListener("click", () => {
    apiKey = null;
    forgetApiKey();
    keyInput.value = "";
    keyNote.classList.remove("problem");
    keyNote.textContent = "Key forgotten. The recorded model answers again.";
    fillModels(DEFAULT_MODELS);
    paintMode();
  });

  composer.addEventListener("submit", (event) => {
    event.preventDefault();
    void send();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  });
  stopButton.addEventListener("click", () => running?.abort());
  newButton.addEventListener("click", () => newConversation());
  // Escape stops a run from anywhere in the panel (forms inside it close themselves first).
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && running && !event.defaultPrevented) {
      event.preventDefault();
      running.abort();
    }
  });
  startOverButton.addEventListener("click", () => void doStartOver());

  for (const control of [keyInput, /** @type {HTMLButtonElement} */ ($("key-use")), input, sendButton, newButton]) control.disabled = false;
  startConversation();
  paintMode();
  if (apiKey) void refreshModels();
  preloadSdk();

  /** Shows who answers: Claude with the user's key, or the recorded model. */
  function paintMode() {
    const live = apiKey !== null;
    root.dataset.mode = live ? "live" : "recorded";
    modeText.replaceChildren(
      live
        ? el("span", {}, el("strong", {}, "Live: "), `Claude answers, with your key (${maskApiKey(apiKey ?? "")}). The conversation, with what the model reads from memory, goes to ${apiBase().baseURL ?? "the Anthropic API"}; the memory itself stays in this browser.`)
        : el(
            "span",
            {},
            el("strong", {}, "Offline: "),
            "a recorded model answers, through the same SDK tool runner. It is a script with reasons, not a language model: " +
              "it reads every tool result it gets and follows it (notes already there, an error, a read-only memory). " +
              "Its memory tool calls run for real, on this browser's IndexedDB.",
          ),
    );
    keyForget.disabled = !live;
    modelPicker.disabled = !live;
    scenarioPicker.disabled = live;
    // The recordings play only without a key.
    /** @type {HTMLElement} */ (scenarioPicker.closest(".field")).hidden = live;
    modelPicker.title = live ? "" : "The recorded model answers until you give a key.";
    suggestNext();
  }

  /** @param {ReadonlyArray<{ id: string, name: string }>} models */
  function fillModels(models) {
    const chosen = loadChosenModel();
    modelPicker.replaceChildren(...models.map((m) => el("option", { value: m.id, title: m.id }, m.name)));
    if (chosen && models.some((m) => m.id === chosen)) modelPicker.value = chosen;
  }

  async function refreshModels() {
    if (!apiKey) return;
    try {
      const { Anthropic } = await loadSdk();
      const client = new Anthropic({ apiKey, dangerouslyAllowBrowser: true, maxRetries: 1, ...apiBase() });
      const models = await fetchModels(client);
      if (models.length > 0 && apiKey) fillModels(models);
    } catch (error) {
      keyNote.textContent = `Could not list the models for this key: ${describeAgentError(error)}`;
    }
  }

  /**
   * The recorded conversation the recorded model plays now, and the others of its scenario
   * (`all`), in order.
   */
  function script() {
    const every = recordedConversations(scriptRoot);
    const conversation = every[conversationIndex % every.length];
    return { all: every.filter((c) => c.scenario === conversation.scenario), conversation };
  }

  /** The conversation after the current one in its scenario (the first again after the last). */
  function nextInScenario() {
    const every = recordedConversations();
    const scenario = every[conversationIndex].scenario;
    const next = every.findIndex((c, i) => i > conversationIndex && c.scenario === scenario);
    return next >= 0 ? next : every.findIndex((c) => c.scenario === scenario);
  }

  scenarioPicker.replaceChildren(...SCENARIOS.map((s) => el("option", { value: s.id }, s.name)));
  scenarioPicker.addEventListener("change", () => {
    if (running) return;
    conversationIndex = recordedConversations().findIndex((c) => c.scenario === scenarioPicker.value);
    recordedThisConversation = false;
    startConversation();
    status.textContent = `Recorded scenario: ${SCENARIOS.find((s) => s.id === scenarioPicker.value)?.name}. A new conversation starts.`;
  });
  function startConversation() {
    history = [];
    conversationMemory = "";
    void offerStartOver();
    const { conversation } = script();
    transcript.clear(
      el(
        "li",
        { className: "placeholder-item" },
        el("p", { className: "placeholder" }, apiKey ? "Ask Claude something it should remember." : conversation.intro),
      ),
    );
    suggestNext();
  }

  function newConversation() {
    if (running) return;
    if (recordedThisConversation) conversationIndex = nextInScenario();
    recordedThisConversation = false;
    startConversation();
    status.textContent = "New conversation: the model starts with no history, only its memory.";
    input.focus();
  }

  /**
   * Offers an empty memory where replaying the first recorded conversation makes little sense:
   * the memory the agent writes to already holds files (the model will read them, not learn anew).
   */
  async function offerStartOver() {
    const asked = conversationIndex;
    let full = false;
    if (!apiKey && conversationIndex === 0) {
      try {
        const target = await openMemory();
        const listing = await target.memory.execute({ command: "view", path: target.root });
        full = !listing.isError && String(listing.content).split("\n").length > 2;
      } catch {
        full = false;
      }
    }
    if (asked !== conversationIndex || history.length > 0) return;
    startOverNote.hidden = !full;
  }

  async function doStartOver() {
    if (running) return;
    startOverButton.disabled = true;
    try {
      await startOver();
      // Back to the first conversation of the scenario being played.
      const scenario = recordedConversations()[conversationIndex].scenario;
      conversationIndex = recordedConversations().findIndex((c) => c.scenario === scenario);
      recordedThisConversation = false;
      startConversation();
      status.textContent = "Started over: the agent now writes to a new, empty store (the memory browser shows it).";
      input.focus();
    } catch (error) {
      status.textContent = `Could not start over: ${describeError(error)}`;
    } finally {
      startOverButton.disabled = false;
    }
  }

  /** In offline mode, puts the recorded user's next message into the box. */
  function suggestNext() {
    if (apiKey) {
      input.placeholder = "Message Claude (Ctrl+Enter sends)";
      return;
    }
    const { all, conversation } = script();
    if (history.length > 0 && !recordedThisConversation) {
      // A conversation with Claude, and now no key: the recording starts in a new conversation.
      input.value = "";
      input.placeholder = "Give your API key again to go on, or press “New conversation” to replay the recording.";
      return;
    }
    const exchange = countUserTurns(history);
    const next = conversation.exchanges[exchange];
    if (next) {
      input.value = next.user;
      input.placeholder = "";
    } else {
      input.value = "";
      input.placeholder =
        all.indexOf(conversation) + 1 < all.length
          ? "This recorded conversation is over: press “New conversation” to see the model recall it."
          : "The recording is over: give your API key to talk to Claude, or press “New conversation” to replay it.";
    }
  }

  async function send() {
    // One run at a time: the guard is taken before anything is awaited, so a double click or
    // Ctrl+Enter pressed twice starts one run.
    if (running) return;
    const text = input.value.trim();
    if (text === "") {
      status.textContent = "Type a message first.";
      input.focus();
      return;
    }
    const controller = new AbortController();
    running = controller;
    setRunning(true);
    const live = apiKey !== null;
    // What the user sent shows at once; the SDK and the memory load behind "loading…".
    if (history.length === 0) transcript.addDivider(live ? "Conversation with Claude" : script().conversation.title);
    transcript.addUser(text);
    input.value = "";
    startOverNote.hidden = true;
    status.textContent = "Loading the SDK and the agent's memory…";
    /** A message the model never answered goes back into the box, to send again. */
    let unanswered = "";
    try {
      let sdk;
      let target;
      try {
        [sdk, target] = await Promise.all([loadSdk(), openMemory()]);
      } catch (error) {
        const reason = describeError(error);
        status.textContent = "";
        transcript.addProblem(
          /@anthropic-ai\/sdk|Failed to fetch dynamically imported module|Failed to resolve module/.test(reason)
            ? `The Anthropic SDK could not be loaded (${reason}). The demo serves it from node_modules: run npm install, then npm start.`
            : `The agent's memory could not be opened: ${reason}`,
        );
        unanswered = text;
        return;
      }
      if (controller.signal.aborted) {
        transcript.addNote("Stopped before the model was asked.");
        status.textContent = "Stopped.";
        unanswered = text;
        return;
      }
      if (conversationMemory && target.label !== conversationMemory) {
        transcript.addNote(`The agent's memory changed in this conversation: it was ${conversationMemory}, it is now ${target.label}.`);
      }
      conversationMemory = target.label;
      scriptRoot = target.root;
      const { conversation } = script();
      /** @type {any[]} */
      const messages = [...history, { role: "user", content: text }];

      const client = live
        ? new sdk.Anthropic({ apiKey, dangerouslyAllowBrowser: true, maxRetries: 2, ...apiBase() })
        : new sdk.Anthropic({
            apiKey: "offline-recorded-model",
            dangerouslyAllowBrowser: true,
            maxRetries: 0,
            // A tag per run: a replay's tool_use ids differ from the last run's.
            fetch: scriptedFetch(conversation, { delayMs: replayDelay, conversationIndex, tag: Math.random().toString(36).slice(2, 8) }),
          });
      const model = live ? modelPicker.value : RECORDED_MODEL;
      if (!live) recordedThisConversation = true;
      const who = live ? "Claude" : "Recorded model";
      status.textContent = live ? `Asking ${model}…` : "The recorded model is answering…";
      try {
        const result = await runAgent({
          client,
          tool: sdk.memoryTool(target.memory),
          model,
          system: target.system,
          messages,
          signal: controller.signal,
          // Claude's long conversations: context editing and compaction (the recorded model's are short).
          ...(live ? { contextManagement: CONTEXT_MANAGEMENT, compactAt: COMPACT_AT, betas: LONG_RUNNING_BETAS } : {}),
          events: {
            onTurnStart: (turn) => transcript.startAssistant(who, turn),
            onTextStart: (index) => transcript.startText(index),
            onTextDelta: (index, delta) => transcript.appendText(index, delta),
            onToolUseStart: (index, block) => transcript.startToolUse(index, block),
            onToolInputDelta: (index, json) => transcript.appendToolInput(index, json),
            onToolUse: (block) => transcript.finishToolUse(block),
            onMessage: () => transcript.finishAssistant(),
            onToolsRunning: (ids) => {
              transcript.markRunning(ids);
              status.textContent = `Running ${ids.length} memory tool call${ids.length === 1 ? "" : "s"} in this page…`;
            },
            onToolResult: (toolResult) => transcript.addToolResult(toolResult),
            onContextEdited: (edits) => transcript.addContextEdit(edits),
            onCompacted: (summary) => transcript.showCompaction(summary),
          },
        });
        history = result.messages;
        status.textContent = `Done: ${result.requests} request${result.requests === 1 ? "" : "s"}, ${result.toolCalls} memory tool call${result.toolCalls === 1 ? "" : "s"}.`;
      } catch (error) {
        const anyError = /** @type {any} */ (error);
        history = Array.isArray(anyError?.history) ? anyError.history : safeHistory(messages);
        const last = history[history.length - 1];
        if (last?.role === "user" && typeof last.content === "string") {
          unanswered = last.content;
          history = history.slice(0, -1);
        }
        transcript.abandonOpenCalls();
        const words = describeAgentError(error);
        if (words === "Stopped.") transcript.addNote("Stopped. Tool calls already run stay done; the rest did not run.");
        else transcript.addProblem(words);
        status.textContent = words === "Stopped." ? "Stopped." : "The run failed (see the conversation).";
      }
    } finally {
      if (unanswered) transcript.addNote("Your message was not answered: it is back in the box, to send again.");
      running = null;
      setRunning(false);
      runs += 1;
      transcriptList.dataset.runs = String(runs);
      suggestNext();
      if (unanswered && input.value === "") input.value = unanswered;
    }
  }

  /** @param {boolean} on */
  function setRunning(on) {
    root.dataset.state = on ? "running" : "idle";
    sendButton.disabled = on;
    newButton.disabled = on;
    scenarioPicker.disabled = on || apiKey !== null;
    stopButton.hidden = !on;
    if (on) stopButton.focus();
    else if (document.activeElement === stopButton || document.activeElement === document.body) input.focus();
  }

  root.dataset.state = "idle";
  transcriptList.dataset.runs = "0";
}

/**
 * How many messages of the user (not tool results) a conversation has.
 * @param {any[]} messages
 */
function countUserTurns(messages) {
  return messages.filter(
    (m) => m.role === "user" && !(Array.isArray(m.content) && m.content.every((/** @type {any} */ b) => b.type === "tool_result")),
  ).length;
}
