//! The article's figures, rendered as SVG from the raw samples and traces of an accepted run,
//! never from typed-in numbers. Rendering is a pure function of the run's files, with an
//! embedded font for text metrics, so the same run gives byte-identical SVGs on any machine;
//! the `figure` check re-renders and compares. This module never reads the article.

use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::evidence::accepted;
use crate::evidence::store::Evidence;
use crate::evidence::{SampleRecord, TraceTask};
use crate::paths::{Kind, PathError, Root};
use crate::stats::Samples;
use crate::status::Failure;

static FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

/// One rendered figure with what it plots.
#[derive(Debug, Clone)]
pub(crate) struct Figure {
    /// File name under `article/figures/`.
    pub name: String,
    pub svg: String,
    pub provenance: FigureProvenance,
}

/// `article/figures/provenance.toml`: every figure and every plotted label, with its source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Provenance {
    pub figure: Vec<FigureProvenance>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct FigureProvenance {
    pub file: String,
    pub sha256: String,
    pub run: String,
    /// What each point or bar is: `median and p05–p95 of host_us over 21 rounds`.
    pub shows: String,
    pub label: Vec<LabelSource>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct LabelSource {
    pub label: String,
    pub suite: String,
    pub cases: Vec<String>,
    pub variant: String,
    pub mode: String,
    /// For a trace figure, the trace file the label's bars come from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
}

/// What `claimcheck figures` did.
pub(crate) struct Written {
    /// False when `--check` found a committed figure that differs from a fresh rendering.
    pub matched: bool,
    pub message: String,
}

/// `claimcheck figures`: renders every figure of `run` (default: the accepted run the committed
/// figures were drawn from, else the first accepted run that holds the softmax suite) into
/// `article/figures/`, or with `check` compares them with the committed files.
pub(crate) fn write_or_check(root: &Path, run: Option<&str>, check: bool) -> Result<Written, Failure> {
    let root = Root::new(root).map_err(|e| Failure::input(format!("cannot open root {}: {e}", root.display())))?;
    let evidence = Evidence::new(root);
    let run = match run {
        Some(r) => r.trim_end_matches('/').to_string(),
        None => default_run(&evidence)?,
    };
    evidence.root().folder(&run).map_err(|e| Failure::input(format!("run {run}: {e}")))?;
    let figures = render(&evidence, &run).map_err(|e| Failure::input(format!("{e:#}")))?;
    let provenance = provenance_toml(&figures).map_err(Failure::Internal)?;
    let mut files: Vec<(String, String)> = figures.iter().map(|f| (format!("{DIR}/{}", f.name), f.svg.clone())).collect();
    files.push((format!("{DIR}/provenance.toml"), provenance));
    if check {
        let differing: Vec<&str> =
            files.iter().filter(|(path, text)| evidence.bytes(path).ok().as_deref().map(Vec::as_slice) != Some(text.as_bytes())).map(|(path, _)| path.as_str()).collect();
        let matched = differing.is_empty();
        let message =
            if matched { format!("{} files match a fresh rendering of {run}", files.len()) } else { format!("differ from a fresh rendering of {run}: {}", differing.join(", ")) };
        return Ok(Written { matched, message });
    }
    // The folder is made, and each figure replaced, through the root's handle: a figures folder
    // that links out of the root is refused before any file is written, and a figure that is
    // a link is refused rather than written through.
    evidence.root().create_dir_all(DIR).map_err(|e| Failure::writing(DIR, e))?;
    // A figure that is a link (or a folder) is refused before any figure is written, so that
    // bad input leaves the folder as it was; the writer refuses it again at the write itself.
    for (path, _) in &files {
        match evidence.root().kind(path).map_err(|e| Failure::writing(path, e))? {
            None | Some(Kind::File) => {}
            Some(Kind::Link) => return Err(Failure::writing(path, PathError::Link(path.clone()))),
            Some(Kind::Dir | Kind::Other) => return Err(Failure::writing(path, PathError::NotFile(path.clone()))),
        }
    }
    for (path, text) in &files {
        evidence.root().write(path, text.as_bytes()).map_err(|e| Failure::writing(path, e))?;
    }
    Ok(Written { matched: true, message: format!("wrote {} files to {DIR} from {run}", files.len()) })
}

/// Where the figures live, relative to the root.
const DIR: &str = "article/figures";

/// The run to render when none is named. Several runs of the suites may be accepted, as
/// replicates, and the article's figures come from one of them: the run the committed
/// provenance names, while it is still accepted with the softmax suite, so that rendering or
/// checking again does not move the figures to another replicate. Otherwise (no provenance
/// that reads, figures of several runs, or a run no longer accepted) the first accepted run
/// that holds the softmax suite.
fn default_run(evidence: &Evidence) -> Result<String, crate::diagnostic::Diagnostic> {
    let first = accepted::run_with(evidence, "softmax")?;
    let drawn = evidence.text(&format!("{DIR}/provenance.toml")).ok().and_then(|t| toml::from_str::<Provenance>(&t).ok()).and_then(|p| {
        let runs: std::collections::BTreeSet<String> = p.figure.into_iter().map(|f| f.run).collect();
        (runs.len() == 1).then(|| runs.into_iter().next()).flatten()
    });
    let still_accepted = |run: &str| accepted::read(evidence).ok().flatten().is_some_and(|file| file.run.iter().any(|r| r.path == run && r.suites.iter().any(|s| s == "softmax")));
    Ok(drawn.filter(|run| still_accepted(run)).unwrap_or(first))
}

/// Renders every figure from the run at `run` (root-relative), reading through `evidence`.
pub(crate) fn render(evidence: &Evidence, run: &str) -> anyhow::Result<Vec<Figure>> {
    plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).map_err(|_| anyhow::anyhow!("the embedded font does not load"))?;
    let typed = samples(evidence, run);
    let samples = typed.as_ref().as_ref().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut out = Vec::new();
    out.push(latency_figure(
        "pointwise.svg",
        run,
        samples,
        "pointwise",
        &["n=262144", "n=1048576", "n=4194304", "n=16777216"],
        &["2^18", "2^20", "2^22", "2^24"],
        &[("three-kernel", "stream"), ("three-kernel", "graph"), ("fused", "stream"), ("fused", "graph")],
        "Pointwise y = (x·a + b)²: host completion time by size",
    )?);
    out.push(latency_figure(
        "softmax.svg",
        run,
        samples,
        "softmax",
        &["4096x128", "16384x512", "32768x1024", "4096x4096", "1024x32768", "8x262144"],
        &["4096×128", "16384×512", "32768×1024", "4096×4096", "1024×32768", "8×262144"],
        &[
            ("four-kernel", "stream"),
            ("four-kernel", "graph"),
            ("cudnn-rms", "stream"),
            ("cudnn-rms", "graph"),
            ("fused-block", "stream"),
            ("fused-block", "graph"),
            ("fused", "stream"),
            ("fused", "graph"),
        ],
        "RMS-scaled softmax: host completion time by shape",
    )?);
    out.push(latency_figure(
        "scheduling.svg",
        run,
        samples,
        "scheduling",
        &["balanced", "ragged"],
        &["balanced", "ragged"],
        &[("three-kernel", "stream"), ("three-kernel", "graph"), ("phase-fused", "stream"), ("phase-fused", "graph"), ("queue", "stream"), ("queue", "graph")],
        "Tiled A/B/C softmax: host completion time by schedule",
    )?);
    out.push(timeline_figure("timeline.svg", run, evidence, "traces/queue-ragged.jsonl")?);
    Ok(out)
}

/// The provenance file for `figures`.
pub(crate) fn provenance_toml(figures: &[Figure]) -> anyhow::Result<String> {
    let p = Provenance { figure: figures.iter().map(|f| f.provenance.clone()).collect() };
    Ok(format!("# Written by `claimcheck figures`: every figure and every plotted label, with its source.\n\n{}", toml::to_string(&p)?))
}

/// The samples of the run at `run` (root-relative), typed once per process: the rendering and
/// the `figure` check's list of what a run holds both read them.
pub(crate) fn samples(evidence: &Evidence, run: &str) -> Rc<Result<Vec<SampleRecord>, String>> {
    let path = format!("{run}/samples.jsonl");
    evidence.derived(&format!("typed samples of {path}"), || {
        let jsonl = evidence.jsonl(&path).map_err(|e| e.at(&path).render())?;
        jsonl.records.iter().map(|r| jsonl.record_as(r, "a sample").map_err(|d| d.render())).collect()
    })
}

/// The legend every figure draws, in one style.
fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(chart: &mut ChartContext<'a, DB, CT>, position: SeriesLabelPosition) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    chart.configure_series_labels().position(position).label_font((FAMILY, 12)).background_style(WHITE.mix(0.85)).border_style(BLACK).draw().map_err(to_plot)
}

/// The major ticks of a log axis over `lo..hi`: 1, 2 and 5 times each power of ten inside it,
/// or every integer multiple where that leaves fewer than four ticks (an axis within one
/// decade). plotters' own choice for a log axis repeats a tick (`100.0` twice) and crowds minor
/// lines into a grey band, so the figures name their ticks.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let coarse = multiples(lo, hi, &[1.0, 2.0, 5.0]);
    if coarse.len() >= 4 { coarse } else { multiples(lo, hi, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]) }
}

/// The light lines of a log axis: the integer multiples of each power of ten that are not
/// major ticks.
fn log_minor_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let major = log_ticks(lo, hi);
    multiples(lo, hi, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]).into_iter().filter(|v| !major.contains(v)).collect()
}

/// `factors` times each power of ten, inside `lo..=hi`.
fn multiples(lo: f64, hi: f64, factors: &[f64]) -> Vec<f64> {
    decades(lo, hi).flat_map(|d| factors.iter().map(move |m| m * d)).filter(|v| *v >= lo && *v <= hi).collect()
}

/// Every power of ten from the one at or below `lo` to the one at or below `hi`.
fn decades(lo: f64, hi: f64) -> impl Iterator<Item = f64> {
    let (first, last) = (lo.log10().floor() as i32, hi.log10().floor() as i32);
    (first..=last).map(|e| 10f64.powi(e))
}

/// The worker axis of the timeline: `0..workers`, with ticks where [`worker_ticks`] puts them.
/// plotters' linear axis with bound key points has no label formatter, so this one says how to
/// map a row and where its ticks stand, and takes the default formatting that the figure
/// overrides.
struct Rows {
    workers: f64,
    ticks: Vec<f64>,
}

impl Ranged for Rows {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let fraction = value / self.workers;
        limit.0 + (fraction * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() { Vec::new() } else { self.ticks.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        0.0..self.workers
    }
}

/// Ticks for worker rows `0..workers`: every `step`-th worker, at the middle of its row, with a
/// step of 1, 2 or 5 times a power of ten that leaves at most eight ticks.
fn worker_ticks(workers: usize) -> Vec<f64> {
    let step = (0..10).flat_map(|e| [1, 2, 5].map(|m| m * 10usize.pow(e))).find(|s| workers.div_ceil(*s) <= 8).unwrap_or(1);
    (0..workers).step_by(step).map(|w| w as f64 + 0.5).collect()
}

/// A tick's label with no more decimals than it needs: `20`, `0.5`, `2.25`.
fn tick_label(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_string() } else { s.to_string() }
}

fn to_plot<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing: {e:?}")
}

/// Colours that stay apart in print and for common colour-vision deficiencies.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(120, 200, 170),
    RGBColor(204, 121, 167),
    RGBColor(90, 40, 120),
];

#[allow(clippy::too_many_arguments)]
fn latency_figure(
    name: &str,
    run: &str,
    samples: &[SampleRecord],
    suite: &str,
    cases: &[&str],
    case_labels: &[&str],
    series: &[(&str, &str)],
    title: &str,
) -> anyhow::Result<Figure> {
    // (case, variant, mode) -> (p05, median, p95) of host_us.
    let mut groups: BTreeMap<(&str, &str, &str), Vec<f64>> = BTreeMap::new();
    for s in samples.iter().filter(|s| s.suite == suite) {
        groups.entry((s.case.as_str(), s.variant.as_str(), s.mode.as_str())).or_default().push(s.host_us);
    }
    let mut stats = BTreeMap::new();
    for (key, values) in groups {
        let s = Samples::new(values).map_err(|e| anyhow::anyhow!("{suite} {key:?}: {e}"))?;
        stats.insert(key, (s.quantile(0.05), s.median(), s.quantile(0.95)));
    }
    let (lo, hi) = stats.values().fold((f64::INFINITY, 0.0f64), |(a, b), (p05, _, p95)| (a.min(*p05), b.max(*p95)));
    anyhow::ensure!(hi > 0.0, "no {suite} samples in {run}");
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (960, 520)).into_drawing_area();
        area.fill(&WHITE).map_err(to_plot)?;
        let n = cases.len() as f64;
        let mut chart = ChartBuilder::on(&area)
            .caption(title, (FAMILY, 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(
                -0.5f64..n - 0.5,
                ((lo * 0.8)..(hi * 1.25)).log_scale().with_key_points(log_ticks(lo * 0.8, hi * 1.25)).with_light_points(log_minor_ticks(lo * 0.8, hi * 1.25)),
            )
            .map_err(to_plot)?;
        let labels: Vec<String> = case_labels.iter().map(|s| s.to_string()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(cases.len())
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 { labels.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
            })
            .y_label_formatter(&|v| tick_label(*v))
            .y_desc("host completion time, µs (log scale)")
            .label_style((FAMILY, 13))
            .draw()
            .map_err(to_plot)?;
        let width = 0.8 / series.len() as f64;
        for (k, (variant, mode)) in series.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let offset = -0.4 + width * (k as f64 + 0.5);
            let points: Vec<(f64, f64, f64, f64)> =
                cases.iter().enumerate().filter_map(|(i, c)| stats.get(&(*c, *variant, *mode)).map(|&(p05, med, p95)| (i as f64 + offset, p05, med, p95))).collect();
            chart
                .draw_series(points.iter().map(|&(x, p05, med, p95)| ErrorBar::new_vertical(x, p05, med, p95, colour.stroke_width(2), 6)))
                .map_err(to_plot)?
                .label(format!("{variant}, {mode}"))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
            chart.draw_series(points.iter().map(|&(x, _, med, _)| Circle::new((x, med), 3, colour.filled()))).map_err(to_plot)?;
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        area.present().map_err(to_plot)?;
    }
    let provenance = FigureProvenance {
        file: format!("article/figures/{name}"),
        sha256: crate::hash::sha256_hex(svg.as_bytes()),
        run: run.to_string(),
        shows: "dot: median, bar: p05 to p95 of host_us (numpy linear quantiles) over the run's rounds".into(),
        label: series
            .iter()
            .map(|(variant, mode)| LabelSource {
                label: format!("{variant}, {mode}"),
                suite: suite.to_string(),
                cases: cases.iter().map(|c| c.to_string()).collect(),
                variant: variant.to_string(),
                mode: mode.to_string(),
                trace: None,
            })
            .collect(),
    };
    Ok(Figure { name: name.to_string(), svg, provenance })
}

fn timeline_figure(name: &str, run: &str, evidence: &Evidence, trace: &str) -> anyhow::Result<Figure> {
    let path = format!("{run}/{trace}");
    // The typed reader's reading, shared with the `trace` checks, where it takes the file;
    // otherwise the whole read, which says what is wrong with it.
    let typed = evidence.trace(&path).map_err(|e| anyhow::anyhow!(e.at(&path).render()))?;
    let whole;
    let (header, tasks) = match typed.as_ref() {
        Some(file) => (&file.header, file.tasks.as_slice()),
        None => {
            let text = evidence.text(&path).map_err(|e| anyhow::anyhow!(e.at(&path).render()))?;
            let mut lines = text.lines().filter(|l| !l.trim().is_empty());
            let header: crate::evidence::TraceHeader = serde_json::from_str(lines.next().unwrap_or("{}"))?;
            let tasks: Vec<TraceTask> = lines.map(serde_json::from_str).collect::<Result<_, _>>()?;
            whole = (header, tasks);
            (&whole.0, whole.1.as_slice())
        }
    };
    let t0 = tasks.iter().map(|t| t.start_ns).min().ok_or_else(|| anyhow::anyhow!("{trace} has no tasks"))?;
    let t1 = tasks.iter().map(|t| t.end_ns).max().unwrap_or(t0);
    let span_us = (t1 - t0) as f64 / 1000.0;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (960, 560)).into_drawing_area();
        area.fill(&WHITE).map_err(to_plot)?;
        let title = format!("Queue schedule, {} input: tasks per worker over time ({} tasks, {} workers)", header.case, tasks.len(), header.workers);
        let mut chart = ChartBuilder::on(&area)
            .caption(title, (FAMILY, 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..span_us * 1.02, Rows { workers: header.workers as f64, ticks: worker_ticks(header.workers) })
            .map_err(to_plot)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_label_formatter(&|v| tick_label(*v))
            // A tick stands at the middle of its worker's row and names the worker.
            .y_label_formatter(&|v| format!("{}", (*v - 0.5).round() as i64))
            .x_desc("time since the first task started, µs (%globaltimer)")
            .y_desc("worker block")
            .label_style((FAMILY, 13))
            .draw()
            .map_err(to_plot)?;
        for (k, stage) in ["A", "B", "C"].iter().enumerate() {
            let colour = [PALETTE[0], PALETTE[2], PALETTE[4]][k];
            chart
                .draw_series(tasks.iter().filter(|t| t.stage == *stage).map(|t| {
                    let x0 = (t.start_ns - t0) as f64 / 1000.0;
                    let x1 = ((t.end_ns - t0) as f64 / 1000.0).max(x0 + span_us * 0.002);
                    let y = t.worker as f64;
                    Rectangle::new([(x0, y + 0.1), (x1, y + 0.9)], colour.filled())
                }))
                .map_err(to_plot)?
                .label(format!("{stage} tasks"))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        area.present().map_err(to_plot)?;
    }
    let provenance = FigureProvenance {
        file: format!("article/figures/{name}"),
        sha256: crate::hash::sha256_hex(svg.as_bytes()),
        run: run.to_string(),
        shows: "one bar per task, from its start to its end %globaltimer reading, on the row of the worker block that ran it".into(),
        label: ["A", "B", "C"]
            .iter()
            .map(|stage| LabelSource {
                label: format!("{stage} tasks"),
                suite: header.suite.clone(),
                cases: vec![header.case.clone()],
                variant: header.variant.clone(),
                mode: "trace".into(),
                trace: Some(format!("{run}/{trace}")),
            })
            .collect(),
    };
    Ok(Figure { name: name.to_string(), svg, provenance })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_are_one_two_five_and_never_repeat() {
        assert_eq!(log_ticks(9.5, 625.0), [10.0, 20.0, 50.0, 100.0, 200.0, 500.0]);
        let minor = log_minor_ticks(9.5, 625.0);
        assert!(minor.iter().all(|m| !log_ticks(9.5, 625.0).contains(m)));
        assert_eq!(log_ticks(15.0, 55.0), [20.0, 30.0, 40.0, 50.0]);
        assert!(log_minor_ticks(15.0, 55.0).is_empty());
    }

    #[test]
    fn tick_labels_print_integers_as_integers() {
        assert_eq!(tick_label(120.0), "120");
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(2.25), "2.25");
        assert_eq!(tick_label(-0.0), "0");
    }

    #[test]
    fn worker_ticks_name_whole_workers_at_the_middle_of_their_rows() {
        assert_eq!(worker_ticks(132), [0.5, 20.5, 40.5, 60.5, 80.5, 100.5, 120.5]);
        assert_eq!(worker_ticks(4), [0.5, 1.5, 2.5, 3.5]);
    }
}
