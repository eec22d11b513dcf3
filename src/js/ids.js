// The randomness the core is handed (it has none of its own): 16-byte seeds for the ids it
// makes, and the session ids of MemoryTools, in the core's lowercase Crockford base32.

/**
 * Random bytes drawn 4 KiB at a time: one getRandomValues call per 256 commands rather than
 * one each (in Node a call costs ~5 µs, a fifth of a small command). Each seed is used once.
 */
const entropyPool = { bytes: new Uint8Array(4096), used: 4096 };

/**
 * 16 random bytes for the core's ids: the `entropy` argument of its start calls. Never the
 * same bytes twice.
 * @returns {Uint8Array}
 */
export function entropy() {
  if (entropyPool.used === entropyPool.bytes.length) {
    crypto.getRandomValues(entropyPool.bytes);
    entropyPool.used = 0;
  }
  const seed = entropyPool.bytes.slice(entropyPool.used, entropyPool.used + 16);
  entropyPool.used += 16;
  return seed;
}

/** Lowercase Crockford base32, as the core writes its ids. */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * A fresh session id: `session_` and 24 characters of Crockford base32 (120 random bits).
 * @returns {string}
 */
export function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(15));
  let out = "session_";
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = ((acc << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD[(acc >> bits) & 31];
    }
  }
  return out;
}
