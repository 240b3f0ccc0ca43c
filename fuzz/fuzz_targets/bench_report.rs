//! `bench-report` over up to three runs' samples files, split at lines holding only `---`:
//! the JSONL reader, the sample validation, the pooled judgement and the report's layout.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::bench_report(data));
