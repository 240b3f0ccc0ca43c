//! The fast readers against the readers they stand in for: fast JSONL against serde_json, and
//! the columnar CSV/TSV reader against the table reader (see `fuzz_api::differential`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::differential(data));
