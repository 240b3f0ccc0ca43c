//! JSONL evidence (samples, validation, traces): parsing, grouping, samples, typed records.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::parse_jsonl(data));
