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

/// A module's entries by name. An entry begins at a head `.entry NAME(`, NAME holding no
/// whitespace (so no line break, and no other `.entry `); a name's entry is its first head, cut
/// at its closing brace or, where the next head comes before that, at the next head. Reading a
/// module reads each byte a bounded number of times, however many heads, or `.entry ` without a
/// `(`, it holds, and every lookup after that is by name: a module is a file of the run, which
/// may be hostile and large, and a dispatch record may name a kernel any number of times.
pub(crate) struct Module<'a> {
    entries: BTreeMap<&'a str, &'a str>,
}

impl<'a> Module<'a> {
    pub(crate) fn read(ptx: &'a str) -> Module<'a> {
        let mut heads: Vec<(usize, &str)> = Vec::new();
        for (at, _) in ptx.match_indices(".entry ") {
            let rest = &ptx[at + ".entry ".len()..];
            // The name stops at the first `(` or whitespace: never past the space that ends the
            // next `.entry `, so that no part of the module is searched twice.
            let len = rest.find(|c: char| c == '(' || c.is_whitespace()).unwrap_or(rest.len());
            if rest[len..].starts_with('(') {
                heads.push((at, &rest[..len]));
            }
        }
        let mut entries = BTreeMap::new();
        for (n, &(start, name)) in heads.iter().enumerate() {
            if entries.contains_key(name) {
                continue;
            }
            let next = heads.get(n + 1).map_or(ptx.len(), |h| h.0);
            let end = ptx[start..next].find("\n}\n").map_or(next, |i| start + i + 3);
            entries.insert(name, &ptx[start..end]);
        }
        Module { entries }
    }

    /// Entry `name`'s text with label numbers, frame numbers and the signature part of static
    /// variables' names removed; `None` when the module has no such entry. Two runs whose texts
    /// are equal ran the same instructions for it.
    pub(crate) fn instructions(&self, name: &str) -> Option<String> {
        self.entries.get(name).map(|entry| normalised(entry))
    }
}

/// Entry `name` of `ptx`, normalised ([`Module::instructions`]).
pub(crate) fn entry_instructions(ptx: &str, name: &str) -> Option<String> {
    Module::read(ptx).instructions(name)
}

/// An entry's text with label numbers, frame numbers and the signature part of static
/// variables' names removed.
fn normalised(entry: &str) -> String {
    let text = LABEL.replace_all(entry, "$$L__BB_");
    let text = STATIC_LOCAL.replace_all(&text, "_ZZ$1");
    DEPOT.replace_all(&text, "__local_depot").into_owned()
}

/// The kernel names of a dispatch record, `name: description; name: description`.
pub(crate) fn kernel_names(dispatch: &str) -> Vec<String> {
    dispatch.split("; ").filter_map(|part| part.split_once(": ")).map(|(name, _)| name.to_string()).collect()
}

/// Each of `kernels`' instructions in `ptx` ([`Module::instructions`]), hashed, each name once
/// however often it is named; the first kernel the module has no entry for is the error.
pub(crate) fn instruction_hashes<'a>(ptx: &str, kernels: &'a [String]) -> Result<Vec<String>, &'a str> {
    let module = Module::read(ptx);
    let mut hashed: BTreeMap<&str, String> = BTreeMap::new();
    let mut out = Vec::with_capacity(kernels.len());
    for kernel in kernels {
        if !hashed.contains_key(kernel.as_str()) {
            let entry = module.instructions(kernel).ok_or(kernel.as_str())?;
            hashed.insert(kernel, crate::hash::sha256_hex(entry.as_bytes()));
        }
        out.push(hashed[kernel.as_str()].clone());
    }
    Ok(out)
}

/// Every entry of `ptx`, each named and its instructions hashed ([`Module::instructions`]), in
/// name order: two modules with the same kernels give the same list, wherever in the source
/// each one lies.
pub(crate) fn module_hashes(ptx: &str) -> Vec<String> {
    let module = Module::read(ptx);
    module.entries.iter().map(|(name, entry)| format!("{name} {}", crate::hash::sha256_hex(normalised(entry).as_bytes()))).collect()
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
    fn a_kernel_named_many_times_over_a_module_of_many_entries_is_read_once() {
        // Thousands of entries, the one named last, named thousands of times: one reading of
        // the module and one hash, not one search of the module a name.
        let mut module = String::new();
        for k in 0..20_000 {
            module.push_str(&format!(".visible .entry k{k}(\n)\n{{\n\tret;\n}}\n"));
        }
        let names = vec!["k19999".to_string(); 20_000];
        let started = std::time::Instant::now();
        let hashes = instruction_hashes(&module, &names).unwrap();
        assert!(hashes.iter().all(|h| *h == hashes[0]) && hashes.len() == 20_000);
        // A bound far above the linear reading (milliseconds) and far below a search a name.
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
        assert_eq!(instruction_hashes(&module, &["k1".to_string(), "missing".to_string()]), Err("missing"));
    }

    #[test]
    fn an_entry_is_cut_at_its_own_closing_brace() {
        let text = entry_instructions(MODULE, "fused_slot_rms_4_512").unwrap();
        assert!(text.starts_with(".entry fused_slot_rms_4_512(") && text.ends_with("ret;\n}\n"), "{text}");
        assert!(!text.contains("other"), "{text}");
        assert!(entry_instructions(MODULE, "fused_slot_rms").is_none(), "a prefix of a name is not the entry");
        assert!(entry_instructions(MODULE, "missing").is_none());
        // An entry without its closing brace ends where the module does, or the next entry begins.
        assert_eq!(entry_instructions(".entry cut(\n{\n\tret;", "cut").as_deref(), Some(".entry cut(\n{\n\tret;"));
        assert_eq!(entry_instructions(".entry cut(\n\tret;\n.entry next(\n}\n", "cut").as_deref(), Some(".entry cut(\n\tret;\n"));
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
