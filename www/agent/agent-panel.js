// The agent panel: a chat that runs the whole tool-use loop in this page with the official
// SDK's tool runner and `memoryTool(memory)`. With the user's API key it talks to Claude;
// without one, a recorded model answers through the same runner (see scripted-model.js), so
// the memory tool really runs against this browser's IndexedDB either way.
//
// Offline, the recording's own lines are never put in the box as if they were the visitor's:
// "Play the next message" plays them, marked as the recording's; what the visitor types is
// theirs, and the recorded model takes no fact from it (recorded-script.js `ownMessage`).

import { el, describeError } from "../render.js";
import { Transcript } from "./transcript.js";
import { runAgent, safeHistory, CONTEXT_MANAGEMENT, COMPACT_AT, LONG_RUNNING_BETAS } from "./agent-loop.js";
import { recordedConversations, scriptedFetch, playedLines, RECORDED_MODEL, SCENARIOS, TYPED_NOTE } from "./scripted-model.js";
import { loadApiKey, saveApiKey, forgetApiKey, apiKeyProblem, maskApiKey } from "./api-key.js";
import { DEFAULT_MODELS, fetchModels, loadChosenModel, saveChosenModel } from "./models.js";
import { describeFailure } from "../api-errors.js";

/**
 * @typedef {object} AgentPanelOptions
 * @property {HTMLElement} root
 * @property {() => Promise<{ memory: import("memory-tool-wasm").MemoryTool, system: string | null, root: string, label: string }>} openMemory
 *   the memory the agent works on now (the mounted stores), with the system prompt that goes with it
 *   and the mounts in words
 * @property {() => Promise<void>} startOver
 *   gives the agent an empty memory (a new store, which the browser shows)
 */

/** Offered when a key starts a conversation with Claude: they fill the box, they send nothing. */
export const STARTERS = Object.freeze([
  "Remember that I prefer tea to coffee, and that I'm learning Portuguese.",
  "What do you remember about me?",
  "Plan a weekend in Porto with me, and keep the plan in your memory.",
]);

/** sessionStorage: this tab had a conversation (so that after a reload the page can say it is gone). */
const HAD_CONVERSATION = "memory-tool-wasm-demo:had-conversation";

/** What a reload does to the conversation, said where each conversation starts. */
const FATE = "The conversation lives in this tab only: a reload starts a new one. What the model wrote stays in memory.";

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

/** Where the live agent's requests go, in words. */
function endpointWords() {
  return apiBase().baseURL ?? "the Anthropic API";
}

/** @param {string} key */
function readFlag(key) {
  try {
    return sessionStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}
/** @param {string} key @param {boolean} on */
function writeFlag(key, on) {
  try {
    if (on) sessionStorage.setItem(key, "1");
    else sessionStorage.removeItem(key);
  } catch {
    // Not kept: the page only cannot say after a reload that a conversation went.
  }
}

/**
 * Wires the agent panel.
 * @param {AgentPanelOptions} options
 * @returns {{ memoryChanged: () => void }}
 */
export function mountAgentPanel({ root, openMemory, startOver }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const modeText = $("agent-mode");
  const ownKey = /** @type {HTMLDetailsElement} */ ($("own-key"));
  const ownKeySummary = $("own-key-summary");
  const keyForm = /** @type {HTMLFormElement} */ ($("key-form"));
  const keyInput = /** @type {HTMLInputElement} */ ($("api-key"));
  const keyUse = /** @type {HTMLButtonElement} */ ($("key-use"));
  const keyForget = /** @type {HTMLButtonElement} */ ($("key-forget"));
  const keyNote = $("key-note");
  const modelField = $("model-field");
  const modelPicker = /** @type {HTMLSelectElement} */ ($("model-picker"));
  const modelNote = $("model-note");
  const scenarioField = $("scenario-field");
  const scenarioPicker = /** @type {HTMLSelectElement} */ ($("scenario-picker"));
  const nextLine = $("next-line");
  const nextLineTitle = $("next-line-title");
  const nextLineText = $("next-line-text");
  const playButton = /** @type {HTMLButtonElement} */ ($("agent-play"));
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
  /** The list of models for the key, while it is being asked for (Send waits for it). @type {Promise<void> | null} */
  let modelsLoading = null;
  /** Why the models could not be listed (then Send names the model it uses), or null. @type {string | null} */
  let modelsProblem = null;

  // The model picker: defaults until the API's list for the key replaces them.
  fillModels(DEFAULT_MODELS);
  modelPicker.addEventListener("change", () => {
    saveChosenModel(modelPicker.value);
    paintModelNote();
  });

  keyForm.addEventListener("submit", (event) => {
    event.preventDefault();
    if (running) return;
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
      ? `Key kept in this tab's sessionStorage (gone when the tab closes); sent only to ${endpointWords()}.`
      : "This browser refused sessionStorage: the key is used until you reload the page.";
    ownKey.open = false;
    // A conversation with Claude starts afresh: nothing of the recording goes with the key.
    startConversation();
    paintMode();
    status.textContent = "A new conversation with Claude: nothing from the recording is sent.";
    modelsLoading = refreshModels();
    input.focus();
  });
  keyForget.addEventListener("click", () => {
    if (running) return;
    apiKey = null;
    forgetApiKey();
    keyInput.value = "";
    keyNote.classList.remove("problem");
    keyNote.textContent = "Key forgotten: the recording plays again, in a new conversation.";
    modelsLoading = null;
    modelsProblem = null;
    fillModels(DEFAULT_MODELS);
    startConversation();
    paintMode();
  });

  composer.addEventListener("submit", (event) => {
    event.preventDefault();
    void sendTyped();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void sendTyped();
    }
  });
  playButton.addEventListener("click", () => void playNext());
  stopButton.addEventListener("click", () => running?.abort());
  newButton.addEventListener("click", () => {
    newConversation();
    status.textContent = "New conversation: the model starts with no history, only its memory.";
    input.focus();
  });
  // Escape stops a run from anywhere in the panel (forms inside it close themselves first).
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && running && !event.defaultPrevented) {
      event.preventDefault();
      running.abort();
    }
  });
  startOverButton.addEventListener("click", () => void doStartOver());

  scenarioPicker.replaceChildren(...SCENARIOS.map((s) => el("option", { value: s.id }, s.name)));
  scenarioPicker.addEventListener("change", () => {
    if (running) return;
    conversationIndex = recordedConversations().findIndex((c) => c.scenario === scenarioPicker.value);
    recordedThisConversation = false;
    startConversation();
    status.textContent = `Recording: ${SCENARIOS.find((s) => s.id === scenarioPicker.value)?.name}. A new conversation starts.`;
  });

  for (const control of [keyInput, keyUse, input, sendButton, newButton]) control.disabled = false;
  const reloaded = readFlag(HAD_CONVERSATION);
  writeFlag(HAD_CONVERSATION, false);
  startConversation({ reloaded });
  paintMode();
  if (apiKey) modelsLoading = refreshModels();
  preloadSdk();

  /** Shows who answers (Claude with the user's key, or the recording) and the controls for it. */
  function paintMode() {
    const live = apiKey !== null;
    root.dataset.mode = live ? "live" : "recorded";
    modeText.replaceChildren(
      live
        ? el(
            "span",
            {},
            el("strong", {}, "Live: "),
            `Claude answers, with your key (${maskApiKey(apiKey ?? "")}). The conversation, with what the model reads from memory, goes to ${endpointWords()}; the memory itself stays in this browser.`,
          )
        : el(
            "span",
            {},
            el("strong", {}, "Offline: "),
            "a recorded model answers. It is a script, not a language model; its memory tool calls run for real, on this browser's IndexedDB.",
          ),
    );
    ownKeySummary.textContent = live ? `Your key (${maskApiKey(apiKey ?? "")})` : "Use your own key";
    keyForget.disabled = !live;
    // Offline there is no model to pick (the recording answers); live there is no recording.
    modelField.hidden = !live;
    modelPicker.disabled = !live;
    scenarioField.hidden = live;
    scenarioPicker.disabled = live;
    sendButton.classList.toggle("primary", live);
    paintModelNote();
    paintNext();
  }

  /** @param {ReadonlyArray<{ id: string, name: string }>} models */
  function fillModels(models) {
    const chosen = loadChosenModel();
    modelPicker.replaceChildren(...models.map((m) => el("option", { value: m.id, title: m.id }, m.name)));
    if (chosen && models.some((m) => m.id === chosen)) modelPicker.value = chosen;
  }

  /** The model Send uses, in words: "Claude E2E (claude-e2e-model)". */
  function modelWords() {
    const option = modelPicker.selectedOptions[0];
    return option ? `${option.textContent} (${option.value})` : modelPicker.value;
  }

  /** When the key's models could not be listed, a line under the bar says which model Send uses. */
  function paintModelNote() {
    modelNote.hidden = !(apiKey && modelsProblem);
    if (!apiKey || !modelsProblem) return;
    modelNote.textContent = `Could not list the models for this key (${modelsProblem}). Send uses ${modelWords()}; pick another under Model if that one is not yours.`;
  }

  /** Asks the API for the key's models; Send waits for this (a default is never used unasked). */
  async function refreshModels() {
    if (!apiKey) return;
    const key = apiKey;
    modelsProblem = null;
    modelPicker.disabled = true;
    modelPicker.replaceChildren(el("option", { value: "" }, "Loading the models for your key…"));
    try {
      const { Anthropic } = await loadSdk();
      const client = new Anthropic({ apiKey: key, dangerouslyAllowBrowser: true, maxRetries: 1, ...apiBase() });
      const models = await fetchModels(client);
      if (apiKey !== key) return;
      if (models.length === 0) throw new Error("the list was empty");
      fillModels(models);
    } catch (error) {
      if (apiKey !== key) return;
      fillModels(DEFAULT_MODELS);
      modelsProblem = describeFailure(error, { endpoint: endpointWords() }).what.replace(/\.$/, "");
    } finally {
      if (apiKey === key) {
        modelPicker.disabled = false;
        modelsLoading = null;
        paintModelNote();
      }
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

  /**
   * The recording's next line: in this conversation, or (once its lines are played, or after a
   * conversation with Claude) the first line of the next conversation of the scenario.
   * @returns {{ text: string, fresh: boolean, title: string }}
   */
  function upcoming() {
    const { conversation } = script();
    const withClaude = history.length > 0 && !recordedThisConversation;
    const played = withClaude ? conversation.exchanges.length : playedLines(conversation, history);
    if (played < conversation.exchanges.length) return { text: conversation.exchanges[played].user, fresh: false, title: conversation.title };
    const index = recordedThisConversation && !withClaude ? nextInScenario() : conversationIndex;
    const next = recordedConversations()[index];
    return { text: next.exchanges[0].user, fresh: true, title: next.title };
  }

  /** Offline: the recording's next line, shown as the recording's, with its Play button. */
  function paintNext() {
    const live = apiKey !== null;
    nextLine.hidden = live;
    input.placeholder = live
      ? "Message Claude"
      : "Or type your own: the recording can't read it, and keeps it word for word.";
    if (live) return;
    const next = upcoming();
    nextLineTitle.textContent = next.fresh ? "The recording goes on in a new conversation" : "The recording's next message";
    nextLineTitle.title = next.title;
    nextLineText.textContent = `“${next.text}”`;
    playButton.textContent = next.fresh ? "Play it in a new conversation" : "Play the next message";
    playButton.disabled = running !== null;
  }

  /**
   * Empties the transcript for a new conversation: offline, the recording's title and what it
   * shows; live, two or three things to ask. After a reload, it says the last conversation went.
   * @param {{ reloaded?: boolean }} [options]
   */
  function startConversation({ reloaded = false } = {}) {
    history = [];
    conversationMemory = "";
    void offerStartOver();
    const { conversation } = script();
    const gone = reloaded
      ? el("p", { className: "hint", dataset: { testid: "reloaded-note" } }, "The conversation before the reload is gone (it lived in this tab only); what the model wrote is still in memory.")
      : el("p", { className: "hint", dataset: { testid: "conversation-fate" } }, FATE);
    const placeholder = apiKey
      ? el(
          "li",
          { className: "placeholder-item" },
          el("p", { className: "placeholder" }, "Ask Claude something it should remember, or start from one of these:"),
          el(
            "ul",
            { className: "starters", dataset: { testid: "starters" } },
            ...STARTERS.map((text) =>
              el(
                "li",
                {},
                el(
                  "button",
                  {
                    type: "button",
                    className: "starter",
                    dataset: { testid: "starter" },
                    onclick: () => {
                      input.value = text;
                      input.focus();
                    },
                  },
                  text,
                ),
              ),
            ),
          ),
          gone,
        )
      : el(
          "li",
          { className: "placeholder-item" },
          el("p", { className: "placeholder-title" }, conversation.title),
          el("p", { className: "placeholder" }, conversation.intro),
          el(
            "p",
            { className: "hint" },
            "This is a recording: a script that follows the tool results it gets, not a language model. Press “Play the next message” to hear its visitor's lines; words you type yourself are kept as typed, never read for facts.",
          ),
          gone,
        );
    transcript.clear(placeholder);
    input.value = "";
    paintNext();
  }

  function newConversation() {
    if (running) return;
    if (recordedThisConversation) conversationIndex = nextInScenario();
    recordedThisConversation = false;
    startConversation();
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
      playButton.focus();
    } catch (error) {
      status.textContent = `Could not start over: ${describeError(error)}`;
    } finally {
      startOverButton.disabled = false;
    }
  }

  /** Plays the recording's next line (in a new conversation when this one's are played). */
  async function playNext() {
    if (running || apiKey) return;
    const next = upcoming();
    if (next.fresh) newConversation();
    await send({ text: next.text, recorded: true });
  }

  /** Sends what the visitor typed. */
  async function sendTyped() {
    if (running) return;
    const text = input.value.trim();
    if (text === "") {
      status.textContent = apiKey ? "Type a message first." : "Type a message first, or press “Play the next message”.";
      input.focus();
      return;
    }
    await send({ text, recorded: false });
  }

  /**
   * One run: a new user message (`text`), or, with `resume`, the conversation goes on from where
   * a cut stream left it (its last tool results).
   * @param {{ text?: string, recorded?: boolean, resume?: boolean }} what
   */
  async function send({ text = "", recorded = false, resume = false }) {
    // One run at a time: the guard is taken before anything is awaited, so a double click or
    // Ctrl+Enter pressed twice starts one run.
    if (running) return;
    const controller = new AbortController();
    running = controller;
    setRunning(true);
    const live = apiKey !== null;
    writeFlag(HAD_CONVERSATION, true);
    // What the user sent shows at once; the SDK and the memory load behind "loading…".
    if (!resume) {
      if (history.length === 0) transcript.addDivider(live ? "Conversation with Claude" : script().conversation.title, FATE, "conversation-fate");
      transcript.addUser(text, { recorded });
      if (!recorded) input.value = "";
    } else {
      transcript.addNote("Retrying: the model goes on from where the answer was cut.");
    }
    startOverNote.hidden = true;
    status.textContent = "Loading the SDK and the agent's memory…";
    /** A message the model never answered goes back into the box (or to the Retry button). */
    let unanswered = "";
    /** After a failure: what Retry does. @type {null | (() => void)} */
    let retry = null;
    try {
      let sdk;
      let target;
      try {
        [sdk, target] = await Promise.all([loadSdk(), openMemory()]);
        if (live && modelsLoading) {
          status.textContent = "Waiting for the list of models your key may use…";
          await modelsLoading;
        }
      } catch (error) {
        const reason = describeError(error);
        status.textContent = "";
        transcript.addProblem(
          /@anthropic-ai\/sdk|Failed to fetch dynamically imported module|Failed to resolve module/.test(reason)
            ? `The Anthropic SDK could not be loaded (${reason}). The demo serves it from node_modules: run npm install, then npm start.`
            : `The agent's memory could not be opened: ${reason}`,
        );
        unanswered = resume ? "" : text;
        return;
      }
      if (controller.signal.aborted) {
        transcript.addNote("Stopped before the model was asked.");
        status.textContent = "Stopped.";
        unanswered = resume ? "" : text;
        return;
      }
      if (live !== (apiKey !== null)) {
        transcript.addNote("The key changed while this message waited: it was not sent.");
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
      const messages = resume ? [...history] : [...history, { role: "user", content: text }];

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
      status.textContent = live
        ? `Asking ${modelWords()}${modelsProblem ? " (the list of models could not be read)" : ""}…`
        : recorded
          ? "The recorded model is answering…"
          : `The recording answers your own words: it keeps them in ${TYPED_NOTE}…`;
      /** Whether the request streaming now had sent anything (a cut then leaves half an answer). */
      let streamed = false;
      let toolsRan = 0;
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
            onTurnStart: (turn) => {
              streamed = false;
              transcript.startAssistant(who, turn);
            },
            onTextStart: (index) => {
              streamed = true;
              transcript.startText(index);
            },
            onTextDelta: (index, delta) => transcript.appendText(index, delta),
            onToolUseStart: (index, block) => {
              streamed = true;
              transcript.startToolUse(index, block);
            },
            onToolInputDelta: (index, json) => transcript.appendToolInput(index, json),
            onToolUse: (block) => transcript.finishToolUse(block),
            onMessage: () => {
              streamed = false;
              transcript.finishAssistant();
            },
            onToolsRunning: (ids) => {
              transcript.markRunning(ids);
              status.textContent = `Running ${ids.length} memory tool call${ids.length === 1 ? "" : "s"} in this page…`;
            },
            onToolResult: (toolResult) => {
              toolsRan += 1;
              transcript.addToolResult(toolResult);
            },
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
        const failure = describeFailure(error, {
          endpoint: live ? endpointWords() : "the recording",
          keyAction: "Check the key under “Your key”, or forget it to go back to the recording.",
          retryAction: "Press Retry to send it again.",
        });
        const cut = streamed && failure.kind !== "stopped" && failure.status === null;
        if (cut) transcript.markCut();
        transcript.abandonOpenCalls();
        if (failure.kind === "stopped") {
          transcript.addNote("Stopped. Tool calls already run stay done; the rest did not run.");
          status.textContent = "Stopped.";
        } else {
          const again = unanswered;
          retry = again ? () => void send({ text: again, recorded: again === upcomingLine() }) : () => void send({ resume: true });
          const words = cut
            ? `The connection to ${live ? endpointWords() : "the recording"} dropped in the middle of the answer, which is cut off where it stopped` +
              (toolsRan > 0 ? `; the ${toolsRan} tool call${toolsRan === 1 ? "" : "s"} that ran stay${toolsRan === 1 ? "s" : ""} done, in memory` : "") +
              ". Press Retry to ask the model to go on."
            : failure.words;
          transcript.addProblem(words, { retry: () => retry?.() });
          status.textContent = cut ? "The answer was cut off: the connection dropped (see the conversation)." : "The run failed (see the conversation).";
        }
      }
    } finally {
      running = null;
      setRunning(false);
      runs += 1;
      transcriptList.dataset.runs = String(runs);
      paintNext();
      if (unanswered && unanswered === upcomingLine()) {
        transcript.addNote("The recording's message was not answered: “Play the next message” plays it again.");
      } else if (unanswered) {
        if (input.value === "") input.value = unanswered;
        transcript.addNote(
          retry ? "Your message was not answered: Retry sends it again (it is back in the box too)." : "Your message was not answered: it is back in the box, to send again.",
        );
      }
    }
  }

  /** The recording's next line (offline), to tell a recorded message from the visitor's own. */
  function upcomingLine() {
    return apiKey ? null : upcoming().text;
  }

  /** @param {boolean} on */
  function setRunning(on) {
    root.dataset.state = on ? "running" : "idle";
    sendButton.disabled = on;
    newButton.disabled = on;
    playButton.disabled = on;
    keyUse.disabled = on;
    keyForget.disabled = on || apiKey === null;
    scenarioPicker.disabled = on || apiKey !== null;
    stopButton.hidden = !on;
    if (on) stopButton.focus();
    else if (document.activeElement === stopButton || document.activeElement === document.body) (apiKey ? input : playButton).focus();
  }

  root.dataset.state = "idle";
  transcriptList.dataset.runs = "0";
  return {
    /** The agent's memory changed (files came or went): the offer of an empty memory follows it. */
    memoryChanged() {
      if (history.length === 0 && !running) void offerStartOver();
    },
  };
}
