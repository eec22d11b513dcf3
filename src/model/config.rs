//! Limits and access of one store, set by the host (docs/TOOL.md#limits-and-access).

use crate::format::json::Json;
use crate::format::render::{fill, signed};

/// Limits and access, set by the host (docs/TOOL.md#limits-and-access).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub max_file_bytes: u64,
    pub max_files: u64,
    pub read_only: bool,
    pub max_view_chars: usize,
    pub create_overwrites: bool,
    /// How long old versions are kept, in milliseconds (heads of live memories stay).
    pub retention_ms: i64,
    /// Refuse content that looks like it holds a credential.
    pub secret_filter: bool,
    /// Ask the host (a `Read::Policy`) before every write of content.
    pub write_hook: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_file_bytes: 102_400,
            max_files: 10_000,
            read_only: false,
            max_view_chars: 16_000,
            create_overwrites: false,
            retention_ms: 30 * 24 * 60 * 60 * 1000,
            secret_filter: false,
            write_hook: false,
        }
    }
}

impl Config {
    /// Reads `{"maxFileBytes","maxFiles","readOnly","maxViewChars","createOverwrites",
    /// "retentionMs"}`; absent fields keep their defaults.
    pub fn from_json(text: &str) -> Result<Config, String> {
        let json = Json::parse(text).ok_or("configuration is not JSON")?;
        if !matches!(json, Json::Object(_)) {
            return Err("configuration must be an object".into());
        }
        let mut config = Config::default();
        let count = |name: &str, min: i64| -> Result<Option<i64>, String> {
            match json.field(name) {
                None => Ok(None),
                Some(v) => match v.as_integer() {
                    Some(n) if n >= min && n <= 9_007_199_254_740_991 => Ok(Some(n)),
                    _ => Err(fill(
                        "{} must be a whole number of at least {}",
                        &[name, &signed(min)],
                    )),
                },
            }
        };
        let flag = |name: &str| -> Result<Option<bool>, String> {
            match json.field(name) {
                None => Ok(None),
                Some(v) => v
                    .as_bool()
                    .map(Some)
                    .ok_or_else(|| fill("{} must be a boolean", &[name])),
            }
        };
        if let Some(n) = count("maxFileBytes", 0)? {
            config.max_file_bytes = n as u64;
        }
        if let Some(n) = count("maxFiles", 0)? {
            config.max_files = n as u64;
        }
        if let Some(n) = count("maxViewChars", 100)? {
            config.max_view_chars = n as usize;
        }
        if let Some(n) = count("retentionMs", 0)? {
            config.retention_ms = n;
        }
        if let Some(b) = flag("readOnly")? {
            config.read_only = b;
        }
        if let Some(b) = flag("createOverwrites")? {
            config.create_overwrites = b;
        }
        if let Some(b) = flag("secretFilter")? {
            config.secret_filter = b;
        }
        if let Some(b) = flag("writeHook")? {
            config.write_hook = b;
        }
        Ok(config)
    }
}
