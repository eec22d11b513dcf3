//! The host's calls, parsed from `{"call": "...", ...}` JSON: the memory, history and bundle
//! APIs (docs/TOOL.md#memory-stores).

use super::bundle::{Bundle, BundleReader, OnConflict};
use super::memories::{ExpiryRun, ListOptions, NewMemory, MAX_CREATE_MANY};
use super::methods::{options_of, unknown_option_text};
use super::stores::StoreFields;
use super::versions::VersionFilter;
use crate::format::json::Json;
use crate::format::render::fill;
use crate::format::texts;
use crate::model::error::{ErrorCode, ToolError};
use crate::model::path::{parse_store_path_checked, parse_store_prefix};
use crate::model::record::{sha256_hex, Change};
use crate::model::time::parse_rfc3339;

/// One host call.
#[derive(Clone, Debug)]
pub enum HostCall {
    ListMemories(ListOptions),
    GetMemory(String),
    GetMemoryByPath(String),
    CreateMemory {
        key: String,
        content: String,
    },
    /// `memories.createMany`: several memories in one transaction, all or none (a sync
    /// pull's page, docs/SYNC.md#a-pass).
    CreateMemories(Vec<NewMemory>),
    UpdateMemory {
        id: String,
        key: Option<String>,
        content: Option<String>,
        expected_sha256: Option<String>,
        /// A version of this memory that the update sets aside and keeps restorable
        /// (docs/TOOL.md#retention): a sync conflict's local text.
        keep: Option<String>,
    },
    DeleteMemory {
        id: String,
        expected_sha256: Option<String>,
    },
    TouchMemories(Vec<String>),
    /// `check()` / `repair()`: find (and with `repair`, mend) what cannot be trusted, one page
    /// of records after `after` at a time.
    Check {
        repair: bool,
        after: Option<String>,
    },
    KeepMemory(String),
    ExpireMemories(ExpiryRun),
    ListVersions(VersionFilter),
    GetVersion(String),
    RedactVersion(String),
    RestoreVersion(String),
    /// `versions.prune()`; `on_open`: the housekeeping of an open, on the store's trusted
    /// clock (docs/TOOL.md#a-clock-that-can-be-trusted).
    Prune {
        on_open: bool,
    },
    Export {
        include_versions: bool,
    },
    Import {
        bundle: Box<Bundle>,
        on_conflict: OnConflict,
    },
    CreateStore(StoreFields),
    ListStores {
        include_archived: bool,
    },
    GetStore(String),
    UpdateStore {
        id: String,
        fields: StoreFields,
    },
    ArchiveStore(String),
    DeleteStore(String),
}

/// The `memories` of a `memories.createMany`: each `{ path, content, content_sha256,
/// memory_version_id? }`, its text held to its sha.
fn new_memories(list: Option<&Json>) -> Result<Vec<NewMemory>, ToolError> {
    let shape =
        "`memories` must be an array of { path, content, content_sha256, memory_version_id? }";
    let Some(Json::Array(items)) = list else {
        return Err(bad(shape.into()));
    };
    if items.len() > MAX_CREATE_MANY {
        return Err(bad(fill(
            "`memories` holds {} memories; at most {} at once",
            &[&items.len().to_string(), &MAX_CREATE_MANY.to_string()],
        )));
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let Json::Object(members) = item else {
            return Err(bad(shape.into()));
        };
        const KNOWN: [&str; 4] = ["path", "content", "content_sha256", "memory_version_id"];
        if let Some((name, _)) = members.iter().find(|(n, _)| !KNOWN.contains(&n.as_str())) {
            return Err(bad(fill(
                "unknown field `{}` of a memory of memories.createMany; its fields are {}",
                &[name, &KNOWN.join(", ")],
            )));
        }
        let args = Args(item);
        if let Some(Json::Str(s)) = item.field("content") {
            if s.lone_surrogate {
                return Err(bad("a `content` holds a lone surrogate".into()));
            }
        }
        let key = args.required_path("path")?;
        let content = args.required("content")?;
        let expected = args.required("content_sha256")?;
        let actual = sha256_hex(content.as_bytes());
        if actual != expected {
            return Err(ToolError::new(
                ErrorCode::ContentMismatch,
                fill(
                    "`content_sha256` of {} is {}, but the SHA-256 of its `content` is {}",
                    &[&key, expected, &actual],
                ),
            ));
        }
        out.push(NewMemory {
            key,
            content: content.to_string(),
            memory_version_id: args.string("memory_version_id")?.map(str::to_string),
        });
    }
    Ok(out)
}

fn bad(message: String) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, message)
}

struct Args<'a>(&'a Json);

impl<'a> Args<'a> {
    /// `content`, which a create requires, held to `content_sha256` when that is given: a
    /// text that arrived from elsewhere (a sync's pull) is written only if it is the text its
    /// sender hashed (docs/SYNC.md#a-pass).
    fn content_checked(&self) -> Result<Option<String>, ToolError> {
        let content = match self.0.field("call").and_then(Json::as_str) {
            Some("memories.create") => Some(self.required("content")?),
            _ => self.string("content")?,
        };
        let Some(expected) = self.string("content_sha256")? else {
            return Ok(content.map(str::to_string));
        };
        let Some(content) = content else {
            return Err(bad("`content_sha256` needs a `content`".into()));
        };
        let actual = sha256_hex(content.as_bytes());
        if actual != expected {
            return Err(ToolError::new(
                ErrorCode::ContentMismatch,
                fill(
                    "`content_sha256` is {}, but the SHA-256 of `content` is {}",
                    &[expected, &actual],
                ),
            ));
        }
        Ok(Some(content.to_string()))
    }

    fn string(&self, key: &str) -> Result<Option<&'a str>, ToolError> {
        match self.0.field(key) {
            None => Ok(None),
            Some(Json::Str(s)) => Ok(Some(s.text.as_str())),
            Some(_) => Err(bad(fill("`{}` must be a string", &[key]))),
        }
    }

    /// A store path argument, checked (a lone surrogate in it is refused).
    fn path(&self, key: &str) -> Result<Option<String>, ToolError> {
        match self.0.field(key) {
            None => Ok(None),
            Some(Json::Str(s)) => parse_store_path_checked(&s.text, s.lone_surrogate).map(Some),
            Some(_) => Err(bad(fill("`{}` must be a string", &[key]))),
        }
    }

    fn required_path(&self, key: &str) -> Result<String, ToolError> {
        self.path(key)?
            .ok_or_else(|| bad(fill("`{}` is required", &[key])))
    }

    fn required(&self, key: &str) -> Result<&'a str, ToolError> {
        self.string(key)?
            .ok_or_else(|| bad(fill("`{}` is required", &[key])))
    }

    fn integer(&self, key: &str) -> Result<Option<i64>, ToolError> {
        match self.0.field(key) {
            None => Ok(None),
            Some(v) => v
                .as_integer()
                .map(Some)
                .ok_or_else(|| bad(fill("`{}` must be a whole number", &[key]))),
        }
    }

    /// A flag: absent or `null` is `None`; any value other than `true` or `false` is refused
    /// (a string `"yes"` or a number is not read as `false`).
    fn boolean(&self, key: &str) -> Result<Option<bool>, ToolError> {
        match self.0.field(key) {
            None => Ok(None),
            Some(v) => v
                .as_bool()
                .map(Some)
                .ok_or_else(|| bad(fill("`{}` must be a boolean", &[key]))),
        }
    }

    fn time(&self, key: &str) -> Result<Option<i64>, ToolError> {
        match self.string(key)? {
            None => Ok(None),
            Some(t) => parse_rfc3339(t).map(Some).ok_or_else(|| {
                bad(fill(
                    "`{}` must be an RFC 3339 time, like 2026-11-29T21:41:14Z",
                    &[key],
                ))
            }),
        }
    }
}

/// The arguments each call takes (`None` for a call that does not exist).
fn arguments_of(call: &str) -> Option<&'static [&'static str]> {
    Some(match call {
        "memories.list" => &["path_prefix", "depth"],
        "memories.get" | "versions.get" | "versions.redact" | "versions.restore" => &["id"],
        "memories.getByPath" => &["path"],
        "memories.create" => &["path", "content", "content_sha256"],
        "memories.createMany" => &["memories"],
        "memories.update" => &[
            "id",
            "path",
            "content",
            "precondition",
            "content_sha256",
            "keep_version_id",
        ],
        "memories.delete" => &["id", "expected_content_sha256"],
        "memories.touch" => &["paths"],
        "check" | "repair" => &["after"],
        "memories.keep" => &["id"],
        "memories.expire" => &["older_than_days", "dry_run", "on_open", "only"],
        "versions.list" => &[
            "memory_id",
            "operation",
            "created_at_gte",
            "created_at_lte",
            "path_prefix",
            "limit",
            "page",
        ],
        "versions.prune" => &["on_open"],
        "export" => &["include_versions"],
        "import" => &["bundle", "on_conflict"],
        "stores.create" => &["name", "description", "limits"],
        "stores.list" => &["include_archived"],
        "stores.get" | "stores.archive" | "stores.delete" => &["id"],
        "stores.update" => &["id", "name", "description", "limits"],
        _ => return None,
    })
}

impl HostCall {
    /// Parses a call; unknown calls and malformed arguments are `INVALID_INPUT` errors.
    pub fn parse(text: &str) -> Result<HostCall, ToolError> {
        Self::parse_with(text, None)
    }

    /// `parse`, for an `import` whose bundle the host read into the core in parts
    /// (`staged`, in place of the `bundle` argument): a big bundle is then never one text.
    pub fn parse_with(text: &str, staged: Option<BundleReader>) -> Result<HostCall, ToolError> {
        // A bundle that came in parts, one of which was not JSON: refused as the call whole.
        if staged.as_ref().is_some_and(BundleReader::is_unreadable) {
            return Err(bad(texts::HOST_CALL_NOT_OBJECT.into()));
        }
        let json = Json::parse(text).ok_or_else(|| bad(texts::HOST_CALL_NOT_OBJECT.into()))?;
        let args = Args(&json);
        let call = args.required("call")?;
        if staged.is_some() && call != "import" {
            return Err(bad(fill("{}: takes no bundle", &[call])));
        }
        if let (Some(known), Json::Object(members)) = (arguments_of(call), &json) {
            // A misspelt argument is refused, not dropped (an update of `contnet` would
            // otherwise apply the rest and lose the content).
            if let Some((name, _)) = members
                .iter()
                .find(|(name, _)| name != "call" && !known.contains(&name.as_str()))
            {
                // Named as the caller passes them where the call is a public method's.
                let listed = options_of(call).unwrap_or(known);
                return Err(bad(unknown_option_text(call, name, listed)));
            }
        }
        Ok(match call {
            "memories.list" => HostCall::ListMemories(ListOptions::new(
                args.string("path_prefix")?,
                args.integer("depth")?,
            )?),
            "memories.get" => HostCall::GetMemory(args.required("id")?.to_string()),
            "memories.getByPath" => HostCall::GetMemoryByPath(args.required_path("path")?),
            "memories.create" => HostCall::CreateMemory {
                key: args.required_path("path")?,
                content: args.content_checked()?.unwrap_or_default(),
            },
            "memories.createMany" => {
                HostCall::CreateMemories(new_memories(json.field("memories"))?)
            }
            "memories.update" => {
                let expected_sha256 = match json.field("precondition") {
                    None => None,
                    Some(p @ Json::Object(_)) => {
                        if p.field("type").and_then(Json::as_str) != Some("content_sha256") {
                            return Err(bad(
                                "`precondition.type` must be \"content_sha256\"".into()
                            ));
                        }
                        let hash = Args(p).string("content_sha256").map_err(|_| {
                            bad("`precondition.content_sha256` must be a string".into())
                        })?;
                        Some(
                            hash.ok_or_else(|| {
                                bad("`precondition.content_sha256` is required".into())
                            })?
                            .to_string(),
                        )
                    }
                    Some(_) => return Err(bad("`precondition` must be an object".into())),
                };
                let key = args.path("path")?;
                let content = args.content_checked()?;
                if key.is_none() && content.is_none() {
                    return Err(bad("an update needs a `path`, a `content`, or both".into()));
                }
                HostCall::UpdateMemory {
                    id: args.required("id")?.to_string(),
                    key,
                    content,
                    expected_sha256,
                    keep: args.string("keep_version_id")?.map(str::to_string),
                }
            }
            "memories.delete" => HostCall::DeleteMemory {
                id: args.required("id")?.to_string(),
                expected_sha256: args.string("expected_content_sha256")?.map(str::to_string),
            },
            "memories.touch" => HostCall::TouchMemories(match json.field("paths") {
                Some(Json::Array(items)) => items
                    .iter()
                    .map(|item| item.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| bad("`paths` must be an array of store paths".into()))?,
                _ => return Err(bad("`paths` must be an array of store paths".into())),
            }),
            "memories.keep" => HostCall::KeepMemory(args.required("id")?.to_string()),
            "check" => HostCall::Check {
                repair: false,
                after: args.string("after")?.map(str::to_string),
            },
            "repair" => HostCall::Check {
                repair: true,
                after: args.string("after")?.map(str::to_string),
            },
            "memories.expire" => HostCall::ExpireMemories(ExpiryRun {
                older_than_days: args
                    .integer("older_than_days")?
                    .ok_or_else(|| bad("`older_than_days` is required".into()))?,
                dry_run: args.boolean("dry_run")?.unwrap_or(false),
                on_open: args.boolean("on_open")?.unwrap_or(false),
                only: match json.field("only") {
                    None => None,
                    Some(Json::Array(items)) => Some(
                        items
                            .iter()
                            .map(|item| {
                                let id = item.field("id").and_then(Json::as_str)?;
                                let at = item.field("last_accessed_at").and_then(Json::as_str)?;
                                Some((id.to_string(), parse_rfc3339(at)?))
                            })
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| {
                                bad("`only` must list { id, last_accessed_at } of memories".into())
                            })?,
                    ),
                    Some(_) => {
                        return Err(bad(
                            "`only` must list { id, last_accessed_at } of memories".into()
                        ))
                    }
                },
            }),
            "versions.list" => {
                let limit = args.integer("limit")?.unwrap_or(20);
                if !(1..=100).contains(&limit) {
                    return Err(bad("`limit` must be from 1 to 100".into()));
                }
                let operation = match args.string("operation")? {
                    None => None,
                    Some(op) => Some(Change::parse(op).ok_or_else(|| {
                        bad("`operation` must be \"created\", \"modified\" or \"deleted\"".into())
                    })?),
                };
                HostCall::ListVersions(VersionFilter {
                    memory_id: args.string("memory_id")?.map(str::to_string),
                    operation,
                    created_from: args.time("created_at_gte")?,
                    created_to: args.time("created_at_lte")?,
                    path_prefix: args
                        .string("path_prefix")?
                        .map(parse_store_prefix)
                        .transpose()?,
                    limit: limit as usize,
                    page: args.string("page")?.map(str::to_string),
                })
            }
            "versions.get" => HostCall::GetVersion(args.required("id")?.to_string()),
            "versions.redact" => HostCall::RedactVersion(args.required("id")?.to_string()),
            "versions.restore" => HostCall::RestoreVersion(args.required("id")?.to_string()),
            "versions.prune" => HostCall::Prune {
                on_open: args.boolean("on_open")?.unwrap_or(false),
            },
            "export" => HostCall::Export {
                include_versions: args.boolean("include_versions")?.unwrap_or(false),
            },
            "import" => {
                let bundle = match (json.field("bundle"), staged) {
                    (Some(bundle), None) => Bundle::parse(bundle)?,
                    (None, Some(reader)) => reader.finish()?,
                    (Some(_), Some(_)) => {
                        return Err(bad("`bundle` is given twice: whole and in parts".into()))
                    }
                    (None, None) => return Err(bad("`bundle` is required".into())),
                };
                let policy = args.string("on_conflict")?.unwrap_or("fail");
                HostCall::Import {
                    bundle: Box::new(bundle),
                    on_conflict: OnConflict::parse(policy).ok_or_else(|| {
                        bad("`on_conflict` must be \"skip\", \"overwrite\" or \"fail\"".into())
                    })?,
                }
            }
            "stores.create" => HostCall::CreateStore(StoreFields::parse(&json)?),
            "stores.list" => HostCall::ListStores {
                include_archived: args.boolean("include_archived")?.unwrap_or(false),
            },
            "stores.get" => HostCall::GetStore(args.required("id")?.to_string()),
            "stores.update" => HostCall::UpdateStore {
                id: args.required("id")?.to_string(),
                fields: StoreFields::parse(&json)?,
            },
            "stores.archive" => HostCall::ArchiveStore(args.required("id")?.to_string()),
            "stores.delete" => HostCall::DeleteStore(args.required("id")?.to_string()),
            other => return Err(bad(fill("unknown call `{}`", &[other]))),
        })
    }

    /// Whether the call may write.
    pub fn writes(&self) -> bool {
        !matches!(
            self,
            HostCall::ListMemories(_)
                | HostCall::GetMemory(_)
                | HostCall::GetMemoryByPath(_)
                | HostCall::ListVersions(_)
                | HostCall::GetVersion(_)
                | HostCall::Export { .. }
                | HostCall::ListStores { .. }
                | HostCall::GetStore(_)
                | HostCall::Check { repair: false, .. }
        )
    }
}
