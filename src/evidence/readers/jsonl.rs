//! `jsonl`: one JSON object a line, today's evidence format. [`crate::evidence::jsonl::Jsonl`]
//! owns the format, and the table of a JSONL file is the one the evidence reader parses for
//! `Evidence::jsonl` (handed to [`super::read_with`]), so that a file read both ways is parsed
//! once; this module only holds the tests that a JSONL file reads as a table as it always did.

#[cfg(test)]
mod tests {
    use super::super::testing::read_text;
    use super::super::{Detected, Format};

    #[test]
    fn jsonl_reads_as_before() {
        let t = read_text("s.jsonl", "{\"t\":1}\n{\"t\":2.5}\n", None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Jsonl, Detected::ByName));
        assert_eq!(t.jsonl.records.len(), 2);
        let err = read_text("s.jsonl", "{\"t\":1}\n{\"t\":\n", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "s.jsonl:2:5");
    }
}
