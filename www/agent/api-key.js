// The user's Anthropic API key: kept in this tab's sessionStorage only (gone when the tab
// closes; never in localStorage, never in a URL, never logged), and sent only to the API.

const KEY = "memory-tool-wasm-demo:anthropic-api-key";

/** The key this tab holds, or null. */
export function loadApiKey() {
  try {
    return sessionStorage.getItem(KEY) || null;
  } catch {
    return null; // storage blocked: the page works with the recorded model
  }
}

/**
 * Keeps `key` for this tab. Returns false when the browser refuses to store it (it is then
 * used until the page reloads).
 * @param {string} key
 */
export function saveApiKey(key) {
  try {
    sessionStorage.setItem(KEY, key);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the key. */
export function forgetApiKey() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}

/**
 * What is wrong with a typed key, in words, or null. Only the shape is checked; the API says
 * whether it is valid.
 * @param {string} key
 */
export function apiKeyProblem(key) {
  if (key === "") return "Paste your API key first.";
  if (/\s/.test(key)) return "The key has spaces or line breaks in it; paste it again.";
  if (!key.startsWith("sk-")) return "Anthropic API keys start with “sk-”.";
  return null;
}

/**
 * A key for display: its start and its last four characters.
 * @param {string} key
 */
export function maskApiKey(key) {
  return key.length > 12 ? `${key.slice(0, 7)}…${key.slice(-4)}` : "…";
}
