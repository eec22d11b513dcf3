// The README's page (src/main.js, written by the test) and the test's seed page.
import { defineConfig } from "vite";

export default defineConfig({
  build: { rollupOptions: { input: { main: "index.html", seed: "seed.html" } } },
});
