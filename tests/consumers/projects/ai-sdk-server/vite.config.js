// As Vite's React template has it, with the test's seed page as a second input.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  build: { rollupOptions: { input: { main: "index.html", seed: "seed.html" } } },
});
