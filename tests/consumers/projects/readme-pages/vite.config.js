// The README's page programs, one page each (the test writes each program from its code block),
// and the test's seed page.
import { defineConfig } from "vite";

const pages = ["sdk-page", "ai-sdk-page", "long-running", "seed", "storage-page"];
export default defineConfig({
  build: { rollupOptions: { input: Object.fromEntries(pages.map((page) => [page, `${page}.html`])) } },
});
