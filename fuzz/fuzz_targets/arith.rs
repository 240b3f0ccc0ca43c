//! `arith` expressions: parsing and evaluation.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        claimcheck::fuzz_api::arith(text);
    }
});
