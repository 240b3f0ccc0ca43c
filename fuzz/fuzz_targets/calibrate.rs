//! `calibrate RUN RUN [RUN...]` over two to four runs laid out from the input (each run's
//! `meta.json`, PTX and samples, and, where the first byte asks, the module of the pointwise or
//! scheduling suite, split at lines holding only `---`), with a link out of the root where the
//! second byte asks for one, and the first byte steering how the runs are named.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::calibrate(data));
