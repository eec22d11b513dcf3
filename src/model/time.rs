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

/// Parses RFC 3339 UTC time (`2026-11-29T21:41:14Z`, with optional fraction, `Z` or
/// `+00:00`) to epoch milliseconds.
pub(crate) fn parse_rfc3339(text: &str) -> Option<i64> {
    let text = text
        .strip_suffix('Z')
        .or_else(|| text.strip_suffix("+00:00"))?;
    let (date, time) = text.split_once('T')?;
    let mut date_parts = date.splitn(3, '-');
    let year: i64 = date_parts.next()?.parse().ok()?;
    let month: i64 = date_parts.next()?.parse().ok()?;
    let day: i64 = date_parts.next()?.parse().ok()?;
    let (clock, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut clock_parts = clock.splitn(3, ':');
    let hour: i64 = clock_parts.next()?.parse().ok()?;
    let minute: i64 = clock_parts.next()?.parse().ok()?;
    let second: i64 = clock_parts.next()?.parse().ok()?;
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // The first three digits, padded on the right with zeros: milliseconds.
    let head = fraction.as_bytes();
    let millis = (0..3).fold(0i64, |value, i| {
        value * 10 + head.get(i).map_or(0, |b| i64::from(b - b'0'))
    });
    // Howard Hinnant's days-from-civil algorithm.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
}
