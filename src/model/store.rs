//! A memory store's record and its mount slug (docs/TOOL.md#memory-stores).

use crate::format::json::{Json, ObjectWriter};
use crate::model::time::{parse_rfc3339, rfc3339};

/// A store's mount slug: its name lowercased, each run of characters other than `a-z0-9`
/// turned into one `-`, leading and trailing `-` dropped ("Demo Memory" → `demo-memory`).
pub fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// A store's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreRecord {
    pub id: String,
    pub name: String,
    pub description: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub archived_at: Option<i64>,
    pub max_file_bytes: Option<i64>,
    pub max_files: Option<i64>,
}

impl StoreRecord {
    /// The record as the API shows it (and as the registry stores it).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let mut limits = String::new();
        ObjectWriter::new(&mut limits)
            .opt_int("max_file_bytes", self.max_file_bytes)
            .opt_int("max_files", self.max_files)
            .finish();
        ObjectWriter::new(&mut out)
            .str("type", "memory_store")
            .str("id", &self.id)
            .str("name", &self.name)
            .str("description", &self.description)
            .str("slug", &slug(&self.name))
            .str("created_at", &rfc3339(self.created_at))
            .str("updated_at", &rfc3339(self.updated_at))
            .opt_str("archived_at", self.archived_at.map(rfc3339).as_deref())
            .raw("limits", &limits)
            .finish();
        out
    }

    pub fn from_json(json: &Json) -> Option<StoreRecord> {
        let text = |k: &str| json.field(k).and_then(Json::as_str).map(str::to_string);
        let limits = json.field("limits");
        let limit = |k: &str| limits.and_then(|l| l.field(k)).and_then(Json::as_integer);
        Some(StoreRecord {
            id: text("id")?,
            name: text("name")?,
            description: text("description").unwrap_or_default(),
            created_at: parse_rfc3339(&text("created_at")?)?,
            updated_at: parse_rfc3339(&text("updated_at")?)?,
            archived_at: text("archived_at").and_then(|t| parse_rfc3339(&t)),
            max_file_bytes: limit("max_file_bytes"),
            max_files: limit("max_files"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("Demo Memory"), "demo-memory");
        assert_eq!(slug("  Team -- Handbook!! 2026 "), "team-handbook-2026");
        assert_eq!(slug("Ünïcode Notes"), "n-code-notes");
        assert_eq!(slug("***"), "");
        assert_eq!(slug("already-a-slug"), "already-a-slug");
    }
}
