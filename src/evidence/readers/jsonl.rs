//! `jsonl`: one JSON object a line, today's evidence format. This module only hands the
//! bytes to [`crate::evidence::jsonl::Jsonl`], which owns the format; it adds nothing.

use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::Jsonl;

pub(super) fn read(path: &str, bytes: &[u8]) -> Result<Jsonl, Diagnostic> {
    Jsonl::parse(path, bytes)
}

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
