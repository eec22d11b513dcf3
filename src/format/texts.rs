//! Every text the model can receive, in one place: each is a template whose `{}` are filled
//! in order (`render::fill`), with the section of docs/TOOL.md that states it. The host's own
//! error messages (typed errors of the host API) live with their calls.
//!
//! Texts that begin with `Error: ` are errors; the rest are results. A few rules are told to
//! the model and to the host alike (read-only, size, count): their templates have no prefix,
//! and `commands::rules` adds it for the model.

/// The tool input is not a JSON object. (docs/TOOL.md#input-errors)
pub(crate) const INPUT_NOT_OBJECT: &str = "Error: Tool input must be a JSON object";
/// A host call that is not JSON, or is nested too deep (a bundle read in parts too).
pub(crate) const HOST_CALL_NOT_OBJECT: &str = "a host call must be a JSON object";

/// The input has no `command`. (docs/TOOL.md#input-errors)
pub(crate) const MISSING_COMMAND: &str = "Error: Missing required parameter `command`";

/// `command` is not a string. (docs/TOOL.md#input-errors)
pub(crate) const COMMAND_NOT_STRING: &str = "Error: Parameter `command` must be a string";

/// `old_str` is the empty string. (docs/TOOL.md#input-errors)
pub(crate) const EMPTY_OLD_STR: &str = "Error: Parameter `old_str` must not be empty";

/// The command, and the list of commands. (docs/TOOL.md#input-errors)
pub(crate) const UNKNOWN_COMMAND: &str = "Error: Unknown command `{}`. Valid commands are: {}";

/// A parameter, and its command. (docs/TOOL.md#input-errors)
pub(crate) const MISSING_PARAMETER: &str =
    "Error: Missing required parameter `{}` for command `{}`";

/// A parameter. (docs/TOOL.md#input-errors)
pub(crate) const PARAMETER_NOT_STRING: &str = "Error: Parameter `{}` must be a string";

/// A parameter. (docs/TOOL.md#input-errors)
pub(crate) const PARAMETER_NOT_INTEGER: &str = "Error: Parameter `{}` must be an integer";

/// `view_range` is not two integers. (docs/TOOL.md#input-errors)
pub(crate) const INVALID_VIEW_RANGE: &str =
    "Error: Invalid `view_range`. It should be a list of two integers.";

/// The path as given. (docs/TOOL.md#path-rules)
pub(crate) const PATH_OUTSIDE: &str =
    "Error: Path must be /memories or start with /memories/, got: {}";

/// The path as given. (docs/TOOL.md#path-rules)
pub(crate) const PATH_ESCAPES: &str = "Error: Path {} would escape /memories directory";

/// The path as given, and why (one of the `PATH_…` reasons). (docs/TOOL.md#path-rules)
pub(crate) const PATH_INVALID: &str = "Error: Invalid path {}: {}";

/// The path as given, and the limit. (docs/TOOL.md#path-length)
pub(crate) const PATH_TOO_LONG: &str = "Error: Invalid path {}: longer than {} bytes";

/// Reason: `//` in a path. (docs/TOOL.md#path-rules)
pub(crate) const PATH_EMPTY_SEGMENT: &str = "empty segment";

/// Reason. (docs/TOOL.md#path-rules)
pub(crate) const PATH_DOT_SEGMENT: &str = "'.' segments are not allowed";

/// Reason. (docs/TOOL.md#path-rules)
pub(crate) const PATH_DOTDOT_SEGMENT: &str = "'..' segments are not allowed";

/// Reason. (docs/TOOL.md#path-rules)
pub(crate) const PATH_BACKSLASH: &str = "backslashes are not allowed";

/// Reason. (docs/TOOL.md#path-rules)
pub(crate) const PATH_CONTROL: &str = "control characters are not allowed";

/// Reason: a character some JS engine's Unicode does not know and NFC could change, so
/// engines could store the name under different keys (src/model/uneven.rs). (docs/TOOL.md#path-rules)
pub(crate) const PATH_UNEVEN: &str =
    "characters that browsers may normalise differently are not allowed";

/// Reason. (docs/TOOL.md#path-rules)
pub(crate) const PATH_INVISIBLE: &str = "invisible formatting characters are not allowed";

/// Reason. (docs/TOOL.md#percent-encoding)
pub(crate) const PATH_PERCENT: &str =
    "percent-encoded '.', '/', '\\' or control characters are not allowed";

/// Reason, with the limit. (docs/TOOL.md#path-length)
pub(crate) const PATH_LONGER_THAN: &str = "longer than {} bytes";

/// `view` of a path that holds nothing (no `Error: ` prefix, as the SDK's). (docs/TOOL.md#view)
pub(crate) const VIEW_NOT_FOUND: &str = "The path {} does not exist. Please provide a valid path.";

/// The path, and the media type. (docs/TOOL.md#images-and-binary-files)
pub(crate) const VIEW_BINARY: &str =
    "Error: The file {} is binary ({}) and cannot be shown as text";

/// The path. (docs/TOOL.md#file-view)
pub(crate) const VIEW_TOO_MANY_LINES: &str = "File {} exceeds maximum line limit of 999,999 lines.";

/// The path, and the numbered lines. (docs/TOOL.md#file-view)
pub(crate) const VIEW_FILE: &str = "Here's the content of {} with line numbers:\n{}";

/// The range, its first element, the line count. (docs/TOOL.md#view_range)
pub(crate) const VIEW_RANGE_START: &str = "Error: Invalid `view_range`: {}. Its first element {} should be within the range of lines of the file: [1, {}]";

/// The range, its second and first elements. (docs/TOOL.md#view_range)
pub(crate) const VIEW_RANGE_ORDER: &str = "Error: Invalid `view_range`: {}. Its second element {} should be larger or equal than its first {}";

/// The path as given, the total size, the path as shown; the entries follow. (docs/TOOL.md#directory-listing)
pub(crate) const DIRECTORY_LISTING: &str = "Here're the files and directories up to 2 levels deep in {}, excluding hidden items and node_modules:\n{}\t{}";

/// The line, its length, where it was cut, the limit. (docs/TOOL.md#output-limit)
pub(crate) const TRUNCATED_LINE: &str = "\n[Truncated: line {} is {} characters long and was cut after {}; lines longer than {} characters cannot be shown whole.]";

/// The first and last line shown, the line count, the next line. (docs/TOOL.md#output-limit)
pub(crate) const TRUNCATED_LINES: &str =
    "\n[Truncated: showing lines {}-{} of {}. Use view_range [{}, -1] to read on.]";

/// The path. (docs/TOOL.md#create)
pub(crate) const FILE_EXISTS: &str = "Error: File {} already exists";

/// The path. (docs/TOOL.md#create)
pub(crate) const CREATE_TRAILING_SLASH: &str =
    "Error: Cannot create {}: a file path must not end with '/'";

/// The path, and the file on the way to it. (docs/TOOL.md#create)
pub(crate) const FILE_ON_THE_WAY: &str = "Error: Cannot create {}: {} is a file";

/// The path. (docs/TOOL.md#create)
pub(crate) const CREATED: &str = "File created successfully at: {}";

/// The path. (docs/TOOL.md#str_replace)
pub(crate) const NOT_TEXT: &str = "Error: The file {} is not a text file";

/// `str_replace` of a path that holds no file. (docs/TOOL.md#str_replace)
pub(crate) const EDIT_NOT_FOUND: &str =
    "Error: The path {} does not exist. Please provide a valid path.";

/// `old_str`, and the path. (docs/TOOL.md#str_replace)
pub(crate) const NO_MATCH: &str =
    "No replacement was performed, old_str `{}` did not appear verbatim in {}.";

/// `old_str`, and the line numbers. (docs/TOOL.md#str_replace)
pub(crate) const MULTIPLE_MATCHES: &str = "No replacement was performed. Multiple occurrences of old_str `{}` in lines: {}. Please ensure it is unique";

/// The numbered snippet. (docs/TOOL.md#snippet)
pub(crate) const EDITED_SNIPPET: &str = "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n{}";

/// `insert`, `delete` or `rename` of a path that holds nothing. (docs/TOOL.md#insert)
pub(crate) const NOT_FOUND: &str = "Error: The path {} does not exist";

/// `insert_line`, and the line count. (docs/TOOL.md#insert)
pub(crate) const INSERT_LINE_RANGE: &str = "Error: Invalid `insert_line` parameter: {}. It should be within the range of lines of the file: [0, {}]";

/// The path. (docs/TOOL.md#insert)
pub(crate) const INSERTED: &str = "The file {} has been edited.";

/// What `Cannot delete/rename {} itself` names for /memories. (docs/TOOL.md#delete)
pub(crate) const THE_MEMORIES_DIRECTORY: &str = "the /memories directory";

/// The /memories directory or a mount. (docs/TOOL.md#delete)
pub(crate) const DELETE_ROOT: &str = "Error: Cannot delete {} itself";

/// The path. (docs/TOOL.md#delete)
pub(crate) const DELETED: &str = "Successfully deleted {}";

/// The /memories directory or a mount. (docs/TOOL.md#rename)
pub(crate) const RENAME_ROOT: &str = "Error: Cannot rename {} itself";

/// The new path. (docs/TOOL.md#rename)
pub(crate) const DESTINATION_EXISTS: &str = "Error: The destination {} already exists";

/// The old path. (docs/TOOL.md#rename)
pub(crate) const MOVE_INTO_ITSELF: &str = "Error: Cannot move {} into itself";

/// Old path, new path, the moved path that would be too long, the limit. (docs/TOOL.md#rename)
pub(crate) const RENAME_TOO_LONG: &str =
    "Error: Cannot rename {} to {}: the path {} would be longer than {} bytes";

/// The old and the new path. (docs/TOOL.md#rename)
pub(crate) const RENAMED: &str = "Successfully renamed {} to {}";

/// The path, and the host policy's reason. (docs/TOOL.md#beforewrite)
pub(crate) const POLICY_REFUSED: &str = "Error: Cannot write {}: {}";

/// The act (`create /memories/a.md`); the model's text starts with `Error: `. (docs/TOOL.md#read-only-access)
pub(crate) const READ_ONLY: &str = "Cannot {}: this memory is read-only";

/// The memory (its tool path, or `memory {id}`); the model's text starts with `Error: `. (docs/TOOL.md#damaged-records)
pub(crate) const DAMAGED_RECORD: &str =
    "The memory {} is damaged: its stored record cannot be read. Nothing was changed; the app can check and repair the store";

/// The memory's tool path; the model's text starts with `Error: `. (docs/TOOL.md#damaged-records)
pub(crate) const DAMAGED_CONTENT: &str =
    "The memory {} is damaged: its content is missing from storage. Nothing was changed; the app can check and repair the store";

/// The act, as for `READ_ONLY`; said when the store itself is archived. (docs/TOOL.md#read-only-access)
pub(crate) const ARCHIVED_STORE: &str = "Cannot {}: this memory store is archived and read-only";

/// The path, the size, the limit; the model's text starts with `Error: `. (docs/TOOL.md#file-size-limit)
pub(crate) const FILE_TOO_BIG: &str =
    "Cannot write {}: {} bytes is over the limit of {} bytes per file";

/// The path, the bytes its history keeps at the least, the limit; the model's text starts with
/// `Error: `. (docs/TOOL.md#history-budget)
pub(crate) const HISTORY_TOO_BIG: &str =
    "Cannot write {}: its history would hold {} bytes even with every older version pruned, over the limit of {} bytes of history per memory. Nothing was changed";

/// The path, the limit; the model's text starts with `Error: `. (docs/TOOL.md#file-count-limit)
pub(crate) const TOO_MANY_FILES: &str =
    "Cannot create {}: the store already holds {} files, its limit";

/// The act, the path, the mounts. (docs/TOOL.md#mount-texts)
pub(crate) const OUTSIDE_MOUNTS: &str =
    "Error: Cannot {} {}: /memories holds only the memory stores {}; use a path inside one of them";

/// The mount's path. (docs/TOOL.md#mount-texts)
pub(crate) const WRITE_TO_MOUNT: &str =
    "Error: Cannot write {}: it is a mounted memory store; write a file inside it";

/// With several mounts. (docs/TOOL.md#mount-texts)
pub(crate) const DELETE_MEMORIES_ROOT: &str = "Error: Cannot delete the /memories directory itself";

/// With several mounts. (docs/TOOL.md#mount-texts)
pub(crate) const RENAME_MEMORIES_ROOT: &str = "Error: Cannot rename the /memories directory itself";

/// The mount's path. (docs/TOOL.md#mount-texts)
pub(crate) const RENAME_MOUNT: &str = "Error: Cannot rename the mount {} itself";

/// The old and the new path. (docs/TOOL.md#mount-texts)
pub(crate) const MOVE_BETWEEN_STORES: &str = "Error: Cannot move {} to {}: they are in different memory stores; create the file in the other store and delete this one";

/// What `Cannot delete/rename {} itself` names for a mount's root. (docs/TOOL.md#delete)
pub(crate) const THE_MOUNT: &str = "the mount {}";

/// `writeFile` to a directory (docs/TOOL.md#memories).
pub(crate) const WRITE_TO_DIRECTORY: &str = "Error: Cannot write {}: it is a directory";

/// `writeFile` to a path ending in `/` (docs/TOOL.md#memories).
pub(crate) const WRITE_TRAILING_SLASH: &str =
    "Error: Cannot write {}: a file path must not end with '/'";

/// `writeFile` done (docs/TOOL.md#memories).
pub(crate) const WROTE: &str = "Wrote {}";

/// The end of an input echoed in a result and cut at `ECHO_CHARS` characters: its whole length
/// (docs/TOOL.md#result-shape).
pub(crate) const ECHO_CUT: &str = "… [{} characters in all]";

/// The end of a list of line numbers cut at `LISTED_LINES`: how many there are
/// (docs/TOOL.md#str_replace).
pub(crate) const MORE_LINES: &str = ", … ({} in all)";

/// The end of a directory listing cut at the view limit: entries shown, entries in all
/// (docs/TOOL.md#output-limit).
pub(crate) const TRUNCATED_LISTING: &str =
    "\n[Truncated: showing {} of {} entries. View a directory inside it to list the rest.]";

/// The reason a write is refused by the secret filter, with the kind of credential; the model
/// reads `Error: Cannot write {path}: {reason}` (docs/TOOL.md#secret-filter).
pub(crate) const SECRET_REASON: &str =
    "the content looks like it holds {}; memories must not store secrets";

/// The reason a write is refused by the secret filter for its path (a key as a file or folder
/// name), with the kind of credential (docs/TOOL.md#secret-filter).
pub(crate) const SECRET_PATH_REASON: &str =
    "the path looks like it holds {}; memories must not store secrets";

/// A rename the host policy refused: old path, new path, reason (docs/TOOL.md#beforewrite).
pub(crate) const POLICY_REFUSED_RENAME: &str = "Error: Cannot rename {} to {}: {}";

/// A delete the host policy refused: the path, the reason (docs/TOOL.md#beforewrite).
pub(crate) const POLICY_REFUSED_DELETE: &str = "Error: Cannot delete {}: {}";

/// The reason when the policy answers a rename or delete with content (docs/TOOL.md#beforewrite).
pub(crate) const POLICY_NO_CONTENT: &str =
    "the write policy answered with content, but a rename or delete has none to rewrite";

/// The storage quota is full (docs/TOOL.md#storage-failures).
pub(crate) const STORAGE_QUOTA: &str =
    "Error: The memory could not be saved: the browser's storage quota is full. Nothing was changed.";

/// The store's database was deleted outside the package (docs/TOOL.md#storage-failures).
pub(crate) const STORAGE_VANISHED: &str = "Error: The memory store's data was deleted outside this tool; the user must restore or restart it. Nothing was changed.";

/// Any other failure of the storage (docs/TOOL.md#storage-failures).
pub(crate) const STORAGE_FAILED: &str =
    "Error: The memory store could not be reached. Nothing was changed.";
