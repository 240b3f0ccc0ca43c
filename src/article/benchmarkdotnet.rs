//! BenchmarkDotNet's summary table, as .NET articles, pull requests and READMEs quote it: the
//! Markdown file its GitHub exporter writes (`*-report-github.md`), or the same table as its
//! console prints it, pasted into a code block after the environment it ran on.
//!
//! ```text
//! | Method | N  | Mean      | Error     | StdDev    | Gen0     | Allocated |
//! |------- |--- |----------:|----------:|----------:|---------:|----------:|
//! | New    | 10 |  4.081 ms | 0.1141 ms | 0.0679 ms | 289.0625 |   4.64 MB |
//! ```
//!
//! Three things set it apart from any table. A row is one benchmark case: its method with the
//! values of the parameter columns between the method and the statistics, which name the case
//! and measure nothing (`New [N=10]`, as the `benchmarkdotnet` evidence reader names the
//! case's records). Every value carries its own unit, time or size, so the header states none.
//! And its sizes are binary, whatever their symbol: BenchmarkDotNet's `KB` is 1024 bytes and its
//! `MB` 1024² (its `SizeUnit`), so `4.64 MB` is 4.64 MiB, 4,866,608 bytes per operation in the
//! Chrysalis example, not 4.64 million.
//!
//! A run of several jobs (`[SimpleJob(RuntimeMoniker.Net70)]` and `Net80`) adds the job's
//! columns between the method and the parameters (`Job`, `Runtime`, …), and its rows differ by
//! job: such a row is named as BenchmarkDotNet names the case, `Sha256: .NET 7.0 [N=10]`, by the
//! `Job` column (else the first of the job's columns shown), as the reader's `case` field writes
//! it. A job's column, like a parameter's, names the row and is no cell (`.NET 7.0` would
//! otherwise read as the number 7.0).

use super::console::{ConsoleCell, pipe_cells};
use crate::evidence::readers::benchmarkdotnet::{case_name, record_name};

/// The columns BenchmarkDotNet prints for a job's characteristics (its `Job` class's
/// characteristic ids, as its measurements CSV writes them after `Job_`).
const JOB_COLUMNS: &[&str] = &[
    "Job",
    "AnalyzeLaunchVariance",
    "EvaluateOverhead",
    "MaxAbsoluteError",
    "MaxRelativeError",
    "MinInvokeCount",
    "MinIterationTime",
    "OutlierMode",
    "Affinity",
    "EnvironmentVariables",
    "Jit",
    "LargeAddressAware",
    "Platform",
    "PowerPlanMode",
    "Runtime",
    "AllowVeryLargeObjects",
    "Concurrent",
    "CpuGroups",
    "Force",
    "HeapAffinitizeMask",
    "HeapCount",
    "NoAffinitize",
    "RetainVm",
    "Server",
    "Arguments",
    "BuildConfiguration",
    "Clock",
    "EngineFactory",
    "NuGetReferences",
    "Toolchain",
    "IsMutator",
    "InvocationCount",
    "IterationCount",
    "IterationTime",
    "LaunchCount",
    "MaxIterationCount",
    "MaxWarmupIterationCount",
    "MemoryRandomization",
    "MinIterationCount",
    "MinWarmupIterationCount",
    "RunStrategy",
    "UnrollFactor",
    "WarmupCount",
];

/// The statistics one of which every summary table holds; the first of them ends the columns
/// that name a case.
const STATISTICS: &[&str] = &["Mean", "Median", "Min", "Max", "Error", "StdDev", "StdErr", "Op/s"];

/// Where the columns of BenchmarkDotNet's table stand in a table's headers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    /// Each parameter's column and name.
    params: Vec<(usize, String)>,
    /// The columns of the job's characteristics, and the one that names the job in a row's
    /// label: `Job`, else the first of them.
    jobs: Vec<usize>,
    job: Option<usize>,
}

impl Layout {
    /// The layout of `headers`, or `None` when the first header is not `Method` or no header
    /// is one of the statistics BenchmarkDotNet prints.
    pub(crate) fn of(headers: &[String]) -> Option<Layout> {
        let label = |k: usize| headers.get(k).map(|h| h.trim());
        if label(0) != Some("Method") {
            return None;
        }
        let first_statistic = headers.iter().position(|h| STATISTICS.contains(&h.trim()))?;
        let params = (1..first_statistic).filter_map(|k| label(k).filter(|h| !h.is_empty() && !JOB_COLUMNS.contains(h)).map(|h| (k, h.to_string()))).collect();
        let jobs: Vec<usize> = (1..first_statistic).filter(|&k| label(k).is_some_and(|h| JOB_COLUMNS.contains(&h))).collect();
        let job = jobs.iter().copied().find(|&k| label(k) == Some("Job")).or_else(|| jobs.first().copied());
        Some(Layout { params, jobs, job })
    }

    /// A row's label from its cells' texts by column: the method, its job where the table
    /// shows one, and its parameters, as the evidence reader names the case (`case`, else
    /// `name`).
    pub(crate) fn row_label(&self, cell: impl Fn(usize) -> Option<String>) -> String {
        let method = cell(0).unwrap_or_default();
        let values: Vec<(&str, String)> = self.params.iter().filter_map(|(k, name)| cell(*k).map(|v| (name.as_str(), v))).collect();
        let pairs: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        match self.job.and_then(&cell) {
            Some(job) => case_name(&method, &job, &pairs),
            None => record_name(&method, &pairs),
        }
    }

    /// Whether a column names the row and measures nothing: a parameter's value, or one of the
    /// job's characteristics.
    pub(crate) fn names_row(&self, column: usize) -> bool {
        self.params.iter().any(|(k, _)| *k == column) || self.jobs.contains(&column)
    }
}

/// The cells of BenchmarkDotNet's summary tables printed in `code` (its console output, or its
/// Markdown pasted as code), or `None` when it holds none. A table starts at a line of pipes
/// whose cells are a [`Layout`]'s headers, followed by a rule of dashes; its rows are the lines
/// of pipes after the rule. Each value cell is its trimmed text; a parameter's value names the
/// row and gives no cell; the method is the name. Every other line (the environment, the
/// legends, `// * Hints *`) stays code.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut table: Option<(usize, Vec<String>, Layout)> = None;
    let mut tables = 0;
    let mut row = 0;
    let mut ruled = false;
    for (start, line) in super::console::lines(code) {
        let Some(parts) = pipe_cells(line) else {
            table = None;
            continue;
        };
        let texts: Vec<String> = parts.iter().map(|r| line[r.clone()].to_string()).collect();
        if table.is_none() {
            if let Some(layout) = Layout::of(&texts) {
                table = Some((tables, texts, layout));
                tables += 1;
                (row, ruled) = (0, false);
            }
            continue;
        }
        let Some((index, headers, layout)) = &table else { continue };
        if !ruled {
            ruled = texts.iter().all(|t| !t.is_empty() && t.chars().all(|c| matches!(c, '-' | ':')));
            if !ruled {
                table = None;
            }
            continue;
        }
        row += 1;
        let label = layout.row_label(|k| texts.get(k).cloned());
        for (column, range) in parts.iter().enumerate() {
            if range.is_empty() || layout.names_row(column) {
                continue;
            }
            let column_label = headers.get(column).map_or("", |h| h.as_str());
            cells.push(ConsoleCell { binary_sizes: true, ..ConsoleCell::plain(*index, row, column, &label, column_label, start + range.start..start + range.end) });
        }
    }
    if cells.is_empty() { None } else { Some(cells) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(line: &str) -> Vec<String> {
        let parts = pipe_cells(line).unwrap();
        parts.into_iter().map(|r| line[r].to_string()).collect()
    }

    #[test]
    fn the_columns_between_the_method_and_the_statistics_are_parameters_unless_they_name_the_job() {
        let layout = Layout::of(&headers("| Method | Job | Runtime | N | Mode | Mean | Error | Allocated |")).unwrap();
        assert_eq!(layout.params, vec![(3, "N".to_string()), (4, "Mode".to_string())]);
        assert!(layout.names_row(3) && layout.names_row(1) && layout.names_row(2) && !layout.names_row(5));
        assert_eq!(layout.row_label(|k| Some(["Sum", "ShortRun", ".NET 8.0", "100", "fast"][k].to_string())), "Sum: ShortRun [N=100, Mode=fast]");
        // With the `Job` column hidden, the first of the job's columns shown names the job.
        let runtime = Layout::of(&headers("| Method | Runtime | Mean |")).unwrap();
        assert_eq!(runtime.row_label(|k| Some(["Sum", ".NET 8.0"][k].to_string())), "Sum: .NET 8.0");
        let plain = Layout::of(&headers("| Method | Mean | Error |")).unwrap();
        assert_eq!(plain.row_label(|k| Some(["New", "4.081 ms"][k].to_string())), "New");
        // Another table whose first column is a method, but which holds none of the statistics.
        assert_eq!(Layout::of(&headers("| Method | Calls | Notes |")), None);
        assert_eq!(Layout::of(&headers("| Benchmark | Mean |")), None);
    }

    /// BenchmarkDotNet's console output as it prints it (the table of the Chrysalis example's
    /// `AlonzoBenchmarks`, `SAIB-Inc/Chrysalis`, MIT, with a parameter column and a legend
    /// added in BenchmarkDotNet's layout): the environment and the legends stay code.
    const CONSOLE: &str = "BenchmarkDotNet v0.14.0, Ubuntu 24.04.1 LTS (Noble Numbat) WSL
AMD Ryzen 9 5950X, 1 CPU, 32 logical and 16 physical cores

| Method | Size | Mean      | Error     | StdDev    | Gen0     | Allocated |
|------- |----- |----------:|----------:|----------:|---------:|----------:|
| New    | 10   |  4.081 ms | 0.1141 ms | 0.0679 ms | 289.0625 |   4.64 MB |
| Old    | 10   | 14.965 ms | 0.1619 ms | 0.0964 ms |        - |   8.04 MB |

// * Legends *
  Mean      : Arithmetic mean of all measurements
  Error     : Half of 99.9% confidence interval
  1 ms      : 1 Millisecond (0.001 sec)
";

    #[test]
    fn a_console_table_gives_each_value_under_its_header_in_its_case_and_nothing_else() {
        let cells = cells(CONSOLE).unwrap();
        let at = |row: &str, column: &str| cells.iter().find(|c| c.row_label == row && c.column_label == column).map(|c| &CONSOLE[c.range.clone()]);
        assert_eq!(at("New [Size=10]", "Mean"), Some("4.081 ms"));
        assert_eq!(at("New [Size=10]", "Allocated"), Some("4.64 MB"));
        assert_eq!(at("Old [Size=10]", "Error"), Some("0.1619 ms"));
        assert_eq!(at("Old [Size=10]", "Gen0"), Some("-"));
        // The parameter names the row; the method is a name, not a value.
        assert_eq!(at("New [Size=10]", "Size"), None);
        assert!(cells.iter().filter(|c| c.column == 0).all(|c| c.is_name));
        assert!(cells.iter().all(|c| c.binary_sizes && c.table == 0));
        // Two rows of six cells each (the method and five values): no legend, no environment.
        assert_eq!(cells.len(), 12);
        assert!(!cells.iter().any(|c| CONSOLE[c.range.clone()].contains("99.9")));
    }

    /// The console as BenchmarkDotNet printed it before 0.11, without a pipe in front (its own
    /// documentation's `MemoryDiagnoser` sample, docs/articles/overview.md, MIT).
    #[test]
    fn the_console_table_before_0_11_reads_the_same() {
        let code = "    Method |       Mean |    StdDev |  Gen 0 | Allocated |\n---------- |----------- |---------- |------- |---------- |\n Iterative | 31.0739 ns | 0.1091 ns |      - |       0 B |\n      LINQ | 83.0435 ns | 1.0103 ns | 0.0069 |      32 B | \n";
        let cells = cells(code).unwrap();
        let at = |row: &str, column: &str| cells.iter().find(|c| c.row_label == row && c.column_label == column).map(|c| &code[c.range.clone()]);
        assert_eq!(at("Iterative", "Mean"), Some("31.0739 ns"));
        assert_eq!(at("LINQ", "Gen 0"), Some("0.0069"));
        assert_eq!(at("LINQ", "Allocated"), Some("32 B"));
        assert_eq!(cells.len(), 10);
    }

    #[test]
    fn lines_of_pipes_that_are_not_its_table_give_nothing() {
        assert_eq!(cells("| a | b |\n|---|---|\n| 1 | 2 |\n"), None);
        // A header without its rule is not a table.
        assert_eq!(cells("| Method | Mean |\n| New | 1 ms |\n"), None);
        assert_eq!(cells("| Method | Mean |\n"), None);
        assert_eq!(cells(""), None);
        assert_eq!(cells("|"), None);
        assert_eq!(cells("||\n|-|\n||"), None);
    }
}
