// What tests/web.rs imports from the shipped adapter, as one module: scripts/browser-tests.sh
// bundles this (esbuild, the same sources) into target/web-modules.js before the browser tests.
// The page then fetches one script instead of some twenty modules: the test runner's page
// server now and then leaves one of many concurrent module requests unanswered, and Chromium
// waits 300 s for it (seen in clean-clone runs here, always before any test had run).
export { IndexedDbStorage } from "../src/js/storage-indexeddb.js";
export { perform } from "../src/js/driver.js";
export { entropy } from "../src/js/ids.js";
