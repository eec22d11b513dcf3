// Errors from the Anthropic API (the Messages API for the agent, the memory stores API for sync)
// in words a person can act on: what happened, in one sentence, and what to do, with the API's
// own message quoted when it sent one, never its JSON. The SDK's errors carry the parsed body
// (`error.error`); sync keeps only a message (`status.lastError`), which for an API answer is
// the SDK's `"<status> <body as JSON>"`: both are read here.

/**
 * What went wrong, for people.
 * @typedef {object} Failure
 * @property {"stopped" | "auth" | "forbidden" | "not_found" | "rate" | "overloaded" | "status" | "connection" | "policy" | "other"} kind
 * @property {number | null} status   the HTTP status, when the API answered
 * @property {string} what            what happened, one sentence
 * @property {string} todo            what to do next, one sentence (may be empty)
 * @property {string} words           both, as one text
 */

/**
 * The status, error type and message of an API answer, from an SDK error or from a message in
 * the SDK's `"<status> <json>"` shape; the JSON itself is never returned.
 * @param {any} error  an SDK error, an Error, or a message string
 * @returns {{ status: number | null, type: string | null, message: string | null, name: string, raw: string }}
 */
export function apiAnswerOf(error) {
  const name = typeof error === "object" && error !== null ? (error.constructor?.name ?? "") : "";
  const raw = typeof error === "string" ? error : String(error?.message ?? error ?? "");
  let status = typeof error?.status === "number" ? error.status : null;
  let type = error?.error?.error?.type ?? error?.error?.type ?? null;
  let message = error?.error?.error?.message ?? (typeof error?.error?.message === "string" ? error.error.message : null);
  const shaped = /^(\d{3})\s+(\{[\s\S]*\})\s*$/.exec(raw) ?? /^(\d{3})\s+(.*)$/s.exec(raw);
  if (shaped && status === null) status = Number(shaped[1]);
  if (shaped && message === null) {
    try {
      const body = JSON.parse(shaped[2]);
      type = body?.error?.type ?? body?.type ?? type;
      message = body?.error?.message ?? (typeof body?.message === "string" ? body.message : null);
    } catch {
      message = /^\s*\{/.test(shaped[2]) ? null : shaped[2].trim() || null;
    }
  }
  if (typeof type !== "string") type = null;
  if (typeof message !== "string") message = null;
  return { status, type, message, name, raw };
}

/**
 * An API failure in words. `endpoint` names where the request went ("the Anthropic API", or the
 * configured base URL); `actions` says what the person can do about a refused key and a
 * connection that failed.
 * @param {any} error
 * @param {{ endpoint: string, keyAction?: string, retryAction?: string }} options
 * @returns {Failure}
 */
export function describeFailure(error, { endpoint, keyAction = "Check the key.", retryAction = "Try again." }) {
  const { status, message, name, raw } = apiAnswerOf(error);
  const said = message ? `: “${message.replace(/\.$/, "")}”` : "";
  /** @param {Failure["kind"]} kind @param {string} what @param {string} todo @returns {Failure} */
  const out = (kind, what, todo) => {
    const sentence = what.replace(/^the /, "The ");
    return { kind, status, what: sentence, todo, words: todo ? `${sentence} ${todo}` : sentence };
  };
  if (name === "APIUserAbortError" || error?.name === "AbortError") return out("stopped", "Stopped.", "");
  if (status === 401) return out("auth", `${endpoint} refused the API key (401${said}).`, keyAction);
  if (status === 403) return out("forbidden", `${endpoint} does not let this key do that (403${said}).`, "Use a key of a workspace that has access.");
  if (status === 404) return out("not_found", `${endpoint} found no such thing (404${said}).`, "Check the model, or the store, that was asked for.");
  if (status === 429) return out("rate", `${endpoint} is limiting this key's requests (429${said}).`, `Wait a moment. ${retryAction}`);
  if (status === 529 || status === 503) return out("overloaded", `${endpoint} is overloaded (${status}${said}).`, `Wait a little. ${retryAction}`);
  if (status !== null) return out("status", `${endpoint} answered ${status}${said}.`, retryAction);
  if (name === "APIConnectionError" || name === "APIConnectionTimeoutError" || /^Connection error\.?$|^Request timed out\.?$|Failed to fetch|NetworkError|network error/i.test(raw)) {
    return out("connection", `Could not reach ${endpoint} (${raw.replace(/\.$/, "")}).`, `Check the network and the address. ${retryAction}`);
  }
  return out("other", `Something failed: ${raw.replace(/\.$/, "")}.`, retryAction);
}

/**
 * The origins this page may connect to, as its server said (scripts/serve.mjs fills
 * `<meta name="connect-origins">` from the same list as the page's Content-Security-Policy),
 * or null when the page was served without one (another server: nothing is known).
 * @returns {string[] | null}
 */
export function allowedOrigins() {
  const content = document.querySelector('meta[name="connect-origins"]')?.getAttribute("content")?.trim();
  return content ? content.split(/\s+/) : null;
}

/**
 * Why this page cannot send a request to `url` (its Content-Security-Policy does not list the
 * origin), in words with what to do, or null when it may (or when the policy is unknown).
 * @param {string} url
 */
export function policyProblem(url) {
  const allowed = allowedOrigins();
  if (allowed === null) return null;
  let origin;
  try {
    origin = new URL(url).origin;
  } catch {
    return null;
  }
  const self = location.origin;
  const ok = allowed.map((o) => (o === "'self'" ? self : o));
  if (ok.includes(origin)) return null;
  const listed = ok.length > 1 ? `${ok.slice(0, -1).join(", ")} and ${ok[ok.length - 1]}` : ok.join("");
  return (
    `This page's Content-Security-Policy lets it connect only to ${listed}, so the browser would block ${origin} before any request left. ` +
    `To use it, serve the demo for that address: ANTHROPIC_BASE_URL=${origin} npm start.`
  );
}
