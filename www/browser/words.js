// Words for the memory browser: when something happened, and who did it.

/**
 * "just now", "5 min ago", "3 h ago", else the date.
 * @param {string} iso an RFC 3339 time
 * @param {number} [now]
 */
export function describeWhen(iso, now = Date.now()) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 45) return "just now";
  if (seconds < 90 * 60) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(then).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/**
 * Who made a change, from a version's `created_by`.
 * @param {any} actor
 */
export function describeActor(actor) {
  if (!actor || typeof actor !== "object") return "unknown";
  if (actor.type === "tool") {
    const id = typeof actor.tool_use_id === "string" ? actor.tool_use_id : null;
    // The SDK's tool runner calls the tool without the tool_use id.
    if (id === null) return "the model, through the memory tool";
    if (id.startsWith("toolu_demo_")) return `the tool console (${id})`;
    if (id.startsWith("toolu_recorded_")) return `the recorded model (${id})`;
    return `the model (${id})`;
  }
  if (actor.type === "api") return "this page (host API)";
  if (actor.type === "import") return "an import";
  if (actor.type === "expiry") return "expiry (not viewed or changed for too long)";
  return String(actor.type ?? "unknown");
}
