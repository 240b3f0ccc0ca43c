//! A dispatch record's first line and a run's PTX: each named kernel's entry found and its
//! renumbered labels and renamed variables put back to one spelling, as `bench-report` does
//! before it pools runs, and the PTX read as a whole module, every entry hashed, as `calibrate`
//! reads the pointwise and scheduling suites' modules.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::ptx_entry(data));
