// The model picker's choices: a few current models to start with, replaced by the API's own
// list (`client.models.list()`) once a key is given.

/** Offered before the API has been asked; the first is the default. */
export const DEFAULT_MODELS = Object.freeze([
  { id: "claude-sonnet-5-5", name: "Claude Sonnet 5.5" },
  { id: "claude-opus-5-5", name: "Claude Opus 5.5" },
  { id: "claude-haiku-5-5", name: "Claude Haiku 5.5" },
  { id: "claude-sonnet-5", name: "Claude Sonnet 5" },
]);

const CHOSEN = "memory-tool-wasm-demo:model";

/**
 * The models the key may use, newest first, from the API.
 * @param {any} client an Anthropic client
 * @returns {Promise<Array<{ id: string, name: string }>>}
 */
export async function fetchModels(client) {
  /** @type {Array<{ id: string, name: string }>} */
  const out = [];
  for await (const model of client.models.list({ limit: 100 })) {
    out.push({ id: model.id, name: model.display_name || model.id });
  }
  return out;
}

/** The model picked last in this browser, if any. */
export function loadChosenModel() {
  try {
    return localStorage.getItem(CHOSEN);
  } catch {
    return null;
  }
}

/** @param {string} id */
export function saveChosenModel(id) {
  try {
    localStorage.setItem(CHOSEN, id);
  } catch {
    // Not remembered; harmless.
  }
}
