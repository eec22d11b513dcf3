//! The clock a store's housekeeping trusts (docs/TOOL.md#a-clock-that-can-be-trusted):
//! pruning and expiry on open act on a time that an earlier open of the store also saw, so a
//! device clock that is wrong for one visit prunes and expires nothing it would not have with
//! the right time.

use crate::format::json::{Json, ObjectWriter};

/// How long after an open a later one is no new evidence of the time: opens in quick
/// succession (two tabs, a page that opens twice) agree because they share one wrong clock.
pub(crate) const CORROBORATION_MS: i64 = 10 * 60 * 1000;

/// What a store remembers of the time, written by each open's housekeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreClock {
    /// The device clock the last counted open saw (epoch ms).
    pub seen: i64,
    /// The time that open's housekeeping acted at: at most `seen`.
    pub acting: i64,
    /// That open saw the clock behind the one before it: a visit whose writes are stamped with
    /// the newest time the store knows, which may be well before the truth, so its expiry,
    /// whose deletions would be stamped so, deletes nothing.
    pub behind: bool,
}

impl StoreClock {
    /// An open at device time `now`: the time its housekeeping acts at, and the record it
    /// leaves. `previous` is the record the last open left; `newest_recorded` the newest time
    /// the store has recorded (its newest version), for a store no open has counted yet.
    ///
    /// - The time acted at is the clock a previous open saw, never later than `now`: a clock
    ///   that jumps forward for one open is acted on only if the next open still sees it.
    /// - An open within `CORROBORATION_MS` of the last counted one (by the clock it sees) keeps
    ///   the record as it is and acts as that open did: it is no second witness.
    /// - A clock that went back acts at `now` (less is pruned; nothing is lost), and the record
    ///   says the visit is `behind`.
    pub fn open(
        previous: Option<StoreClock>,
        newest_recorded: Option<i64>,
        now: i64,
    ) -> (i64, StoreClock) {
        match previous {
            None => {
                let acting = newest_recorded.map_or(now, |t| t.min(now));
                let behind = newest_recorded.is_some_and(|t| now < t);
                (
                    acting,
                    StoreClock {
                        seen: now,
                        acting,
                        behind,
                    },
                )
            }
            Some(p) if now >= p.seen && now - p.seen < CORROBORATION_MS => (p.acting.min(now), p),
            Some(p) => {
                let acting = p.seen.min(now);
                let behind = now < p.seen;
                (
                    acting,
                    StoreClock {
                        seen: now,
                        acting,
                        behind,
                    },
                )
            }
        }
    }

    /// The time a housekeeping step later in the same visit acts at (the background expiry):
    /// what the visit's open acted at, never later than `now`; `now` itself for a store no
    /// open has counted yet but that has recorded nothing either.
    /// `None` when that open saw the clock go back: then nothing is due.
    pub fn acting_at(
        record: Option<StoreClock>,
        newest_recorded: Option<i64>,
        now: i64,
    ) -> Option<i64> {
        match record {
            Some(r) if r.behind || now < r.seen => None,
            Some(r) => Some(r.acting.min(now)),
            None if newest_recorded.is_some_and(|t| now < t) => None,
            None => Some(newest_recorded.map_or(now, |t| t.min(now))),
        }
    }

    /// Reads `{"seen": ms, "acting": ms}`; `None` for anything else.
    pub fn from_json(json: &Json) -> Option<StoreClock> {
        let seen = json.get("seen")?.as_integer()?;
        let acting = json.get("acting")?.as_integer()?;
        Some(StoreClock {
            seen,
            acting: acting.min(seen),
            behind: json
                .field("behind")
                .and_then(Json::as_bool)
                .unwrap_or(false),
        })
    }

    /// Appends `{"seen": ms, "acting": ms}`.
    pub fn write_json(&self, out: &mut String) {
        let mut object = ObjectWriter::new(out);
        object.int("seen", self.seen).int("acting", self.acting);
        if self.behind {
            object.raw("behind", "true");
        }
        object.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;

    #[test]
    fn a_clock_wrong_for_one_open_is_never_acted_on() {
        let t0 = 1_800_000_000_000;
        let (acting, kept) = StoreClock::open(None, Some(t0), t0);
        assert_eq!(acting, t0);
        // One open 120 days ahead: acts at the last open's time.
        let (acting, wrong) = StoreClock::open(Some(kept), None, t0 + 120 * DAY);
        assert_eq!(acting, t0);
        // The clock is put right: acts at the right time, and forgets the wrong one.
        let right = t0 + DAY;
        let (acting, after) = StoreClock::open(Some(wrong), None, right);
        assert_eq!(acting, right);
        assert_eq!(after.seen, right);
    }

    #[test]
    fn a_user_who_was_away_is_caught_up_at_the_second_open() {
        let t0 = 1_800_000_000_000;
        let (_, first) = StoreClock::open(None, None, t0);
        let back = t0 + 60 * DAY;
        let (acting, second) = StoreClock::open(Some(first), None, back);
        assert_eq!(acting, t0);
        let (acting, _) = StoreClock::open(Some(second), None, back + DAY);
        assert_eq!(acting, back);
    }

    #[test]
    fn opens_in_quick_succession_are_one_witness() {
        let t0 = 1_800_000_000_000;
        let (_, first) = StoreClock::open(None, None, t0);
        let wrong = t0 + 120 * DAY;
        let (_, second) = StoreClock::open(Some(first), None, wrong);
        // A second open a minute later, same wrong clock: still acts at t0.
        let (acting, third) = StoreClock::open(Some(second), None, wrong + 60_000);
        assert_eq!(acting, t0);
        assert_eq!(third, second);
    }

    #[test]
    fn acting_is_never_later_than_now() {
        let t0 = 1_800_000_000_000;
        let (_, record) = StoreClock::open(None, None, t0);
        let (acting, _) = StoreClock::open(Some(record), None, t0 - DAY);
        assert_eq!(acting, t0 - DAY);
        // A clock behind expires nothing.
        assert_eq!(StoreClock::acting_at(Some(record), None, t0 - DAY), None);
        let (_, behind) = StoreClock::open(Some(record), None, t0 - DAY);
        assert!(behind.behind);
        assert_eq!(
            StoreClock::acting_at(Some(behind), None, t0 - DAY + 1),
            None
        );
        assert_eq!(StoreClock::open(None, Some(t0 + DAY), t0).0, t0);
    }
}
