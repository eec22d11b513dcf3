//! `view` (docs/TOOL.md#view): directory listings, numbered text, ranges, images and binaries.

use super::rules::fail;
use crate::commands::Context;
use crate::format::json::JsonNumber;
use crate::format::listing::{cut_listing, render_directory};
use crate::format::render::echo;
use crate::format::render::{base64, decimal, fill, format_size, numbered_lines, signed};
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::path::MemoryPath;
use crate::protocol::{Content, Outcome, Read, Snapshot, Stop};

/// How precisely a memory's last use is kept: a view records it only when the last use it
/// knows is this old (one day).
pub(crate) const USE_PRECISION_MS: i64 = 86_400_000;

/// Files with more lines than this are not shown.
const MAX_LINES: usize = 999_999;

pub(super) fn run(
    path: &MemoryPath,
    view_range: Option<&[JsonNumber; 2]>,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Outcome, Stop> {
    let key = path.key();
    if path.is_root() {
        snap.need(vec![Read::Listing(String::new())])?;
        return Ok(Outcome::text(
            cut_listing(
                render_directory(path.raw(), &cx.mount_prefix, "", snap.listing("")),
                cx.config.max_view_chars,
            ),
            vec![],
        ));
    }
    // The record and, found by the file key alone, its head's bytes: a view of a file is one
    // round (a head written before its key named its path, or one a rename moved, costs a
    // second); a directory's listing costs a second round.
    snap.need(vec![Read::File(key.into()), Read::HeadContent(key.into())])?;
    if let Some(record) = snap.file(key) {
        snap.need(vec![Read::Content(record.content.clone())])?;
        let bytes = snap.content(&record.content).unwrap_or_default();
        let mut outcome = view_file(path, bytes, view_range, cx)?;
        // Its last use, to a day's precision: at most one write per memory per day.
        if cx.now.saturating_sub(record.last_used()) >= USE_PRECISION_MS {
            outcome.touched.push(key.to_string());
        }
        return Ok(outcome);
    }
    snap.need(vec![Read::Listing(key.into())])?;
    let below = snap.listing(key);
    if below.is_empty() {
        return Err(fail(
            ErrorCode::NotFound,
            fill(texts::VIEW_NOT_FOUND, &[path.raw()]),
        ));
    }
    Ok(Outcome::text(
        cut_listing(
            render_directory(path.raw(), &cx.tool_path(key), key, below),
            cx.config.max_view_chars,
        ),
        vec![],
    ))
}

fn view_file(
    path: &MemoryPath,
    bytes: &[u8],
    view_range: Option<&[JsonNumber; 2]>,
    cx: &Context,
) -> Result<Outcome, Stop> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        if let Some(media_type) = image_type(bytes) {
            let mut outcome = Outcome::text("", vec![]);
            outcome.content = Content::Image {
                media_type,
                data: base64(bytes),
            };
            return Ok(outcome);
        }
        return Err(fail(
            ErrorCode::NotText,
            fill(
                texts::VIEW_BINARY,
                &[path.raw(), &format_size(bytes.len() as u64)],
            ),
        ));
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len();
    if n > MAX_LINES {
        return Err(fail(
            ErrorCode::TooManyLines,
            fill(texts::VIEW_TOO_MANY_LINES, &[path.raw()]),
        ));
    }
    let (first, last) = match view_range {
        None => (1, n),
        Some(range) => resolve_range(range, n)?,
    };
    let shown = lines.get(first - 1..last).unwrap_or_default();
    let body = numbered_lines(shown, first, n, cx.config.max_view_chars);
    Ok(Outcome::text(
        fill(texts::VIEW_FILE, &[path.raw(), &body]),
        vec![],
    ))
}

/// Resolves `[start, end]` to 1-based inclusive lines, or the text editor tool's errors.
fn resolve_range([start, end]: &[JsonNumber; 2], n: usize) -> Result<(usize, usize), Stop> {
    let count = n as i64;
    let (start_value, end_value) = (start.integer.unwrap_or(1), end.integer.unwrap_or(-1));
    let first = start_value.max(1);
    let last = match end_value {
        -1 => count,
        e if e < 0 => count.saturating_add(e).max(0),
        e => e.min(count),
    };
    // A number below 1 is shown with the line it stands for.
    let mention = |sent: &JsonNumber, value: i64, line: i64| {
        if value < 1 {
            fill("`{}` (line {})", &[&sent.shown(), &signed(line)])
        } else {
            fill("`{}`", &[&sent.shown()])
        }
    };
    let shown = fill("[{}, {}]", &[&start.shown(), &end.shown()]);
    if first > count {
        return Err(fail(
            ErrorCode::InvalidRange,
            fill(
                texts::VIEW_RANGE_START,
                &[
                    &echo(&shown),
                    &echo(&mention(start, start_value, first)),
                    &decimal(n as u64),
                ],
            ),
        ));
    }
    if last < first {
        return Err(fail(
            ErrorCode::InvalidRange,
            fill(
                texts::VIEW_RANGE_ORDER,
                &[
                    &echo(&shown),
                    &echo(&mention(end, end_value, last)),
                    &echo(&mention(start, start_value, first)),
                ],
            ),
        ));
    }
    Ok((first as usize, last as usize))
}

/// The image type of binary content, by signature.
fn image_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        Some("image/webp")
    } else {
        None
    }
}
