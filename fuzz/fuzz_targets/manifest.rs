//! A run's `MANIFEST.sha256`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        claimcheck::fuzz_api::parse_manifest(text);
    }
});
