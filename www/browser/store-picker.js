// The store picker: which store the memory browser and the console look at, creating a new
// store (a name and a description the model is shown), and archiving (read-only for good) or
// deleting the open one. The page's address keeps the choice (`?store=<name>`).

import { el, describeError } from "../render.js";
import { storeNameProblem } from "../stores.js";

/**
 * @typedef {object} StorePickerOptions
 * @property {HTMLElement} root
 * @property {import("../store-session.js").StoreSession} session
 * @property {(message: string) => void} notify
 * @property {(message: string) => void} announce
 */

/**
 * Wires the store picker. The session dispatches "stores" when the list of stores changed.
 * @param {StorePickerOptions} options
 */
export function mountStorePicker({ root, session, notify, announce }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const select = /** @type {HTMLSelectElement} */ ($("store-select"));
  const newButton = /** @type {HTMLButtonElement} */ ($("store-new-button"));
  const form = /** @type {HTMLFormElement} */ ($("store-create"));
  const nameInput = /** @type {HTMLInputElement} */ ($("new-store-name"));
  const descriptionInput = /** @type {HTMLTextAreaElement} */ ($("new-store-description"));
  const problem = $("store-create-problem");
  const cancel = /** @type {HTMLButtonElement} */ ($("store-create-cancel"));
  const about = $("store-about");
  const archiveButton = /** @type {HTMLButtonElement} */ ($("store-archive-button"));
  const deleteButton = /** @type {HTMLButtonElement} */ ($("store-delete-button"));
  const nameLabel = $("store-name");

  /** @type {import("memory-tool-wasm").MemoryStore[]} */
  let stores = [];

  select.addEventListener("change", () => void choose(select.value));
  newButton.addEventListener("click", () => {
    form.hidden = !form.hidden;
    if (!form.hidden) {
      problem.textContent = "";
      nameInput.focus();
    }
  });
  cancel.addEventListener("click", () => {
    form.hidden = true;
    newButton.focus();
  });
  // Escape closes the form, as its Cancel button does.
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    cancel.click();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void create();
  });
  archiveButton.addEventListener("click", () => void archive());
  deleteButton.addEventListener("click", () => void remove());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void refresh();
  });
  session.addEventListener("switch", () => paint());
  for (const control of [select, newButton, archiveButton, deleteButton]) control.disabled = false;

  async function refresh() {
    try {
      stores = await session.catalog.list();
    } catch (error) {
      notify(`Could not list the stores: ${describeError(error)}`);
      return;
    }
    paint();
  }

  function paint() {
    const current = session.store;
    if (!stores.some((s) => s.id === current.id)) stores = [...stores, current];
    select.replaceChildren(
      ...stores.map((s) => el("option", { value: s.id }, s.archived_at ? `${s.name} (archived)` : s.name)),
    );
    select.value = current.id;
    nameLabel.textContent = current.name;
    document.title = `“${current.name}” · memory-tool-wasm`;
    const url = new URL(location.href);
    if (url.searchParams.get("store") !== current.name) {
      url.searchParams.set("store", current.name);
      history.replaceState(null, "", url);
    }
    about.replaceChildren(
      ...[
        current.archived_at ? el("span", { className: "badge badge-problem" }, "archived: read only") : null,
        current.description ? el("span", {}, current.description) : el("span", { className: "placeholder" }, "No description."),
        el("span", { className: "meta", title: current.id }, `With other stores mounted, the agent sees it at /memories/${current.slug}/.`),
      ].filter((node) => node !== null),
    );
    archiveButton.disabled = current.archived_at !== null;
    deleteButton.disabled = stores.length < 2;
    deleteButton.title = stores.length < 2 ? "Create another store first: the page always has one open." : "";
  }

  /** @param {string} id */
  async function choose(id) {
    const store = stores.find((s) => s.id === id);
    if (!store || store.id === session.store.id) return;
    try {
      await session.switchTo(store);
    } catch (error) {
      notify(`Could not open the store “${store.name}”: ${describeError(error)}`);
      select.value = session.store.id;
      return;
    }
    announce(`Now showing the store “${store.name}”.`);
  }

  async function create() {
    const name = nameInput.value;
    const words = storeNameProblem(name, stores);
    if (words) {
      problem.textContent = words;
      nameInput.focus();
      return;
    }
    let store;
    try {
      store = await session.catalog.create({ name, description: descriptionInput.value.trim() });
    } catch (error) {
      problem.textContent = `Could not create the store: ${describeError(error)}`;
      return;
    }
    form.hidden = true;
    nameInput.value = "";
    descriptionInput.value = "";
    stores = [...stores, store];
    session.dispatchEvent(new Event("stores"));
    await choose(store.id);
    select.focus();
  }

  async function archive() {
    const store = session.store;
    if (!window.confirm(`Archive “${store.name}”? It becomes read-only for good: it can be read and mounted read-only, never changed again.`)) return;
    try {
      const archived = await session.catalog.archive(store.id);
      stores = stores.map((s) => (s.id === archived.id ? archived : s));
      await session.switchTo(archived);
    } catch (error) {
      notify(`Could not archive “${store.name}”: ${describeError(error)}`);
      return;
    }
    session.dispatchEvent(new Event("stores"));
    announce(`Archived “${store.name}”: it is read-only now.`);
  }

  async function remove() {
    const store = session.store;
    const next = stores.find((s) => s.id !== store.id);
    if (!next) return;
    if (!window.confirm(`Delete the store “${store.name}” with every memory and version in it? This cannot be undone.`)) return;
    try {
      await session.switchTo(next);
      await session.catalog.remove(store.id);
    } catch (error) {
      notify(`Could not delete “${store.name}”: ${describeError(error)}`);
      return;
    }
    stores = stores.filter((s) => s.id !== store.id);
    paint();
    session.dispatchEvent(new Event("stores"));
    announce(`Deleted the store “${store.name}”.`);
  }

  return { refresh, list: () => stores };
}
