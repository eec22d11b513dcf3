// The memory browser's notice of what expired as the store opened: the package's expiry runs
// after the store's first command, so its deletions arrive as change events a moment after the
// page shows the store. They are gathered for a moment and named together: what went, why, and
// where to restore each, until when. (What the user expires with "Expire now" is announced by
// the expiry section instead.)

import { el } from "../render.js";
import { EXPIRE_AFTER_DAYS, RETENTION_DAYS } from "../stores.js";
import { toToolPath } from "./tree.js";

const DAY_MS = 24 * 3600 * 1000;

/**
 * @typedef {object} ExpiredNoticeOptions
 * @property {HTMLElement} root          the notice (#expired-notice)
 * @property {() => boolean} expiring    the user's "Expire now" is running (its expiries are not this notice's)
 * @property {() => void} onDismiss      where focus goes when the notice is dismissed
 */

/**
 * Wires the notice.
 * @param {ExpiredNoticeOptions} options
 */
export function mountExpiredNotice({ root, expiring, onDismiss }) {
  /** Memories expired as the store opened, waiting to be named together. @type {string[]} */
  let expiredNow = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let expiredTimer;

  /** A change was committed: an expiry's deletion is named in the notice. @param {import("memory-tool-wasm").ChangeEvent} change */
  function hear(change) {
    if (change.created_by?.type === "expiry" && change.operation === "deleted" && change.path && !expiring()) {
      expiredNow.push(toToolPath(change.path));
      clearTimeout(expiredTimer);
      expiredTimer = setTimeout(paint, 150);
    }
  }

  /** Names the memories that expired as the store opened, until dismissed. */
  function paint() {
    const gone = [...new Set(expiredNow)].sort();
    expiredNow = [];
    if (gone.length === 0) return;
    const until = new Date(Date.now() + RETENTION_DAYS * DAY_MS).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
    const n = gone.length;
    root.replaceChildren(
      el(
        "p",
        { dataset: { testid: "expired-words" } },
        `${n} memor${n === 1 ? "y" : "ies"} expired as this store opened: not viewed or changed for ${EXPIRE_AFTER_DAYS} days. `,
        `${n === 1 ? "It is" : "Each is"} under “Recently deleted”, below the files: open ${n === 1 ? "it" : "one"} there and restore it from its history, until ${until}.`,
      ),
      el("ul", {}, ...gone.map((path) => el("li", {}, el("code", {}, path)))),
      el(
        "button",
        {
          type: "button",
          className: "small",
          dataset: { testid: "expired-dismiss" },
          onclick: dismiss,
        },
        "Dismiss",
      ),
    );
    root.hidden = false;
  }

  function dismiss() {
    root.hidden = true;
    onDismiss();
  }

  /** Another store is shown: what expired in the last one is not named. */
  function reset() {
    root.hidden = true;
    expiredNow = [];
  }

  return { hear, reset };
}
