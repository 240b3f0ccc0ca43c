//! Inputs that crashed a parser once, fed through the same facade the fuzz targets use
//! (`claimcheck::fuzz_api`): each must now return normally. The first are the reproducers of
//! issue 11; what `fuzz/run.sh` finds is added below them, one test per input.

use claimcheck::fuzz_api;

const BIG_SHAPE: &str = "99999999999999999999x99999999999999999999";

#[test]
fn a_shape_that_overflows_64_bits_in_prose() {
    fuzz_api::extract_numbers(&format!("The shape {BIG_SHAPE} overflows."));
    fuzz_api::parse_article(format!("# T\n\nAt {BIG_SHAPE} it ran.\n").as_bytes());
}

#[test]
fn a_shape_that_overflows_64_bits_as_a_number_or_a_label() {
    let registry = format!(
        "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{}\"\n\n[[claim]]\nid = \"C1\"\nquote = \"It took\"\nverdict = \"retain\"\nfinding = \"f\"\nlabels = [\"{BIG_SHAPE}\"]\n\n  [[claim.check]]\n  kind = \"arith\"\n  number = \"{BIG_SHAPE}\"\n  expr = \"1\"\n",
        "0".repeat(64)
    );
    fuzz_api::parse_registry(&registry, format!("# T\n\nIt took {BIG_SHAPE} here.\n").as_bytes());
}

#[test]
fn a_number_with_more_decimals_than_the_formatter_allows() {
    fuzz_api::extract_numbers(&format!("It took 1.{} µs.", "5".repeat(70_000)));
}

#[test]
fn arith_expressions_that_overflowed_the_stack() {
    for expr in ["(".repeat(10_000) + "1" + &")".repeat(10_000), "-".repeat(40_000) + "1", vec!["2"; 100_000].join("^"), vec!["1"; 50_000].join("+")] {
        fuzz_api::arith(&expr);
    }
}

#[test]
fn a_lock_with_a_multibyte_hash_and_another_version() {
    let article = b"# T\n\nGraph replay took 14.96 us.\n";
    let lock = |version: u32, sha: &str| format!("schema-version = {version}\nregistry = \"claims/a.toml\"\nmanuscript = \"article/a.md\"\nmanuscript-sha256 = \"{sha}\"\n");
    fuzz_api::parse_lock(&lock(1, &format!("a{}", "é".repeat(63))), article);
    fuzz_api::parse_lock(&lock(9, "0"), article);
}

#[test]
fn a_sample_line_with_a_repeated_key_or_bad_bytes() {
    fuzz_api::parse_jsonl(b"{\"host_us\":1.0,\"host_us\":2.0}\n");
    fuzz_api::parse_jsonl(b"{\"case\":\"\xff\"}\n");
}

#[test]
fn run_files_that_are_malformed() {
    fuzz_api::parse_meta(b"{\n  \"rounds\": 21,,\n}\n");
    fuzz_api::parse_meta(b"\xff");
    fuzz_api::parse_accepted("[[run]]\npath = \"evidence/runs/r\"\nsuites = [\"softmax\"\n");
    fuzz_api::parse_manifest("not a manifest line\n");
}

#[test]
fn a_key_deeper_than_toml_allows() {
    let keys = vec!["a"; 200].join(".");
    fuzz_api::parse_registry(&format!("[{keys}]\nx = 1\n"), b"");
    fuzz_api::parse_accepted(&format!("{keys} = 1\n"));
}

#[test]
fn a_huge_word_diff() {
    fuzz_api::word_diff(&"a ".repeat(500_000), &"b ".repeat(500_000));
}

#[test]
fn a_trace_whose_tasks_end_before_they_start() {
    let header = "{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"v\",\"tasks\":1,\"workers\":1}\n";
    let task = "{\"task\":\"A:1\",\"stage\":\"A\",\"index\":1,\"row\":0,\"worker\":0,\"sm\":0,\"start_ns\":9,\"end_ns\":1,\"deps\":[]}\n";
    fuzz_api::parse_jsonl(format!("{header}{task}").as_bytes());
}

/// Found by `fuzz/run.sh` (the `lock` target, a timeout): a one-line sentence diffed against a
/// whole lock file, the second "sentence" some 4,000 words long.
#[test]
fn a_word_diff_of_a_line_against_a_whole_lock_is_quick() {
    let input = std::fs::read("tests/fuzz_inputs/lock-slow-word-diff").unwrap();
    let text = std::str::from_utf8(&input).unwrap();
    let (a, b) = text.split_once('\n').unwrap();
    let started = std::time::Instant::now();
    fuzz_api::word_diff(a, b);
    assert!(started.elapsed().as_secs_f64() < 1.0, "{:?}", started.elapsed());
}

/// The `bench_pool` target's seeds, and its first two-run seed with each link the wrapper can
/// lay (every kind, in either run, absolute and relative) under several steerings: the wrapper
/// panics where a link out of the root was followed, where a failure was not refused as bad
/// input, or where a folder without `meta.json` was named as a run left out.
#[test]
fn bench_pool_follows_no_link_out_of_its_tree() {
    every_seed("fuzz/seeds/bench_pool", 5, fuzz_api::bench_pool);
    let same_code = std::fs::read("fuzz/seeds/bench_pool/same-code").unwrap();
    with_every_link(&same_code, &[0, 0b1000, 0b10_0001, 0b11_1100], 14, fuzz_api::bench_pool);
}

/// The `harness` target's seeds (real output of every harness the readers take, and hand-made
/// edge cases: a byte-order mark, CRLF line ends, JSON cut short, a Go result line cut between a
/// value and its unit), each read under every name and as every format.
#[test]
fn harness_seeds_are_read_or_refused() {
    every_seed("fuzz/seeds/harness", 20, fuzz_api::read_harness);
}

/// Found by the `article` target while the `jmh` reader's campaign ran (a crash of code older than
/// it): hyperfine's `Time (mean ± σ):` with only spaces before a `[`, whose cell was the range
/// of those spaces trimmed from both ends, which crossed (44..42) and panicked when the code
/// block's text was sliced. An all-blank part is now an empty range, and an empty cell no block.
#[test]
fn a_hyperfine_time_with_nothing_before_its_bracket() {
    fuzz_api::parse_article(b"# H\n\n```\nBenchmark 1: fd -e rs\n  Time (mean \xc2\xb1 \xcf\x83):  [^ # H\n\n```\n");
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/crash-hyperfine-empty-time.md").unwrap());
}

/// Found by the `article` target in the `ncu` reader's campaign (a crash of code older than the
/// Nsight tables): a Google Benchmark table in a `<pre>` whose row's words a tag parts (`± σ<y>
/// r`), so that the cell's text is not found in its source range and its bytes map to the
/// range's start; the number's mark then ended inside `σ`, and the HTML report sliced the source
/// there. A mark's edge now moves back to the start of the character it falls inside.
#[test]
fn a_mark_whose_edge_falls_inside_a_character() {
    fuzz_api::parse_article("s\n<pre>\nBenchmark Time CPU Iterations\n\u{b1} \u{3c3}<y> r".as_bytes());
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/crash-pre-cell-inside-a-character.md").unwrap());
}

/// Found by the `article` target once it checked every sentence's own span (twenty-sixth
/// session): an HTML cell whose text the parser decoded maps every byte to where it began, so
/// the sentence's span ended one byte in, inside `±`. The span is now widened to whole
/// characters.
#[test]
fn a_sentence_whose_span_ended_inside_a_character() {
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/crash-sentence-span-inside-a-character.md").unwrap());
}

/// The `article` target's seed of JMH's summary table, in a code block (with a row cut after
/// its `±`, an approximate score and a decimal comma) and as a pipe table (a `±` column, a `±`
/// joined to the error, a row short of a cell), parsed with every number's place checked.
#[test]
fn the_jmh_article_seed_is_parsed() {
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/jmh.md").unwrap());
}

/// The `article` target's seeds of the two Rust harnesses' console output: libtest's `#[bench]`
/// lines (with and without separators and decimals, tabs, a comment, lines cut short) and
/// divan's tree (counters, the allocation profiler, minutes and hours, ASCII, a row cut in two),
/// parsed with every number's place checked.
#[test]
fn the_rust_benchmark_article_seeds_are_parsed() {
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/libtest-bench.md").unwrap());
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/divan.md").unwrap());
}

/// The `article` target's seed of the LLM-serving benchmarks' reports: vLLM's widest report
/// (echoed arguments, a progress bar, `RPS`, a list under `Per-position acceptance (%):`), one
/// cut short and edited by hand, SGLang's with text values, `trtllm-bench` 0.12's with Windows
/// line endings and a newer one with tabs, a breakdown, a short row of percentiles and a section
/// left open, and another program's banner, parsed with every number's place checked.
#[test]
fn the_serving_benchmark_article_seed_is_parsed() {
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/serving.md").unwrap());
}

/// The `article` target's LaTeX seeds, parsed with every sentence's and number's place checked:
/// one of every construct the reader takes (siunitx, macros, `\multicolumn`, `\multirow`, a
/// `longtable`'s heads, a console table in `verbatim`), and one of each left open or cut short
/// (a `tabular`, `\verb`, a group, a macro that expands to itself, `\newcommand` with no body).
#[test]
fn the_latex_article_seeds_are_parsed() {
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/latex.tex").unwrap());
    fuzz_api::parse_article(&std::fs::read("fuzz/seeds/article/latex-broken.tex").unwrap());
}

/// Found by a soak of 200,000 random LaTeX token strings through the same facade (twenty-seventh
/// session): `\let` followed by a name and then a character of two bytes stepped one byte past
/// the name, inside `µ`, and the next read of the text sliced there.
#[test]
fn a_let_before_a_character_of_two_bytes() {
    fuzz_api::parse_article("\\documentclass{x}\n\\let\\letµ 3 ms\n".as_bytes());
}

/// Every seed in `dir` (at least `least` of them), in name order, fed to `target`; the seeds'
/// paths.
fn every_seed(dir: &str, least: usize, target: fn(&[u8])) -> Vec<std::path::PathBuf> {
    let mut seeds: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    seeds.sort();
    assert!(seeds.len() >= least, "{seeds:?}");
    for seed in &seeds {
        target(&std::fs::read(seed).unwrap());
    }
    seeds
}

/// `seed` with its first two bytes (steering and link) replaced by each of `steers` and each
/// link from 0 to `links`, fed to `target`.
fn with_every_link(seed: &[u8], steers: &[u8], links: u8, target: fn(&[u8])) {
    for &steer in steers {
        for link in 0..=links {
            let mut input = vec![steer, link];
            input.extend_from_slice(&seed[2..]);
            target(&input);
        }
    }
}

#[test]
fn bench_report_judges_a_candidate_from_the_samples() {
    // Found by LeakSanitizer in the bench_report target: the candidates' names were leaked to
    // give their goals static names. Goals now own their names; this input takes the path again
    // (an `x-` variant judged as a candidate), which only the fuzzer's leak check can hold to
    // freeing what it allocates.
    let input = std::fs::read("tests/fuzz_inputs/bench-report-candidate-leak").unwrap();
    fuzz_api::bench_report(&input);
}

/// The `calibrate` target's seeds, and its first seed with each link the wrapper can lay (every
/// kind, in each of its four runs, absolute and relative) under several steerings: the wrapper
/// panics where a link out of the root was followed or a run whose files link out was
/// calibrated, and where a failure was not refused as bad input (or as usage, for a run named
/// twice).
#[test]
fn calibrate_follows_no_link_out_of_its_tree() {
    let seeds = every_seed("fuzz/seeds/calibrate", 4, fuzz_api::calibrate);
    let first = std::fs::read(&seeds[0]).unwrap();
    with_every_link(&first, &[0, 0b1, 0b110, 0b1011], 28, fuzz_api::calibrate);
}

/// The `calibrate` target's pointwise seed with each link the wrapper can lay in a run of four
/// files (the module too: every kind, in each of its three runs, absolute and relative), laid
/// out with `ptx/pointwise.ptx` and, steered so, as `ptx/scheduling.ptx`: a run whose module
/// links out must not be calibrated where it holds a case of that suite.
#[test]
fn calibrate_reads_no_module_out_of_its_tree() {
    let seed = std::fs::read("fuzz/seeds/calibrate/pointwise-same-module").unwrap();
    with_every_link(&seed, &[0b1_0000, 0b1_0001, 0b11_0000, 0b11_1011], 24, fuzz_api::calibrate);
}

#[test]
fn peers_that_record_their_rotation_after_their_first_record_are_not_pooled_as_alike() {
    // Found by the `bench_pool` target's new check, on its seed `peers-rotation-odd` (this is
    // that seed cut down): `bench-report --with-same-code` took the peers' rotation from their
    // first record alone, so a run whose second record says `per-invocation` was pooled with
    // one whose peers took their sets per entry, which `calibrate` and the recheck
    // (`Meta::peer_rotation`) tell apart.
    let input = std::fs::read("tests/fuzz_inputs/bench-pool-peer-rotation-second-record").unwrap();
    fuzz_api::bench_pool(&input);
}

/// Two pointwise runs for the `calibrate` target (`ptx/pointwise.ptx` laid out as each run's
/// fourth file) whose module is `module`.
fn pointwise_runs_with_module(module: &str) -> Vec<u8> {
    let meta = r#"{"status":"accepted","suites":["pointwise"],"cases":[{"suite":"pointwise","case":"n=8","shape":[8],"rotation_sets":1,"bytes_per_set":32,"timing_fixture_seed":1,"variants":["fused"],"modes":["graph"],"logical_bytes":{},"dispatch":null}]}"#;
    let samples = (0..3)
        .map(|round| format!(r#"{{"suite":"pointwise","case":"n=8","variant":"fused","mode":"graph","round":{round},"order":0,"host_us":{},"device_us":1.0}}"#, 10 + round))
        .collect::<Vec<_>>()
        .join("\n");
    let run = [meta, "", &samples, module].join("\n---\n");
    let mut input = vec![0b1_0000u8, 0];
    // Both modules end with the line break the first one's `---` leaves it, so that they agree.
    input.extend_from_slice(format!("{run}\n---\n{run}\n").as_bytes());
    input
}

#[test]
fn a_huge_hostile_pointwise_module_is_read_in_linear_time() {
    // `ptx::module_hashes` took, for every `.entry `, the rest of its line, and looked every
    // name up from the start of the module: 4 MiB of `.entry ` on one line took two minutes,
    // many `.entry ` before one `(` made names as long as the module, and many heads without
    // a closing brace read the module once each. Each of these now takes well under a second.
    let heads: String = (0..65_536).map(|n| format!(".entry k{n}(\n")).collect();
    for (what, module) in [
        ("4 MiB of `.entry ` without `(`", ".entry ".repeat((4 << 20) / 7)),
        ("256 KiB of `.entry ` before one `(`", format!("{}(\n", ".entry ".repeat((256 << 10) / 7))),
        ("65,536 heads without a closing brace", heads),
    ] {
        let started = std::time::Instant::now();
        fuzz_api::calibrate(&pointwise_runs_with_module(&module));
        assert!(started.elapsed().as_secs_f64() < 5.0, "{what}: {:?}", started.elapsed());
    }
}

/// The `ptx` target's seeds: real dispatched entries and modules, and a hand-made module with
/// an entry left open, a name with a space, a name twice and `.entry ` with no `(`.
#[test]
fn ptx_seeds_are_read_as_entries_and_as_modules() {
    for seed in std::fs::read_dir("fuzz/seeds/ptx").unwrap() {
        fuzz_api::ptx_entry(&std::fs::read(seed.unwrap().path()).unwrap());
    }
}

/// A definition (`\def`, `\newif`, `\let`) whose name is a character of two bytes, in the
/// preamble the definitions are read from: the name was read from inside the character.
#[test]
fn a_definition_before_a_character_of_two_bytes() {
    for source in ["\\def\\defµ 1 ms\n", "\\newif µ\n\\begin{document}\n2 ms\n\\end{document}\n", "\\let\\letµ 3 ms\n", "\\let µ\\x 4 ms\n", "\\futurelet µ 5 ms\n"] {
        fuzz_api::parse_article(source.as_bytes());
    }
}

/// The `article` target's seeds of manuscripts split into files (its parts at zero bytes, part N
/// the file `article/pN.tex` or `.rst`), which nest, repeat and bring themselves in: every
/// sentence and warning placed at a line of a file read.
#[test]
fn manuscripts_split_into_files_are_read_and_placed() {
    for seed in ["inputs-latex.tex", "inputs-rst.rst"] {
        fuzz_api::parse_article(&std::fs::read(format!("fuzz/seeds/article/{seed}")).unwrap());
    }
}
