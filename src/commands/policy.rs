//! What may be written (docs/TOOL.md#write-policy): the host's `beforeWrite` hook, asked as a read
//! inside the command's transaction, then the opt-in credential filter. Every write of new
//! content passes here, from the tool, the host API and imports alike.

use super::rules::fail;
use crate::commands::Context;
use crate::format::json::Json;
use crate::format::render::fill;
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::secrets::find_credential;
use crate::protocol::{Decision, Read, Snapshot, Stop};
use std::borrow::Cow;

/// Who is writing, for the hook: `tool`, `api` or `import` (the actor's `type`).
fn source(cx: &Context) -> String {
    Json::parse(&cx.actor)
        .and_then(|a| a.get("type").and_then(Json::as_str).map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string())
}

/// The bytes to store at `key` (shown as `shown` in messages): `bytes`, or the hook's
/// rewrite of them; refused with a clear error when the policy says no.
pub(super) fn vet<'b>(
    key: &str,
    shown: &str,
    bytes: &'b [u8],
    cx: &Context,
    snap: &Snapshot,
) -> Result<Cow<'b, [u8]>, Stop> {
    let mut all = vet_all(&[(key, shown, bytes)], cx, snap)?;
    Ok(all.pop().unwrap_or(Cow::Borrowed(bytes)))
}

/// `vet` for many writes at once: the hook is asked about all of them in one round.
pub(super) fn vet_all<'b>(
    writes: &[(&str, &str, &'b [u8])],
    cx: &Context,
    snap: &Snapshot,
) -> Result<Vec<Cow<'b, [u8]>>, Stop> {
    let reads: Vec<Read> = if cx.config.write_hook {
        let source = source(cx);
        writes
            .iter()
            .map(|(key, _, bytes)| Read::Policy {
                path: cx.tool_path(key),
                source: source.clone(),
                bytes: bytes.to_vec(),
            })
            .collect()
    } else {
        Vec::new()
    };
    snap.need(reads.clone())?;
    let mut vetted = Vec::with_capacity(writes.len());
    for (i, (_, shown, bytes)) in writes.iter().enumerate() {
        vetted.push(decide(shown, bytes, reads.get(i), cx, snap)?);
    }
    Ok(vetted)
}

fn decide<'b>(
    shown: &str,
    bytes: &'b [u8],
    read: Option<&Read>,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Cow<'b, [u8]>, Stop> {
    let mut content = Cow::Borrowed(bytes);
    if let Some(read) = read {
        match snap.decision(read) {
            Some(Decision::Refuse(reason)) => {
                return Err(fail(
                    ErrorCode::PolicyRefused,
                    fill(texts::POLICY_REFUSED, &[shown, reason]),
                ))
            }
            Some(Decision::Rewrite(rewritten)) => content = Cow::Owned(rewritten.clone()),
            Some(Decision::Allow) | None => {}
        }
    }
    if cx.config.secret_filter {
        if let Some(kind) = std::str::from_utf8(&content).ok().and_then(find_credential) {
            return Err(fail(
                ErrorCode::PolicyRefused,
                fill(texts::SECRET_REFUSED, &[shown, kind]),
            ));
        }
    }
    Ok(content)
}
