//! Times written in protocol text, read the same way by USI and CECP: a number of
//! milliseconds (USI's `btime`, `byoyomi`, `movetime`…), centiseconds (CECP's `time` and
//! `otim`), seconds with or without a fraction (`st`, the increment of `level`) or minutes,
//! alone or as `MIN:SEC` (the base of `level`).
//!
//! Every value is clamped instead of refused or overflowed: a negative time is no time, a
//! time longer than [`LONGEST_TIME`] (about 31,700 years, infinity included) is that, and
//! fractions are rounded to the nearest millisecond. Only text that is not a number (`x`,
//! `NaN`, an empty word) is refused, with `None`; the caller says so.

use std::time::Duration;

/// The longest time any protocol value stands for: 10^15 ms. Far beyond any game, and small
/// enough that adding a few of them, or one to `Instant::now()`, never overflows.
pub const LONGEST_TIME: Duration = Duration::from_millis(LONGEST_MS);

const LONGEST_MS: u64 = 1_000_000_000_000_000;

/// The unit a protocol writes a time in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    Millis,
    Centis,
    Seconds,
    Minutes,
}

impl TimeUnit {
    fn millis(self) -> f64 {
        match self {
            TimeUnit::Millis => 1.0,
            TimeUnit::Centis => 10.0,
            TimeUnit::Seconds => 1_000.0,
            TimeUnit::Minutes => 60_000.0,
        }
    }
}

/// Reads a number of `unit`s (`250`, `-5`, `0.3`, `1e300`, `inf`), clamped to
/// 0..=[`LONGEST_TIME`] and rounded to the millisecond; `None` if it is not a number.
pub fn parse_time(text: &str, unit: TimeUnit) -> Option<Duration> {
    let value: f64 = text.trim().parse().ok()?;
    if value.is_nan() {
        return None;
    }
    // `clamp` keeps infinities finite; the product of a huge value and the unit may be
    // infinite and is clamped the same way.
    let ms = (value * unit.millis())
        .clamp(0.0, LONGEST_MS as f64)
        .round();
    Some(Duration::from_millis(ms as u64))
}

/// Reads a time in minutes (`5`, `0.5`) or minutes and seconds (`40:30`, each part read as
/// by [`parse_time`]), clamped to 0..=[`LONGEST_TIME`].
pub fn parse_minutes_seconds(text: &str) -> Option<Duration> {
    match text.trim().split_once(':') {
        Some((minutes, seconds)) => {
            let minutes = parse_time(minutes, TimeUnit::Minutes)?;
            let seconds = parse_time(seconds, TimeUnit::Seconds)?;
            Some((minutes + seconds).min(LONGEST_TIME))
        }
        None => parse_time(text, TimeUnit::Minutes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn each_unit_scales_to_milliseconds() {
        assert_eq!(parse_time("250", TimeUnit::Millis), ms(250));
        assert_eq!(parse_time("250", TimeUnit::Centis), ms(2_500));
        assert_eq!(parse_time("0.5", TimeUnit::Seconds), ms(500));
        assert_eq!(parse_time("0.1", TimeUnit::Seconds), ms(100));
        assert_eq!(parse_time("2", TimeUnit::Minutes), ms(120_000));
        assert_eq!(parse_time(" 7 ", TimeUnit::Seconds), ms(7_000));
        assert_eq!(parse_time("+3", TimeUnit::Millis), ms(3));
        assert_eq!(parse_time("0.9", TimeUnit::Millis), ms(1));
        assert_eq!(parse_time("1.5", TimeUnit::Centis), ms(15));
    }

    #[test]
    fn out_of_range_values_are_clamped() {
        let longest = Some(LONGEST_TIME);
        for unit in [
            TimeUnit::Millis,
            TimeUnit::Centis,
            TimeUnit::Seconds,
            TimeUnit::Minutes,
        ] {
            for huge in [
                "1e300",
                "1e18",
                "99999999999999999999",
                "18446744073709551616",
                "1e400",
                "inf",
                "+infinity",
                "1.7976931348623157e308",
            ] {
                assert_eq!(parse_time(huge, unit), longest, "{huge} {unit:?}");
            }
            for below in [
                "-5",
                "-0",
                "-1e300",
                "-inf",
                "-99999999999999999999",
                "1e-300",
            ] {
                assert_eq!(parse_time(below, unit), ms(0), "{below} {unit:?}");
            }
            for junk in ["", "x", "NaN", "nan", "-nan", "1_000", "0x10", "5s", "1:2"] {
                assert_eq!(parse_time(junk, unit), None, "{junk:?} {unit:?}");
            }
        }
        // The largest exact value is kept exactly.
        assert_eq!(parse_time("1000000000000000", TimeUnit::Millis), longest);
        assert_eq!(
            parse_time("999999999999999", TimeUnit::Millis),
            ms(999_999_999_999_999)
        );
    }

    #[test]
    fn minutes_alone_or_with_seconds() {
        assert_eq!(parse_minutes_seconds("5"), ms(300_000));
        assert_eq!(parse_minutes_seconds("0.5"), ms(30_000));
        assert_eq!(parse_minutes_seconds("40:30"), ms(2_430_000));
        assert_eq!(parse_minutes_seconds("0:01"), ms(1_000));
        assert_eq!(parse_minutes_seconds("0:0.5"), ms(500));
        assert_eq!(parse_minutes_seconds("1e300"), Some(LONGEST_TIME));
        assert_eq!(parse_minutes_seconds("1e18"), Some(LONGEST_TIME));
        assert_eq!(parse_minutes_seconds("1e300:1e300"), Some(LONGEST_TIME));
        assert_eq!(parse_minutes_seconds("-3:20"), ms(20_000));
        for junk in [":", "1:", ":5", "1:2:3", "a:5", "5:b", "NaN:1", ""] {
            assert_eq!(parse_minutes_seconds(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn the_longest_time_can_be_added_to_now_and_to_itself() {
        let later = std::time::Instant::now() + LONGEST_TIME * 4;
        assert!(later > std::time::Instant::now());
    }
}
