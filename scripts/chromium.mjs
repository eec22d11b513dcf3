// Where Chromium is and how this project launches it headless: one place for the tests, the
// demo checks and the benchmarks.

/** Debian's Chromium, unless CHROMIUM_PATH says otherwise. */
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Headless as root, and quiet on a closed network. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
