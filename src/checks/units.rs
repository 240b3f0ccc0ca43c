//! The unit a check's value is in. This module owns the order in which it is decided: the
//! check's own `unit` key, then the registry's `[[field]]` table for the field the check
//! reads, then the field's name (`ttft_s` is in seconds, `host_us` in microseconds). Judging
//! the value against the quoted unit is `checks::judge`'s job, not this module's.

use std::collections::BTreeMap;

use crate::article::numbers::Unit;

/// Field name → the unit its values are in, from the registry's `[[field]]` tables.
pub(crate) type FieldUnits = BTreeMap<String, Unit>;

/// The unit of `field`'s values: as the registry declares it, else as its name says.
pub(crate) fn of_field(fields: &FieldUnits, field: &str) -> Option<Unit> {
    fields.get(field).cloned().or_else(|| from_suffix(field))
}

/// The unit a field's name declares by its suffix: `_s`, `_sec` and `_seconds` are seconds,
/// `_ms`, `_us` and `_ns` the smaller time units. A rate (`tokens_per_s`,
/// `request_output_throughput_token_per_s`) ends like a time but is not one, so `_per_s`,
/// `_per_sec` and `_per_second` declare no unit. A time per something else is a time: the
/// go-bench reader names Go's own metrics `user-ns/op` and `ns/GC` `user_ns_per_op` and
/// `ns_per_gc`, which hold nanoseconds.
pub(crate) fn from_suffix(field: &str) -> Option<Unit> {
    if let Some((amount, per)) = field.rsplit_once("_per_")
        && !["s", "sec", "second"].contains(&per)
        && let Some(unit) = time_suffix(&format!("_{amount}"))
    {
        return Some(unit);
    }
    // The go-bench reader's names for Go's `B/op` and `MB/s`, and byte counts named so.
    if field == "bytes" || field.ends_with("_bytes") || field == "bytes_per_op" {
        return Some(Unit::Bytes);
    }
    if field == "mb_per_s" || field.ends_with("_mb_per_s") {
        return Some(Unit::MbPerS);
    }
    // The ncu reader names a metric's base unit so: bytes per second, and a percentage.
    if field == "bytes_per_s" || field.ends_with("_bytes_per_s") {
        return Some(Unit::BPerS);
    }
    if field.ends_with("_pct") || field.ends_with("_percent") {
        return Some(Unit::Percent);
    }
    if field.ends_with("_hz") {
        return Some(Unit::Hz);
    }
    if ["_per_s", "_per_sec", "_per_second"].iter().any(|rate| field.ends_with(rate)) {
        return None;
    }
    time_suffix(field)
}

/// The time unit `field` ends in, by its suffix.
fn time_suffix(field: &str) -> Option<Unit> {
    let suffixes: [(&str, Unit); 6] = [("_seconds", Unit::S), ("_sec", Unit::S), ("_s", Unit::S), ("_ms", Unit::Ms), ("_us", Unit::Us), ("_ns", Unit::Ns)];
    suffixes.into_iter().find(|(suffix, _)| field.ends_with(suffix)).map(|(_, unit)| unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_name_time_units() {
        assert_eq!(from_suffix("ttft_s"), Some(Unit::S));
        assert_eq!(from_suffix("end_to_end_latency_seconds"), Some(Unit::S));
        assert_eq!(from_suffix("wall_sec"), Some(Unit::S));
        assert_eq!(from_suffix("gap_ms"), Some(Unit::Ms));
        assert_eq!(from_suffix("host_us"), Some(Unit::Us));
        assert_eq!(from_suffix("gap_ns"), Some(Unit::Ns));
    }

    #[test]
    fn go_s_bytes_and_byte_rates_have_their_units() {
        assert_eq!(from_suffix("bytes_per_op"), Some(Unit::Bytes));
        assert_eq!(from_suffix("peak_bytes"), Some(Unit::Bytes));
        assert_eq!(from_suffix("mb_per_s"), Some(Unit::MbPerS));
        assert_eq!(from_suffix("allocs_per_op"), None);
        assert_eq!(from_suffix("memory_throughput_bytes_per_s"), Some(Unit::BPerS));
        assert_eq!(from_suffix("dram_throughput_pct"), Some(Unit::Percent));
        assert_eq!(from_suffix("sm_frequency_hz"), Some(Unit::Hz));
    }

    /// Go's metrics that are times per something (`user-ns/op`, `ns/GC`) are times.
    #[test]
    fn a_time_per_something_is_a_time() {
        assert_eq!(from_suffix("user_ns_per_op"), Some(Unit::Ns));
        assert_eq!(from_suffix("ns_per_gc"), Some(Unit::Ns));
        assert_eq!(from_suffix("wall_ms_per_request"), Some(Unit::Ms));
        assert_eq!(from_suffix("sec_per_op"), Some(Unit::S));
        assert_eq!(from_suffix("ns_per_s"), None, "a time per second is a fraction, not a time");
        assert_eq!(from_suffix("frames_per_op"), None);
    }

    #[test]
    fn a_rate_or_a_plain_name_has_no_unit() {
        assert_eq!(from_suffix("tokens_per_s"), None);
        assert_eq!(from_suffix("request_output_throughput_token_per_s"), None);
        assert_eq!(from_suffix("number_output_tokens"), None);
        assert_eq!(from_suffix("requests"), None);
    }

    #[test]
    fn the_registry_wins_over_the_name() {
        let fields = FieldUnits::from([("ttft_s".to_string(), Unit::Ms), ("tokens_per_s".to_string(), Unit::Other("tokens/s".into()))]);
        assert_eq!(of_field(&fields, "ttft_s"), Some(Unit::Ms));
        assert_eq!(of_field(&fields, "tokens_per_s"), Some(Unit::Other("tokens/s".into())));
        assert_eq!(of_field(&fields, "host_us"), Some(Unit::Us));
    }
}
