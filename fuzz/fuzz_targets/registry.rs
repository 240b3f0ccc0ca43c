//! Registry loading and binding: the input is a registry, a NUL byte, then an article.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let (registry, article) = split(data);
    if let Ok(registry) = std::str::from_utf8(registry) {
        claimcheck::fuzz_api::parse_registry(registry, article);
    }
});

fn split(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, b""),
    }
}
