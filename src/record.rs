//! What a store holds per file, and the host-side values the core derives: ids, hashes, times.

use crate::json::{quote, Json};
use sha2::{Digest, Sha256};

/// A file's metadata, keyed by its store path. Its content is stored apart, under `id`, so that
/// listings and renames never load file bodies.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRecord {
    pub path: String,
    pub id: String,
    pub size: u64,
    pub sha256: String,
    /// Epoch milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
}

impl FileRecord {
    /// Reads a record as the adapter stores it; `None` when a field is missing or mistyped.
    pub fn from_json(json: &Json) -> Option<FileRecord> {
        Some(FileRecord {
            path: json.get("path")?.as_str()?.to_string(),
            id: json.get("id")?.as_str()?.to_string(),
            size: json.get("size")?.as_integer()?.max(0) as u64,
            sha256: json.get("sha256")?.as_str()?.to_string(),
            created_at: json.get("createdAt")?.as_integer()?,
            updated_at: json.get("updatedAt")?.as_integer()?,
        })
    }

    /// Appends the record as the adapter stores it.
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"path\":");
        out.push_str(&quote(&self.path));
        out.push_str(",\"id\":");
        out.push_str(&quote(&self.id));
        out.push_str(&format!(",\"size\":{}", self.size));
        out.push_str(",\"sha256\":");
        out.push_str(&quote(&self.sha256));
        out.push_str(&format!(
            ",\"createdAt\":{},\"updatedAt\":{}}}",
            self.created_at, self.updated_at
        ));
    }

    /// A record for new content at `path`, keeping identity and creation time from `previous`.
    pub fn for_content(
        path: &str,
        content: &[u8],
        previous: Option<&FileRecord>,
        ids: &mut IdSource,
        now: i64,
    ) -> FileRecord {
        FileRecord {
            path: path.to_string(),
            id: previous.map_or_else(|| ids.next("mem_"), |p| p.id.clone()),
            size: content.len() as u64,
            sha256: sha256_hex(content),
            created_at: previous.map_or(now, |p| p.created_at),
            updated_at: now,
        }
    }
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

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
        const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
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
                out.push(char::from(ALPHABET[((acc >> bits) & 31) as usize]));
            }
        }
        out
    }
}

/// Epoch milliseconds as RFC 3339 UTC with milliseconds: `2026-11-29T21:41:14.000Z`.
pub fn rfc3339(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn ids_are_deterministic_and_distinct() {
        let mut a = IdSource::new([7; 16]);
        let mut b = IdSource::new([7; 16]);
        let first = a.next("mem_");
        assert_eq!(first, b.next("mem_"));
        assert_ne!(first, a.next("mem_"));
        assert_eq!(first.len(), 4 + 24);
    }

    #[test]
    fn times() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_796_161_274_123), "2026-12-01T21:41:14.123Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn record_round_trip() {
        let r = FileRecord {
            path: "/a \"b\".md".into(),
            id: "mem_x".into(),
            size: 3,
            sha256: "00".into(),
            created_at: 1,
            updated_at: 2,
        };
        let mut text = String::new();
        r.write_json(&mut text);
        let parsed = Json::parse(&text).and_then(|j| FileRecord::from_json(&j));
        assert_eq!(parsed, Some(r));
    }
}
