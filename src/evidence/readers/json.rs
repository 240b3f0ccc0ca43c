//! `json`: a JSON document holding an array of records: the whole document, or the array at
//! a dotted path (`records = "data.runs"`). This module owns finding the array and turning
//! each object into a record; it never guesses which array is meant.
//!
//! Each element must be an object. Its scalar members are fields as written; a nested object's
//! members become fields named by the dotted path (`{"usage": {"tokens": 5}}` gives
//! `usage.tokens`), and an array is kept only as a mark, as in JSONL. A record's line is the
//! line of its opening `{`.

use super::{Source, head, scalar, tree::Node};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

pub(super) fn read(src: &Source, doc: &Node, records: Option<&str>) -> Result<Jsonl, Diagnostic> {
    let array = match records {
        None => doc.as_array().ok_or_else(|| {
            let d = src.error(head(doc), format!("expected an array of records, found {}", doc.what()), "not an array");
            match candidates(doc) {
                names if names.is_empty() => d,
                names => d.with_note(format!("name the array that holds the records: {}", names.join(", "))),
            }
        })?,
        Some(path) => at_path(src, doc, path)?,
    };
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    let mut fields: Vec<(String, FieldValue<'_>)> = Vec::new();
    for (idx, item) in array.iter().enumerate() {
        if item.as_object().is_none() {
            return Err(src.error(item.span.clone(), format!("record {} is {}, not an object", idx + 1, item.what()), "expected an object"));
        }
        fields.clear();
        flatten(src.text, "", item, &mut fields);
        let (line, span) = src.at(item);
        out.push(line, span, fields.iter().map(|(k, v)| (k.as_str(), *v)));
    }
    Ok(out.finish())
}

/// The array at the dotted `path` from the document's root.
fn at_path<'n>(src: &Source, doc: &'n Node, path: &str) -> Result<&'n [Node], Diagnostic> {
    let mut node = doc;
    let mut walked = String::new();
    for key in path.split('.') {
        let what = if walked.is_empty() { "document".to_string() } else { format!("object at `{walked}`") };
        node = src.member(node, key, &what)?;
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(key);
    }
    node.as_array().ok_or_else(|| src.wrong(node, path, "an array of records"))
}

/// Scalar members of `object` as fields, nested objects' under dotted names.
fn flatten<'n>(text: &str, prefix: &str, object: &'n Node, out: &mut Vec<(String, FieldValue<'n>)>) {
    for member in object.as_object().unwrap_or_default() {
        let name = if prefix.is_empty() { member.key.clone() } else { format!("{prefix}.{}", member.key) };
        if member.value.as_object().is_some() {
            flatten(text, &name, &member.value, out);
        } else {
            out.push((name, scalar(&member.value, text)));
        }
    }
}

/// The top-level keys whose value is an array of objects: the likely `records`.
fn candidates(doc: &Node) -> Vec<String> {
    doc.as_object()
        .unwrap_or_default()
        .iter()
        .filter(|m| m.value.as_array().is_some_and(|a| a.first().is_some_and(|e| e.as_object().is_some())))
        .map(|m| format!("`records = \"{}\"`", m.key))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{read_text, samples};
    use super::super::{Format, read, testing::no_sidecar};

    #[test]
    fn an_array_of_records_is_read_with_lines() {
        let text = "[\n  {\"provider\": \"a\", \"ttft_s\": 0.5, \"usage\": {\"tokens\": 5}},\n  {\"provider\": \"a\", \"ttft_s\": 0.7, \"tags\": [1]}\n]\n";
        let t = read_text("r.json", text, None).unwrap();
        assert_eq!(t.format, Format::Json);
        let j = &t.jsonl;
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(j.text_of(j.get(&j.records[0], "usage.tokens")), "5");
        assert_eq!(j.text_of(j.get(&j.records[1], "tags")), "…");
        assert_eq!(samples(&t, "provider = \"a\"", "ttft_s").median(), 0.6);
    }

    #[test]
    fn the_array_at_a_dotted_path_is_read() {
        let text = "{\"data\": {\"runs\": [{\"t\": 1}, {\"t\": 3}]}}";
        let t = read("r.json", text.as_bytes(), None, Some("data.runs"), &no_sidecar).unwrap();
        assert_eq!(t.jsonl.records.len(), 2);
        let err = read("r.json", text.as_bytes(), None, Some("data.walks"), &no_sidecar).unwrap_err();
        assert!(err.message.contains("no `walks` in this object at `data`"), "{}", err.message);
        assert_eq!(err.position().unwrap(), "r.json:1:10");
        let err = read("r.json", text.as_bytes(), None, Some("data"), &no_sidecar).unwrap_err();
        assert!(err.message.contains("`data` is an object, not an array of records"), "{}", err.message);
    }

    /// The failure the issue reports: a truncated array of records must be located, and must
    /// not be serde's "EOF while parsing a list".
    #[test]
    fn a_truncated_array_is_located_at_its_opening() {
        let text = "[\n  {\"t\": 1},\n  {\"t\": 2},\n";
        for format in [None, Some(Format::Json)] {
            let err = read_text("r.json", text, format).unwrap_err();
            assert_eq!(err.position().unwrap(), "r.json:1:1");
            assert!(err.message.contains("never closed"), "{}", err.message);
            assert!(!err.message.contains("EOF while parsing"), "{}", err.message);
        }
        let err = read_text("r.json", "[\n  {\"t\": 1},\n  {\"t\": 2\n", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r.json:3:3");
    }

    #[test]
    fn an_element_that_is_not_an_object_is_located() {
        let err = read_text("r.json", "[\n  {\"t\": 1},\n  7\n]", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r.json:3:3");
        assert!(err.message.contains("record 2 is a number, not an object"), "{}", err.message);
    }

    #[test]
    fn an_object_without_records_names_the_arrays_it_has() {
        let err = read_text("r.json", "{\"meta\": 1, \"rows\": [{\"t\": 1}]}", Some(Format::Json)).unwrap_err();
        assert!(err.message.contains("expected an array of records, found an object"), "{}", err.message);
        assert!(err.notes.iter().any(|n| n.contains("`records = \"rows\"`")), "{:?}", err.notes);
    }
}
