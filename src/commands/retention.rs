//! The one retention model (docs/TOOL.md#retention): what keeps a text restorable, and for how
//! long, whoever or whatever made it stop being live. Pruning on open, `versions.prune()` and
//! the history budget all ask here; nothing else takes a version away.
//!
//! - A version stops being live when the next version of its memory is written (an edit, a
//!   rename, a delete by the model, the host, expiry, sync or repair). It stays restorable for
//!   the retention period counted from that moment, not from when it was written.
//! - The head of a live memory is live, and is never taken.
//! - A deleted memory's tombstone (its last version, a deletion) goes once the retention
//!   period has passed since the deletion, and with it the memory's history.
//! - A version that a sync conflict set aside (the local text the hosted one replaced) or that
//!   a restore brought back is kept (`kept_at`): by retention until the period has passed
//!   since, by the history budget always.
//!
//! Times are the versions' recorded times: the time stamped in their ids, which only grows
//! (a clock that goes back stamps the store's newest time), so a wrong clock never makes a
//! text look older than it is.

use crate::model::ids::version_id_time;
use crate::model::record::{Change, VersionRecord};
use std::collections::HashSet;

/// When a version was recorded: the later of its id's stamp and its `created_at`.
pub(crate) fn recorded_at(version: &VersionRecord) -> i64 {
    version_id_time(&version.id).map_or(version.created_at, |t| t.max(version.created_at))
}

/// The ids of the versions of `history` that are kept (`kept_at`: a conflict set them aside,
/// a restore brought them back). With `since`, only those kept at or after that time
/// (retention's rule); without, all of them (the budget's).
pub(crate) fn pinned<'v>(
    history: impl IntoIterator<Item = &'v VersionRecord>,
    since: Option<i64>,
) -> HashSet<String> {
    history
        .into_iter()
        .filter(|v| v.kept_at.is_some_and(|at| since.is_none_or(|t| at >= t)))
        .map(|v| v.id.clone())
        .collect()
}

/// Whether a memory is live, and its head if so (a record stored before versions existed has
/// none).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Liveness<'a> {
    Live(Option<&'a str>),
    Deleted,
}

/// The versions of one memory's history (every version of it, oldest first) that retention
/// takes at `cutoff` (the acting time less the retention period): each that stopped being live
/// before `cutoff`, and, for a deleted memory, a deletion made before it when it is the last
/// version. Never a live memory's head, never a pinned version.
pub(crate) fn expired<'h>(
    history: &'h [VersionRecord],
    liveness: Liveness<'_>,
    cutoff: i64,
) -> Vec<&'h VersionRecord> {
    let head = match liveness {
        Liveness::Live(head) => head,
        Liveness::Deleted => None,
    };
    let pins = pinned(history, Some(cutoff));
    let mut out = Vec::new();
    for (i, version) in history.iter().enumerate() {
        if Some(version.id.as_str()) == head || pins.contains(&version.id) {
            continue;
        }
        let gone = match history.get(i + 1) {
            // Superseded: restorable for the period from the moment it stopped being live.
            Some(next) => recorded_at(next) < cutoff,
            // The last version: a memory deleted that long ago goes whole; anything else (a
            // live head, a history whose end cannot be told) stays.
            None => {
                matches!(liveness, Liveness::Deleted)
                    && version.operation == Change::Deleted
                    && recorded_at(version) < cutoff
            }
        };
        if gone {
            out.push(version);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ids::{IdSource, VersionIds};

    const DAY: i64 = 86_400_000;
    const T0: i64 = 1_800_000_000_000;

    fn version(ids: &mut IdSource, at: i64, op: Change, by: &str) -> VersionRecord {
        let id = VersionIds::after(None, at).next(ids);
        VersionRecord {
            id,
            memory_id: "mem_a".into(),
            operation: op,
            path: Some("/a.md".into()),
            size: (op != Change::Deleted).then_some(1),
            sha256: None,
            content: (op != Change::Deleted).then(|| "k".into()),
            created_at: at,
            created_by: by.into(),
            redacted_at: None,
            kept_at: None,
        }
    }

    #[test]
    fn a_deleted_text_is_kept_for_the_period_from_its_deletion() {
        let mut ids = IdSource::new([1; 16]);
        let written = version(&mut ids, T0, Change::Created, "{}");
        let deleted = version(
            &mut ids,
            T0 + 40 * DAY,
            Change::Deleted,
            "{\"type\":\"expiry\"}",
        );
        let history = vec![written, deleted];
        // 40 days after it was written, just deleted: everything stays.
        assert!(expired(&history, Liveness::Deleted, T0 + 40 * DAY - 30 * DAY).is_empty());
        // 29 days after the deletion: still there.
        assert!(expired(&history, Liveness::Deleted, T0 + 69 * DAY - 30 * DAY).is_empty());
        // 31 days after: the memory goes whole.
        assert_eq!(
            expired(&history, Liveness::Deleted, T0 + 71 * DAY - 30 * DAY).len(),
            2
        );
    }

    #[test]
    fn a_pinned_version_stays_until_the_period_since_its_pin_has_passed() {
        let mut ids = IdSource::new([2; 16]);
        let old = version(&mut ids, T0, Change::Created, "{}");
        let next = version(&mut ids, T0 + DAY, Change::Modified, "{}");
        let third = version(&mut ids, T0 + 2 * DAY, Change::Modified, "{}");
        let old = VersionRecord {
            kept_at: Some(T0 + 50 * DAY),
            ..old
        };
        let pull = version(&mut ids, T0 + 50 * DAY, Change::Modified, "{}");
        let head = pull.id.clone();
        let history = vec![old.clone(), next.clone(), third.clone(), pull];
        let taken: Vec<&str> = expired(
            &history,
            Liveness::Live(Some(&head)),
            T0 + 60 * DAY - 30 * DAY,
        )
        .iter()
        .map(|v| v.id.as_str())
        .collect();
        assert_eq!(
            taken,
            vec![next.id.as_str()],
            "the pinned one stays, and the one after it"
        );
        let later: Vec<&str> = expired(
            &history,
            Liveness::Live(Some(&head)),
            T0 + 81 * DAY - 30 * DAY,
        )
        .iter()
        .map(|v| v.id.as_str())
        .collect();
        assert_eq!(
            later,
            vec![old.id.as_str(), next.id.as_str(), third.id.as_str()]
        );
        assert!(pinned(&history, None).contains(&old.id));
    }
}
