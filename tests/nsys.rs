//! Nsight Systems' per-event reports as evidence, end to end: an article quoting a kernel's
//! median time, in prose or in a pasted `nsys stats` summary table, bound to the real
//! `cuda_gpu_trace` report of nsys 2026.3.1 (tests/fixtures/harness/nsys/, see its SOURCE.md),
//! audited by the built binary. claimcheck reads the files; it runs no profiler.

use crate::support;
use support::{claimcheck, paste_and_audit, suggested_over};

const FIXTURES: &str = "tests/fixtures/harness/nsys";
const TRACE: &str = "vernier-2026.3.1_cuda_gpu_trace.csv";

/// A root holding `files` (fixture name, text) under `evidence/`, the article `article` and a
/// registry of `claims` for it.
fn root(files: &[(&str, String)], article: &str, claims: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    for (name, text) in files {
        std::fs::write(dir.path().join("evidence").join(name), text).unwrap();
    }
    std::fs::write(dir.path().join("article/a.md"), article).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    std::fs::write(dir.path().join("claims/a.toml"), format!("[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n{claims}")).unwrap();
    dir
}

fn trace() -> (&'static str, String) {
    (TRACE, std::fs::read_to_string(format!("{FIXTURES}/{TRACE}")).unwrap())
}

fn audit(dir: &tempfile::TempDir) -> (i32, String) {
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    (code, format!("{out}{err}"))
}

/// One prose claim whose `stat` check reads `file` for the saxpy kernel's `statistic`.
fn prose(quote: &str, number: &str, file: &str, statistic: &str) -> String {
    format!(
        "[[claim]]\nid = \"K1\"\nquote = \"{quote}\"\nverdict = \"retain\"\nfinding = \"Over the trace's four launches.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{number}\"\n  samples = \"evidence/{file}\"\n  select = {{ function = \"saxpyKernel\" }}\n  field = \"duration_ns\"\n  statistic = \"{statistic}\"\n"
    )
}

/// The four launches took 7,072, 6,945, 6,816 and 6,592 ns: their median is 6,880.5 ns. The
/// format is detected from the file's content, and the same claim against another number fails.
#[test]
fn a_kernel_s_median_from_the_gpu_trace_holds_and_a_wrong_one_fails() {
    let quote = "The saxpy kernel took 6.88 µs at the median.";
    let dir = root(&[trace()], &format!("# Saxpy\n\n{quote}\n"), &prose(quote, "6.88 µs", TRACE, "median"));
    let (code, out) = audit(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 check: 1 passed, 0 failed"), "{out}");

    let quote = "The saxpy kernel took 6.58 µs at the median.";
    let dir = root(&[trace()], &format!("# Saxpy\n\n{quote}\n"), &prose(quote, "6.58 µs", TRACE, "median"));
    let (code, out) = audit(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 check: 0 passed, 1 failed"), "{out}");
}

/// The article pastes nsys's `cuda_gpu_kern_sum` console table (our own, of the same four
/// launches, in nsys's layout); claims on its `Med (ns)` and `Max (ns)` cells bind by row and
/// column and hold against the trace, in the header's nanoseconds. Edited to another median,
/// the table no longer matches the trace.
#[test]
fn a_pasted_summary_table_is_checked_against_the_trace() {
    let table = |med: &str| {
        format!(
            "# Saxpy under Nsight Systems\n\nThe kernel's summary:\n\n```\n Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)     Name    \n --------  ---------------  ---------  --------  --------  --------  --------  -----------  -----------\n    100.0           27,425          4   6,856.3   {med}     6,592     7,072        204.8  saxpyKernel\n```\n"
        )
    };
    let cell = |id: &str, column: &str, statistic: &str| {
        format!(
            "[[claim]]\nid = \"{id}\"\ncell = {{ row = \"saxpyKernel\", column = \"{column}\" }}\nverdict = \"retain\"\nfinding = \"Recomputed from the trace.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  samples = \"evidence/{TRACE}\"\n  select = {{ function = \"saxpyKernel\" }}\n  field = \"duration_ns\"\n  statistic = \"{statistic}\"\n\n"
        )
    };
    let claims = format!("[policy]\nunbound = \"warn\"\n\n{}{}", cell("MED", "Med (ns)", "median"), cell("MAX", "Max (ns)", "max"));
    let dir = root(&[trace()], &table("6,880.5"), &claims);
    let (code, out) = audit(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 checks: 2 passed, 0 failed"), "{out}");

    let dir = root(&[trace()], &table("6,945.0"), &claims);
    let (code, out) = audit(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("2 checks: 1 passed, 1 failed"), "{out}");
}

/// nsys's summary report as evidence is refused (exit 2), at its header, with the trace report
/// to export instead; so is a trace cut short inside its last row.
#[test]
fn a_summary_or_a_cut_trace_is_refused_at_its_place() {
    let quote = "The saxpy kernel took 6.88 µs at the median.";
    let article = format!("# Saxpy\n\n{quote}\n");
    let summary = "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n100.0,27425,4,6856.3,6880.5,6592,7072,204.8,saxpyKernel\n";
    let file = "rep_cuda_gpu_kern_sum.csv";
    let dir = root(&[(file, summary.to_string())], &article, &prose(quote, "6.88 µs", file, "median"));
    let (code, out) = audit(&dir);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("holds only summaries"), "{out}");
    assert!(out.contains("--report cuda_gpu_trace"), "{out}");
    assert!(out.contains(&format!("{file}:1:1")), "{out}");

    let (_, text) = trace();
    let cut = text[..text.len() - 10].to_string();
    let dir = root(&[(TRACE, cut)], &article, &prose(quote, "6.88 µs", TRACE, "median"));
    let (code, out) = audit(&dir);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("{TRACE}:17:1")), "{out}");
    assert!(out.contains("no line end"), "{out}");
}

/// `suggest` finds both numbers of a sentence in the trace: the kernel's median selected by its
/// function, as a reader of the trace names it, and the copies back to the host by their name.
#[test]
fn suggest_selects_a_kernel_by_its_function_and_a_copy_by_its_name() {
    let article = "# Saxpy\n\nThe saxpy kernel took 6.88 µs at the median, and a copy back to the host 0.51 ms.\n";
    let dir = root(&[trace()], article, "[policy]\nunbound = \"warn\"\n");
    let (code, out, err) = claimcheck(["suggest", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("read as Nsight Systems `nsys stats` CSV (detected), 16 records"), "{out}");
    assert!(out.contains("select = { function = \"saxpyKernel\" }"), "{out}");
    assert!(out.contains("select = { name = \"[CUDA memcpy Device-to-Host]\" }"), "{out}");
    assert_eq!(out.matches("statistic = \"median\"").count(), 2, "{out}");
}

/// `recheck --fresh` with another trace: the copies to the device (eight a file) rerun on
/// another GPU are INCOMPARABLE, naming both devices, as our own runs on another card are; the
/// same trace with its device named as the accepted one's (in another slot, `(1)`) is judged,
/// and its copies, 25 times faster, are a MISMATCH.
#[test]
fn a_fresh_trace_from_another_device_is_incomparable() {
    let quote = "A copy to the device took 0.52 ms at the median.";
    let claims = format!(
        "[[claim]]\nid = \"H2D\"\nquote = \"{quote}\"\nverdict = \"retain\"\nfinding = \"Over the trace's eight copies.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"0.52 ms\"\n  samples = \"evidence/{TRACE}\"\n  select = {{ name = \"[CUDA memcpy Host-to-Device]\" }}\n  field = \"duration_ns\"\n  statistic = \"median\"\n"
    );
    let thor = std::fs::read_to_string(format!("{FIXTURES}/vernier-2025.3.2_cuda_gpu_trace.csv")).unwrap();
    let dir = root(&[trace()], &format!("# Copies\n\n{quote}\n"), &claims);
    let (code, out) = audit(&dir);
    assert_eq!(code, 0, "{out}");
    std::fs::create_dir_all(dir.path().join("fresh")).unwrap();
    std::fs::write(dir.path().join("fresh").join(TRACE), &thor).unwrap();
    let at = dir.path().to_str().unwrap();
    let (_, out, err) = claimcheck(["recheck", "--root", at, "--fresh", "fresh"]);
    assert!(out.contains("1 rows (0 MATCH, 0 MISMATCH, 0 INCONCLUSIVE, 1 INCOMPARABLE)"), "{out}{err}");
    let (_, json, _) = claimcheck(["recheck", "--root", at, "--fresh", "fresh", "--format", "json"]);
    assert!(json.contains(&format!("fresh/{TRACE} ran on NVIDIA Thor, the accepted evidence/{TRACE} on NVIDIA RTX 5000 Ada Generation Laptop GPU")), "{json}");

    let moved = thor.replace("NVIDIA Thor (0)", "NVIDIA RTX 5000 Ada Generation Laptop GPU (1)");
    std::fs::write(dir.path().join("fresh").join(TRACE), moved).unwrap();
    let (_, out, err) = claimcheck(["recheck", "--root", at, "--fresh", "fresh"]);
    assert!(out.contains("(0 MATCH, 1 MISMATCH, 0 INCONCLUSIVE, 0 INCOMPARABLE)"), "{out}{err}");
}

/// `suggest` over the kernel's summary as nsys prints it (our own table of the trace's four
/// launches, the kernel named by its whole signature, as nsys names it): every statistic of the
/// row is proposed as that statistic of the kernel's launches, `Instances` as their count,
/// `Total Time (ns)` as their sum and `Time (%)` as that sum's share of every kernel's time, and,
/// pasted, the proposals hold and leave nothing unbound.
#[test]
fn suggest_checks_a_pasted_summary_against_the_trace() {
    let article = "# Saxpy under Nsight Systems\n\n```\n Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)                                           Name\n --------  ---------------  ---------  --------  --------  --------  --------  -----------  ------------------------------------------------------------------------------------------\n    100.0           27,425          4   6,856.3   6,880.5     6,592     7,072        204.8  vernier::bench::demo::<unnamed>::saxpyKernel(float, const float *, float *, unsigned long)\n```\n";
    let (dir, proposed) = suggested_over(article, |root| {
        std::fs::copy(format!("{FIXTURES}/{TRACE}"), root.join("evidence").join(TRACE)).unwrap();
    });
    for statistic in ["count", "mean", "median", "min", "max", "stdev", "sum"] {
        assert!(proposed.contains(&format!("statistic = \"{statistic}\"")), "{statistic}: {proposed}");
    }
    assert!(proposed.contains("expr = \"100 * part / whole\""), "{proposed}");
    assert!(proposed.contains("where = \"function != null\", field = \"duration_ns\", statistic = \"sum\""), "{proposed}");
    let (code, out) = paste_and_audit(dir.path(), &proposed);
    assert!(out.contains("8 checks: 8 passed, 0 failed"), "{out}");
    assert!(out.contains("0 unbound numbers"), "{out}");
    assert_eq!(code, 0, "{out}");
}

/// The copies' summary (our own, in the layout of nsys's `cuda_gpu_mem_time_sum`, of the
/// trace's eight copies to the device and four back: 4,530,486 and 2,067,939 ns): each kind's
/// `Time (%)` is its share of the copies' time alone, not of the kernels' too, and its `Total
/// Time (ns)` its sum. Pasted, they hold; a share edited by a point no longer does.
#[test]
fn a_copy_s_share_is_of_the_copies_time() {
    let table = |share: &str| {
        format!(
            "# Copies under Nsight Systems\n\n```\n Time (%)  Total Time (ns)  Count   Avg (ns)    Med (ns)   Min (ns)  Max (ns)  StdDev (ns)           Operation          \n --------  ---------------  -----  ----------  ----------  --------  --------  -----------  ----------------------------\n     {share}        4,530,486      8   566,310.8   523,729.5   502,896   661,398     72,911.3  [CUDA memcpy Host-to-Device]\n     31.3        2,067,939      4   516,984.8   512,304.5   500,528   542,802     19,282.1  [CUDA memcpy Device-to-Host]\n```\n"
        )
    };
    let (dir, proposed) = suggested_over(&table("68.7"), |root| {
        std::fs::copy(format!("{FIXTURES}/{TRACE}"), root.join("evidence").join(TRACE)).unwrap();
    });
    assert_eq!(proposed.matches("expr = \"100 * part / whole\"").count(), 2, "{proposed}");
    assert!(proposed.contains("where = \"function == null\", field = \"duration_ns\", statistic = \"sum\""), "{proposed}");
    let (code, out) = paste_and_audit(dir.path(), &proposed);
    assert!(out.contains("passed, 0 failed") && out.contains("0 unbound numbers"), "{out}");
    assert_eq!(code, 0, "{out}");

    std::fs::write(dir.path().join("article/a.md"), table("69.7")).unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 failed"), "{out}");
}

/// A kernel's total time is a `sum` check that holds against the trace; `recheck --fresh`
/// gives it no interval, since a total grows with the launches a run takes, and says so
/// (INCOMPARABLE), while the median of the same four launches is INCONCLUSIVE: more launches
/// would decide it, and none would decide the total.
#[test]
fn a_total_holds_and_is_not_rechecked_by_its_interval() {
    let quote = "The saxpy kernel took 27.4 µs in all and 6.88 µs at the median.";
    let check = |number: &str, statistic: &str| {
        format!("\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{number}\"\n  samples = \"evidence/{TRACE}\"\n  select = {{ function = \"saxpyKernel\" }}\n  field = \"duration_ns\"\n  statistic = \"{statistic}\"\n")
    };
    let claims = format!("[[claim]]\nid = \"K1\"\nquote = \"{quote}\"\nverdict = \"retain\"\nfinding = \"Over the trace's four launches.\"\n{}{}", check("27.4 µs", "sum"), check("6.88 µs", "median"));
    let dir = root(&[trace()], &format!("# Saxpy\n\n{quote}\n"), &claims);
    let (code, out) = audit(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 checks: 2 passed, 0 failed"), "{out}");
    std::fs::create_dir_all(dir.path().join("fresh")).unwrap();
    std::fs::write(dir.path().join("fresh").join(TRACE), trace().1).unwrap();
    let at = dir.path().to_str().unwrap();
    let (_, out, err) = claimcheck(["recheck", "--root", at, "--fresh", "fresh"]);
    assert!(out.contains("2 rows (0 MATCH, 0 MISMATCH, 1 INCONCLUSIVE, 1 INCOMPARABLE)"), "{out}{err}");
    let (_, json, _) = claimcheck(["recheck", "--root", at, "--fresh", "fresh", "--format", "json"]);
    assert!(json.contains("no bootstrap interval for a sum"), "{json}");
}
