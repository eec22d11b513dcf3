// Summary statistics and formatting shared by the bench's Node side and its page (plain ESM,
// no Node or DOM APIs). Same definitions as examples/bench_core.rs: the median of an even count
// is the mean of the middle two; p95 is the nearest rank (the smallest sample with at least 95%
// of the samples at or below it).

/**
 * @typedef {object} Summary
 * @property {number} runs
 * @property {number} median_ms
 * @property {number} p95_ms
 * @property {number} min_ms
 * @property {number} mean_ms
 */

/**
 * @param {number[]} samples durations in milliseconds
 * @returns {Summary}
 */
export function summarize(samples) {
  if (samples.length === 0) throw new Error("summarize: no samples");
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const mean = sorted.reduce((a, b) => a + b, 0) / n;
  return {
    runs: n,
    median_ms: round(median),
    p95_ms: round(sorted[Math.ceil((n * 95) / 100) - 1]),
    min_ms: round(sorted[0]),
    mean_ms: round(mean),
  };
}

/** Milliseconds to 6 decimals (nanoseconds): more would be noise. @param {number} ms */
function round(ms) {
  return Math.round(ms * 1e6) / 1e6;
}

/**
 * A duration for people: µs below 1 ms, else ms.
 * @param {number | undefined} ms
 */
export function formatMs(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return "-";
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  if (ms < 100) return `${ms.toFixed(3)} ms`;
  return `${ms.toFixed(1)} ms`;
}

/**
 * `10000` → `10,000`.
 * @param {number} n
 */
export function group(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
