//! Locks, the alignment of a draft with one, and word diffs: a lock, a NUL byte, then an
//! article; without a NUL byte the input is two sentences to diff, split at the first newline.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    match data.iter().position(|b| *b == 0) {
        Some(i) => {
            if let Ok(lock) = std::str::from_utf8(&data[..i]) {
                claimcheck::fuzz_api::parse_lock(lock, &data[i + 1..]);
            }
        }
        None => {
            if let Ok(text) = std::str::from_utf8(data) {
                let (a, b) = text.split_once('\n').unwrap_or((text, ""));
                claimcheck::fuzz_api::word_diff(a, b);
            }
        }
    }
});
