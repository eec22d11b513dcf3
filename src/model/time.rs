//! RFC 3339 times, written and read.

use crate::format::render::push_zero_padded;

/// Epoch milliseconds as the civil date and time: year, month, day and milliseconds into
/// the day (proleptic Gregorian, UTC; Howard Hinnant's days-to-civil algorithm).
pub(crate) fn civil(ms: i64) -> (i64, i64, i64, i64) {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rem)
}

/// Epoch milliseconds as RFC 3339 UTC with milliseconds: `2026-11-29T21:41:14.000Z`.
pub(crate) fn rfc3339(ms: i64) -> String {
    let (year, month, day, rem) = civil(ms);
    // As `{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z` would write it (a negative
    // year keeps its sign in the four columns); all but the year are below 1000 and not negative.
    let mut out = String::with_capacity(24);
    if year < 0 {
        out.push('-');
        push_zero_padded(&mut out, year.unsigned_abs(), 3);
    } else {
        push_zero_padded(&mut out, year as u64, 4);
    }
    for (separator, value, width) in [
        ('-', month, 2),
        ('-', day, 2),
        ('T', rem / 3_600_000, 2),
        (':', rem / 60_000 % 60, 2),
        (':', rem / 1000 % 60, 2),
        ('.', rem % 1000, 3),
    ] {
        out.push(separator);
        push_zero_padded(&mut out, value as u64, width);
    }
    out.push('Z');
    out
}

/// Reads an RFC 3339 date-time (RFC 3339 section 5.6) to epoch milliseconds, or `None`:
/// `YYYY-MM-DDTHH:MM:SS`, an optional `.` and one or more digits, then `Z` or `±HH:MM`, with
/// exactly those widths (`t` and `z` may be lowercase). The day must exist (Gregorian leap
/// years: 2024-02-29 and 2000-02-29, not 2026-02-29 or 2100-02-29); hours are 00–23, minutes
/// 00–59, offsets within ±23:59 (`-00:00` is UTC). Digits past milliseconds are dropped.
///
/// Second 60 is a leap second, accepted only at 23:59:60 UTC (so `15:59:60-08:00` too); it
/// reads as 23:59:59.999 UTC, the day's last millisecond, so times keep their order.
///
/// Years are the four digits 0000–9999: [`rfc3339`] writes other years only for times no
/// host clock gives, and those are not read back.
pub(crate) fn parse_rfc3339(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let number = |at: usize, width: usize| -> Option<i64> {
        bytes
            .get(at..at + width)?
            .iter()
            .try_fold(0i64, |value, &b| {
                b.is_ascii_digit().then(|| value * 10 + i64::from(b - b'0'))
            })
    };
    let is = |at: usize, allowed: &[u8]| bytes.get(at).is_some_and(|b| allowed.contains(b));
    let separators = [(4, b"-"), (7, b"-"), (13, b":"), (16, b":")];
    if !separators.iter().all(|(at, c)| is(*at, *c)) || !is(10, b"Tt") {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
    let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
    let mut at = 19;
    let mut millis = 0;
    if is(at, b".") {
        let digits = bytes.get(at + 1..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        });
        if digits == 0 {
            return None;
        }
        // The first three digits, padded on the right with zeros: milliseconds.
        millis = (0..3).try_fold(0i64, |value, i| {
            Some(
                value * 10
                    + if i < digits {
                        number(at + 1 + i, 1)?
                    } else {
                        0
                    },
            )
        })?;
        at += 1 + digits;
    }
    // Minutes east of UTC.
    let offset = match bytes.get(at..) {
        Some([b'Z' | b'z']) => 0,
        Some([sign @ (b'+' | b'-'), _, _, b':', _, _]) => {
            let (hours, minutes) = (number(at + 1, 2)?, number(at + 4, 2)?);
            if hours > 23 || minutes > 59 {
                return None;
            }
            let sign = if *sign == b'-' { -1 } else { 1 };
            sign * (hours * 60 + minutes)
        }
        _ => return None,
    };
    if !(1..=12).contains(&month)
        || !(1..=days_in_month(year, month)).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let minute_of_day = hour * 60 + minute - offset;
    let (second, millis) = match second {
        60 if minute_of_day.rem_euclid(1440) == 1439 => (59, 999),
        60 => return None,
        _ => (second, millis),
    };
    // Howard Hinnant's days-from-civil algorithm.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 1440 + minute_of_day) * 60_000 + second * 1000 + millis)
}

/// The days in `month` (1–12) of `year`, proleptic Gregorian.
fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rfc_3339_date_times() {
        const TIME: i64 = 1_795_988_474_000; // 2026-11-29T21:41:14Z
        const MIDNIGHT: i64 = 1_795_910_400_000; // 2026-11-29T00:00:00Z
        const LEAP: i64 = 1_483_228_799_999; // 2016-12-31T23:59:59.999Z
        let cases = [
            ("2026-11-29T21:41:14Z", TIME),
            ("2026-11-29t21:41:14z", TIME),
            ("2026-11-29T21:41:14+00:00", TIME),
            ("2026-11-29T21:41:14-00:00", TIME),
            ("2026-11-29T22:41:14+01:00", TIME),
            ("2026-11-30T05:41:14+08:00", TIME),
            ("2026-11-29T13:41:14-08:00", TIME),
            ("2026-11-29T16:11:14-05:30", TIME),
            ("2026-11-29T21:41:14.5Z", TIME + 500),
            ("2026-11-29T21:41:14.000Z", TIME),
            ("2026-11-29T21:41:14.123456789Z", TIME + 123),
            ("2026-11-29T00:00:00+23:59", MIDNIGHT - 1439 * 60_000),
            ("2026-11-29T00:00:00-23:59", MIDNIGHT + 1439 * 60_000),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59.999Z", -1),
            ("2000-02-29T00:00:00Z", 951_782_400_000),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000),
            ("2026-12-31T00:00:00Z", 1_798_675_200_000),
            ("0000-01-01T00:00:00Z", -62_167_219_200_000),
            ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
            ("2016-12-31T23:59:60Z", LEAP),
            ("2016-12-31T23:59:60.5Z", LEAP),
            ("2016-12-31T15:59:60-08:00", LEAP),
            ("2017-01-01T00:59:60+01:00", LEAP),
        ];
        for (text, ms) in cases {
            assert_eq!(parse_rfc3339(text), Some(ms), "{text}");
        }
    }

    #[test]
    fn refuses_everything_else() {
        let cases = [
            "",
            "yesterday",
            "2026-11-29",
            "2026-11-29T21:41Z",
            "2026-11-29T21:41:14",
            "2026-02-31T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2100-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-13-29T21:41:14Z",
            "2026-00-10T00:00:00Z",
            "2026-01-00T00:00:00Z",
            "2026-01-32T00:00:00Z",
            "2026-1-5T1:2:3Z",
            "2026-01-05T01:02:3Z",
            "26-01-05T01:02:03Z",
            "+2026-11-29T21:41:14Z",
            "-2026-11-29T21:41:14Z",
            "02026-11-29T21:41:14Z",
            "10000-01-01T00:00:00.000Z",
            "-001-12-31T23:59:59.999Z",
            " 2026-11-29T21:41:14Z",
            "2026-11-29T21:41:14Z ",
            "2026-11-29 21:41:14Z",
            "2026-11-29_21:41:14Z",
            "2026/11/29T21:41:14Z",
            "2026-11-29T21.41.14Z",
            "2026-11-29T24:00:00Z",
            "2026-11-29T21:60:00Z",
            "2026-11-29T21:41:61Z",
            "2026-11-29T12:00:60Z",
            "2026-12-31T23:59:60+01:00",
            "2026-11-29T21:41:14.Z",
            "2026-11-29T21:41:14.5.5Z",
            "2026-11-29T21:41:14,5Z",
            "2026-11-29T21:41:14.-5Z",
            "2026-11-29T21:41:14ZZ",
            "2026-11-29T21:41:14UTC",
            "2026-11-29T21:41:14+01",
            "2026-11-29T21:41:14+0100",
            "2026-11-29T21:41:14+1:00",
            "2026-11-29T21:41:14+01:00:00",
            "2026-11-29T21:41:14+24:00",
            "2026-11-29T21:41:14+01:60",
            "2026-11-29T21:41:14+-1:00",
            "2026-11-29T21:41:14Z+01:00",
            "２０２６-11-29T21:41:14Z",
            "2026-11-29T21:41:1４Z",
        ];
        for text in cases {
            assert_eq!(parse_rfc3339(text), None, "{text:?}");
        }
    }

    #[test]
    fn reads_back_what_it_writes() {
        let mut ms: i64 = -62_167_219_200_000;
        while ms < 253_402_300_800_000 {
            assert_eq!(parse_rfc3339(&rfc3339(ms)), Some(ms), "{ms}");
            ms += 987_654_321_987;
        }
    }
}
