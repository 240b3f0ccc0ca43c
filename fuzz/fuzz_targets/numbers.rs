//! Number extraction from one sentence, and the matching rule on what it finds.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        claimcheck::fuzz_api::extract_numbers(text);
    }
});
