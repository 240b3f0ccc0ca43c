//! CLI behaviour as data: each `tests/cmd/*.toml` is one command with its expected exit code,
//! and its `.stdout` / `.stderr` files are the expected output.

#[test]
fn cli_cases() {
    trycmd::TestCases::new().case("tests/cmd/*.toml");
}
