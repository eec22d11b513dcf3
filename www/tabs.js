// Accessible tabs (the WAI-ARIA tabs pattern): buttons with role="tab" in a role="tablist",
// each naming its panel with aria-controls. Click or Enter/Space picks a tab; Left/Right (and
// Home/End) move between tabs; only the chosen tab is in the Tab order.

/**
 * @param {HTMLElement} tablist
 * @param {{ onChange?: (id: string) => void }} [options]
 * @returns {{ select: (id: string, focus?: boolean) => void, selected: () => string, setDisabled: (id: string, disabled: boolean) => void }}
 */
export function mountTabs(tablist, { onChange = () => {} } = {}) {
  const tabs = () => /** @type {HTMLButtonElement[]} */ ([...tablist.querySelectorAll('[role="tab"]')]);

  /** @param {string} id  the tab's id @param {boolean} [focus] */
  function select(id, focus = false) {
    let changed = false;
    for (const tab of tabs()) {
      const on = tab.id === id;
      if (on && tab.getAttribute("aria-selected") !== "true") changed = true;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute("aria-controls") ?? "");
      if (panel) panel.hidden = !on;
      if (on && focus) tab.focus();
    }
    if (changed) onChange(id);
  }

  tablist.addEventListener("click", (event) => {
    const tab = /** @type {HTMLElement} */ (event.target).closest('[role="tab"]');
    if (tab instanceof HTMLButtonElement && !tab.disabled) select(tab.id);
  });
  tablist.addEventListener("keydown", (event) => {
    const list = tabs().filter((t) => !t.disabled);
    const at = list.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (at < 0) return;
    /** @type {number | null} */
    let next = null;
    if (event.key === "ArrowRight") next = (at + 1) % list.length;
    else if (event.key === "ArrowLeft") next = (at - 1 + list.length) % list.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = list.length - 1;
    if (next === null) return;
    event.preventDefault();
    select(list[next].id, true);
  });

  return {
    select,
    selected: () => tabs().find((t) => t.getAttribute("aria-selected") === "true")?.id ?? "",
    setDisabled(id, disabled) {
      const tab = /** @type {HTMLButtonElement | null} */ (document.getElementById(id));
      if (tab) tab.disabled = disabled;
    },
  };
}
