// webpack 5 with no configuration beyond entry and output: the .wasm is an asset it finds
// through new URL(…, import.meta.url).
import webpack from "webpack";
import path from "node:path";

const compiler = webpack({
  mode: "production",
  entry: "./main.js",
  experiments: { outputModule: true },
  output: { path: path.resolve("dist"), filename: "main.js", module: true },
});
compiler.run((error, stats) => {
  if (error || stats.hasErrors()) {
    console.error(error ?? stats.toString("errors-only"));
    process.exit(1);
  }
  compiler.close(() => {});
});
