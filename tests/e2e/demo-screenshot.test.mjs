// The README's screenshot of the demo (docs/demo.png, made by scripts/screenshot.mjs): the
// script still drives the demo to the state it shows, its PNG is 1280×800 and small, and the
// README shows the committed one right after its two commands, by a link that works on npm too
// (the repository's raw file: docs/demo.png is not in the package).
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO } from "./demo-lib.mjs";
import { screenshotDemo, SIZE, TRIP } from "../../scripts/screenshot.mjs";

const LIMIT = 200 * 1024;
const IMAGE_URL = "https://raw.githubusercontent.com/memory-tool-wasm/memory-tool-wasm/main/docs/demo.png";

/** Width and height from a PNG's IHDR. @param {Buffer} png */
function pngSize(png) {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG signature");
  assert.equal(png.toString("ascii", 12, 16), "IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

test("scripts/screenshot.mjs drives the demo to the recorded model's notes and saves a 1280×800 PNG", async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), "memory-tool-screenshot-test-"));
  try {
    const file = path.join(dir, "demo.png");
    const shown = await screenshotDemo(file);
    assert.deepEqual(shown.status, ["Done: 3 requests, 3 memory tool calls.", "Done: 4 requests, 5 memory tool calls."]);
    assert.deepEqual(shown.tree, ["/memories/profile.md", TRIP]);
    assert.match(shown.viewer, /^Here's the content of \/memories\/trips\/lisbon\.md with line numbers:\n {5}1\t# Lisbon trip\n/);
    const png = await readFile(file);
    assert.deepEqual(pngSize(png), SIZE);
    assert.ok(png.length < LIMIT, `${png.length} bytes`);
    t.diagnostic(`screenshot: ${SIZE.width}×${SIZE.height}, ${png.length} bytes`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the README shows docs/demo.png right after its pitch and two commands", async (t) => {
  const png = await readFile(path.join(REPO, "docs/demo.png"));
  assert.deepEqual(pngSize(png), SIZE);
  assert.ok(png.length < LIMIT, `docs/demo.png is ${png.length} bytes`);
  t.diagnostic(`docs/demo.png: ${png.length} bytes`);

  const readme = await readFile(path.join(REPO, "README.md"), "utf8");
  const [title, , pitch, , fence, first, second, close, , image] = readme.split("\n");
  assert.equal(title, "# memory-tool-wasm");
  assert.match(pitch, /^Claude's memory tool \(`memory_20250818`\) .*\.$/);
  assert.deepEqual([fence, close], ["```sh", "```"]);
  assert.match(first, /^npm start /);
  assert.match(second, /^npm test /);
  assert.match(image, new RegExp(`^!\\[[^\\]]+\\]\\(${IMAGE_URL.replaceAll(".", "\\.")}\\)$`));
  assert.equal(readme.split(IMAGE_URL).length, 2, "the screenshot is shown once");
});
