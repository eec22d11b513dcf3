//! What a task carries out: a tool command, a host write or a host call, dispatched to the
//! command that runs it.

use super::bundle::BundleReader;
use super::calls::HostCall;
use super::rules::{refuse_if_read_only, Voice};
use super::{bundle, create, delete, edit, host, memories, rename, stores, versions, view};
use crate::commands::Context;
use crate::format::json::Json;
use crate::format::render::cat;
use crate::model::error::{ErrorCode, ToolError};
use crate::model::input::{parse_tool_input, ToolCommand};
use crate::model::path::MemoryPath;
use crate::protocol::{Outcome, Snapshot, Stop};

/// Something a `Task` carries out: a tool command, or a call of the host's.
#[derive(Clone, Debug)]
pub enum Operation {
    /// A tool command (or the error its input produced).
    Tool(Result<ToolCommand, ToolError>),
    /// `writeFile`: create or overwrite a file, text or binary.
    HostWrite {
        path: Result<MemoryPath, ToolError>,
        bytes: Vec<u8>,
    },
    /// A call of the host's memory, history or bundle API.
    Host(Result<HostCall, ToolError>),
}

impl Operation {
    /// A tool command from the model's input as JSON text.
    pub fn tool(input_json: &str) -> Operation {
        Operation::Tool(parse_tool_input(input_json))
    }

    /// A host write to the tool path `path`.
    pub fn host_write(path: &str, bytes: Vec<u8>) -> Operation {
        Operation::HostWrite {
            path: MemoryPath::parse(path, false),
            bytes,
        }
    }

    /// A host write whose path comes as JSON text (a JSON string): JSON keeps half a surrogate
    /// pair as its escape where a string that crosses as UTF-8 would hold U+FFFD, a legal name,
    /// so such a path is refused as the tool refuses it (docs/TOOL.md#path-rules).
    pub fn host_write_json(path_json: &str, bytes: Vec<u8>) -> Operation {
        let path = match Json::parse(path_json) {
            Some(Json::Str(s)) => MemoryPath::parse(&s.text, s.lone_surrogate),
            _ => Err(ToolError::new(
                ErrorCode::InvalidInput,
                "writeFile(path, content): `path` must be a string.".to_string(),
            )),
        };
        Operation::HostWrite { path, bytes }
    }

    /// A host call from `{"call": …}` JSON text.
    pub fn host(call_json: &str) -> Operation {
        Operation::Host(HostCall::parse(call_json))
    }

    /// A host call `import` whose bundle was read in parts (`HostCall::parse_with`).
    pub fn host_with_bundle(call_json: &str, bundle: BundleReader) -> Operation {
        Operation::Host(HostCall::parse_with(call_json, Some(bundle)))
    }

    /// Whether the operation may write.
    pub fn writes(&self) -> bool {
        match self {
            Operation::Tool(Ok(command)) => command.writes(),
            Operation::Tool(Err(_)) | Operation::Host(Err(_)) => false,
            Operation::Host(Ok(call)) => call.writes(),
            Operation::HostWrite { .. } => true,
        }
    }

    /// Whether the operation goes on past damaged records, reporting them itself (listing,
    /// export, check, expiry); every other is refused at the first damage its reads meet
    /// (docs/TOOL.md#damaged-records).
    pub(crate) fn tolerates_damage(&self) -> bool {
        matches!(
            self,
            Operation::Host(Ok(HostCall::ListMemories(_)
                | HostCall::Export { .. }
                | HostCall::Check { .. }
                | HostCall::ExpireMemories(_)))
        )
    }

    /// The kinds of read (`Read::kind`) the operation can ever ask for, when it is known to be
    /// few: a view's. The host may then open storage for those alone (IndexedDB: a transaction
    /// over the object stores they use, cheaper than over all of them). `None`: any read.
    pub(crate) fn read_scope(&self) -> Option<&'static [&'static str]> {
        match self {
            Operation::Tool(Ok(ToolCommand::View { .. })) => {
                Some(&["file", "headContent", "content", "listing"])
            }
            _ => None,
        }
    }

    /// Whether its texts name tool paths and speak in the model's words: a tool command's,
    /// and a host write's (`writeFile` takes tool paths and runs the tool's rules); a host
    /// call's name store paths.
    pub(crate) fn speaks_to_model(&self) -> bool {
        !matches!(self, Operation::Host(_))
    }

    /// Whether its refusals go to the model, marked `Error: ` (docs/TOOL.md#input-errors),
    /// rather than to the host as a typed error's message, unmarked
    /// (docs/TOOL.md#host-api-messages): a host write's are the host's.
    pub(crate) fn answers_model(&self) -> bool {
        matches!(self, Operation::Tool(_))
    }

    /// The bytes this operation will write as they are, if known before any read: a create's
    /// text, a host write's bytes (a write policy may still rewrite them).
    pub(crate) fn bytes_to_write(&self) -> Option<&[u8]> {
        match self {
            Operation::Tool(Ok(ToolCommand::Create { file_text, .. })) => {
                Some(file_text.as_bytes())
            }
            Operation::HostWrite { bytes, .. } => Some(bytes),
            _ => None,
        }
    }

    pub(crate) fn run(&self, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
        match self {
            Operation::Tool(Err(error)) => Err(Stop::Fail(error.clone())),
            Operation::Tool(Ok(command)) => run_tool(command, cx, snap),
            Operation::HostWrite { path, bytes } => {
                let path = path.clone()?;
                refuse_if_read_only(cx, snap, Voice::Model, &cat(&["write ", path.raw()]))?;
                host::write(&path, bytes, cx, snap)
            }
            Operation::Host(Err(error)) => Err(Stop::Fail(error.clone())),
            Operation::Host(Ok(call)) => run_host(call, cx, snap),
        }
    }
}

fn run_tool(command: &ToolCommand, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    if command.writes() {
        refuse_if_read_only(
            cx,
            snap,
            Voice::Model,
            &cat(&[command.name(), " ", command.subject().raw()]),
        )?;
    }
    match command {
        ToolCommand::View { path, view_range } => view::run(path, view_range.as_ref(), cx, snap),
        ToolCommand::Create { path, file_text } => create::run(path, file_text, cx, snap),
        ToolCommand::StrReplace {
            path,
            old_str,
            new_str,
        } => edit::str_replace(path, old_str, new_str.as_deref().unwrap_or(""), cx, snap),
        ToolCommand::Insert {
            path,
            insert_line,
            insert_text,
        } => edit::insert(path, insert_line, insert_text, cx, snap),
        ToolCommand::Delete { path } => delete::run(path, cx, snap),
        ToolCommand::Rename { old_path, new_path } => rename::run(old_path, new_path, cx, snap),
    }
}

fn run_host(call: &HostCall, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    match call {
        HostCall::ListMemories(options) => memories::list(options, snap),
        HostCall::GetMemory(id) => memories::get(id, snap),
        HostCall::GetMemoryByPath(key) => memories::get_by_path(key, cx, snap),
        HostCall::CreateMemory { key, content } => memories::create(key, content, cx, snap),
        HostCall::CreateMemories(items) => memories::create_many(items, cx, snap),
        HostCall::UpdateMemory {
            id,
            key,
            content,
            expected_sha256,
            keep,
        } => memories::update(
            id,
            key.as_deref(),
            content.as_deref(),
            keep.as_deref(),
            expected_sha256.as_deref(),
            cx,
            snap,
        ),
        HostCall::DeleteMemory {
            id,
            expected_sha256,
        } => memories::delete(id, expected_sha256.as_deref(), cx, snap),
        HostCall::TouchMemories(keys) => memories::touch(keys, cx, snap),
        HostCall::Check { repair, after } => super::check::run(*repair, after.as_deref(), cx, snap),
        HostCall::KeepMemory(id) => memories::keep(id, cx, snap),
        HostCall::ExpireMemories(run) => memories::expire(run, cx, snap),
        HostCall::ListVersions(filter) => versions::list(filter, snap),
        HostCall::GetVersion(id) => versions::get(id, snap),
        HostCall::RedactVersion(id) => versions::redact(id, cx, snap),
        HostCall::RestoreVersion(id) => versions::restore(id, cx, snap),
        HostCall::Prune { on_open } => versions::prune(*on_open, cx, snap),
        HostCall::Export { include_versions } => bundle::export(*include_versions, snap),
        HostCall::Import {
            bundle,
            on_conflict,
        } => bundle::import(bundle, *on_conflict, cx, snap),
        HostCall::CreateStore(fields) => stores::create(fields, cx, snap),
        HostCall::ListStores { include_archived } => stores::list(*include_archived, snap),
        HostCall::GetStore(id) => stores::get(id, snap),
        HostCall::UpdateStore { id, fields } => stores::update(id, fields, cx, snap),
        HostCall::ArchiveStore(id) => stores::archive(id, cx, snap),
        HostCall::DeleteStore(id) => stores::delete(id, cx, snap),
    }
}
