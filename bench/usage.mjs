// Disk and listing, side by side: the origin usage (navigator.storage.estimate) of the package's
// store and of the hand-written idb 8 version (one record per file, its text inline) holding the
// same files, and the time of `memories.list()` beside idb's listing of every record (a getAll,
// which reads the texts too: they live in the records). In headless Chromium over IndexedDB.
// Prints numbers; judges nothing.
//
//   node bench/usage.mjs [--files 10000] [--kb 10] [--runs 5]

import { chromium } from "playwright-core";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startServer } from "../scripts/serve.mjs";
import { CHROMIUM } from "./browser-suite.mjs";

const { values } = parseArgs({
  options: { files: { type: "string", default: "10000" }, kb: { type: "string", default: "10" }, runs: { type: "string", default: "5" } },
});
const files = Number(values.files);
const kb = Number(values.kb);
const runs = Number(values.runs);

const server = await startServer({ port: 0 });
const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-usage-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
try {
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${server.port}/bench/page.html`);
  await page.waitForFunction(() => "bench" in globalThis, null, { timeout: 30_000 });
  const out = await page.evaluate(
    async ({ files, kb, runs }) => {
      const { MemoryTool, InMemoryStorage } = await import("/src/js/index.js");
      const { openDB } = await import("idb");
      const usage = async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        return (await navigator.storage.estimate()).usage ?? 0;
      };
      // Text that does not compress away (Chromium's IndexedDB compresses its values): words of
      // letters from a seeded generator.
      const text = (i) => {
        let x = (i + 1) * 2654435761;
        let out = `note ${i}\n`;
        while (out.length < kb * 1024) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          out += String.fromCharCode(97 + ((x >>> 0) % 26));
          if ((x >>> 8) % 7 === 0) out += " ";
        }
        return out.slice(0, kb * 1024);
      };
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const time = async (call) => {
        const ms = [];
        for (let r = 0; r < runs; r++) {
          const t0 = performance.now();
          await call();
          ms.push(performance.now() - t0);
        }
        return median(ms);
      };
      const before = await usage();
      // The package: imported a thousand at a time (each memory has its one version, no older
      // history).
      const tool = await MemoryTool.open({ store: "usage-pkg", limits: { maxFiles: files + 10 } });
      for (let start = 0; start < files; start += 1000) {
        const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source", limits: { maxFiles: files + 10 } });
        for (let i = start; i < Math.min(files, start + 1000); i++) await source.memories.create({ path: `/d${i % 20}/n${i}.md`, content: text(i) });
        await tool.import(await source.export());
        source.close();
      }
      const afterPkg = await usage();
      const list = await time(async () => {
        const listed = await tool.memories.list();
        if (listed.length !== files) throw new Error(`listed ${listed.length}`);
      });
      tool.close();
      const db = await openDB("usage-idb", 1, { upgrade: (d) => d.createObjectStore("files", { keyPath: "path" }) });
      for (let start = 0; start < files; start += 1000) {
        const tx = db.transaction("files", "readwrite");
        for (let i = start; i < Math.min(files, start + 1000); i++) {
          const content = text(i);
          tx.store.put({ path: `/memories/d${i % 20}/n${i}.md`, content, size: content.length, updatedAt: Date.now() });
        }
        await tx.done;
      }
      const afterIdb = await usage();
      const idbList = await time(async () => {
        const records = await db.getAll("files");
        if (records.length !== files) throw new Error(`idb listed ${records.length}`);
      });
      db.close();
      return { pkgBytes: afterPkg - before, idbBytes: afterIdb - afterPkg, list, idbList };
    },
    { files, kb, runs },
  );
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  const ms = (n) => `${n.toFixed(1)} ms`;
  console.log(`disk and listing, ${files.toLocaleString("en")} files of ${kb} KB (${new Date().toISOString()}; Chromium, IndexedDB; medians of ${runs})`);
  console.log(`  origin usage       package ${mb(out.pkgBytes)}   idb ${mb(out.idbBytes)}   package÷idb ${(out.pkgBytes / out.idbBytes).toFixed(2)}×   target ≤ 1.3×`);
  console.log(`  memories.list()    package ${ms(out.list)}   idb getAll ${ms(out.idbList)}   package÷idb ${(out.list / out.idbList).toFixed(2)}×   target ≤ 1.5×`);
} finally {
  await context.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
