//! The Markdown article parser: sections, sentences, spans and numbers.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| claimcheck::fuzz_api::parse_article(data));
