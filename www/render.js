// Small DOM helpers shared by the console and the store browser: building elements, showing a
// tool_result's content (text as the model reads it, images as images), sizes, JSON.

/**
 * Creates an element. `attrs` keys starting with "on" add listeners; `dataset` and `hidden`
 * are handled; other keys become attributes. Children may be strings, nodes, or null.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "className") {
      node.className = value;
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/**
 * Replaces an element's children, skipping null, undefined and false (as `el` does).
 * @param {Element} parent
 * @param {...(Node | string | null | undefined | false)} children
 */
export function fill(parent, ...children) {
  parent.replaceChildren(.../** @type {Array<Node | string>} */ (children.filter((c) => c !== null && c !== undefined && c !== false)));
}

/**
 * Renders tool content: a string, or a list of content blocks (text and image blocks).
 * Text keeps its tabs and newlines exactly; each image becomes an <img>.
 * @param {unknown} content  `content` of a tool_result, or of an execute() result
 * @param {{ testid: string, isError?: boolean }} options  `testid` prefix for tests
 *   (`${testid}-text`, `${testid}-image`)
 * @returns {DocumentFragment}
 */
export function renderContent(content, { testid, isError = false }) {
  const out = document.createDocumentFragment();
  const textBlock = (/** @type {string} */ text) =>
    el("pre", { className: `tool-text${isError ? " is-error" : ""}`, dataset: { testid: `${testid}-text` }, tabindex: 0 }, text);

  if (typeof content === "string") {
    out.append(content === "" ? el("p", { className: "placeholder" }, "(empty text)") : textBlock(content));
    return out;
  }
  if (!Array.isArray(content)) {
    out.append(el("p", { className: "placeholder" }, "(no content)"));
    return out;
  }
  for (const block of content) {
    if (block && block.type === "text" && typeof block.text === "string") {
      out.append(textBlock(block.text));
    } else if (block && block.type === "image" && block.source && block.source.type === "base64") {
      const { media_type: mediaType, data } = block.source;
      const caption = el("figcaption", {}, `image block · ${mediaType} · ${formatBytes(base64Bytes(String(data)))}`);
      const img = /** @type {HTMLImageElement} */ (
        el("img", {
          src: `data:${mediaType};base64,${data}`,
          alt: `Image content block (${mediaType})`,
          dataset: { testid: `${testid}-image` },
        })
      );
      img.addEventListener(
        "load",
        () => {
          caption.append(` · ${img.naturalWidth}×${img.naturalHeight} px`);
          // Tiny images are shown larger; keep their pixels sharp.
          if (img.naturalWidth < 192) img.classList.add("upscaled");
        },
        { once: true },
      );
      img.addEventListener("error", () => caption.append(" · the browser could not decode this image"), { once: true });
      out.append(el("figure", { className: "tool-image" }, img, caption));
    } else {
      out.append(el("pre", { className: "tool-text" }, JSON.stringify(block, null, 2)));
    }
  }
  return out;
}

/**
 * JSON for people: pretty-printed, with long base64 image data shortened and marked.
 * (The console's Copy button copies the full JSON.)
 * @param {unknown} value
 * @returns {string}
 */
export function readableJson(value) {
  return JSON.stringify(
    value,
    (key, v) =>
      key === "data" && typeof v === "string" && v.length > 96
        ? `${v.slice(0, 64)}… (${v.length.toLocaleString("en-US")} base64 characters in all)`
        : v,
    2,
  );
}

/**
 * JSON for an editor: pretty-printed, with two-number lists (`view_range`) kept on one line.
 * @param {unknown} value
 * @returns {string}
 */
export function editorJson(value) {
  // A raw newline never occurs inside a JSON string, so this only touches real arrays.
  return JSON.stringify(value, null, 2).replace(/\[\n\s*(-?[\d.eE+-]+),\n\s*(-?[\d.eE+-]+)\n\s*\]/g, "[$1, $2]");
}

/**
 * The number of bytes a base64 string decodes to.
 * @param {string} data
 */
function base64Bytes(data) {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

// A size as directory listings write it is the core's (the package's `formatSize`).
export { formatSize } from "./core.js";

/**
 * A byte count for people: `1,234 bytes`.
 * @param {number} bytes
 * @returns {string}
 */
export function formatBytes(bytes) {
  return `${bytes.toLocaleString("en-US")} byte${bytes === 1 ? "" : "s"}`;
}

/**
 * Words for an error thrown by the package or the browser: its code (MemoryToolError) and message.
 * @param {unknown} err
 * @returns {string}
 */
export function describeError(err) {
  if (err && typeof err === "object") {
    const e = /** @type {{ name?: string, code?: string, message?: string }} */ (err);
    const code = e.code ? ` [${e.code}]` : "";
    return `${e.message || String(err)}${code}`;
  }
  return String(err);
}

/** A storage amount to a few digits ("56 kB", "10.7 GB"), as a person reads it. @param {number} bytes */
export function roughBytes(bytes) {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes.toLocaleString("en-US")} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
