//! Tool input parsing (docs/TOOL.md#input): the model's JSON becomes a typed command, or the first error.

use crate::format::json::{Json, JsonNumber, JsonStr};
use crate::format::render::echo;
use crate::format::render::fill;
use crate::format::texts;
use crate::model::error::{ErrorCode, ToolError};
use crate::model::path::MemoryPath;

/// A tool command whose parameters and paths have been checked.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolCommand {
    View {
        path: MemoryPath,
        view_range: Option<[JsonNumber; 2]>,
    },
    Create {
        path: MemoryPath,
        file_text: String,
    },
    StrReplace {
        path: MemoryPath,
        old_str: String,
        new_str: Option<String>,
    },
    Insert {
        path: MemoryPath,
        insert_line: JsonNumber,
        insert_text: String,
    },
    Delete {
        path: MemoryPath,
    },
    Rename {
        old_path: MemoryPath,
        new_path: MemoryPath,
    },
}

impl ToolCommand {
    /// The command's name as the model writes it.
    pub fn name(&self) -> &'static str {
        match self {
            ToolCommand::View { .. } => "view",
            ToolCommand::Create { .. } => "create",
            ToolCommand::StrReplace { .. } => "str_replace",
            ToolCommand::Insert { .. } => "insert",
            ToolCommand::Delete { .. } => "delete",
            ToolCommand::Rename { .. } => "rename",
        }
    }

    /// Whether the command can change the store.
    pub fn writes(&self) -> bool {
        !matches!(self, ToolCommand::View { .. })
    }

    /// The path named in messages about the whole command (`old_path` for rename).
    pub fn subject(&self) -> &MemoryPath {
        match self {
            ToolCommand::View { path, .. }
            | ToolCommand::Create { path, .. }
            | ToolCommand::StrReplace { path, .. }
            | ToolCommand::Insert { path, .. }
            | ToolCommand::Delete { path } => path,
            ToolCommand::Rename { old_path, .. } => old_path,
        }
    }
}

const VALID_COMMANDS: &str = "view, create, str_replace, insert, delete, rename";

fn invalid(message: String) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, message)
}

/// Parses tool input given as JSON text (docs/TOOL.md#input, then docs/TOOL.md#paths for the paths).
pub fn parse_tool_input(text: &str) -> Result<ToolCommand, ToolError> {
    match Json::parse(text) {
        Some(json) => parse_tool_json(&json),
        None => Err(invalid(texts::INPUT_NOT_OBJECT.into())),
    }
}

/// Parses a tool input value (docs/TOOL.md#input, then docs/TOOL.md#paths for the paths).
pub(crate) fn parse_tool_json(input: &Json) -> Result<ToolCommand, ToolError> {
    if !matches!(input, Json::Object(_)) {
        return Err(invalid(texts::INPUT_NOT_OBJECT.into()));
    }
    let command = match input.field("command") {
        None => return Err(invalid(texts::MISSING_COMMAND.into())),
        Some(Json::Str(s)) => s.text.as_str(),
        Some(_) => return Err(invalid(texts::COMMAND_NOT_STRING.into())),
    };
    let params = Params { input, command };
    match command {
        "view" => {
            let path = params.string("path")?;
            let view_range = params.view_range()?;
            Ok(ToolCommand::View {
                path: to_path(path)?,
                view_range,
            })
        }
        "create" => {
            let path = params.string("path")?;
            let file_text = params.string("file_text")?;
            Ok(ToolCommand::Create {
                path: to_path(path)?,
                file_text: file_text.text.clone(),
            })
        }
        "str_replace" => {
            let path = params.string("path")?;
            let old_str = params.string("old_str")?;
            if old_str.text.is_empty() {
                return Err(invalid(texts::EMPTY_OLD_STR.into()));
            }
            let new_str = params.optional_string("new_str")?;
            Ok(ToolCommand::StrReplace {
                path: to_path(path)?,
                old_str: old_str.text.clone(),
                new_str: new_str.map(|s| s.text.clone()),
            })
        }
        "insert" => {
            let path = params.string("path")?;
            let insert_line = params.integer("insert_line")?;
            let insert_text = params.string("insert_text")?;
            Ok(ToolCommand::Insert {
                path: to_path(path)?,
                insert_line,
                insert_text: insert_text.text.clone(),
            })
        }
        "delete" => {
            let path = params.string("path")?;
            Ok(ToolCommand::Delete {
                path: to_path(path)?,
            })
        }
        "rename" => {
            let old_path = params.string("old_path")?;
            let new_path = params.string("new_path")?;
            Ok(ToolCommand::Rename {
                old_path: to_path(old_path)?,
                new_path: to_path(new_path)?,
            })
        }
        other => Err(ToolError::new(
            ErrorCode::UnknownCommand,
            fill(texts::UNKNOWN_COMMAND, &[&echo(other), VALID_COMMANDS]),
        )),
    }
}

fn to_path(s: &JsonStr) -> Result<MemoryPath, ToolError> {
    MemoryPath::parse(&s.text, s.lone_surrogate)
}

struct Params<'a> {
    input: &'a Json,
    command: &'a str,
}

impl<'a> Params<'a> {
    fn missing(&self, name: &str) -> ToolError {
        invalid(fill(texts::MISSING_PARAMETER, &[name, self.command]))
    }

    fn string(&self, name: &str) -> Result<&'a JsonStr, ToolError> {
        self.optional_string(name)?
            .ok_or_else(|| self.missing(name))
    }

    fn optional_string(&self, name: &str) -> Result<Option<&'a JsonStr>, ToolError> {
        match self.input.field(name) {
            None => Ok(None),
            Some(Json::Str(s)) => Ok(Some(s)),
            Some(_) => Err(invalid(fill(texts::PARAMETER_NOT_STRING, &[name]))),
        }
    }

    fn integer(&self, name: &str) -> Result<JsonNumber, ToolError> {
        let value = self.input.field(name).ok_or_else(|| self.missing(name))?;
        integer(value).ok_or_else(|| invalid(fill(texts::PARAMETER_NOT_INTEGER, &[name])))
    }

    fn view_range(&self) -> Result<Option<[JsonNumber; 2]>, ToolError> {
        let Some(value) = self.input.field("view_range") else {
            return Ok(None);
        };
        let bad = || ToolError::new(ErrorCode::InvalidRange, texts::INVALID_VIEW_RANGE);
        match value {
            Json::Array(items) => match items.as_slice() {
                [start, end] => Ok(Some([
                    integer(start).ok_or_else(bad)?,
                    integer(end).ok_or_else(bad)?,
                ])),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

/// The number, if it is an integer.
fn integer(value: &Json) -> Option<JsonNumber> {
    value.as_number().filter(|n| n.integer.is_some()).cloned()
}
