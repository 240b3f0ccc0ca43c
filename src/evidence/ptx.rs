//! A run's `ptx/<module>.ptx`: the PTX NVRTC gave for one kernel source, as the run compiled
//! it. Read here only to tell whether two runs ran the same instructions for a kernel, which
//! the run's own record of its dispatch (kernel names and their descriptions) cannot show.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

/// Branch labels number the module's functions (`$L__BB12_3` is block 3 of function 12), so
/// an entry added before a kernel renumbers every label in it.
static LABEL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$L__BB\d+_").expect("a valid pattern"));
/// A kernel's static shared variables are named after the mangled signature of the template
/// function that declares them (`_ZZ14fused_slot_rowILb1ELi4EEvPKf…E3red`), so a parameter
/// added to that function renames them without changing an instruction.
static STATIC_LOCAL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"_ZZ\w*E(\d+[A-Za-z_]\w*)").expect("a valid pattern"));
/// Local-memory frames are numbered like labels.
static DEPOT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"__local_depot\d+").expect("a valid pattern"));

/// The text of entry `name` in `ptx`, from `.entry` to its closing brace, with label numbers,
/// frame numbers and the signature part of static variables' names removed; `None` when the
/// module has no such entry. Two runs whose texts are equal ran the same instructions for it.
pub(crate) fn entry_instructions(ptx: &str, name: &str) -> Option<String> {
    let head = format!(".entry {name}(");
    let start = ptx.match_indices(&head).map(|(i, _)| i).next()?;
    let end = start + ptx[start..].find("\n}\n")? + 3;
    Some(normalised(&ptx[start..end]))
}

/// An entry's text with label numbers, frame numbers and the signature part of static
/// variables' names removed ([`entry_instructions`]).
fn normalised(entry: &str) -> String {
    let text = LABEL.replace_all(entry, "$$L__BB_");
    let text = STATIC_LOCAL.replace_all(&text, "_ZZ$1");
    DEPOT.replace_all(&text, "__local_depot").into_owned()
}

/// The kernel names of a dispatch record, `name: description; name: description`.
pub(crate) fn kernel_names(dispatch: &str) -> Vec<String> {
    dispatch.split("; ").filter_map(|part| part.split_once(": ")).map(|(name, _)| name.to_string()).collect()
}

/// Each of `kernels`' instructions in `ptx` ([`entry_instructions`]), hashed; the first kernel
/// the module has no entry for is the error.
pub(crate) fn instruction_hashes<'a>(ptx: &str, kernels: &'a [String]) -> Result<Vec<String>, &'a str> {
    kernels.iter().map(|kernel| entry_instructions(ptx, kernel).map(|entry| crate::hash::sha256_hex(entry.as_bytes())).ok_or(kernel.as_str())).collect()
}

/// Every entry of `ptx`, each named and its instructions hashed (normalised as
/// [`entry_instructions`] normalises them), in name order: two modules with the same kernels give
/// the same list, wherever in the source each one lies.
///
/// An entry begins at a head `.entry NAME(`, NAME holding no whitespace (so no line break, and
/// no other `.entry `); a name's entry is its first head, cut as [`entry_instructions`] cuts it,
/// at its closing brace, or, where the next head comes before that, at the next head. Every byte
/// of the module is then read a bounded number of times, however many heads, or `.entry `
/// without a `(`, it holds: a module is a file of the run, which may be hostile and large.
pub(crate) fn module_hashes(ptx: &str) -> Vec<String> {
    let mut heads: Vec<(usize, &str)> = Vec::new();
    for (at, _) in ptx.match_indices(".entry ") {
        let rest = &ptx[at + ".entry ".len()..];
        // The name stops at the first `(` or whitespace: never past the space that ends the next
        // `.entry `, so that no part of the module is searched twice.
        let len = rest.find(|c: char| c == '(' || c.is_whitespace()).unwrap_or(rest.len());
        if rest[len..].starts_with('(') {
            heads.push((at, &rest[..len]));
        }
    }
    let mut first: BTreeMap<&str, usize> = BTreeMap::new();
    for (n, (_, name)) in heads.iter().enumerate() {
        first.entry(name).or_insert(n);
    }
    first
        .into_iter()
        .map(|(name, n)| {
            let (start, next) = (heads[n].0, heads.get(n + 1).map_or(ptx.len(), |h| h.0));
            let end = ptx[start..next].find("\n}\n").map_or(next, |i| start + i + 3);
            format!("{name} {}", crate::hash::sha256_hex(normalised(&ptx[start..end]).as_bytes()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "
.visible .entry other(
\t.param .u64 other_param_0
)
{
\tbra.uni \t$L__BB0_1;
$L__BB0_1:
\tret;
}
.visible .entry fused_slot_rms_4_512(
\t.param .u64 fused_slot_rms_4_512_param_0
)
{
\t.local .align 4 .b8 \t__local_depot1[16];
\tmov.u64 \t%rd51, _ZZ14fused_slot_rowILb1ELi4EEvPKfPfS2_PyiiifE3red;
\tst.shared.f32 \t[_ZZ14fused_slot_rowILb1ELi4EEvPKfPfS2_PyiiifE8row_stat_$_0], %f49;
\t@%p1 bra \t$L__BB1_4;
$L__BB1_4:
\tret;
}
";

    #[test]
    fn a_module_is_its_entries_in_name_order_wherever_they_lie() {
        let hashes = module_hashes(MODULE);
        assert_eq!(hashes.len(), 2);
        assert!(hashes[0].starts_with("fused_slot_rms_4_512 ") && hashes[1].starts_with("other "), "{hashes:?}");
        // The same entries in the other order, renumbered as NVRTC would number them.
        let (first, second) = MODULE.split_at(MODULE.find(".visible .entry fused_slot").unwrap());
        let swapped = format!("{}\n{}", second.replace("$L__BB1_", "$L__BB0_"), first.replace("$L__BB0_", "$L__BB1_"));
        assert_eq!(module_hashes(&swapped), hashes);
        // An instruction changed in one entry changes that entry's hash alone.
        let changed = module_hashes(&MODULE.replace("\tret;\n}\n.visible", "\texit;\n}\n.visible"));
        assert_eq!((changed[0] == hashes[0], changed[1] == hashes[1]), (true, false));
        // Text that names no entry gives none.
        assert!(module_hashes(".entry without a parenthesis\n").is_empty());
    }

    #[test]
    fn a_module_entry_without_its_closing_brace_ends_where_the_next_begins() {
        // Cut as `entry_instructions` cuts it, it would hold the next entry too.
        let module = ".entry open(\n{\n\tret;\n.entry shut(\n{\n\texit;\n}\n";
        let hashes = module_hashes(module);
        let hash = |text: &str| crate::hash::sha256_hex(text.as_bytes());
        assert_eq!(hashes, [format!("open {}", hash(".entry open(\n{\n\tret;\n")), format!("shut {}", hash(".entry shut(\n{\n\texit;\n}\n"))]);
        // A name holds no whitespace; the first head of a name is its entry.
        assert!(module_hashes(".entry two words(\n}\n").is_empty());
        let twice = module_hashes(".entry k(\n\tret;\n}\n.entry k(\n\texit;\n}\n");
        assert_eq!(twice, [format!("k {}", hash(".entry k(\n\tret;\n}\n"))]);
    }

    #[test]
    fn an_entry_is_cut_at_its_own_closing_brace() {
        let text = entry_instructions(MODULE, "fused_slot_rms_4_512").unwrap();
        assert!(text.starts_with(".entry fused_slot_rms_4_512(") && text.ends_with("ret;\n}\n"), "{text}");
        assert!(!text.contains("other"), "{text}");
        assert!(entry_instructions(MODULE, "fused_slot_rms").is_none(), "a prefix of a name is not the entry");
        assert!(entry_instructions(MODULE, "missing").is_none());
        assert!(entry_instructions(".entry cut(\n{\n\tret;", "cut").is_none(), "an entry without its end");
    }

    #[test]
    fn renumbering_and_a_renamed_signature_change_nothing_but_an_instruction_does() {
        let base = entry_instructions(MODULE, "fused_slot_rms_4_512").unwrap();
        // An entry added before it, and a parameter added to the template function.
        let rebuilt = MODULE.replace("$L__BB1_", "$L__BB7_").replace("__local_depot1", "__local_depot7").replace("PyiiifE", "PyiiifjE");
        assert_eq!(entry_instructions(&rebuilt, "fused_slot_rms_4_512").unwrap(), base);
        assert!(base.contains("_ZZ3red") && base.contains("[_ZZ8row_stat_$_0]"), "{base}");
        let changed = MODULE.replace("%rd51, _ZZ", "%rd52, _ZZ");
        assert_ne!(entry_instructions(&changed, "fused_slot_rms_4_512").unwrap(), base);
        let other_variable = MODULE.replace("E3red", "E3sum");
        assert_ne!(entry_instructions(&other_variable, "fused_slot_rms_4_512").unwrap(), base);
    }

    #[test]
    fn a_dispatch_names_its_kernels_and_each_is_hashed_or_named_missing() {
        let kernels = kernel_names("fused_slot_rms_4_512: row split over blocks: 16 values; other: a copy");
        assert_eq!(kernels, ["fused_slot_rms_4_512", "other"]);
        assert_eq!(kernel_names("fused_mix_rms_8_8_512_1: block of 512 threads"), ["fused_mix_rms_8_8_512_1"]);
        assert!(kernel_names("").is_empty());
        assert!(kernel_names("1024 tiles, 128 rows, 132 persistent workers").is_empty(), "a record that names no kernel");
        let hashes = instruction_hashes(MODULE, &kernels).unwrap();
        assert_eq!(hashes.len(), 2);
        assert_ne!(hashes[0], hashes[1]);
        let renumbered = MODULE.replace("$L__BB1_", "$L__BB9_");
        assert_eq!(instruction_hashes(&renumbered, &kernels).unwrap(), hashes);
        assert_eq!(instruction_hashes(MODULE, &["other".to_string(), "gone".to_string()]), Err("gone"));
    }
}
