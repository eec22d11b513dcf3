//! What may be written (docs/TOOL.md#write-policy): the host's `beforeWrite` hook, asked as a read
//! inside the command's transaction, then the opt-in credential filter. Every write passes
//! here with its paths (creates, edits, renames, deletes, restores, every imported version),
//! from the tool, the host API and imports alike.

use super::rules::fail;
use crate::commands::Context;
use crate::format::render::fill;
use crate::format::texts;
use crate::model::error::ErrorCode;
use crate::model::secrets::{find_in_content, find_in_path};
use crate::protocol::{Decision, Read, Snapshot, Stop, WriteKind};
use std::borrow::Cow;

/// One write the policy is asked about.
pub(super) struct Ask<'a, 'b> {
    /// The store key written (the new one for a rename).
    pub(super) key: &'a str,
    pub(super) operation: WriteKind,
    /// The store key a rename leaves.
    pub(super) old_key: Option<&'a str>,
    /// The content about to be written (none for a rename or delete).
    pub(super) bytes: Option<&'b [u8]>,
}

/// The bytes to store at `key` (shown as `shown` in messages) by `operation`: `bytes`, or the
/// hook's rewrite of them; refused with a clear error when the policy says no.
pub(super) fn vet<'b>(
    key: &str,
    shown: &str,
    bytes: &'b [u8],
    operation: WriteKind,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Cow<'b, [u8]>, Stop> {
    vet_moved(key, None, shown, bytes, operation, cx, snap)
}

/// `vet` for content written where a memory moves from `old_key` (a `memories.update` with a
/// path and content).
pub(super) fn vet_moved<'b>(
    key: &str,
    old_key: Option<&str>,
    shown: &str,
    bytes: &'b [u8],
    operation: WriteKind,
    cx: &Context,
    snap: &Snapshot,
) -> Result<Cow<'b, [u8]>, Stop> {
    let ask = Ask {
        key,
        operation,
        old_key,
        bytes: Some(bytes),
    };
    let mut all = vet_all(&[ask], cx, snap, &|_, reason| {
        fill(texts::POLICY_REFUSED, &[shown, reason])
    })?;
    Ok(all.pop().flatten().unwrap_or(Cow::Borrowed(bytes)))
}

/// The policy on many writes at once, asked in one round: for each, the bytes to store (the
/// hook's rewrite, or the bytes as given; `None` for a write without content). `refusal`
/// words a refusal of one of them, with its reason.
pub(super) fn vet_all<'b>(
    asks: &[Ask<'_, 'b>],
    cx: &Context,
    snap: &Snapshot,
    refusal: &dyn Fn(&Ask<'_, 'b>, &str) -> String,
) -> Result<Vec<Option<Cow<'b, [u8]>>>, Stop> {
    let reads: Vec<Read> = if cx.config.write_hook {
        let source = cx.actor.source().to_string();
        asks.iter()
            .map(|ask| Read::Policy {
                path: cx.tool_path(ask.key),
                source: source.clone(),
                operation: ask.operation,
                old_path: ask.old_key.map(|k| cx.tool_path(k)),
                bytes: ask.bytes.map(<[u8]>::to_vec),
            })
            .collect()
    } else {
        Vec::new()
    };
    snap.need(reads.clone())?;
    let mut vetted = Vec::with_capacity(asks.len());
    for (i, ask) in asks.iter().enumerate() {
        vetted.push(decide(ask, reads.get(i), cx, snap, &|reason| {
            refusal(ask, reason)
        })?);
    }
    Ok(vetted)
}

/// Renames (old key → new key), asked of the hook in one round; shown in a refusal as
/// `shown_old` → `shown_new`.
pub(super) fn vet_moves(
    moves: &[(&str, &str)],
    shown_old: &str,
    shown_new: &str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<(), Stop> {
    let asks: Vec<Ask<'_, '_>> = moves
        .iter()
        .map(|(old, new)| Ask {
            key: new,
            operation: WriteKind::Rename,
            old_key: Some(old),
            bytes: None,
        })
        .collect();
    vet_all(&asks, cx, snap, &|_, reason| {
        fill(
            texts::POLICY_REFUSED_RENAME,
            &[shown_old, shown_new, reason],
        )
    })?;
    Ok(())
}

/// Deletes of `keys`, asked of the hook in one round; shown in a refusal as `shown`.
pub(super) fn vet_deletes(
    keys: &[&str],
    shown: &str,
    cx: &Context,
    snap: &Snapshot,
) -> Result<(), Stop> {
    let asks: Vec<Ask<'_, '_>> = keys
        .iter()
        .map(|key| Ask {
            key,
            operation: WriteKind::Delete,
            old_key: None,
            bytes: None,
        })
        .collect();
    vet_all(&asks, cx, snap, &|_, reason| {
        fill(texts::POLICY_REFUSED_DELETE, &[shown, reason])
    })?;
    Ok(())
}

fn decide<'b>(
    ask: &Ask<'_, 'b>,
    read: Option<&Read>,
    cx: &Context,
    snap: &Snapshot,
    refusal: &dyn Fn(&str) -> String,
) -> Result<Option<Cow<'b, [u8]>>, Stop> {
    let mut content = ask.bytes.map(Cow::Borrowed);
    if let Some(read) = read {
        match snap.decision(read) {
            Some(Decision::Refuse(reason)) => {
                return Err(fail(ErrorCode::PolicyRefused, refusal(reason)))
            }
            Some(Decision::Rewrite(rewritten)) => match content {
                Some(_) => content = Some(Cow::Owned(rewritten.clone())),
                // A rename or delete has no content to rewrite: content back is no decision.
                None => {
                    return Err(fail(
                        ErrorCode::PolicyRefused,
                        refusal(texts::POLICY_NO_CONTENT),
                    ))
                }
            },
            Some(Decision::Allow) | None => {}
        }
    }
    if cx.config.secret_filter {
        // docs/TOOL.md#secret-filter: the path every write but a delete puts a memory at, and
        // the content as stored (after the hook's rewrite), in every decoding it has.
        let in_path = (ask.operation != WriteKind::Delete)
            .then(|| find_in_path(ask.key))
            .flatten()
            .map(|kind| fill(texts::SECRET_PATH_REASON, &[kind]));
        let in_content = || {
            content
                .as_deref()
                .and_then(find_in_content)
                .map(|kind| fill(texts::SECRET_REASON, &[kind]))
        };
        if let Some(reason) = in_path.or_else(in_content) {
            return Err(fail(ErrorCode::PolicyRefused, refusal(&reason)));
        }
    }
    Ok(content)
}
