//! Tables whose columns a dashed rule marks out, as NVIDIA's profilers print them on a console:
//! Nsight Compute's sections and Nsight Systems' `nsys stats` reports (`--format column`, the
//! default). A cell's words are found by where they stand under the rule, not by the spaces
//! between them, since names hold spaces (`L1/TEX Cache Throughput`, `[CUDA memcpy
//! Host-to-Device]`): a word belongs to the rightmost column whose rule starts at or before the
//! word's last character, which places a right-aligned value wider than its rule and a
//! left-aligned name longer than its rule alike. The article's side reads these tables pasted
//! into code blocks (`article::nsight`), the `nsys` reader saved to a file; both cut them here.

use std::ops::Range;

/// The dashed segments of a rule line, as ranges of character columns; `None` unless the line
/// holds dashes and only dashes and whitespace.
pub(crate) fn rule_of(line: &str) -> Option<Vec<Range<usize>>> {
    let mut out = Vec::new();
    let mut open = None;
    let mut column = 0;
    for c in line.chars() {
        match (c, open) {
            ('-', None) => open = Some(column),
            ('-', Some(_)) => {}
            (c, _) if !c.is_whitespace() => return None,
            (_, Some(s)) => {
                out.push(s..column);
                open = None;
            }
            _ => {}
        }
        column += 1;
    }
    if let Some(s) = open {
        out.push(s..column);
    }
    (!out.is_empty()).then_some(out)
}

/// The whitespace-separated words of `line`: each one's bytes, and the character columns of
/// its first and last character.
fn tokens(line: &str) -> Vec<(Range<usize>, usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    let mut column = 0;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), open) {
            (true, Some((byte, first))) => {
                out.push((byte..i, first, column - 1));
                open = None;
            }
            (false, None) => open = Some((i, column)),
            _ => {}
        }
        column += 1;
    }
    if let Some((byte, first)) = open {
        out.push((byte..line.len(), first, column.saturating_sub(1)));
    }
    out
}

/// The bytes of `line` in each column of `rule`, from its first word to its last; `None` for a
/// column that holds no word. A word belongs to the rightmost column whose rule starts at or
/// before its last character, else to the first.
pub(crate) fn columns(line: &str, rule: &[Range<usize>]) -> Vec<Option<Range<usize>>> {
    let mut out: Vec<Option<Range<usize>>> = vec![None; rule.len()];
    for (bytes, _, last) in tokens(line) {
        let column = rule.iter().rposition(|r| r.start <= last).unwrap_or(0);
        let Some(slot) = out.get_mut(column) else { continue };
        *slot = Some(match slot.take() {
            Some(r) => r.start..bytes.end,
            None => bytes,
        });
    }
    out
}

/// Each column's header, its words joined by one space; empty where the header line has none.
pub(crate) fn labels(header: &str, rule: &[Range<usize>]) -> Vec<String> {
    columns(header, rule).into_iter().map(|r| r.map_or(String::new(), |r| words(&header[r]))).collect()
}

pub(crate) fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nsys's console layout: titles centred over their dashes, a value right-aligned and wider
    /// than its rule, a name with spaces left-aligned and longer than its rule, an empty cell.
    #[test]
    fn words_go_to_the_column_their_rule_marks_out() {
        let header = " Time (%)  Total Time (ns)  GrdX       Name    ";
        let rule = rule_of(" --------  ---------------  ----  -----------").unwrap();
        assert_eq!(rule, [1..9, 11..26, 28..32, 34..45]);
        assert_eq!(labels(header, &rule), ["Time (%)", "Total Time (ns)", "GrdX", "Name"]);
        let row = "    100.0     1,134,711,990        [CUDA memcpy Host-to-Device]";
        let cells: Vec<Option<&str>> = columns(row, &rule).into_iter().map(|r| r.map(|r| &row[r])).collect();
        assert_eq!(cells, [Some("100.0"), Some("1,134,711,990"), None, Some("[CUDA memcpy Host-to-Device]")]);
        assert_eq!(words("  a   b c "), "a b c");
        assert_eq!(rule_of("--- x ---"), None, "a rule holds dashes and spaces only");
        assert_eq!(rule_of("   "), None);
    }
}
