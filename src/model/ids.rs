//! Memory and version ids from host-supplied entropy and time.

use crate::format::render::cat;
use sha2::{Digest, Sha256};

/// Derives ids from host-supplied entropy, so the core itself needs no randomness. The same
/// seed gives the same ids, which keeps a command's re-runs (one per read round) consistent.
#[derive(Clone, Debug)]
pub struct IdSource {
    seed: [u8; 16],
    counter: u32,
}

impl IdSource {
    pub fn new(seed: [u8; 16]) -> IdSource {
        IdSource { seed, counter: 0 }
    }

    /// The next id: `prefix` then 24 characters of lowercase Crockford base32 (120 bits).
    pub fn next(&mut self, prefix: &str) -> String {
        let mut hasher = Sha256::new();
        hasher.update(self.seed);
        hasher.update(self.counter.to_le_bytes());
        self.counter += 1;
        let digest = hasher.finalize();
        let mut out = String::from(prefix);
        let mut acc: u32 = 0;
        let mut bits = 0;
        for b in digest.iter().take(15) {
            acc = (acc << 8) | u32::from(*b);
            bits += 8;
            while bits >= 5 {
                bits -= 5;
                out.push(char::from(CROCKFORD[((acc >> bits) & 31) as usize]));
            }
        }
        out
    }
}

/// Makes version ids that sort in the order the versions were written: `memver_` then a
/// 13-character stamp (milliseconds and a sequence number, base32) then 8 random characters.
/// A stamp is always past the store's newest one, so a clock that goes backwards, or two tabs
/// writing in the same millisecond, still give a strict order.
#[derive(Clone, Debug)]
pub(crate) struct VersionIds {
    next_stamp: u64,
}

/// Bits of a stamp that count versions within one millisecond.
const SEQUENCE_BITS: u32 = 20;

impl VersionIds {
    /// Ids after `newest` (the store's newest version id, if any), at time `now`.
    pub(crate) fn after(newest: Option<&str>, now: i64) -> VersionIds {
        let from_clock = (now.max(0) as u64) << SEQUENCE_BITS;
        let after_newest = newest.and_then(stamp_of).map_or(0, |s| s + 1);
        VersionIds {
            next_stamp: from_clock.max(after_newest),
        }
    }

    /// The later of two starting points: ids after both.
    pub(crate) fn max_of(self, other: VersionIds) -> VersionIds {
        VersionIds {
            next_stamp: self.next_stamp.max(other.next_stamp),
        }
    }

    pub(crate) fn next(&mut self, ids: &mut IdSource) -> String {
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        let random = ids.next("");
        cat(&[
            "memver_",
            &base32_fixed(stamp, 13),
            random.get(..8).unwrap_or(""),
        ])
    }
}

/// The time (epoch milliseconds) a well-formed version id was written at: `memver_`, a
/// 13-character stamp and 8 characters, all lowercase Crockford base32. `None` for any other
/// shape (an import refuses those).
pub(crate) fn version_id_time(id: &str) -> Option<i64> {
    let rest = id.strip_prefix("memver_")?;
    if rest.len() != 21 || !rest.bytes().all(|b| CROCKFORD.contains(&b)) {
        return None;
    }
    // 13 base32 digits hold 65 bits: the top one must be clear for the stamp to fit a u64
    // (the first digit below 16: `0`-`9`, `a`-`f`).
    let first = rest.as_bytes().first()?;
    if CROCKFORD.iter().position(|c| c == first)? >= 16 {
        return None;
    }
    Some((stamp_of(id)? >> SEQUENCE_BITS) as i64)
}

/// The smallest version id written at or after `ms`: a bound for time-range queries.
pub(crate) fn version_id_floor(ms: i64) -> String {
    cat(&[
        "memver_",
        &base32_fixed((ms.max(0) as u64) << SEQUENCE_BITS, 13),
    ])
}

const CROCKFORD: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

fn base32_fixed(mut value: u64, width: usize) -> String {
    let mut digits = vec![b'0'; width];
    for slot in digits.iter_mut().rev() {
        *slot = CROCKFORD[(value & 31) as usize];
        value >>= 5;
    }
    String::from_utf8(digits).unwrap_or_default()
}

fn stamp_of(version_id: &str) -> Option<u64> {
    let digits = version_id.strip_prefix("memver_")?.get(..13)?;
    digits.bytes().try_fold(0u64, |acc, b| {
        let digit = CROCKFORD.iter().position(|c| *c == b)? as u64;
        Some((acc << 5) | digit)
    })
}
