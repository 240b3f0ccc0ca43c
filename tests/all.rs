//! Every integration test, one module a file of `tests/`, in one test binary (`autotests =
//! false` in Cargo.toml): one crate to compile and link instead of 31, and one harness that runs
//! every test on every core instead of one binary after another. On a clean clone with two
//! cores (2026-12-07) the test crates compiled in 121 s instead of 143 s, and the integration
//! tests ran in 79 s instead of about 115 s, a minute of CI's ten. A test that needs its own
//! process state (a working directory, an environment variable) would now share it: none does.

mod support;

#[path = "architecture.rs"]
mod architecture;
#[path = "asv.rs"]
mod asv;
#[path = "bench_report.rs"]
mod bench_report;
#[path = "benchmarkdotnet_log.rs"]
mod benchmarkdotnet_log;
#[path = "bounds.rs"]
mod bounds;
#[path = "ci_formats.rs"]
mod ci_formats;
#[path = "cmd.rs"]
mod cmd;
#[path = "draft.rs"]
mod draft;
#[path = "examples.rs"]
mod examples;
#[path = "fixture_gen.rs"]
mod fixture_gen;
#[path = "fuzz_regressions.rs"]
mod fuzz_regressions;
#[path = "html.rs"]
mod html;
#[path = "html_tables.rs"]
mod html_tables;
#[path = "init.rs"]
mod init;
#[path = "jmh_error.rs"]
mod jmh_error;
#[path = "labels.rs"]
mod labels;
#[path = "malformed.rs"]
mod malformed;
#[path = "manuscript_inputs.rs"]
mod manuscript_inputs;
#[path = "mutations.rs"]
mod mutations;
#[path = "ncu.rs"]
mod ncu;
#[path = "nsight_console.rs"]
mod nsight_console;
#[path = "nsys.rs"]
mod nsys;
#[path = "pyperf.rs"]
mod pyperf;
#[path = "readme.rs"]
mod readme;
#[path = "recheck.rs"]
mod recheck;
#[path = "recheck_harness.rs"]
mod recheck_harness;
#[path = "review.rs"]
mod review;
#[path = "rust_bench_console.rs"]
mod rust_bench_console;
#[path = "scope.rs"]
mod scope;
#[path = "serving_console.rs"]
mod serving_console;
#[path = "shipped.rs"]
mod shipped;
#[path = "suggest.rs"]
mod suggest;
#[path = "table_names.rs"]
mod table_names;
