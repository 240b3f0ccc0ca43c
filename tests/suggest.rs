//! `suggest` on the external examples: with every `stat` check of a registry removed (and every
//! `arith` ratio of two `stat` variables), the binding it proposes first for a number is the one
//! that was removed, for at least 80 % of the numbers. The share is printed for each example.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support;
use support::{claimcheck, copy_dir, paste_and_audit, suggested_over};

/// What a claim binds to, comparable between the registry and `suggest`'s output.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Quote(String),
    Cell(String, String, Option<String>),
}

/// A `stat` query reduced to what decides its value.
type Query = (String, BTreeMap<String, String>, Option<String>, String, String);

/// The checks removed from a registry, by what they bind: target and number (None: the cell's
/// one number).
type Removed = Vec<((Target, Option<String>), Vec<Binding>)>;

#[derive(Debug, Clone, PartialEq)]
enum Binding {
    Stat(Query),
    Ratio(Query, Query),
    /// hyperfine's spread of the ratio of two means: the two means' queries.
    RatioSpread(Query, Query),
    /// benchstat's p-value: the base's and the new side's records (no statistic).
    UTest(Query, Query),
    /// A change in percent from the base to the new side: one statistic each, or for
    /// benchstat's `geomean` row several, sorted.
    Change(Vec<Query>, Vec<Query>),
    /// A geometric mean of statistics, sorted.
    Geomean(Vec<Query>),
    /// A row's statistic against the least of it and the other rows' (sorted), the best of its
    /// table: `this / min(this, …)`, or `min(this, …) / this` in a column of rates.
    ToBest(Query, Vec<Query>, bool),
}

/// A row against the best of its table, where `expr` is `this / min(this, …)` or
/// `min(this, …) / this` over `vars`.
fn to_best(expr: &str, vars: &toml::Table) -> Option<Binding> {
    let compact: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let (rate, inner) = match (compact.strip_prefix("this/min("), compact.strip_prefix("min(")) {
        (Some(rest), _) => (false, rest.strip_suffix(')')?),
        (None, Some(rest)) => (true, rest.strip_suffix(")/this")?),
        _ => return None,
    };
    let names: Vec<&str> = inner.split(',').collect();
    if names.first() != Some(&"this") {
        return None;
    }
    let get = |name: &str| vars.get(name).and_then(|v| v.as_table()).map(query);
    let mut rivals = names[1..].iter().map(|n| get(n)).collect::<Option<Vec<Query>>>()?;
    rivals.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    Some(Binding::ToBest(get("this")?, rivals, rate))
}

/// The two variables of hyperfine's spread of a ratio, `X / Y * sqrt((X_sd / X) ^ 2 + (Y_sd /
/// Y) ^ 2)`, whatever they are named, where `expr` is that; the standard deviations must be
/// the same queries' `stdev`.
fn ratio_spread(expr: &str, vars: &toml::Table) -> Option<(Query, Query)> {
    let compact: String = expr.split_whitespace().collect();
    let (ratio, rest) = compact.split_once("*sqrt((")?;
    let (x, y) = ratio.split_once('/')?;
    if rest != format!("{x}_sd/{x})^2+({y}_sd/{y})^2)") {
        return None;
    }
    let get = |name: &str| vars.get(name).and_then(|v| v.as_table()).map(query);
    let (qx, qy, sx, sy) = (get(x)?, get(y)?, get(&format!("{x}_sd"))?, get(&format!("{y}_sd"))?);
    let as_stdev = |q: &Query| (q.0.clone(), q.1.clone(), q.2.clone(), q.3.clone(), "stdev".to_string());
    (qx.4 == "mean" && qy.4 == "mean" && sx == as_stdev(&qx) && sy == as_stdev(&qy)).then_some((qx, qy))
}

fn normal(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn target(claim: &toml::Table) -> Target {
    match (claim.get("quote"), claim.get("cell")) {
        (Some(q), _) => Target::Quote(normal(q.as_str().unwrap())),
        (None, Some(c)) => {
            Target::Cell(c["row"].as_str().unwrap().to_string(), c["column"].as_str().unwrap().to_string(), c.get("section").map(|s| s.as_str().unwrap().to_string()))
        }
        _ => panic!("a claim without quote or cell: {claim:?}"),
    }
}

/// A stat query: its file, equal fields, filter, field (a derived one by its expression) and
/// statistic.
fn query(t: &toml::Table) -> Query {
    let select = t
        .get("select")
        .and_then(|s| s.as_table())
        .map(|s| s.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect())
        .unwrap_or_default();
    let field = t["field"].as_str().unwrap().to_string();
    let field = match t.get("derive").and_then(|d| d.as_table()).and_then(|d| d.get(&field)) {
        Some(expr) => format!("derive {}", normal(expr.as_str().unwrap())),
        None => field,
    };
    let statistic = t.get("statistic").map_or("", |s| s.as_str().unwrap()).to_string();
    (t["samples"].as_str().unwrap().to_string(), select, t.get("where").map(|w| normal(w.as_str().unwrap())), field, statistic)
}

/// The arithmetic of benchstat's changes and geometric means, whatever its variables are
/// named and however it is written: `(new / old - 1) * 100`; a geometric mean as a root of a
/// product or as `exp` of a mean of `ln`; a change of geometric means, whose variables of the
/// new side start with `n` and of the base with `o`.
fn benchstat_arith(expr: &str, vars: &toml::Table) -> Option<Binding> {
    let compact: String = expr.split_whitespace().collect();
    let get = |name: &str| vars.get(name).and_then(|v| v.as_table()).map(query);
    let sorted = |mut q: Vec<Query>| {
        q.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        q
    };
    if let Some(ratio) = compact.strip_prefix('(').and_then(|r| r.strip_suffix("-1)*100")) {
        let (a, b) = ratio.split_once('/')?;
        return Some(Binding::Change(vec![get(a)?], vec![get(b)?]));
    }
    let all: Vec<Query> = vars.iter().filter_map(|(_, v)| v.as_table().map(query)).collect();
    if compact.ends_with("*100-100") {
        let side = |prefix: char| sorted(vars.iter().filter(|(k, _)| k.starts_with(prefix)).filter_map(|(_, v)| v.as_table().map(query)).collect());
        return Some(Binding::Change(side('n'), side('o')));
    }
    (compact.starts_with("exp((ln(") || compact.contains(")^(1/")).then(|| Binding::Geomean(sorted(all)))
}

/// A check's binding, where it is one `suggest` could propose.
fn binding(check: &toml::Table) -> Option<Binding> {
    match check["kind"].as_str().unwrap() {
        "stat" => Some(Binding::Stat(query(check))),
        "utest" => Some(Binding::UTest(query(check["base"].as_table()?), query(check["new"].as_table()?))),
        "arith" => {
            let vars = check.get("vars")?.as_table()?;
            let expr = check["expr"].as_str().unwrap();
            if let Some((a, b)) = ratio_spread(expr, vars) {
                return Some(Binding::RatioSpread(a, b));
            }
            if let Some(b) = benchstat_arith(expr, vars) {
                return Some(b);
            }
            if let Some(b) = to_best(expr, vars) {
                return Some(b);
            }
            // Otherwise only a plain `a / b` of two variables is a ratio `suggest` could propose.
            let (a, b) = expr.split_once('/')?;
            let (a, b) = (vars.get(a.trim())?.as_table()?, vars.get(b.trim())?.as_table()?);
            Some(Binding::Ratio(query(a), query(b)))
        }
        _ => None,
    }
}

/// Removes the checks `suggest` could propose from the example's registry in `root`, and
/// returns them grouped by target and number (None: the cell's one number).
fn strip(root: &Path, registry: &str) -> Removed {
    let path = root.join(registry);
    let mut table: toml::Table = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut removed: Removed = Vec::new();
    for claim in table.get_mut("claim").unwrap().as_array_mut().unwrap() {
        let claim = claim.as_table_mut().unwrap();
        let target = target(claim);
        let Some(checks) = claim.get_mut("check").and_then(|c| c.as_array_mut()) else { continue };
        checks.retain(|c| {
            let c = c.as_table().unwrap();
            let Some(b) = binding(c) else { return true };
            // A check without a number in a sentence binds none of its numbers.
            if c.get("number").is_none() && matches!(target, Target::Quote(_)) {
                return true;
            }
            let key = (target.clone(), c.get("number").map(|n| n.as_str().unwrap().to_string()));
            match removed.iter_mut().find(|(k, _)| *k == key) {
                Some((_, bs)) => bs.push(b),
                None => removed.push((key, vec![b])),
            }
            false
        });
        // A number stays bound while any check verifies it, so the checks that `suggest` could
        // not propose go too where they verify a number whose proposable check was removed (a
        // `compare` beside the `arith` ratio of the same cell).
        checks.retain(|c| {
            let key = (target.clone(), c.as_table().unwrap().get("number").map(|n| n.as_str().unwrap().to_string()));
            key.1.is_none() || !removed.iter().any(|(k, _)| *k == key)
        });
    }
    std::fs::write(&path, toml::to_string(&table).unwrap()).unwrap();
    removed
}

/// The share of removed numbers whose first proposal is a removed binding of that number.
fn share(example: &str) -> (usize, usize) {
    share_of(example, &format!("claims/{example}.toml"))
}

/// [`share`] for an example whose registry is not named after it.
fn share_of(example: &str, registry: &str) -> (usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&Path::new("examples").join(example), dir.path());
    let removed = strip(dir.path(), registry);
    let (code, out, err) = claimcheck(["suggest", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let proposed: toml::Table = toml::from_str(&out).unwrap_or_else(|e| panic!("suggest's output is not TOML: {e}\n{out}"));
    let proposals: Vec<(Target, String, Binding)> = proposed["claim"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let c = c.as_table().unwrap();
            let check = c["check"].as_array().unwrap()[0].as_table().unwrap();
            (target(c), check["number"].as_str().unwrap().to_string(), binding(check).unwrap())
        })
        .collect();
    let mut hits = 0;
    let mut misses = Vec::new();
    for ((target, number), bindings) in &removed {
        let first = proposals.iter().find(|(t, n, _)| {
            let same_target = match (t, target) {
                (Target::Quote(s), Target::Quote(q)) => s.contains(q.as_str()),
                _ => t == target,
            };
            same_target && number.as_ref().is_none_or(|want| normal(want) == normal(n))
        });
        match first {
            Some((_, _, b)) if bindings.contains(b) => hits += 1,
            other => misses.push(format!("{target:?} {number:?}: proposed {:?}", other.map(|(_, _, b)| b))),
        }
    }
    println!("{example}: the removed binding is the first proposal for {hits} of {} numbers ({:.1} %)", removed.len(), 100.0 * hits as f64 / removed.len() as f64);
    for m in misses.iter().take(40) {
        println!("  missed: {m}");
    }
    (hits, removed.len())
}

#[test]
fn suggest_proposes_the_removed_binding_first_for_most_llmperf_numbers() {
    let (hits, n) = share("llmperf-leaderboard");
    assert!(n >= 224, "{n}");
    assert!(hits * 5 >= n * 4, "{hits} of {n}");
}

/// hyperfine's `--export-markdown` tables: units in the headers' brackets (`Mean [ms]`), a spread
/// after `±`, speed-ups in a `Relative` column without `×`, each with hyperfine's spread of the
/// ratio after it, and commands as row labels that are long and quote JSON. Every number is
/// proposed first as the registry binds it, the 27 spreads of ratios by hyperfine's formula.
#[test]
fn suggest_proposes_the_removed_binding_first_for_every_dasel_number() {
    let (hits, n) = share("dasel-benchmarks");
    assert_eq!((hits, n), (207, 207));
}

/// criterion-table's cells: every time and every speed-up of another column over the baseline.
/// The baseline column's twelve `1.00x` are labels of their claims, not checks, and stay bound
/// while the checks are stripped ([`a_baseline_s_ratio_to_itself_is_proposed_as_a_label_not_a_check`]).
#[test]
fn suggest_proposes_the_removed_binding_first_for_every_anvil_number() {
    let (hits, n) = share("anvil-benchmarks");
    assert_eq!((hits, n), (62, 62));
}

#[test]
fn suggest_says_when_candidates_tie() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new("examples/anvil-benchmarks"), dir.path());
    strip(dir.path(), "claims/anvil-benchmarks.toml");
    let (code, out, _) = claimcheck(["suggest", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0);
    // "1000 iterations" is the count of every one of the 36 benchmarks alike.
    let at = out.find("`1000` in \"The benchmarks were all performed over 1000 iterations.\"").unwrap();
    assert!(out[at..].lines().nth(1).unwrap().starts_with("# 36 candidates tie"), "{}", &out[at..at + 400]);
    // A time cell has one reading: the mean of its benchmark, not tied with its median.
    let at = out.find("`670.99 ms` in cell Block: 0, TotalGas: 30,312,275 › Ipc").unwrap();
    assert!(!out[at..].lines().nth(1).unwrap().contains("tie"), "{}", &out[at..at + 400]);
}

/// itsy.bitsy's Google Benchmark console tables name each row's benchmark, and every cell of
/// the 344 is bound: 31 hold, 313 are recorded as wrong. A proposal for a row reads only that
/// benchmark's repetitions. Before, a statistic of any benchmark that happened to round to the
/// quote was proposed, 152 proposals in all (`copy_base`'s 224000 iterations from `fill_base`,
/// counts from all of a file's records); now 47, none from another benchmark or from all records.
/// The registry's binding comes first for 24 of the 31 numbers that hold: five quoted zeros tie
/// with other statistics of zeros, and two counts are found first in the other library's file.
#[test]
fn suggest_reads_a_console_row_only_from_its_own_benchmark() {
    let (hits, n) = share("itsy-bitsy-benchmarks");
    assert_eq!((hits, n), (24, 344));
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new("examples/itsy-bitsy-benchmarks"), dir.path());
    strip(dir.path(), "claims/itsy-bitsy-benchmarks.toml");
    let (code, out, err) = claimcheck(["suggest", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 47);
    for c in claims {
        let row = c["cell"]["row"].as_str().unwrap();
        let check = &c["check"].as_array().unwrap()[0];
        assert_eq!(check["select"].get("name").and_then(|v| v.as_str()), Some(row), "{c:?}");
    }
}

/// great_expectations' contributing guide pastes pytest-benchmark's tables, one of them
/// `pytest-benchmark compare`'s, whose rows append the run they came from to the benchmark's
/// name (`test_taxi_trips_benchmark[1-True-V3] (initial_base)`: the first 12 characters of
/// the run's file name). A row is proposed only its own benchmark's statistics (pytest-benchmark
/// gives each of these slow benchmarks one round, so a benchmark is one record of its file), and
/// a compared row only those of its run's files; the row of a run no file holds (`2114_work`)
/// is proposed nothing. Before, the one-record benchmarks did not count as selections at all
/// (a field of that many values was taken for data, not names), and the rows were proposed
/// statistics of all twelve V3 records of a file. Of the 14 numbers the registry binds with a
/// `stat` check, the binding is proposed first for the 6 that hold (a standard deviation, the
/// rounds and iterations, `Iterations` read as the `iterations` field rather than a count);
/// the other 8 are the recorded-wrong 5.0488 s, which nothing reproduces.
#[test]
fn suggest_reads_a_compared_row_only_from_its_own_run() {
    let (hits, n) = share("great-expectations-performance");
    assert_eq!((hits, n), (6, 14));
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new("examples/great-expectations-performance"), dir.path());
    strip(dir.path(), "claims/great-expectations-performance.toml");
    let (code, out, err) = claimcheck(["suggest", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    let mut rows = BTreeMap::new();
    for c in claims {
        let row = c["cell"]["row"].as_str().unwrap();
        *rows.entry(row.to_string()).or_insert(0) += 1;
        let check = &c["check"].as_array().unwrap()[0];
        let vars: Vec<&toml::Value> = match check.get("vars") {
            Some(v) => v.as_table().unwrap().values().collect(),
            None => vec![check],
        };
        for v in vars {
            assert_eq!(v["select"]["name"].as_str(), Some("test_taxi_trips_benchmark[1-True-V3]"), "{c:?}");
            if row.ends_with("(initial_base)") {
                assert!(v["samples"].as_str().unwrap().starts_with("evidence/results/initial_baseline_run_"), "{c:?}");
            }
        }
    }
    assert!(!rows.keys().any(|r| r.ends_with("(2114_work)")), "{rows:?}");
    assert_eq!(rows.len(), 2, "{rows:?}");
}

/// A fresh root holding `article` as `article/a.md` and the example file `evidence` under
/// `evidence/`, with the registry `init` starts for it: what `suggest` proposes there, as text.
fn suggested(evidence: &str, article: &str) -> (tempfile::TempDir, String) {
    suggested_over(article, |root| {
        std::fs::copy(evidence, root.join("evidence").join(Path::new(evidence).file_name().unwrap())).unwrap();
    })
}

/// READMEs paste pytest-benchmark's table as a Markdown pipe table. Over great_expectations'
/// own pytest-benchmark JSON (times in seconds), a table quoting two of its benchmarks in
/// milliseconds, with the ratios to each column's best, is proposed a check for every number:
/// each time its benchmark's statistic in ms, each ratio of times that benchmark's statistic
/// over the best's, and the ratio in the `OPS` column the best's mean over the row's (a higher
/// rate is better, and pytest-benchmark's OPS is 1 / Mean). The test's id gives no number.
/// Pasted into the registry, the proposals bind everything and hold.
#[test]
fn a_pytest_benchmark_pipe_table_is_proposed_its_checks_in_its_units() {
    let article = "# Taxi trips\n\n| Name (time in ms) | Min | Mean | OPS | Rounds |\n|---|---|---|---|---|\n| test_taxi_trips_benchmark[1-False-V2] | 5,255.8394 (1.21) | 5,255.8394 (1.21) | 0.1903 (0.83) | 1 |\n| test_taxi_trips_benchmark[1-False-V3] | 4,358.4991 (1.0) | 4,358.4991 (1.0) | 0.2294 (1.0) | 1 |\n";
    let (dir, out) = suggested("examples/great-expectations-performance/evidence/results/initial_baseline_run_1.json", article);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 14, "{out}");
    assert!(claims.iter().all(|c| c["cell"]["column"].as_str() != Some("Name (time in ms)")), "{out}");
    let claim = |row: &str, column: &str, number: &str| {
        claims
            .iter()
            .find(|c| c["cell"]["row"].as_str() == Some(row) && c["cell"]["column"].as_str() == Some(column) && c["check"][0]["number"].as_str() == Some(number))
            .unwrap_or_else(|| panic!("nothing proposed for {number} in {row} › {column}:\n{out}"))
    };
    let v2 = "test_taxi_trips_benchmark[1-False-V2]";
    let min = &claim(v2, "Min", "5,255.8394")["check"][0];
    assert_eq!((min["statistic"].as_str(), min["select"]["name"].as_str()), (Some("min"), Some(v2)));
    let ops_ratio = &claim(v2, "OPS", "0.83")["check"][0];
    assert_eq!(ops_ratio["kind"].as_str(), Some("arith"), "{ops_ratio:?}");
    let vars = ops_ratio["vars"].as_table().unwrap();
    let sides: Vec<(&str, &str)> = vars.values().map(|v| (v["statistic"].as_str().unwrap(), v["select"]["name"].as_str().unwrap())).collect();
    assert!(sides.contains(&("mean", "test_taxi_trips_benchmark[1-False-V3]")) && sides.contains(&("mean", v2)), "{ops_ratio:?}");
    // The best's mean is the dividend: `a / b` with `a` the V3 benchmark.
    let expr = ops_ratio["expr"].as_str().unwrap();
    let dividend = expr.split('/').next().unwrap().trim();
    assert_eq!(vars[dividend]["select"]["name"].as_str(), Some("test_taxi_trips_benchmark[1-False-V3]"), "{expr}");
    // The best's own `(1.0)` is its statistic against the other row's, not over itself; in the
    // column of rates, the least mean over the row's.
    let v3 = "test_taxi_trips_benchmark[1-False-V3]";
    assert_eq!(claim(v3, "Min", "1.0")["check"][0]["expr"].as_str(), Some("this / min(this, r1)"));
    let best_ops = &claim(v3, "OPS", "1.0")["check"][0];
    assert_eq!(best_ops["expr"].as_str(), Some("min(this, r1) / this"), "{best_ops:?}");
    assert_eq!((best_ops["vars"]["this"]["select"]["name"].as_str(), best_ops["vars"]["r1"]["select"]["name"].as_str()), (Some(v3), Some(v2)));

    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("14 checks: 14 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers; all claims hold"), "{stdout}");
}

/// hyperfine's console output pasted into a code block, as READMEs and commit messages quote
/// it, over hyperfine's own JSON export of the same run (dasel's `root_object.json`, MIT; the
/// output laid out from it as hyperfine prints it). Every benchmark is a row named by its
/// command: its mean and σ, minimum and maximum, and run count are proposed from the export's
/// per-run times, and each summary line (`1.33 ± 0.09 times faster than 'dasel …'`) as the
/// other command's mean over the fastest's, with hyperfine's spread of that ratio. The user and
/// system times are means the export keeps without their runs, so nothing recomputes them:
/// they stay unbound, and a `json` check of the export states one.
#[test]
fn hyperfine_console_output_is_proposed_its_checks_from_the_export() {
    let (dir, out) = suggested("examples/dasel-benchmarks/evidence/data/root_object.json", HYPERFINE_ARTICLE);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    let check = |row: &str, column: &str, number: &str| {
        claims
            .iter()
            .flat_map(|c| c["check"].as_array().unwrap().iter().map(move |k| (c, k)))
            .find(|(c, k)| c["cell"]["row"].as_str() == Some(row) && c["cell"]["column"].as_str() == Some(column) && k["number"].as_str() == Some(number))
            .map(|(_, k)| k.clone())
            .unwrap_or_else(|| panic!("nothing proposed for {number} in {row} › {column}:\n{out}"))
    };
    let v2 = "daselv2 -f benchmark/data.json";
    for (column, number, statistic) in
        [("Time (mean ± σ)", "6.6 ms", "mean"), ("Time (mean ± σ)", "0.2 ms", "stdev"), ("Range (min … max)", "6.1 ms", "min"), ("Range (min … max)", "7.2 ms", "max")]
    {
        let k = check(v2, column, number);
        assert_eq!((k["statistic"].as_str(), k["select"]["command"].as_str()), (Some(statistic), Some(v2)), "{number}: {k:?}");
    }
    let ratio = check(v2, "faster than yq --yaml-output '.' benchmark/data.yaml", "19.50");
    let vars = ratio["vars"].as_table().unwrap();
    let dividend = ratio["expr"].as_str().unwrap().split('/').next().unwrap().trim().to_string();
    assert_eq!(vars[&dividend]["select"]["command"].as_str(), Some("yq --yaml-output '.' benchmark/data.yaml"), "{ratio:?}");
    assert!(vars.values().all(|v| v["statistic"].as_str() == Some("mean")), "{ratio:?}");
    check(v2, "faster than dasel -f benchmark/data.json", "0.09");

    // One user time stated by a `json` check of the export, in the seconds the export keeps.
    let user = "\n[[claim]]\nid = \"user\"\ncell = { row = \"daselv2 -f benchmark/data.json\", column = \"User\" }\nverdict = \"retain\"\nfinding = \"hyperfine's mean user time.\"\n\n  [[claim.check]]\n  kind = \"json\"\n  number = \"3.4 ms\"\n  file = \"evidence/root_object.json\"\n  path = \"results[0].user\"\n  unit = \"s\"\n";
    let (code, stdout) = paste_and_audit(dir.path(), &format!("{out}{user}"));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("27 checks: 27 passed, 0 failed, 0 skipped, 0 errors; 7 unbound numbers"), "{stdout}");
    let unbound: Vec<&str> = stdout.lines().filter(|l| l.contains("unbound number `")).collect();
    assert_eq!(unbound.len(), 7, "{stdout}");
    assert!(unbound.iter().all(|l| l.contains(":53:") || l.contains(":69:") || l.contains(":70:") || l.contains(":71:")), "only User and System stay unbound: {unbound:?}");
}

/// The article of `hyperfine_console_output_is_proposed_its_checks_from_the_export`.
const HYPERFINE_ARTICLE: &str = r#"# Root object

Selecting the root object of a JSON file, timed by hyperfine:

```text
Benchmark 1: daselv2 -f benchmark/data.json
  Time (mean ± σ):      6.6 ms ±   0.2 ms    [User: 3.4 ms, System: 1.9 ms]
  Range (min … max):    6.1 ms …   7.2 ms    100 runs

Benchmark 2: dasel -f benchmark/data.json
  Time (mean ± σ):      8.7 ms ±   0.5 ms    [User: 4.7 ms, System: 2.8 ms]
  Range (min … max):    8.0 ms …  10.3 ms    100 runs

Benchmark 3: jq '.' benchmark/data.json
  Time (mean ± σ):     28.1 ms ±   0.7 ms    [User: 23.6 ms, System: 1.1 ms]
  Range (min … max):   27.0 ms …  31.5 ms    100 runs

Benchmark 4: yq --yaml-output '.' benchmark/data.yaml
  Time (mean ± σ):    127.9 ms ±   3.1 ms    [User: 101.1 ms, System: 22.7 ms]
  Range (min … max):  124.5 ms … 151.6 ms    100 runs

Summary
  'daselv2 -f benchmark/data.json' ran
    1.33 ± 0.09 times faster than 'dasel -f benchmark/data.json'
    4.28 ± 0.19 times faster than 'jq '.' benchmark/data.json'
    19.50 ± 0.84 times faster than 'yq --yaml-output '.' benchmark/data.yaml'
```
"#;

/// criterion's console output pasted into a code block, over cargo-criterion's messages of the
/// same run (anvil's `output.json`, MIT; the output laid out from the messages' `typical`
/// estimates and bounds as criterion prints them). Each benchmark is a row named by its id: the
/// point estimate is proposed as the mean of the run's samples (criterion's typical estimate
/// under flat sampling), and each bound as criterion's bound of the mean's bootstrap interval
/// over the same samples, which holds within the band where cargo-criterion's own draw lies.
#[test]
fn criterion_console_output_is_proposed_its_estimates_and_its_bounds() {
    let (dir, out) = suggested("examples/anvil-benchmarks/evidence/output.json", CRITERION_ARTICLE);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    let checks: Vec<(&str, &str)> = claims.iter().flat_map(|c| c["check"].as_array().unwrap()).map(|k| (k["number"].as_str().unwrap(), k["statistic"].as_str().unwrap())).collect();
    let row = |lower, mean, upper| [(lower, "criterion-lower"), (mean, "mean"), (upper, "criterion-upper")];
    let expected: Vec<(&str, &str)> = [row("4.0868 s", "4.1001 s", "4.1137 s"), row("3.3743 s", "3.3852 s", "3.3962 s"), row("1.7241 s", "1.7294 s", "1.7348 s")].concat();
    assert_eq!(checks, expected, "{out}");
    for c in claims {
        let k = &c["check"][0];
        assert_eq!(c["cell"]["column"].as_str(), Some("time"), "{c:?}");
        assert_eq!(k["select"]["id"].as_str(), c["cell"]["row"].as_str(), "{c:?}");
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("9 checks: 9 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{stdout}");
}

/// The article of `criterion_console_output_is_proposed_its_estimates_and_not_its_bounds`.
const CRITERION_ARTICLE: &str = r#"# Anvil

The first three benchmarks as criterion prints them:

```text
Benchmarking Sequential Simulation/Local_Http/Blocks 14,556,786 -> 14,556,795: Analyzing
Sequential Simulation/Local_Http/Blocks 14,556,786 -> 14,556,795
                        time:   [4.0868 s 4.1001 s 4.1137 s]
Benchmarking Sequential Simulation/Ipc/Blocks 14,556,786 -> 14,556,795: Analyzing
Sequential Simulation/Ipc/Blocks 14,556,786 -> 14,556,795
                        time:   [3.3743 s 3.3852 s 3.3962 s]
Benchmarking Sequential Simulation/ethers-reth/Blocks 14,556,786 -> 14,556,795: Analyzing
Sequential Simulation/ethers-reth/Blocks 14,556,786 -> 14,556,795
                        time:   [1.7241 s 1.7294 s 1.7348 s]
```
"#;

/// `go test -bench . -benchmem` output pasted into a code block, over the file the same run
/// wrote (`tests/fixtures/harness/go-bench/one.txt`, run on this project's machine). A run of
/// `-count 1` gives each benchmark one record, so each value is proposed as that line's
/// value: the median of its benchmark's one `time_ns`, `mb_per_s`, `bytes_per_op` or
/// `allocs_per_op`, the column's unit naming the field (`0 B/op` is the bytes, not the equal
/// allocations), and the count as `iterations`. Pasted into the registry, every check holds.
#[test]
fn go_benchmark_output_is_proposed_each_line_s_values() {
    let evidence = "tests/fixtures/harness/go-bench/one.txt";
    let pasted = std::fs::read_to_string(evidence).unwrap();
    let article = format!("# Sum\n\nOne run of each benchmark:\n\n```text\n{pasted}```\n");
    let (dir, out) = suggested(evidence, &article);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 14, "{out}");
    let check = |row: &str, column: &str| {
        let claim = claims
            .iter()
            .find(|c| c["cell"]["row"].as_str() == Some(row) && c["cell"]["column"].as_str() == Some(column))
            .unwrap_or_else(|| panic!("nothing proposed for {row} › {column}:\n{out}"));
        let k = &claim["check"][0];
        (
            k["number"].as_str().unwrap().to_string(),
            k["format"].as_str().unwrap().to_string(),
            k["select"]["name"].as_str().unwrap().to_string(),
            k["field"].as_str().unwrap().to_string(),
            k["statistic"].as_str().unwrap().to_string(),
        )
    };
    let expect = |number: &str, name: &str, field: &str| (number.to_string(), "go-bench".to_string(), name.to_string(), field.to_string(), "median".to_string());
    let sum = "BenchmarkSum/n=64";
    assert_eq!(check(sum, "ns/op"), expect("13.46", sum, "time_ns"));
    assert_eq!(check(sum, "MB/s"), expect("38036.85", sum, "mb_per_s"));
    assert_eq!(check(sum, "B/op"), expect("0", sum, "bytes_per_op"));
    assert_eq!(check(sum, "allocs/op"), expect("0", sum, "allocs_per_op"));
    assert_eq!(check(sum, "Iterations"), expect("88800712", sum, "iterations"));
    assert_eq!(check("BenchmarkItoa", "B/op"), expect("8", "BenchmarkItoa", "bytes_per_op"));
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("14 checks: 14 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers; all claims hold"), "{stdout}");
}

/// An article that quotes one number per benchmark of a `-count 5` run
/// (`tests/fixtures/harness/go-bench/count5.txt`), under a column that names the median: the
/// median of the benchmark's five `time_ns` samples is proposed, not their mean, which rounds
/// elsewhere (13.30 and 15.81), and the checks hold.
#[test]
fn a_median_of_a_go_count_run_is_proposed_from_its_samples() {
    let article = "# Sum\n\n| Benchmark | Median time (ns) |\n|---|---|\n| `BenchmarkSum/n=64` | 13.31 |\n| BenchmarkItoa | 15.84 |\n";
    let (dir, out) = suggested("tests/fixtures/harness/go-bench/count5.txt", article);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 2, "{out}");
    for c in claims {
        let k = &c["check"][0];
        assert_eq!((k["field"].as_str(), k["statistic"].as_str(), k["format"].as_str()), (Some("time_ns"), Some("median"), Some("go-bench")), "{c:?}");
        assert_eq!(k["select"]["name"].as_str(), c["cell"]["row"].as_str(), "{c:?}");
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("2 checks: 2 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers; all claims hold"), "{stdout}");
}

/// benchstat's table prints a row by the benchmark's name without Go's `Benchmark` prefix and
/// with its GOMAXPROCS suffix (`05TemplateLogVsLogf-4`), while the go-bench records are named
/// `Benchmark05TemplateLogVsLogf`. Over tattle's two raw outputs (examples/tattle-benchstat),
/// each median cell is proposed the median of its own row's benchmark in its own column's file;
/// before, two of these were proposed a statistic of the whole file that happened to round alike.
#[test]
fn a_benchstat_row_is_read_from_its_own_go_benchmark() {
    let article = "# Results\n\n```\n                      │    v0.1.3    │               v1.0.0                │\n                      │    sec/op    │    sec/op     vs base               │\n05TemplateLogVsLogf-4    5.590n ± 0%    5.604n ± 0%  +0.24% (p=0.021 n=30)\n10HandCoded-4            4.830n ± 1%    4.824n ± 0%       ~ (p=0.796 n=30)\n```\n";
    let (_dir, out) = suggested_over(article, |root| {
        for file in ["v0.1.3", "v1.0.0"] {
            std::fs::copy(Path::new("examples/tattle-benchstat/evidence").join(file), root.join("evidence").join(file)).unwrap();
        }
    });
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    let medians: Vec<(String, String, String, String)> = claims
        .iter()
        .filter(|c| c["cell"]["column"].as_str().is_some_and(|col| col.ends_with("sec/op")))
        .map(|c| {
            let k = &c["check"][0];
            let text = |v: &toml::Value| v.as_str().unwrap_or_default().to_string();
            (text(&c["cell"]["row"]), text(&k["samples"]), text(&k["select"]["name"]), text(&k["statistic"]))
        })
        .collect();
    let expect = |row: &str, file: &str, name: &str| (row.to_string(), format!("evidence/{file}"), name.to_string(), "median".to_string());
    assert_eq!(
        medians,
        [
            expect("05TemplateLogVsLogf-4", "v0.1.3", "Benchmark05TemplateLogVsLogf"),
            expect("05TemplateLogVsLogf-4", "v1.0.0", "Benchmark05TemplateLogVsLogf"),
            expect("10HandCoded-4", "v0.1.3", "Benchmark10HandCoded"),
            expect("10HandCoded-4", "v1.0.0", "Benchmark10HandCoded"),
        ],
        "{out}"
    );
}

/// benchstat's table in tattle's `stats/README.md` (examples/tattle-benchstat): with every check
/// removed, each of its 41 numbers is proposed first as the registry binds it, by where it
/// stands in the table: each median, each `± X%` as benchstat's interval of that median
/// (`median-ci`), each `p=` as the U test of the base's samples against the new file's, each
/// `n=30` as the count in both files, each change as the new median over the base's, and the
/// `geomean` row as the geometric mean of its column's medians and of the ratios. Before,
/// 29 had a candidate and the intervals were proposed the median of GOMAXPROCS (`4%`).
#[test]
fn suggest_proposes_the_removed_binding_first_for_every_tattle_benchstat_number() {
    let (hits, n) = share_of("tattle-benchstat", "claims/tattle-stats.toml");
    assert_eq!((hits, n), (41, 41));
}

/// BenchmarkDotNet's four GitHub reports in SAIB-Inc/Chrysalis (examples/chrysalis-benchmarkdotnet):
/// with every check removed, each of the 71 numbers is proposed first as the registry binds it:
/// the row's case by `name`, `Mean`, `StdDev`, `Min` and `Max` as those statistics of
/// `time_ns`, `Error` as the 99.9 % Student-t half-width, `Gen0` and `Gen1` from the collections
/// per 1000 operations, `Allocated` from the bytes per operation in MiB, and `Code Size` from the
/// report's own `-asm.md`: all four give every case 226 B, and the file whose name the report's
/// shares is proposed first. Before the `benchmarkdotnet` reader, 3 of the 71 numbers had a
/// candidate; before it read `-asm.md`, the 8 code sizes had none.
#[test]
fn suggest_proposes_the_removed_binding_first_for_every_chrysalis_benchmarkdotnet_number() {
    let mut total = (0, 0);
    for report in ["Alonzo", "AlonzoDuplicateKey", "Babbage", "Conway"] {
        let (hits, n) = share_of("chrysalis-benchmarkdotnet", &format!("claims/{report}Benchmarks-report-github.toml"));
        assert_eq!(hits, n, "{report}");
        total = (total.0 + hits, total.1 + n);
    }
    assert_eq!(total, (71, 71));
}

/// A run of two jobs, as .NET articles compare runtimes (`| Method | Job | Mean |`, one row a
/// job): each row is named by its case, `New: Job-ONJMYK`, and proposed the records of that job
/// alone, by the reader's `case`. The second job is synthetic: the Chrysalis example's
/// `AlonzoBenchmarks` rows repeated under another `Job_Id` with every time doubled.
#[test]
fn a_benchmarkdotnet_table_of_two_jobs_proposes_each_row_its_own_job() {
    let csv = std::fs::read_to_string("examples/chrysalis-benchmarkdotnet/evidence/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.AlonzoBenchmarks-measurements.csv").unwrap();
    // The file's one quoted cell, `Job_Display`, holds commas; every other cell is plain.
    let cells = |line: &str| -> Vec<String> {
        let mut out = vec![String::new()];
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => out.push(String::new()),
                c => out.last_mut().unwrap().push(c),
            }
        }
        out
    };
    let row = |cells: &[String]| cells.iter().map(|c| if c.contains(',') { format!("\"{c}\"") } else { c.clone() }).collect::<Vec<_>>().join(",");
    let mut lines = csv.lines();
    let header = cells(lines.next().unwrap());
    let at = |name: &str| header.iter().position(|c| c == name).unwrap();
    let (job, nanos) = (at("Job_Id"), at("Measurement_Nanoseconds"));
    let rows: Vec<Vec<String>> = lines.map(cells).collect();
    let mut file = format!("{}\n", row(&header));
    for r in &rows {
        file.push_str(&format!("{}\n", row(r)));
    }
    for r in &rows {
        let mut second = r.clone();
        second[job] = "Job-SECOND".into();
        second[nanos] = format!("{}", second[nanos].parse::<f64>().unwrap() * 2.0);
        file.push_str(&format!("{}\n", row(&second)));
    }
    let article = "# Two jobs\n\n| Method | Job        | Mean     |\n|------- |----------- |---------:|\n| New    | Job-ONJMYK | 4.081 ms |\n| New    | Job-SECOND | 8.162 ms |\n";
    let (dir, out) = suggested_over(article, |root| std::fs::write(root.join("evidence/Alonzo-measurements.csv"), &file).unwrap());
    assert!(out.contains("2 unbound numbers, 2 with a candidate"), "{out}");
    assert!(out.contains("select = { case = \"New: Job-ONJMYK\" }") && out.contains("select = { case = \"New: Job-SECOND\" }"), "{out}");
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
}

/// BenchmarkDotNet's `Ratio` is the mean of the ratios of every pair of the row's and the
/// baseline's times (`RatioStatistics`), not the ratio of their means, and its `RatioSD` their
/// standard deviation. Over the Chrysalis
/// example's `AlonzoBenchmarks` run the two differ in the fifth decimal, 0.27271 against
/// 0.27270; quoted to five (BenchmarkDotNet prints two or three, where they seldom differ), the
/// ratio is proposed first as BenchmarkDotNet computes it, and holds.
#[test]
fn a_benchmarkdotnet_ratio_is_proposed_as_the_mean_of_every_pair_s_ratio() {
    let file = "examples/chrysalis-benchmarkdotnet/evidence/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.AlonzoBenchmarks-measurements.csv";
    // BenchmarkDotNet's `RatioSD` of the same pairs, over n − 1 of the 81 ratios, is 0.0046139
    // (computed pair by pair in Python from the same file); quoted to five decimals.
    let article = "# Ratio\n\n| Method | Mean      | Ratio   | RatioSD |\n|------- |----------:|--------:|--------:|\n| New    |  4.081 ms | 0.27271 | 0.00461 |\n| Old    | 14.965 ms |    1.00 |    0.00 |\n";
    let (dir, out) = suggested_over(article, |root| {
        std::fs::copy(file, root.join("evidence/AlonzoBenchmarks-measurements.csv")).unwrap();
    });
    let ratio = &out[out.find("`0.27271` in cell New › Ratio").unwrap()..];
    let first = ratio.lines().nth(1).unwrap();
    assert!(first.contains("BenchmarkDotNet's Ratio, the mean of every pair's ratio") && first.contains("value 0.272706"), "{ratio}");
    assert!(!ratio[..ratio.find("[[claim]]").unwrap()].contains("value 0.272696"), "the ratio of the means rounds to 0.27270, not to the quote");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let check = proposed["claim"].as_array().unwrap().iter().find(|c| c["cell"]["column"].as_str() == Some("Ratio") && c["cell"]["row"].as_str() == Some("New")).unwrap()["check"]
        [0]
    .clone();
    assert_eq!(check["expr"].as_str(), Some("a * b"));
    assert_eq!(check["vars"]["b"]["derive"]["reciprocal"].as_str(), Some("1 / time_ns"));
    let sd = &out[out.find("`0.00461` in cell New › RatioSD").unwrap()..];
    assert!(sd.lines().nth(1).unwrap().contains("BenchmarkDotNet's RatioSD"), "{sd}");
    // The baseline's `1.00` and `0.00` are of no pair of two cases: BenchmarkDotNet sets a case
    // over itself to 1 and 0 without dividing. Each is proposed as a label of its cell's claim,
    // with no check, and no other statistic that happens to give 1 (the case's largest time over
    // the largest of the file) is proposed for it.
    let proposed_for = |column: &str| {
        proposed["claim"].as_array().unwrap().iter().find(|c| c["cell"]["column"].as_str() == Some(column) && c["cell"]["row"].as_str() == Some("Old")).unwrap().clone()
    };
    for (column, number) in [("Ratio", "1.00"), ("RatioSD", "0.00")] {
        let claim = proposed_for(column);
        assert_eq!(claim["labels"].as_array().unwrap()[0].as_str(), Some(number), "{claim:?}");
        assert!(claim.get("check").is_none(), "{claim:?}");
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert!(stdout.contains("4 checks: 4 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{stdout}");
    assert_eq!(code, 0, "{stdout}");
}

/// BenchmarkDotNet's two other ratio styles (`RatioStyle.Trend`, `RatioStyle.Percentage`), over
/// the Chrysalis example's `AlonzoBenchmarks` run, `Old` the baseline. In the trend style the
/// faster row prints the mean of the inverted ratios, `Old`'s times over `New`'s (3.668 →
/// `3.67x faster`), and its `RatioSD` their deviation (0.0634 → `0.06x`); in the percentage
/// style the mean of the ratios less one (0.27271 → `-73%`) and the deviation in percent of
/// that mean (1.69 → `1.7%`). Each value was computed pair by pair in Python from the same file.
/// Every cell is proposed BenchmarkDotNet's computation first and, pasted, holds; with half of
/// `New`'s iterations 20 % longer in the evidence, the four ratio cells fail.
#[test]
fn benchmarkdotnet_s_trend_and_percentage_ratio_styles_are_proposed_as_it_computes_them() {
    let file = "examples/chrysalis-benchmarkdotnet/evidence/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.AlonzoBenchmarks-measurements.csv";
    let article = "# Trend\n\n| Method | Mean      | Ratio        | RatioSD |\n|------- |----------:|-------------:|--------:|\n| New    |  4.081 ms | 3.67x faster |   0.06x |\n| Old    | 14.965 ms |     baseline |         |\n\n# Percentage\n\n| Method | Mean      | Ratio    | RatioSD |\n|------- |----------:|---------:|--------:|\n| New    |  4.081 ms |     -73% |    1.7% |\n| Old    | 14.965 ms | baseline |         |\n";
    let (dir, out) = suggested_over(article, |root| {
        std::fs::copy(file, root.join("evidence/AlonzoBenchmarks-measurements.csv")).unwrap();
    });
    for (cell, first_words, value) in [
        (
            "`3.67x` in cell New › Ratio (Trend)",
            "BenchmarkDotNet's Ratio, the mean of every pair's ratio: mean time_ns of 9 records of evidence/AlonzoBenchmarks-measurements.csv with name = \"Old\"",
            "value 3.668015",
        ),
        (
            "`0.06x` in cell New › RatioSD (Trend)",
            "BenchmarkDotNet's RatioSD, the standard deviation of every pair's ratio: mean time_ns of 9 records of evidence/AlonzoBenchmarks-measurements.csv with name = \"Old\"",
            "value 0.063391",
        ),
        ("`-73%` in cell New › Ratio (Percentage)", "BenchmarkDotNet's Ratio, the mean of every pair's ratio less one, in percent", "value -72.729428"),
        ("`1.7%` in cell New › RatioSD (Percentage)", "BenchmarkDotNet's RatioSD, the standard deviation of every pair's ratio in percent of their mean", "value 1.691894"),
    ] {
        let at = out.find(cell).unwrap_or_else(|| panic!("{cell}:\n{out}"));
        let first = out[at..].lines().nth(1).unwrap();
        assert!(first.contains(first_words) && first.contains(value), "{cell}: {first}");
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert!(stdout.contains("8 checks: 8 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{stdout}");
    assert_eq!(code, 0, "{stdout}");

    // `New`'s odd iterations 20 % slower: 3.33x faster (0.29x), -70 % (8.6 %), as computed in
    // Python from the changed file.
    let path = dir.path().join("evidence/AlonzoBenchmarks-measurements.csv");
    let mut reader = csv::Reader::from_path(&path).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (method, nanoseconds, iteration) = (column("Target_Method"), column("Measurement_Nanoseconds"), column("Measurement_IterationIndex"));
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&header).unwrap();
    for record in reader.records() {
        let mut cells: Vec<String> = record.unwrap().iter().map(str::to_string).collect();
        if cells[method] == "New" && cells[iteration].parse::<u32>().unwrap() % 2 == 1 {
            cells[nanoseconds] = format!("{:.2}", cells[nanoseconds].parse::<f64>().unwrap() * 1.2);
        }
        writer.write_record(&cells).unwrap();
    }
    std::fs::write(&path, writer.into_inner().unwrap()).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    for number in ["3.67x", "0.06x", "-73%", "1.7%"] {
        assert!(stdout.lines().any(|l| l.contains(&format!("arith {number}:")) && l.contains("FAIL")), "{number} must fail:\n{stdout}");
    }
}

/// An article's `Before` and `After` tables under one heading, with the same rows and columns
/// (the Chrysalis example's `AlonzoBenchmarks` table as the repository's earlier run printed it,
/// then as the later one did): no heading tells them apart, so `init` and `suggest` name each
/// cell's table by its place under the heading (`table = 1`, `table = 2`), each proposal reads
/// its own run's file, and pasted, both hold. A `table` past the last is a located error that
/// says how many tables hold the cell.
#[test]
fn tables_under_one_heading_are_told_apart_by_their_place() {
    let dir = "examples/chrysalis-benchmarkdotnet";
    let file = "Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.AlonzoBenchmarks-measurements.csv";
    let article = "# Alonzo\n\nBefore the refactor:\n\n| Method | Mean     |\n|------- |---------:|\n| New    | 4.509 ms |\n\nAfter it:\n\n| Method | Mean     |\n|------- |---------:|\n| New    | 4.081 ms |\n";
    let (root, out) = suggested_over(article, |root| {
        std::fs::copy(Path::new(dir).join("earlier-run-e6a1d4d0").join(file), root.join("evidence/before-measurements.csv")).unwrap();
        std::fs::copy(Path::new(dir).join("evidence").join(file), root.join("evidence/after-measurements.csv")).unwrap();
    });
    let skeleton = std::fs::read_to_string(root.path().join("claims/a.toml")).unwrap();
    assert!(skeleton.contains(r#"# cell = { row = "New", column = "Mean", section = "Alonzo", table = 1 }"#), "{skeleton}");
    assert!(skeleton.contains(r#"# cell = { row = "New", column = "Mean", section = "Alonzo", table = 2 }"#), "{skeleton}");
    assert!(out.contains(r#"cell = { row = "New", column = "Mean", section = "Alonzo", table = 1 }"#), "{out}");
    let first = &out[out.find("table = 1 }").unwrap()..];
    assert!(first[..first.find("[[claim]]").unwrap_or(first.len())].contains("evidence/before-measurements.csv"), "{out}");
    let (code, stdout) = paste_and_audit(root.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    let registry = root.path().join("claims/a.toml");
    let text = std::fs::read_to_string(&registry).unwrap().replace("table = 2 }", "table = 3 }");
    std::fs::write(&registry, text).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", root.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("`table = 3` names the table's place among those that hold row `New` and column `Mean`, from 1, and there are 2"), "{stderr}");
}

/// The Go team's own benchstat test data (golang/perf's `crc-old.txt` and `crc-new.txt`,
/// tests/fixtures/harness/go-bench/SOURCE.md) and benchstat's whole output for them, pasted as
/// an article: two tables, `sec/op` and `B/s` (Go's `MB/s` in bytes a second, `307.3Mi`), 476
/// numbers at ten samples a side, where the p-values take the exact distribution and ten of
/// them print `p=0.000`. Every number is proposed a check, and pasted, every check holds.
#[test]
fn benchstat_s_whole_output_is_proposed_a_check_for_every_number() {
    let fixtures = Path::new("tests/fixtures/harness/go-bench");
    let table = std::fs::read_to_string(fixtures.join("crc-benchstat.txt")).unwrap();
    let article = format!(
        "# crc32

benchstat on the two runs:

```
{table}```
"
    );
    let (dir, out) = suggested_over(&article, |root| {
        for file in ["crc-old.txt", "crc-new.txt"] {
            std::fs::copy(fixtures.join(file), root.join("evidence").join(file)).unwrap();
        }
    });
    assert!(out.contains("476 unbound numbers, 476 with a candidate"), "{}", &out[..out.len().min(2000)]);
    assert!(!out.contains("#   2. "), "each number has the one candidate its place gives");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let checks: Vec<&toml::Value> = proposed["claim"].as_array().unwrap().iter().flat_map(|c| c["check"].as_array().unwrap()).collect();
    let count = |f: &dyn Fn(&toml::Value) -> bool| checks.iter().filter(|c| f(c)).count();
    assert_eq!(count(&|c| c["kind"].as_str() == Some("utest")), 72);
    assert_eq!(count(&|c| c.get("statistic").and_then(|s| s.as_str()) == Some("median-ci")), 144);
    assert_eq!(count(&|c| c.get("unit").and_then(|s| s.as_str()) == Some("%")), 20 + 18 + 2, "each significant change of the two tables, and their geometric means'");
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains(&format!("{} checks: {} passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers", checks.len(), checks.len())), "{stdout}");
}

/// Where the two files' counts differ benchstat prints both, `n=7+10`, base first: the second
/// count is a number of its own (the number reader once took the digits after `+` for a name's),
/// proposed the new file's count, and every number of the table holds.
#[test]
fn benchstat_s_two_counts_are_each_the_count_of_their_file() {
    let fixtures = Path::new("tests/fixtures/harness/go-bench");
    let table = std::fs::read_to_string(fixtures.join("crc-benchstat-7-of-10.txt")).unwrap();
    let old: String = std::fs::read_to_string(fixtures.join("crc-old.txt"))
        .unwrap()
        .lines()
        .scan(0, |seen, line| {
            if line.contains("poly=IEEE/size=40/align=0-8") {
                *seen += 1;
            }
            Some(if line.contains("poly=IEEE/size=40/align=0-8") && *seen > 7 { None } else { Some(format!("{line}\n")) })
        })
        .flatten()
        .collect();
    let (dir, out) = suggested_over(&format!("# crc32\n\n```\n{table}```\n"), |root| {
        std::fs::write(root.join("evidence/crc-old.txt"), &old).unwrap();
        std::fs::copy(fixtures.join("crc-new.txt"), root.join("evidence/crc-new.txt")).unwrap();
    });
    assert!(out.contains("477 unbound numbers, 477 with a candidate"), "{}", &out[..out.len().min(2000)]);
    // Its median of seven, 41.00, is also its first quartile; the layout says it is the median.
    assert!(!out.contains("#   2. "), "each number has the one candidate its place gives");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let counts: Vec<(&str, &str)> = proposed["claim"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["check"].as_array().unwrap())
        .filter(|k| k.get("statistic").and_then(|s| s.as_str()) == Some("count") && k["select"]["name"].as_str() == Some("BenchmarkCRC32/poly=IEEE/size=40/align=0"))
        .map(|k| (k["number"].as_str().unwrap(), k["samples"].as_str().unwrap()))
        .collect();
    // The row stands in both of benchstat's tables, `sec/op` and `B/s`.
    assert_eq!(counts, [("7", "evidence/crc-old.txt"), ("10", "evidence/crc-new.txt")].repeat(2));
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{stdout}");
}

/// The queries a proposed check reads: a `stat` check's own, a `utest` check's base and new
/// sides, an `arith` check's variables.
fn queries(check: &toml::Value) -> Vec<&toml::Value> {
    match check["kind"].as_str() {
        Some("stat") => vec![check],
        Some("utest") => vec![&check["base"], &check["new"]],
        _ => check["vars"].as_table().unwrap().values().collect(),
    }
}

/// The Go team's own golden output of benchstat before 2023 over the same two runs
/// (`crc-benchstat-2017.txt`): each value is the mean of the values left inside Tukey's fences,
/// each `± X%` their range around it, each p-value and `n=` from the values kept. Every number
/// of both tables is proposed by its place in the table, every proposal reads the runs with
/// `outliers = "tukey"`, each column's checks read the file whose means it prints (the columns
/// are labelled `old` and `new`, not by file), and pasted, all hold; with the fences taken out
/// of the same registry, the rows where benchstat dropped values fail.
#[test]
fn benchstat_before_2023_is_proposed_its_own_computation_for_every_number() {
    let fixtures = Path::new("tests/fixtures/harness/go-bench");
    let table = std::fs::read_to_string(fixtures.join("crc-benchstat-2017.txt")).unwrap();
    let article = format!("# crc32\n\nbenchstat on the two runs:\n\n```\n{table}```\n");
    // Named unlike the columns, so that only the values can tell the two files apart.
    let (dir, out) = suggested_over(&article, |root| {
        std::fs::copy(fixtures.join("crc-old.txt"), root.join("evidence/before.txt")).unwrap();
        std::fs::copy(fixtures.join("crc-new.txt"), root.join("evidence/after.txt")).unwrap();
    });
    assert!(out.contains("505 unbound numbers, 505 with a candidate"), "{}", &out[..out.len().min(2000)]);
    assert!(!out.contains("#   2. "), "each number has the one candidate its place gives");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    let checks: Vec<&toml::Value> = claims.iter().flat_map(|c| c["check"].as_array().unwrap()).collect();
    let count = |f: &dyn Fn(&toml::Value) -> bool| checks.iter().filter(|c| f(c)).count();
    let statistic = |c: &toml::Value, s: &str| c.get("statistic").and_then(|v| v.as_str()) == Some(s);
    assert_eq!(count(&|c| statistic(c, "mean")), 144, "each benchmark's mean in each column of both tables");
    assert_eq!(count(&|c| statistic(c, "mean-range")), 144);
    assert_eq!(count(&|c| c["kind"].as_str() == Some("utest")), 72);
    // Every query drops outliers: a stat's own, an arith's variables, a utest's sides.
    assert!(checks.iter().flat_map(|c| queries(c)).all(|q| q["outliers"].as_str() == Some("tukey")), "a query without outliers");
    // The `old` columns read `before.txt`, the `new` ones `after.txt`, and a test's base is `before.txt`.
    for claim in claims {
        let column = claim["cell"]["column"].as_str().unwrap();
        for check in claim["check"].as_array().unwrap() {
            // A test's base alone: its new side is the other file.
            let files: Vec<&str> =
                queries(check).iter().take(if check["kind"].as_str() == Some("utest") { 1 } else { usize::MAX }).map(|q| q["samples"].as_str().unwrap()).collect();
            if column.starts_with("old") || check["kind"].as_str() == Some("utest") {
                assert!(files.iter().all(|f| *f == "evidence/before.txt"), "{claim:?}");
            } else if column.starts_with("new") {
                assert!(files.iter().all(|f| *f == "evidence/after.txt"), "{claim:?}");
            }
        }
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains(&format!("{} checks: {} passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers", checks.len(), checks.len())), "{stdout}");
    let registry = dir.path().join("claims/a.toml");
    let text = std::fs::read_to_string(&registry).unwrap();
    std::fs::write(&registry, text.replace(", outliers = \"tukey\"", "").replace("  outliers = \"tukey\"\n", "")).unwrap();
    let (code, stdout, _) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.contains(&format!("{} checks: {} passed, 150 failed", checks.len(), checks.len() - 150)), "{stdout}");
}

/// That benchstat's table of four files (`all.golden`): `name \ time/op`, a column a file,
/// blank cells where a file lacks a benchmark, and rows grouped under their configuration
/// (`pkg:hash/crc32 goos:darwin goarch:386`), which gives no number. Every value and range is
/// proposed from the file its column names, with its outliers dropped, and all hold.
#[test]
fn benchstat_before_2023_of_four_files_reads_each_column_from_its_file() {
    let fixtures = Path::new("tests/fixtures/harness/go-bench");
    let table = std::fs::read_to_string(fixtures.join("crc-benchstat-2017-four-files.txt")).unwrap();
    let (dir, out) = suggested_over(&format!("# crc32\n\n```\n{table}```\n"), |root| {
        for (from, to) in [("crc-new.txt", "new.txt"), ("crc-old.txt", "old.txt"), ("crc-slashslash4.txt", "slashslash4.txt"), ("crc-x386.txt", "x386.txt")] {
            std::fs::copy(fixtures.join(from), root.join("evidence").join(to)).unwrap();
        }
    });
    assert!(out.contains("480 unbound numbers, 480 with a candidate"), "{}", &out[..out.len().min(2000)]);
    assert!(!out.contains("#   2. "), "each number has the one candidate its place gives");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    for claim in proposed["claim"].as_array().unwrap() {
        let file = claim["cell"]["column"].as_str().unwrap().split(' ').next().unwrap();
        let check = &claim["check"][0];
        assert_eq!(check["samples"].as_str(), Some(format!("evidence/{file}").as_str()), "{claim:?}");
        assert_eq!(check["outliers"].as_str(), Some("tukey"), "{claim:?}");
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("480 checks: 480 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{stdout}");
}

/// That benchstat, built here from golang/perf, on data the Go team did not write: tattle's two
/// releases (30 runs a benchmark, where the fences drop values of two benchmarks) and one file
/// of `index/suffixarray` (one column a table: `time/op`, `speed`, `alloc/op`, `allocs/op`).
/// Every number of each is proposed its one candidate, each reading with its outliers dropped,
/// and pasted, all hold.
#[test]
fn benchstat_before_2023_on_other_data_is_proposed_and_holds() {
    let fixtures = Path::new("tests/fixtures/harness/go-bench");
    // The table, the evidence files it reads (from, as named under evidence/), its numbers.
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], usize);
    let cases: [Case<'_>; 2] = [
        ("tattle-benchstat-2017.txt", &[("examples/tattle-benchstat/evidence/v0.1.3", "v0.1.3"), ("examples/tattle-benchstat/evidence/v1.0.0", "v1.0.0")], 44),
        ("suffixarray-benchstat-2017.txt", &[("tests/fixtures/harness/go-bench/suffixarray.bench", "suffixarray.bench")], 340),
    ];
    for (table, files, numbers) in cases {
        let text = std::fs::read_to_string(fixtures.join(table)).unwrap();
        let (dir, out) = suggested_over(&format!("# bench\n\n```\n{text}```\n"), |root| {
            for (from, to) in files {
                std::fs::copy(from, root.join("evidence").join(to)).unwrap();
            }
        });
        assert!(out.contains(&format!("{numbers} unbound numbers, {numbers} with a candidate")), "{table}: {}", &out[..out.len().min(1500)]);
        assert!(!out.contains("#   2. "), "{table}: each number has the one candidate its place gives");
        let proposed: toml::Table = toml::from_str(&out).unwrap();
        for check in proposed["claim"].as_array().unwrap().iter().flat_map(|c| c["check"].as_array().unwrap()) {
            assert!(queries(check).iter().all(|q| q["outliers"].as_str() == Some("tukey")), "{table}: {check:?}");
        }
        let (code, stdout) = paste_and_audit(dir.path(), &out);
        assert_eq!(code, 0, "{table}: {stdout}");
        assert!(stdout.contains("0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{table}: {stdout}");
    }
}

/// The Go team's test of how benchstat before 2023 names Go's metrics (`units.golden`): `ns/op`
/// is `time/op`, `user-ns/op` `user-time/op` and `ns/GC` `time/GC`, each a time however it is
/// named, printed in seconds or nanoseconds. Every number of its three time tables is proposed
/// from the go-bench fields Go's units give (`user_ns_per_op`, `ns_per_gc`), with no unit
/// declared, and pasted, all hold. Its fourth table's unit, `quick-bytes`, is not read as one.
#[test]
fn benchstat_before_2023_names_go_s_metrics_and_their_times_convert() {
    let fixtures = Path::new("tests/fixtures/harness/go-bench");
    let table = std::fs::read_to_string(fixtures.join("units-benchstat-2017.txt")).unwrap();
    let (dir, out) = suggested_over(&format!("# units\n\n```\n{table}```\n"), |root| {
        for file in ["units-old.txt", "units-new.txt"] {
            std::fs::copy(fixtures.join(file), root.join("evidence").join(file)).unwrap();
        }
    });
    assert!(out.contains("14 unbound numbers, 14 with a candidate"), "{out}");
    for field in ["field = \"user_ns_per_op\"", "field = \"ns_per_gc\"", "field = \"time_ns\""] {
        assert!(out.contains(field), "{field}: {out}");
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("15 checks: 15 passed, 0 failed"), "{stdout}");
}

/// The proposals for the estimates of a pasted criterion console block (the middle number of
/// each `time:` bracket), as (row, field, statistic, per).
fn estimates_proposed(out: &str) -> Vec<(String, String, String, String)> {
    let proposed: toml::Table = toml::from_str(out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    let text = |v: Option<&toml::Value>| v.and_then(toml::Value::as_str).unwrap_or_default().to_string();
    claims
        .iter()
        .filter(|c| ["18.897 ns", "379.88 ns", "18.634 ns", "154.51 ns", "234.58 ns", "15.083 ns"].contains(&c["check"][0]["number"].as_str().unwrap()))
        .map(|c| {
            let k = &c["check"][0];
            // The row's benchmark: selected by its id, or the one benchmark of its own file.
            let row = text(c["cell"].get("row"));
            assert!(text(k["select"].get("id")) == row || text(k.get("samples")).contains(&format!("/{row}/new/")), "{c:?}");
            (text(c["cell"].get("row")), text(k.get("field")), text(k.get("statistic")), text(k.get("per")))
        })
        .collect()
}

/// criterion's console output of the fixture's run (`tests/fixtures/harness/criterion/`, each
/// estimate as criterion prints its `estimates.json`'s `slope`), over the sample files it
/// wrote. Sampled in linear mode, criterion prints the slope of each sample's time over its
/// iterations, which the mean of the per-iteration times does not reproduce (22.085 ns, not
/// 18.897 ns): each estimate is proposed as that slope, each bound as criterion's bound of the
/// slope's bootstrap interval, and pasted, each check holds.
#[test]
fn criterion_console_output_in_linear_mode_is_proposed_its_slope() {
    let article = "# Sum\n\n```text\nsum/iter/64             time:   [15.437 ns 18.897 ns 25.809 ns]\nsum/iter/1024           time:   [334.83 ns 379.88 ns 435.82 ns]\nparse_u64               time:   [16.157 ns 18.634 ns 20.528 ns]\n```\n";
    let (dir, out) = suggested_over(article, |root| support::copy_dir(Path::new("tests/fixtures/harness/criterion/criterion"), &root.join("evidence/criterion")));
    let slope = |row: &str| (row.to_string(), "batch_time_ns".to_string(), "slope".to_string(), "iters".to_string());
    assert_eq!(estimates_proposed(&out), [slope("sum/iter/64"), slope("sum/iter/1024"), slope("parse_u64")], "{out}");
    assert!(out.contains("slope of batch_time_ns over iters of 10 records"), "{out}");
    assert!(out.contains("number = \"15.437 ns\"\n  samples = \"evidence/criterion/sum/iter/64/new/sample.json\"\n  format = \"criterion\"\n  select = {}\n  field = \"batch_time_ns\"\n  statistic = \"criterion-lower\"\n  per = \"iters\"\n"), "{out}");
    let (_, stdout) = paste_and_audit(dir.path(), &out);
    assert!(stdout.contains("9 checks: 9 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{stdout}");
}

/// The same for cargo-criterion's messages of its own run of the fixture's benchmarks: each
/// line holds a `slope`, so the reader marks its samples linear, and the `typical` estimate
/// printed is proposed as the slope, and its bounds as the bounds of the slope's interval.
#[test]
fn cargo_criterion_console_output_in_linear_mode_is_proposed_its_slope() {
    let article = "# Sum\n\n```text\nsum/iter/64             time:   [101.20 ns 154.51 ns 246.41 ns]\nsum/iter/1024           time:   [197.34 ns 234.58 ns 262.05 ns]\nparse_u64               time:   [13.414 ns 15.083 ns 16.575 ns]\n```\n";
    let (dir, out) = suggested("tests/fixtures/harness/cargo-criterion/messages.jsonl", article);
    let slope = |row: &str| (row.to_string(), "batch_time_ns".to_string(), "slope".to_string(), "iters".to_string());
    assert_eq!(estimates_proposed(&out), [slope("sum/iter/64"), slope("sum/iter/1024"), slope("parse_u64")], "{out}");
    assert_eq!(out.matches("statistic = \"criterion-upper\"\n  per = \"iters\"").count(), 3, "{out}");
    let (_, stdout) = paste_and_audit(dir.path(), &out);
    assert!(stdout.contains("9 checks: 9 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{stdout}");
}

/// Where the slope and the mean of the per-iteration times both round to the quoted estimate,
/// the sampling mode decides: criterion prints the slope in linear mode, so it is proposed
/// first there, and the mean in flat mode, where no slope is offered. The samples are made up
/// so that both round to `2 ns`: per-iteration times 1.75, 2.5 and 1.75 of mean 2 (the nearest
/// statistic to the quote), and slope (1.75 + 10 + 15.75) ÷ 14 = 1.964.
#[test]
fn the_sampling_mode_decides_between_the_slope_and_the_mean() {
    let article = "# Tiny\n\n```text\ntiny                    time:   [1.9 ns 2 ns 2.2 ns]\n```\n";
    for (mode, statistic) in [("Linear", "slope"), ("Flat", "mean")] {
        let sample = format!("{{\"sampling_mode\":\"{mode}\",\"iters\":[1.0,2.0,3.0],\"times\":[1.75,5.0,5.25]}}");
        let (_, out) = suggested_over(article, |root| {
            std::fs::create_dir_all(root.join("evidence/criterion/tiny/new")).unwrap();
            std::fs::write(root.join("evidence/criterion/tiny/new/sample.json"), &sample).unwrap();
        });
        let proposed: toml::Table = toml::from_str(&out).unwrap();
        let claims = proposed["claim"].as_array().unwrap();
        let best = claims.iter().find(|c| c["check"][0]["number"].as_str() == Some("2 ns")).unwrap_or_else(|| panic!("{out}"));
        assert_eq!(best["check"][0]["statistic"].as_str(), Some(statistic), "{mode}: {out}");
    }
}

/// JMH's table in twineworks/collections' README: with every check removed, each score is
/// proposed first as the mean of its benchmark's `time_ns`, each error as JMH's error of the
/// same, and each `Cnt` as the count, all 96 as the registry binds them.
#[test]
fn suggest_proposes_the_removed_binding_first_for_every_twineworks_jmh_number() {
    let (hits, n) = share("twineworks-jmh");
    assert_eq!((hits, n), (96, 96));
}

/// The proposals for a pasted JMH table, by row and column: (field, statistic, name selected).
fn jmh_proposals(out: &str) -> BTreeMap<(String, String), (String, String, String)> {
    let proposed: toml::Table = toml::from_str(out).unwrap();
    let text = |v: Option<&toml::Value>| v.and_then(toml::Value::as_str).unwrap_or_default().to_string();
    proposed["claim"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let k = &c["check"][0];
            ((text(c["cell"].get("row")), text(c["cell"].get("column"))), (text(k.get("field")), text(k.get("statistic")), text(k["select"].get("name"))))
        })
        .collect()
}

/// JMH's table with parameters, over jcasbin's result file (tests/fixtures/harness/jmh, Apache
/// 2.0): each row, named by the benchmark as JMH shortens it and its parameters, is read from
/// the one record `name` it stands for; its score (in ops/ms, no time, so `score` itself) is
/// proposed as the mean, its error as JMH's error and its count as the count. Pasted, every
/// check holds.
#[test]
fn a_jmh_table_with_parameters_is_proposed_each_row_s_score_error_and_count() {
    let article = "# Enforce\n\n```\nBenchmark                  (dataScale)  (modelType)  (useCache)   Mode  Cnt      Score       Error   Units\nBenchmarkEnforce.enforce         small        basic       false  thrpt    3   1283.859 ±  1034.753  ops/ms\nBenchmarkEnforce.enforce         small        basic        true  thrpt    3  15202.169 ± 15747.519  ops/ms\n```\n";
    let (dir, out) = suggested("tests/fixtures/harness/jmh/jcasbin.json", article);
    let proposals = jmh_proposals(&out);
    let full = |cache: &str| format!("org.casbin.jcasbin.main.benchmark.BenchmarkEnforce.enforce (dataScale = small, modelType = basic, useCache = {cache})");
    for cache in ["false", "true"] {
        let row = format!("BenchmarkEnforce.enforce (dataScale = small, modelType = basic, useCache = {cache})");
        let get = |column: &str| proposals.get(&(row.clone(), column.to_string())).cloned().unwrap_or_else(|| panic!("{row} › {column}:\n{out}"));
        let expect = |field: &str, statistic: &str| (field.to_string(), statistic.to_string(), full(cache));
        assert_eq!(get("Score"), expect("score", "mean"), "{out}");
        assert_eq!(get("Error"), expect("score", "jmh-error"), "{out}");
        assert_eq!(get("Cnt"), expect("score", "count"), "{out}");
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("6 checks: 6 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers; all claims hold"), "{stdout}");
}

/// A secondary metric's row (`-prof gc`), over blacklite's result file (three forks of 20
/// iterations): the row `…insertAndBatchCommit:·gc.alloc.rate.norm` is the metric's own
/// records, not the benchmark's, and its score, error and count are theirs.
#[test]
fn a_jmh_secondary_metric_row_is_proposed_from_the_metric_s_records() {
    let article = "# GC\n\n```\nBenchmark                                                       Mode  Cnt    Score    Error   Units\nDefaultEntryStoreBenchmark.insertAndBatchCommit                thrpt   60  927.459 ± 24.205  ops/ms\nDefaultEntryStoreBenchmark.insertAndBatchCommit:·gc.alloc.rate.norm  thrpt   60   68.065 ±  0.001    B/op\n```\n";
    let (dir, out) = suggested("tests/fixtures/harness/jmh/blacklite.json", article);
    let proposals = jmh_proposals(&out);
    let bench = "com.tersesystems.blacklite.DefaultEntryStoreBenchmark.insertAndBatchCommit";
    let norm_row = ("DefaultEntryStoreBenchmark.insertAndBatchCommit:·gc.alloc.rate.norm".to_string(), "Score".to_string());
    assert_eq!(proposals.get(&norm_row), Some(&("score".to_string(), "mean".to_string(), format!("{bench}:·gc.alloc.rate.norm"))), "{out}");
    let primary = ("DefaultEntryStoreBenchmark.insertAndBatchCommit".to_string(), "Error".to_string());
    assert_eq!(proposals.get(&primary), Some(&("score".to_string(), "jmh-error".to_string(), bench.to_string())), "{out}");
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("6 checks: 6 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers; all claims hold"), "{stdout}");
}

/// A ratio written in words, `19 times as long` or `a 19-fold`, is tried as a ratio, as `19×`
/// is: over this project's `go test -bench -count 1` fixture (SOURCE.md there), summing 1024
/// values takes 253.0 ns and summing 64 takes 13.46 ns, 18.8 times as long. Before, the bare
/// `19` was tried only as a statistic, and nothing reproduced it.
#[test]
fn a_ratio_in_words_is_proposed_as_a_ratio() {
    for phrase in ["about 19 times as long as", "19-fold the time of"] {
        let article = format!("# Sums\n\nSumming a thousand values takes {phrase} summing a few.\n");
        let (_, out) = suggested("tests/fixtures/harness/go-bench/one.txt", &article);
        let proposed: toml::Table = toml::from_str(&out).unwrap();
        let claim = proposed["claim"].as_array().unwrap().iter().find(|c| c["check"][0]["number"].as_str() == Some("19")).unwrap_or_else(|| panic!("{out}"));
        let check = claim["check"][0].as_table().unwrap();
        assert_eq!((check["kind"].as_str(), check["expr"].as_str()), (Some("arith"), Some("a / b")), "{phrase}: {out}");
        let name = |v: &str| check["vars"][v]["select"]["name"].as_str().unwrap().to_string();
        assert_eq!((name("a"), name("b")), ("BenchmarkSum/n=1024".to_string(), "BenchmarkSum/n=64".to_string()), "{phrase}: {out}");
    }
}

/// A percentage of change in prose, against tattle's two raw outputs (examples/tattle-benchstat,
/// MIT): the call overhead's median went from 0.3155 ns to 0.2965 ns, a change of −6.02 %, which
/// prose writes signed or as `6.02% lower`. Each is proposed first as that change of the two
/// medians, from the base's file to the new one's; the unsigned one as a reduction. Pasted,
/// each check holds.
#[test]
fn a_percentage_of_change_in_prose_is_proposed_as_the_change_of_two_statistics() {
    for (sentence, expr) in [
        ("From v0.1.3 to v1.0.0 the call overhead changed by -6.02%.", "(new / old - 1) * 100"),
        ("In v1.0.0 the call overhead is 6.02% lower than in v0.1.3.", "(1 - new / old) * 100"),
    ] {
        let article = format!("# Overhead\n\n{sentence}\n");
        let (dir, out) = suggested_over(&article, |root| {
            for file in ["v0.1.3", "v1.0.0"] {
                std::fs::copy(Path::new("examples/tattle-benchstat/evidence").join(file), root.join("evidence").join(file)).unwrap();
            }
        });
        let proposed: toml::Table = toml::from_str(&out).unwrap();
        let claim = proposed["claim"].as_array().unwrap().iter().find(|c| c["check"][0]["number"].as_str().is_some_and(|n| n.contains("6.02"))).unwrap_or_else(|| panic!("{out}"));
        let check = claim["check"][0].as_table().unwrap();
        assert_eq!((check["kind"].as_str(), check["expr"].as_str(), check["unit"].as_str()), (Some("arith"), Some(expr), Some("%")), "{sentence}: {out}");
        let side = |v: &str| (check["vars"][v]["samples"].as_str().unwrap().to_string(), check["vars"][v]["select"]["name"].as_str().unwrap().to_string());
        assert_eq!(side("new"), ("evidence/v1.0.0".to_string(), "Benchmark01CallOverhead".to_string()), "{sentence}: {out}");
        assert_eq!(side("old"), ("evidence/v0.1.3".to_string(), "Benchmark01CallOverhead".to_string()), "{sentence}: {out}");
        let (_, stdout) = paste_and_audit(dir.path(), &out);
        assert!(stdout.contains("0 failed"), "{stdout}");
    }
}

/// A statistic over all records of a file of several benchmarks mixes them: over this project's
/// `-count 5` fixture (two `Sum` benchmarks allocating nothing, `Itoa` 8 bytes), `8 B/op` in
/// prose is proposed first as `Itoa`'s median, not as the maximum over all 15 records, which
/// ranked first before (both reproduce it; the mixed one now costs a point).
#[test]
fn a_statistic_of_one_benchmark_ranks_above_one_that_mixes_several() {
    let (_, out) = suggested("tests/fixtures/harness/go-bench/count5.txt", "# Itoa\n\nFormatting an integer allocates 8 B/op.\n");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let check = &proposed["claim"].as_array().unwrap()[0]["check"][0];
    assert_eq!((check["select"]["name"].as_str(), check["field"].as_str(), check["statistic"].as_str()), (Some("BenchmarkItoa"), Some("bytes_per_op"), Some("median")), "{out}");
}

/// A number is proposed as a count of records only where the words around it name one: over
/// the `-count 5` fixture, `5 times` is each benchmark's five lines, and `5 formatting
/// functions`, whose words name no count, is proposed nothing (before, the count of a
/// benchmark's five records, which a sentence about functions does not mean).
#[test]
fn a_count_is_proposed_only_where_the_text_names_one() {
    let article = "# Runs\n\nEach benchmark ran 5 times.\n\n# Library\n\nThe library has 5 formatting functions.\n";
    let (_, out) = suggested("tests/fixtures/harness/go-bench/count5.txt", article);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 1, "{out}");
    assert_eq!((claims[0]["quote"].as_str(), claims[0]["check"][0]["statistic"].as_str()), (Some("Each benchmark ran 5 times."), Some("count")), "{out}");
    assert!(out.contains("`5` in \"The library has 5 formatting functions.\"\n# no statistic of the evidence reproduces it"), "{out}");
}

/// hyperfine's `Relative` says `1.00` for the fastest command. Proposed as that command's mean
/// over itself, the check would pass whatever the runs said; it is proposed as its mean over
/// the least mean of the table's commands, which is 1 only while none is faster. Over dasel's
/// own export (MIT) it holds; with the fastest command's runs made 1.5 times slower in the
/// evidence, the same registry fails on that cell.
#[test]
fn the_best_row_s_one_is_its_ratio_to_the_best_and_fails_when_another_row_is_faster() {
    let article = "# Root object\n\n| Command | Mean [ms] | Relative |\n|:---|---:|---:|\n| `daselv2 -f benchmark/data.json` | 6.6 ± 0.2 | 1.00 |\n| `dasel -f benchmark/data.json` | 8.7 ± 0.5 | 1.33 ± 0.09 |\n| `jq '.' benchmark/data.json` | 28.1 ± 0.7 | 4.28 ± 0.19 |\n";
    let evidence = "examples/dasel-benchmarks/evidence/data/root_object.json";
    let (dir, out) = suggested(evidence, article);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let one = proposed["claim"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cell"]["column"].as_str() == Some("Relative") && c["check"][0]["number"].as_str() == Some("1.00"))
        .unwrap_or_else(|| panic!("nothing proposed for the 1.00:\n{out}"));
    let check = &one["check"][0];
    assert_eq!(check["expr"].as_str(), Some("this / min(this, r1, r2)"), "{check:?}");
    let rivals: Vec<&str> = ["r1", "r2"].iter().map(|r| check["vars"][r]["select"]["command"].as_str().unwrap()).collect();
    assert_eq!(rivals, ["dasel -f benchmark/data.json", "jq '.' benchmark/data.json"], "{check:?}");
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");

    // The fastest command's runs 1.5 times slower: dasel v1 is now the fastest.
    let path = dir.path().join("evidence/root_object.json");
    let mut export: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let times = export["results"][0]["times"].as_array_mut().unwrap();
    for t in times.iter_mut() {
        *t = serde_json::json!(t.as_f64().unwrap() * 1.5);
    }
    std::fs::write(&path, serde_json::to_string(&export).unwrap()).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let one = stdout.lines().find(|l| l.contains("arith 1.00:")).unwrap_or_else(|| panic!("no line for the 1.00:\n{stdout}"));
    assert!(one.contains("FAIL: quoted 1.00, evidence 1.13"), "the 1.00 must fail: daselv2's mean is now 1.13 times dasel v1's:\n{stdout}");
}

/// criterion-table's baseline column: every cell of the first column is `1.00x`, the row's mean
/// over itself, with no other rows the table compares it to. A check dividing the mean by itself
/// would pass whatever the runs said, so `suggest` proposes each as a label of its cell's claim
/// and no check. Pasted, the audit holds with no unbound number; with one `1.00x` edited to
/// `1.05x` in the article, that number is unbound and the audit says so.
#[test]
fn a_baseline_s_ratio_to_itself_is_proposed_as_a_label_not_a_check() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new("examples/anvil-benchmarks"), dir.path());
    let registry = dir.path().join("claims/anvil-benchmarks.toml");
    let text = std::fs::read_to_string(&registry).unwrap();
    assert_eq!(text.matches("labels = [\"1.00x\"]\n").count(), 12);
    std::fs::write(&registry, text.replace("labels = [\"1.00x\"]\n", "")).unwrap();
    let (code, out, err) = claimcheck(["suggest", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 12, "{out}");
    for claim in claims {
        assert!(claim["cell"]["column"].as_str().unwrap().starts_with("Local"), "the baseline column: {claim:?}");
        assert_eq!(claim["labels"].as_array().map(|l| l.iter().map(|v| v.as_str().unwrap()).collect::<Vec<_>>()), Some(vec!["1.00x"]), "{claim:?}");
        assert!(claim.get("check").is_none(), "no check that cannot fail: {claim:?}");
    }
    let text = std::fs::read_to_string(&registry).unwrap();
    std::fs::write(&registry, format!("{text}\n{out}")).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("0 unbound numbers"), "{stdout}");

    // One baseline mark edited: the edited number is bound by nothing.
    let article = dir.path().join("article/anvil-benchmarks.md");
    let text = std::fs::read_to_string(&article).unwrap();
    let row = "| **`Block: 2, TotalGas: 1,973,605`**  | `105.19 ms` (✅ **1.00x**)";
    assert!(text.contains(row));
    std::fs::write(&article, text.replace(row, &row.replace("1.00x", "1.05x"))).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("unbound number `1.05x`"), "{stdout}{stderr}");
}

/// The lines `from..=to` (from 1) of a fixture file.
fn lines_of(path: &str, from: usize, to: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().skip(from - 1).take(to + 1 - from).map(|l| format!("{l}\n")).collect()
}

/// Nsight Compute's console pasted into an article, over the CSV details page of the same
/// report (`tests/fixtures/harness/ncu/report`: one profiling of PyTorch's softmax and layer
/// norm on an H100, every view written from it by `ncu --import`). The per-kernel summary's
/// `Minimum`, `Maximum` and `Average` are proposed as those statistics over the softmax
/// kernel's six launches, each row from the field of its metric in its unit (`Duration` in
/// `us` from `duration_ns`, `DRAM Frequency` in `Ghz` from `dram_frequency_hz`); each details
/// table from one launch (`where = "id == N"`), the one whose values reproduce the whole table,
/// so that the clock every launch rounds to is read from the launch its duration names. Pasted
/// into the registry, every proposal holds; with the two details tables' launches swapped in
/// the evidence, their checks fail.
#[test]
fn nsight_compute_console_output_is_proposed_its_checks_from_the_csv_of_the_same_report() {
    nsight_console_over("report-details.csv");
}

/// The same over the report's raw page (`ncu --csv --page raw`), whose columns are metric ids:
/// the reader names each console row's metric there too (`duration_ns` beside
/// `gpu__time_duration.sum_ns`), so the same proposals hold, from every digit ncu kept.
#[test]
fn nsight_compute_console_output_is_proposed_its_checks_from_the_raw_page_too() {
    nsight_console_over("report-raw.csv");
}

/// [`nsight_compute_console_output_is_proposed_its_checks_from_the_csv_of_the_same_report`]
/// over `evidence`, one of the report's CSV pages.
fn nsight_console_over(evidence: &str) {
    let dir = "tests/fixtures/harness/ncu/report";
    let article = format!(
        "# PyTorch softmax under Nsight Compute\n\nNsight Compute's summary of the softmax kernel's six launches:\n\n```text\n{}```\n\nIts first and second launches:\n\n```text\n{}\n{}```\n\nOn average the kernel took 56.98 µs and kept DRAM 61.22 % busy.\n",
        lines_of(&format!("{dir}/report-summary-console.txt"), 2, 17),
        lines_of(&format!("{dir}/report-console.txt"), 120, 136),
        lines_of(&format!("{dir}/report-console.txt"), 200, 216),
    );
    let (root, out) = suggested(&format!("{dir}/{evidence}"), &article);
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 52, "30 summary cells, 2 × 10 launch cells, 2 in prose:\n{out}");
    let check = |row: &str, column: &str, table: Option<i64>| {
        claims
            .iter()
            .find(|c| c["cell"]["row"].as_str() == Some(row) && c["cell"]["column"].as_str() == Some(column) && c["cell"].get("table").and_then(|t| t.as_integer()) == table)
            .map(|c| c["check"][0].clone())
            .unwrap_or_else(|| panic!("nothing proposed for {row} › {column} {table:?}:\n{out}"))
    };
    for (column, statistic) in [("Minimum", "min"), ("Maximum", "max"), ("Average", "mean")] {
        for (row, field) in [
            ("Duration", "duration_ns"),
            ("DRAM Frequency", "dram_frequency_hz"),
            ("SM Frequency", "sm_frequency_hz"),
            ("Memory Throughput", "memory_throughput_pct"),
            ("Elapsed Cycles", "elapsed_cycles"),
        ] {
            let k = check(row, column, None);
            assert_eq!(
                (k["statistic"].as_str(), k["field"].as_str(), k["select"]["function"].as_str(), k.get("where")),
                (Some(statistic), Some(field), Some("cunn_SoftMaxForwardReg"), None),
                "{row} › {column}: {k:?}"
            );
        }
    }
    // The two details tables are one section each, told apart by `table` (the first and second
    // table holding a `Metric Value` column); each is one launch,
    // ids 3 and 5 (the softmax's first two; 4 is the layer norm between them).
    for (table, id) in [(1, 3), (2, 5)] {
        for (row, field) in
            [("Duration", "duration_ns"), ("DRAM Frequency", "dram_frequency_hz"), ("SM Frequency", "sm_frequency_hz"), ("Compute (SM) Throughput", "compute_sm_throughput_pct")]
        {
            let k = check(row, "Metric Value", Some(table));
            assert_eq!((k["field"].as_str(), k["where"].as_str()), (Some(field), Some(format!("id == {id}").as_str())), "{row} in table {table}: {k:?}");
        }
    }
    let (code, stdout) = paste_and_audit(root.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("52 checks: 52 passed"), "{stdout}");

    // Launches 3 and 5 swapped in the evidence: each details table now reads the other's values.
    let csv = root.path().join("evidence").join(evidence);
    let text = std::fs::read_to_string(&csv).unwrap();
    let swapped: String = text
        .lines()
        .map(|l| match l.strip_prefix("\"3\",") {
            Some(rest) => format!("\"5\",{rest}\n"),
            None => match l.strip_prefix("\"5\",") {
                Some(rest) => format!("\"3\",{rest}\n"),
                None => format!("{l}\n"),
            },
        })
        .collect();
    std::fs::write(&csv, swapped).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", root.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let duration_fails = stdout.lines().filter(|l| l.contains("FAIL: quoted 56.35 µs") || l.contains("FAIL: quoted 57.12 µs")).count();
    assert_eq!(duration_fails, 2, "both launches' durations must fail:\n{stdout}");
}
