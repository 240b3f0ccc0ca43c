//! Harness evidence files (hyperfine, criterion, Google Benchmark, nvbench, go-bench, JMH, CSV, …): detection, every format, samples.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::read_harness(data));
