// How much this site stores (`navigator.storage.estimate()`), and whether the browser has
// promised to keep it (`navigator.storage.persisted()`), with a button to ask for that promise
// (`navigator.storage.persist()`). Without persistence a browser may clear the site's data when
// the disk runs low.

import { el, describeError, roughBytes } from "../render.js";

/**
 * @param {{ root: HTMLElement }} options
 * @returns {{ refresh: () => Promise<void> }}
 */
export function mountStorageStatus({ root }) {
  const usage = /** @type {HTMLElement} */ (root.querySelector("#storage-usage"));
  const persistText = /** @type {HTMLElement} */ (root.querySelector("#storage-persist"));
  const persistButton = /** @type {HTMLButtonElement} */ (root.querySelector("#persist-button"));
  const storage = typeof navigator !== "undefined" ? navigator.storage : undefined;

  persistButton.addEventListener("click", () => void ask());
  persistButton.disabled = false;

  async function refresh() {
    if (!storage || typeof storage.estimate !== "function") {
      usage.textContent = "This browser does not say how much it stores for the site.";
    } else {
      try {
        const { usage: used = 0, quota = 0 } = await storage.estimate();
        usage.replaceChildren(
          "This site stores ",
          el("strong", { dataset: { testid: "storage-used" } }, roughBytes(used)),
          quota ? ` of about ${roughBytes(quota)} the browser allows it (${percent(used, quota)}).` : ".",
        );
      } catch (error) {
        usage.textContent = `Storage use unknown: ${describeError(error)}`;
      }
    }
    await paintPersistence();
  }

  async function paintPersistence() {
    if (!storage || typeof storage.persisted !== "function") {
      persistText.textContent = "This browser cannot promise to keep the site's data.";
      persistButton.hidden = true;
      return;
    }
    let persisted = false;
    try {
      persisted = await storage.persisted();
    } catch {
      persisted = false;
    }
    root.dataset.persisted = String(persisted);
    persistText.replaceChildren(
      el("strong", { dataset: { testid: "persist-state" } }, persisted ? "Persistent." : "Not persistent yet."),
      persisted
        ? " The browser has promised to keep these memories until you clear the site's data."
        : " The browser may clear these memories if the disk runs low.",
    );
    persistButton.hidden = persisted;
  }

  async function ask() {
    if (!storage || typeof storage.persist !== "function") return;
    let granted = false;
    try {
      granted = await storage.persist();
    } catch (error) {
      persistText.textContent = `The browser could not be asked: ${describeError(error)}`;
      return;
    }
    await paintPersistence();
    if (!granted) {
      persistText.append(
        el(
          "span",
          { className: "hint", dataset: { testid: "persist-refused" } },
          " The browser said no for now: browsers grant this to sites you use often, bookmark, or install.",
        ),
      );
    }
  }

  return { refresh };
}

/** @param {number} part @param {number} whole */
function percent(part, whole) {
  const p = (part / whole) * 100;
  return p < 0.1 ? "under 0.1%" : `${p.toFixed(p < 10 ? 1 : 0)}%`;
}
