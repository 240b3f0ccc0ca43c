//! Each case copies the example fixture, makes one edit, runs `claimcheck audit` on the copy
//! and asserts the exit code and the text that must appear. The table is the test.

use std::path::Path;

use crate::support;
use std::process::Command;
use support::copy_dir;

struct Case {
    name: &'static str,
    /// (file in the fixture, text to find, replacement). An empty find appends.
    edits: &'static [(&'static str, &'static str, &'static str)],
    code: i32,
    /// Substrings of stdout followed by stderr, in any order.
    expect: &'static [&'static str],
}

const ARTICLE: &str = "article/example.md";
const CLAIMS: &str = "claims/example.toml";
const SAMPLES: &str = "evidence/runs/example-run/samples.jsonl";

const CASES: &[Case] = &[
    Case {
        name: "a changed latency fails naming the claim and the audited, draft and evidence values",
        edits: &[(ARTICLE, "47.81 µs", "48.81 µs")],
        code: 1,
        expect: &["E2 stat 48.81 µs: FAIL: audited 47.81 µs, draft 48.81 µs, evidence 47.81 µs", "CHANGED"],
    },
    Case { name: "a changed ratio fails", edits: &[(ARTICLE, "1.70×", "1.90×")], code: 1, expect: &["E3 arith 1.90×: FAIL: audited 1.70×, draft 1.90×, evidence 1.70×"] },
    Case {
        name: "a removed sentence is located in the registry",
        edits: &[(ARTICLE, "On ordinary streams the fused kernel took 52.18 µs.\n", "")],
        code: 2,
        expect: &["claim `E4`: its quote matches no sentence of article/example.md", "--> claims/example.toml:"],
    },
    Case {
        name: "a wrong manuscript hash needs attention",
        edits: &[(CLAIMS, "sha256 = \"5", "sha256 = \"6")],
        code: 1,
        expect: &["article/example.md: SHA-256 5ac325a4e151 differs from the 6ac325a4e151 recorded in claims/example.toml"],
    },
    Case {
        name: "malformed toml is located",
        edits: &[(CLAIMS, "[[claim]]\nid = \"E1\"", "[[claim]\nid = \"E1\"")],
        code: 2,
        expect: &["error: invalid registry", "--> claims/example.toml:"],
    },
    Case {
        name: "an unknown check kind is located",
        edits: &[(CLAIMS, "kind = \"validation\"", "kind = \"validaton\"")],
        code: 2,
        expect: &["unknown check kind `validaton`", "expected one of: stat, arith"],
    },
    Case {
        name: "an unknown key is located",
        edits: &[(CLAIMS, "finding = \"Measured from the trace's own timestamps.\"", "finding = \"x\"\nfindng = \"y\"")],
        code: 2,
        expect: &["unknown field `findng`", "--> claims/example.toml:"],
    },
    Case {
        name: "a duplicate id is located",
        edits: &[(CLAIMS, "id = \"E5\"", "id = \"E4\"")],
        code: 2,
        expect: &["claim id `E4` is used twice", "first used at claims/example.toml:"],
    },
    Case {
        name: "a quote that matches two sentences is ambiguous",
        edits: &[(ARTICLE, "", "\nFusion is usually worth trying first, again.\n")],
        code: 2,
        expect: &["claim `E9`: its quote matches 2 sentences", "quote more of the sentence"],
    },
    Case {
        name: "an undefined source is located",
        edits: &[(CLAIMS, "sources = [\"graphs\"]", "sources = [\"graph\"]")],
        code: 2,
        expect: &["cites source `graph`, which no [[source]] defines"],
    },
    Case {
        name: "a non-utf8 article is located",
        edits: &[(ARTICLE, "A small example", "A sm\u{0}ll example")],
        code: 2,
        expect: &["article/example.md is not UTF-8: invalid byte at line 3, column 5"],
    },
    Case {
        name: "a truncated sample line names its line",
        edits: &[(SAMPLES, "\"device_us\":41.208}", "\"device_us\":41.2")],
        code: 2,
        expect: &["evidence/runs/example-run/samples.jsonl: line 1: truncated JSON"],
    },
    Case {
        name: "a non-json sample line names its line",
        edits: &[(
            SAMPLES,
            "{\"suite\":\"softmax\",\"case\":\"4096x4096\",\"variant\":\"four-kernel\",\"mode\":\"graph\",\"round\":0",
            "garbage{\"suite\":\"softmax\",\"case\":\"4096x4096\",\"variant\":\"four-kernel\",\"mode\":\"graph\",\"round\":0",
        )],
        code: 2,
        expect: &["samples.jsonl: line 2: not valid JSON"],
    },
    Case { name: "a nan sample is refused", edits: &[(SAMPLES, "\"host_us\":47.928", "\"host_us\":NaN")], code: 2, expect: &["samples.jsonl: line 1: not valid JSON"] },
    Case {
        name: "a negative sample is refused at its line",
        edits: &[(SAMPLES, "\"host_us\":47.928", "\"host_us\":-47.928")],
        code: 2,
        expect: &["samples.jsonl: line 1: `host_us` is negative (-47.928)"],
    },
    Case {
        name: "an absent sample value is refused at its line",
        edits: &[(SAMPLES, "\"host_us\":47.928,", "")],
        code: 2,
        expect: &["samples.jsonl: line 1: no `host_us` in this sample"],
    },
    Case {
        name: "a missing evidence file is located in the registry",
        edits: &[(CLAIMS, "file = \"evidence/runs/example-run/validation.jsonl\"", "file = \"evidence/runs/example-run/validations.jsonl\"")],
        code: 2,
        expect: &["file `evidence/runs/example-run/validations.jsonl` does not exist", "--> claims/example.toml:"],
    },
    Case {
        name: "a path with parent components is refused",
        edits: &[(CLAIMS, "file = \"kernels/softmax.cu\"", "file = \"../example/kernels/softmax.cu\"")],
        code: 2,
        expect: &["climbs out of the repository root"],
    },
    Case {
        name: "an absolute path is refused",
        edits: &[(CLAIMS, "file = \"kernels/softmax.cu\"", "file = \"/etc/passwd\"")],
        code: 2,
        expect: &["path `/etc/passwd` is absolute"],
    },
    Case {
        name: "an edited evidence file fails its manifest and its summary",
        edits: &[(SAMPLES, "\"host_us\":47.928", "\"host_us\":49.928")],
        code: 1,
        expect: &["samples.jsonl: sha256 is"],
    },
    Case {
        name: "a new number that nothing checks is unbound",
        edits: &[(ARTICLE, "", "\nA new sentence claims 12.5 µs.\n")],
        code: 1,
        expect: &["article/example.md:28:23: unbound number `12.5 µs`"],
    },
    Case {
        name: "a sentence recorded as wrong passes while it stays wrong",
        edits: &[(CLAIMS, "  number = \"1.70×\"\n", "  number = \"1.70×\"\n  expect = \"mismatch\"\n")],
        code: 1,
        expect: &["the registry records this number as wrong, but it now matches"],
    },
];

fn run_case(case: &Case) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new("tests/fixtures/example"), dir.path());
    for (file, find, replace) in case.edits {
        let path = dir.path().join(file);
        let mut bytes = std::fs::read(&path).unwrap();
        if find.is_empty() {
            bytes.extend_from_slice(replace.as_bytes());
        } else {
            let text = String::from_utf8(bytes).unwrap();
            if !text.contains(find) {
                return Err(format!("edit target `{find}` not in {file}"));
            }
            bytes = text.replacen(find, replace, 1).into_bytes();
            // A NUL in the replacement stands for a byte that is not UTF-8.
            for b in bytes.iter_mut() {
                if *b == 0 {
                    *b = 0xff;
                }
            }
        }
        std::fs::write(&path, bytes).unwrap();
    }
    let before = snapshot(dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["audit", "--root"]).arg(dir.path()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    if out.status.code() != Some(case.code) {
        problems.push(format!("exit {:?}, expected {}", out.status.code(), case.code));
    }
    for want in case.expect {
        if !text.contains(want) {
            problems.push(format!("output lacks `{want}`"));
        }
    }
    if text.contains("panicked") {
        problems.push("the tool panicked".into());
    }
    if snapshot(dir.path()) != before {
        problems.push("the audit changed files under the root".into());
    }
    if problems.is_empty() { Ok(()) } else { Err(format!("{}\n--- output ---\n{text}", problems.join("; "))) }
}

/// Every file under `dir` with its bytes, to prove the audit writes nothing.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = claimcheck::evidence::list_files(dir)
        .unwrap()
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(dir.join(&f)).unwrap();
            (f, bytes)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_mutation_gives_its_outcome() {
    let failures: Vec<String> = CASES.iter().filter_map(|c| run_case(c).err().map(|e| format!("case `{}`: {e}", c.name))).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_pristine_fixture_passes() {
    let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["audit", "--root", "tests/fixtures/example"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_symlink_out_of_the_root_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new("tests/fixtures/example"), &dir.path().join("repo"));
    std::fs::write(dir.path().join("secret.cu"), "__syncthreads()").unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.cu"), dir.path().join("repo/kernels/link.cu")).unwrap();
    let claims = dir.path().join("repo/claims/example.toml");
    let text = std::fs::read_to_string(&claims).unwrap().replace("file = \"kernels/softmax.cu\"", "file = \"kernels/link.cu\"");
    std::fs::write(&claims, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["audit", "--root"]).arg(dir.path().join("repo")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("leads outside the repository root through a symbolic link"));
}
