//! Number extraction from one sentence, and the matching rule on what it finds; then the same
//! sentence with its spaces marked where they group thousands, and quotes matched against bands.
//! The input is the sentence, and, after its last NUL byte, the band's ends and a tolerance as
//! raw little-endian `f64`s (the sentence alone where there is no NUL).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        claimcheck::fuzz_api::extract_numbers(text);
    }
    let (sentence, ends) = match data.iter().rposition(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    if let Ok(text) = std::str::from_utf8(sentence) {
        claimcheck::fuzz_api::marked_numbers(text, ends);
    }
});
