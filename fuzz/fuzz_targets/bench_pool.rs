//! `bench-report RUN --with-same-code` over a folder of one to four runs laid out from the
//! input (each run's `meta.json`, PTX and samples, split at lines holding only `---`), with a
//! folder that is not a run and a link out of the root where the first two bytes ask for them.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::bench_pool(data));
