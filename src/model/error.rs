//! Errors are values: a stable code for hosts and the exact text the model reads.

/// A stable, machine-readable error code. `as_str` is the code surfaced in JavaScript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    InvalidInput,
    UnknownCommand,
    InvalidPath,
    NotFound,
    AlreadyExists,
    PathConflict,
    NoMatch,
    MultipleMatches,
    InvalidRange,
    TooManyLines,
    NotText,
    ReadOnly,
    LimitExceeded,
    RootProtected,
    PreconditionFailed,
    RedactHead,
    Redacted,
    InvalidBundle,
    PolicyRefused,
    TooManyMounts,
    SlugConflict,
    Archived,
    InvalidOptions,
    /// A stored record or its content cannot be read (docs/TOOL.md#damaged-records).
    Damaged,
    /// A write whose memory's history cannot fit its budget even with every older version
    /// pruned (docs/TOOL.md#history-budget).
    HistoryLimitExceeded,
    /// A content that is not the text its stated SHA-256 names (`content_sha256` of a host
    /// write: a text that arrived from elsewhere, docs/SYNC.md#a-pass).
    ContentMismatch,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "INVALID_INPUT",
            ErrorCode::UnknownCommand => "UNKNOWN_COMMAND",
            ErrorCode::InvalidPath => "INVALID_PATH",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::AlreadyExists => "ALREADY_EXISTS",
            ErrorCode::PathConflict => "PATH_CONFLICT",
            ErrorCode::NoMatch => "NO_MATCH",
            ErrorCode::MultipleMatches => "MULTIPLE_MATCHES",
            ErrorCode::InvalidRange => "INVALID_RANGE",
            ErrorCode::TooManyLines => "TOO_MANY_LINES",
            ErrorCode::NotText => "NOT_TEXT",
            ErrorCode::ReadOnly => "READ_ONLY",
            ErrorCode::LimitExceeded => "LIMIT_EXCEEDED",
            ErrorCode::RootProtected => "ROOT_PROTECTED",
            ErrorCode::PreconditionFailed => "PRECONDITION_FAILED",
            ErrorCode::RedactHead => "REDACT_HEAD",
            ErrorCode::Redacted => "REDACTED",
            ErrorCode::InvalidBundle => "INVALID_BUNDLE",
            ErrorCode::PolicyRefused => "POLICY_REFUSED",
            ErrorCode::TooManyMounts => "TOO_MANY_MOUNTS",
            ErrorCode::SlugConflict => "SLUG_CONFLICT",
            ErrorCode::Archived => "ARCHIVED",
            ErrorCode::InvalidOptions => "INVALID_OPTIONS",
            ErrorCode::Damaged => "DAMAGED",
            ErrorCode::HistoryLimitExceeded => "HISTORY_LIMIT_EXCEEDED",
            ErrorCode::ContentMismatch => "CONTENT_MISMATCH",
        }
    }
}

/// A refused command: its code and the exact text returned to the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
    /// Data for hosts, if any (a JSON object on the wire).
    pub detail: Option<Detail>,
}

/// What a host can act on in a typed error, as typed values (the wire codec writes them as
/// the memory stores API's fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Something is in the way: `conflicting_memory_id` (when it is a memory) and
    /// `conflicting_path`.
    Conflict {
        memory_id: Option<String>,
        path: String,
    },
    /// A precondition failed: `current_content_sha256` and `expected_content_sha256`.
    Changed { current: String, expected: String },
    /// The version is the head of live memory `memory_id`.
    Head { memory_id: String },
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            detail: None,
        }
    }

    /// The same error, carrying `detail` for hosts.
    pub fn with_detail(mut self, detail: Detail) -> Self {
        self.detail = Some(detail);
        self
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code.as_str())?;
        f.write_str(": ")?;
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}
