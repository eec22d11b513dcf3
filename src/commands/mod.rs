//! The commands: one module per rule set, each straight-line code over a `Snapshot`.

mod create;
mod delete;
mod edit;
mod host;
mod rename;
mod view;

pub use host::ListOptions;

use crate::engine::{Context, Outcome, Read, Snapshot, Stop, Write};
use crate::error::{ErrorCode, ToolError};
use crate::input::{parse_tool_input, ToolCommand};
use crate::path::MemoryPath;
use crate::record::FileRecord;
use crate::render::group;

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
    /// `memories.list`.
    List(Result<ListOptions, ToolError>),
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

    /// A host listing from `{"path_prefix"?, "depth"?}` as JSON text.
    pub fn list(options_json: &str) -> Operation {
        Operation::List(ListOptions::parse(options_json))
    }

    /// Whether the operation may write.
    pub fn writes(&self) -> bool {
        match self {
            Operation::Tool(Ok(command)) => command.writes(),
            Operation::Tool(Err(_)) | Operation::List(_) => false,
            Operation::HostWrite { .. } => true,
        }
    }

    pub(crate) fn run(&self, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
        match self {
            Operation::Tool(Err(error)) => Err(Stop::Fail(error.clone())),
            Operation::Tool(Ok(command)) => run_tool(command, cx, snap),
            Operation::HostWrite { path, bytes } => {
                let path = path.clone()?;
                refuse_if_read_only(cx, "write", &path)?;
                host::write(&path, bytes, cx, snap)
            }
            Operation::List(options) => host::list(&options.clone()?, snap),
        }
    }
}

fn run_tool(command: &ToolCommand, cx: &Context, snap: &Snapshot) -> Result<Outcome, Stop> {
    if command.writes() {
        refuse_if_read_only(cx, command.name(), command.subject())?;
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
        ToolCommand::Delete { path } => delete::run(path, snap),
        ToolCommand::Rename { old_path, new_path } => rename::run(old_path, new_path, cx, snap),
    }
}

/// SPEC §4: read-only access refuses writes after the input and path checks, before any other.
fn refuse_if_read_only(cx: &Context, verb: &str, path: &MemoryPath) -> Result<(), Stop> {
    if cx.config.read_only {
        return Err(fail(
            ErrorCode::ReadOnly,
            format!(
                "Error: Cannot {verb} {}: this memory is read-only",
                path.raw()
            ),
        ));
    }
    Ok(())
}

pub(crate) fn fail(code: ErrorCode, message: String) -> Stop {
    Stop::Fail(ToolError::new(code, message))
}

/// SPEC §4 per-file limit.
fn check_file_size(path: &MemoryPath, size: usize, cx: &Context) -> Result<(), Stop> {
    if size as u64 > cx.config.max_file_bytes {
        return Err(fail(
            ErrorCode::LimitExceeded,
            format!(
                "Error: Cannot write {}: {} bytes is over the limit of {} bytes per file",
                path.raw(),
                group(size as u64),
                group(cx.config.max_file_bytes)
            ),
        ));
    }
    Ok(())
}

/// The first directory on the way to `path` that is a file, cut from the model's spelling
/// (needs `File` reads of every ancestor).
fn file_on_the_way(path: &MemoryPath, snap: &Snapshot) -> Option<String> {
    path.ancestor_keys()
        .iter()
        .position(|key| snap.file(key).is_some())
        .map(|i| path.raw_prefix(i + 1))
}

/// Reads of `path` itself and of every ancestor, to place a new file there.
fn placement_reads(path: &MemoryPath) -> Vec<Read> {
    let mut reads = vec![
        Read::File(path.key().to_string()),
        Read::HasChildren(path.key().to_string()),
    ];
    reads.extend(path.ancestor_keys().into_iter().map(Read::File));
    reads
}

/// The writes that store `bytes` at `path`, replacing `previous` if there is one.
fn put_content(
    path: &MemoryPath,
    bytes: &[u8],
    previous: Option<&FileRecord>,
    cx: &Context,
) -> Vec<Write> {
    let mut ids = cx.ids();
    let record = FileRecord::for_content(path.key(), bytes, previous, &mut ids, cx.now);
    vec![
        Write::PutContent {
            id: record.id.clone(),
            bytes: bytes.to_vec(),
        },
        Write::PutFile(record),
    ]
}
