//! Limits and access of one store, set by the host (docs/TOOL.md#limits-and-access).

use crate::format::json::Json;
use crate::format::render::fill;

/// The largest integer a JavaScript number holds exactly.
const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;
/// The smallest `maxViewChars`: a view must be able to show a line.
const MIN_VIEW_CHARS: i64 = 100;

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
    /// The most versions one memory keeps (docs/TOOL.md#history-budget); at least 1.
    pub max_versions_per_memory: u64,
    /// The most bytes of content one memory's versions hold (docs/TOOL.md#history-budget).
    pub max_history_bytes_per_memory: u64,
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
            max_versions_per_memory: 100,
            max_history_bytes_per_memory: 4 * 1024 * 1024,
            secret_filter: false,
            write_hook: false,
        }
    }
}

impl Config {
    /// Reads `{"maxFileBytes","maxFiles","maxVersionsPerMemory","maxHistoryBytesPerMemory",
    /// "readOnly","maxViewChars","createOverwrites","retentionMs"}`; absent fields keep their
    /// defaults.
    pub fn from_json(text: &str) -> Result<Config, String> {
        let json = Json::parse(text).ok_or("configuration is not JSON")?;
        if !matches!(json, Json::Object(_)) {
            return Err("configuration must be an object".into());
        }
        let mut config = Config::default();
        // Each value is checked here and nowhere else; messages name the option as the host
        // wrote it in `MemoryTool.open` (the adapter maps names, it does not check values).
        // `get`, not `field`: a `null` (what JSON makes of NaN or Infinity) is a wrong value,
        // not an absent one.
        let count = |name: &str, min: i64, wrong: &str| -> Result<Option<i64>, String> {
            match json.get(name) {
                None => Ok(None),
                Some(v) => match v.as_integer() {
                    Some(n) if n >= min && n <= MAX_SAFE_INTEGER => Ok(Some(n)),
                    _ => Err(wrong.to_string()),
                },
            }
        };
        let flag = |name: &str| -> Result<Option<bool>, String> {
            match json.get(name) {
                None => Ok(None),
                Some(v) => v
                    .as_bool()
                    .map(Some)
                    .ok_or_else(|| fill("`{}` must be a boolean.", &[name])),
            }
        };
        if let Some(n) = count(
            "maxFileBytes",
            0,
            "`limits.maxFileBytes` must be a whole number, 0 or more.",
        )? {
            config.max_file_bytes = n as u64;
        }
        if let Some(n) = count(
            "maxFiles",
            0,
            "`limits.maxFiles` must be a whole number, 0 or more.",
        )? {
            config.max_files = n as u64;
        }
        if let Some(n) = count(
            "maxViewChars",
            MIN_VIEW_CHARS,
            "`maxViewChars` must be a whole number of at least 100.",
        )? {
            config.max_view_chars = n as usize;
        }
        if let Some(n) = count(
            "retentionMs",
            0,
            "`retentionDays` must be a number of days, 0 or more.",
        )? {
            config.retention_ms = n;
        }
        if let Some(n) = count(
            "maxVersionsPerMemory",
            1,
            "`limits.maxVersionsPerMemory` must be a whole number, 1 or more.",
        )? {
            config.max_versions_per_memory = n as u64;
        }
        if let Some(n) = count(
            "maxHistoryBytesPerMemory",
            0,
            "`limits.maxHistoryBytesPerMemory` must be a whole number, 0 or more.",
        )? {
            config.max_history_bytes_per_memory = n as u64;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_is_checked_with_the_option_it_came_from() {
        let refused = [
            (
                r#"{"maxFileBytes":-1}"#,
                "`limits.maxFileBytes` must be a whole number, 0 or more.",
            ),
            (
                r#"{"maxFiles":1.5}"#,
                "`limits.maxFiles` must be a whole number, 0 or more.",
            ),
            (
                r#"{"maxFiles":null}"#,
                "`limits.maxFiles` must be a whole number, 0 or more.",
            ),
            (
                r#"{"maxFileBytes":"100"}"#,
                "`limits.maxFileBytes` must be a whole number, 0 or more.",
            ),
            (
                r#"{"maxViewChars":99}"#,
                "`maxViewChars` must be a whole number of at least 100.",
            ),
            (
                r#"{"retentionMs":-86400000}"#,
                "`retentionDays` must be a number of days, 0 or more.",
            ),
            (
                r#"{"retentionMs":8.64e22}"#,
                "`retentionDays` must be a number of days, 0 or more.",
            ),
            (
                r#"{"retentionMs":"30"}"#,
                "`retentionDays` must be a number of days, 0 or more.",
            ),
            (
                r#"{"createOverwrites":"yes"}"#,
                "`createOverwrites` must be a boolean.",
            ),
            (r#"{"secretFilter":1}"#, "`secretFilter` must be a boolean."),
            (
                r#"{"maxVersionsPerMemory":0}"#,
                "`limits.maxVersionsPerMemory` must be a whole number, 1 or more.",
            ),
            (
                r#"{"maxHistoryBytesPerMemory":-1}"#,
                "`limits.maxHistoryBytesPerMemory` must be a whole number, 0 or more.",
            ),
        ];
        for (json, message) in refused {
            assert_eq!(Config::from_json(json), Err(message.to_string()), "{json}");
        }
        let taken = Config::from_json(
            r#"{"maxFileBytes":0,"maxFiles":3,"maxViewChars":100,"retentionMs":0,"createOverwrites":true,"maxVersionsPerMemory":1,"maxHistoryBytesPerMemory":0}"#,
        );
        assert_eq!(
            taken,
            Ok(Config {
                max_file_bytes: 0,
                max_files: 3,
                max_view_chars: 100,
                retention_ms: 0,
                create_overwrites: true,
                max_versions_per_memory: 1,
                max_history_bytes_per_memory: 0,
                ..Config::default()
            })
        );
    }
}
