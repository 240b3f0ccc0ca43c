//! The run readers: `meta.json` (and the other JSON files of a run, through the same reader),
//! and `evidence/accepted.toml`. The first byte chooses which.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((which, rest)) = data.split_first() else { return };
    if which % 2 == 0 {
        claimcheck::fuzz_api::parse_meta(rest);
    } else if let Ok(text) = std::str::from_utf8(rest) {
        claimcheck::fuzz_api::parse_accepted(text);
    }
});
