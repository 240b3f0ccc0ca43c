//! Numbers quoted in prose: their value, unit, displayed precision and span. This module owns
//! recognising numbers and the matching rule; it never decides which number a check verifies.
//!
//! **Matching rule.** A quoted value with `d` decimals matches a computed value `c` when `c`
//! rounds to it at `d` decimals: `c` written with `d` decimals (from its exact binary value,
//! ties to even) is the quoted value. That is the half-unit interval around the quote, with
//! exactly one quote matching a value off a boundary. A value on a boundary to within a few
//! units in the last place of its own arithmetic (a median of 5.590 and 5.591, which computes
//! as 5.5905000000000005) is a decimal tie, and both of its neighbours match it: harnesses
//! break such ties by their own binary rounding, in their own units, so neither side is the
//! data's. With an explicit tolerance the
//! rule is `|c − q| ≤ tolerance` instead. Integers shown with thousands separators (`1,764`)
//! have `d = 0`. A number written with a power of ten or a multiplier (`1.5e-3`, `10k`,
//! `1.2M`) is as precise as its written digits: `1.2M` is a half-unit interval of 0.1 million.
//! A bound (`<0.0001`, `p ≤ 0.05`, `at least 1.5x`) matches every value on its side of the
//! quoted value, exactly, with no rounding ([`Bound`]); a tolerance moves its limit outwards.
//!
//! **What is a number.** Digits with an optional sign (`-`, `−`, `+`), currency sign (`$`, `€`, `£`,
//! `¥`), decimals (a leading zero may be left out where a number begins: `p = .001`) or thousands separators (commas, or the thin and no-break spaces of SI
//! style: `1 234 567`), power of ten (`1e-3`, `2.5×10^3`), a power written with a caret as a
//! whole (`2^15`, exactly 32768), or multiplier
//! (`k`, `M`, `G`), then an optional unit: a known one (`µs`, `seconds`, `GB/s`, `Gbps`, `Mpps`, `GFLOPS`, `%`, `×`, …)
//! or a free one written with a slash (`tokens/s`) that matches only itself. Digits that are
//! part of a name (`H200`, `sm_90`, `Llama-3.2-1B`), a version or dotted identifier (`3.11.2`,
//! `1.x`) or a release (`Python 3.8`, `Visual Studio 2017`, `version 2`), an exponent written
//! alone (`^3`), anything inside asymptotic notation (`O(1)`, `Θ(n^2)`), a date or a marked moment (`2020-10-13`, `(Sep 2021)`, `12:16 UTC`), a cited
//! year (`[Garner, 2007]`, `Lamport. 1976.`) and a reference to a part of a document (`Table 2`, `§ 4.2`, `RFC 2119`) are
//! not numbers. Two values joined by a dash or by two dots (`1.0–1.7×`, `4.07..4.44 us`) are a
//! range. A shape (`4096×128`, `256 × 256`) is a label; an integer before a spaced `×` and a
//! name (`8 × A100`) is a count, not a ratio. A value and its spread written
//! with one unit (`6.6 ± 0.2 ms`) are two numbers in that unit. A comparator before a value
//! (`<`, `≤`, `<=`, `⩽`, `>`, `≥`, `>=`, `⩾`, as the readers decode HTML's `&lt;` and LaTeX's
//! `$<$`, `\textless` and `\le`) makes it a bound, part of its text; `less than`, `more than`,
//! `at least`, `at most` and their negations do too, as prose around it. An arrow, an operator, a
//! redirect, a tag, a version constraint or a comparison of two numbers makes none
//! (`read_bounds`).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// The unit a number is quoted in, after normalising spellings (`us`, `µs` and `μs` are one;
/// `s`, `sec` and `seconds` are one).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    Percent,
    Times,
    Ns,
    Us,
    Ms,
    S,
    /// Minutes and hours, as build and CI times are quoted (`12 min`, `2.5 hours`) and as wrk
    /// prints a time of a minute or more (`1.00m`, read by its console reader alone: in prose a
    /// lone `m` is as often a metre or a million).
    Min,
    H,
    Bytes,
    KiB,
    MiB,
    GiB,
    Kb,
    Mb,
    Gb,
    Tb,
    /// Bytes per second as benchstat writes Go's `MB/s` (`B/s`, with a binary prefix).
    BPerS,
    KbPerS,
    MbPerS,
    GbPerS,
    TbPerS,
    KiBPerS,
    MiBPerS,
    GiBPerS,
    GflopPerS,
    TflopPerS,
    PflopPerS,
    /// Bits per second, as networking writes a link's or a flow's rate (`28.8Gbps`, `10 Gb/s`):
    /// a lowercase `b` is a bit, never a byte, so these convert among themselves and not to
    /// the byte rates above.
    BitPerS,
    KbitPerS,
    MbitPerS,
    GbitPerS,
    TbitPerS,
    /// Packets per second, as a packet-processing system's throughput is quoted (`56.4 Mpps`).
    PacketPerS,
    KpacketPerS,
    MpacketPerS,
    GpacketPerS,
    /// Input/output operations per second, as storage is measured (`1.2M IOPS`, `350 KIOPS`).
    Iops,
    Kiops,
    Miops,
    /// Frequencies: a clock (`1980 MHz`), as Nsight Compute prints its `DRAM Frequency` and `SM
    /// Frequency` (`Ghz`, or `hz` in base units).
    Hz,
    KHz,
    MHz,
    GHz,
    /// A currency written before the digits (`$1.2k`): `$`, `€`, `£` or `¥`.
    Currency(&'static str),
    /// Any other unit, as written (`tokens/s`): it matches only itself and converts to nothing.
    Other(Box<str>),
}

/// Units a number may be quoted in, for the number pattern. A free unit with a slash comes
/// first so that `tokens/s` is read whole rather than as a bare `s` followed by letters; the
/// known units with a slash are read by the same alternative and recognised by name. Longer
/// spellings come before their prefixes (`msec` before `ms`, `seconds` before `s`). Rates
/// written without a slash (`Gbps`, `Mpps`, `GFLOPS`, `IOPS`) are listed whole, so that one
/// glued to its digits (`28.8Gbps`) is read as a unit rather than as a name.
const UNIT_PATTERN: &str = r"[A-Za-zµμ]+(?:/[A-Za-zµμ]+)+|bps|[kKMGT]bps|pps|[kKMG]pps|[GTP]FLOPS|[GTP]Flops|[GTP]flops|[kKM]?IOPS|seconds|second|secs|sec|minutes|minute|mins|min|hours|hour|hrs|hr|h|milliseconds|millisecond|msecond|msec|microseconds|microsecond|usecond|usec|nanoseconds|nanosecond|nsecond|nsec|KiB|MiB|GiB|bytes|Kbyte|Mbyte|Gbyte|Tbyte|byte|KB|kB|MB|GB|TB|GHz|MHz|kHz|µs|μs|us|ns|ms|%|×|x|X|s|B";

static WHOLE_UNIT: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!("^(?:{UNIT_PATTERN})$")).expect("unit pattern is valid"));
/// The characters that group thousands where SI and ISO 80000 write them: a thin, a narrow
/// no-break or a no-break space (`1 234 567`); and the mark that stands for one of them in an
/// article's text, where every space has become a plain one ([`with_group_marks`]).
const GROUP_SPACES: [char; 4] = ['\u{2009}', '\u{202F}', '\u{A0}', GROUP_MARK];

/// A control character no prose holds, one byte long as the plain space it replaces, so that
/// every offset into the text stays as it was.
const GROUP_MARK: char = '\u{1F}';

/// Whether `source` begins with a space that groups thousands: one of [`GROUP_SPACES`] as a
/// character, as the HTML entity that writes it, or as LaTeX's thin space (`1\,183\,514`).
pub(crate) fn groups_thousands(source: &str) -> bool {
    const ENTITIES: [&str; 9] = ["&nbsp;", "&thinsp;", "&#160;", "&#xA0;", "&#8201;", "&#8239;", "&#x202F;", "\\,", "\\thinspace"];
    source.starts_with(&GROUP_SPACES[..3]) || ENTITIES.iter().any(|e| source.starts_with(e))
}

/// `text` with each plain space that stood for a thousands-grouping space in the source
/// (`grouped(i)` for the space at byte `i`) and lies between two digits marked again, so that
/// [`extract`] reads `1 234 567` as one number. An article's text makes every run of
/// whitespace one plain space, which sentences, quotes and fingerprints compare on; numbers
/// are read from this copy instead, whose offsets are the same.
///
/// A plain space also groups where the three digits after it begin with a zero and end the
/// digits there, after a group of one to three (`800 000`, `1 000 000`, `7 050 ms`): a number is
/// not written alone with a leading zero, so those digits can only continue the number before
/// them. A plain space before any other group stays a space (`table 1 234` is two numbers).
pub(crate) fn with_group_marks(text: &str, grouped: impl Fn(usize) -> bool) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let digit = |k: usize| bytes.get(k).is_some_and(u8::is_ascii_digit);
    let zero_group = |i: usize| {
        let before = (0..i).rev().take_while(|&k| digit(k)).count();
        bytes.get(i + 1) == Some(&b'0') && (i + 1..i + 4).all(digit) && !digit(i + 4) && (1..=3).contains(&before)
    };
    let marks: Vec<usize> =
        (1..bytes.len().saturating_sub(1)).filter(|&i| bytes[i] == b' ' && bytes[i - 1].is_ascii_digit() && bytes[i + 1].is_ascii_digit() && (grouped(i) || zero_group(i))).collect();
    if marks.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = bytes.to_vec();
    for i in marks {
        out[i] = GROUP_MARK as u8;
    }
    // Only ASCII spaces were replaced, by an ASCII control character.
    std::borrow::Cow::Owned(String::from_utf8(out).expect("one ASCII byte replaced by another"))
}

static NUMBER: LazyLock<Regex> = LazyLock::new(|| number_pattern(true));

/// A duration as `time` and shells print one: hours (optional), minutes and seconds, each
/// glued to its letter, the parts glued together or one space apart, nothing alphanumeric after.
/// The seconds may be left out after hours (`1h 30m`), never after minutes alone: `5m` is as
/// often five metres or five million.
static DURATION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^((?:(\d+)h ?)?(\d+)m(?: ?(\d+(?:\.\d+)?)s)?)(?:[^\w]|$)").expect("duration pattern is valid"));
/// A PCI address: domain (optional), bus, device (five bits, `00` to `1f`) and function (`0`
/// to `7`) in hex, nothing alphanumeric after; so that a time written `12:34.5` is none.
static PCI_ADDRESS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[01][0-9a-fA-F]\.[0-7]\b").expect("PCI address pattern is valid"));
/// The same pattern without thousands grouped by spaces, for digits whose groups run on into
/// a fourth digit (`12 3456`): those are two numbers, not a grouped one cut short.
static UNGROUPED: LazyLock<Regex> = LazyLock::new(|| number_pattern(false));

fn number_pattern(grouped_by_spaces: bool) -> Regex {
    // Thousands are grouped by commas (`1,234`) or by one of `GROUP_SPACES`; a plain space is
    // not read as one, since `table 1 234` may be two numbers.
    let spaced = if grouped_by_spaces { r"\d{1,3}(?:[\x{2009}\x{202F}\x{A0}\x{1F}]\d{3})+(?:\.\d+)?|" } else { "" };
    let num = format!(r"\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|{spaced}\d+(?:\.\d+)?");
    let unit = UNIT_PATTERN;
    // A shape's sign is glued to its dimensions (`256×256`) or set off by a space on each side
    // (`256 × 256`, as LaTeX's `$256 \times 256$` prints it), never by one alone, so that
    // `8 x86 machines` stays a count and a name.
    Regex::new(&format!(
        r"(?x)
        (?P<dims>\d+(?:(?:[×x]|\x20[×x]\x20)\d+)+)(?:[^\w.^]|\.(?:[^\d]|$)|$)
        |
        (?P<sign>[-−+])?(?P<cur>[$€£¥])?
        (?P<lo>{num}|\.\d+)
        (?P<exp>[eE][-+−]?\d+|\x20?[×x]\x20?10\^[-+−]?\d+)?
        (?:\x20?(?P<lounit>{unit}))??
        (?:\x20?(?:–|-|—|\.\.)\x20?(?P<hi>{num}))?
        (?:\x20?(?P<unit>{unit}))?"
    ))
    .expect("number pattern is valid")
}
static UNIT_AFTER: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!(r"^\x20?(?:{UNIT_PATTERN})")).expect("unit pattern is valid"));

/// Compiles the patterns above now. Their Unicode classes make them cost a few milliseconds to
/// compile, which the first article read would otherwise wait for: `Workspace::load` calls
/// this on a thread of its own while it reads the registries, and the first use waits only
/// for what is not done yet.
pub(crate) fn compile_patterns() {
    LazyLock::force(&WHOLE_UNIT);
    LazyLock::force(&NUMBER);
    LazyLock::force(&UNGROUPED);
    LazyLock::force(&UNIT_AFTER);
    LazyLock::force(&DURATION);
    LazyLock::force(&PCI_ADDRESS);
}

/// Words with a slash that read like a free unit but are not one.
const NOT_UNITS: &[&str] = &["and/or", "w/o", "n/a", "N/A", "I/O", "i/o"];

impl Unit {
    /// The unit as a harness means it that writes 1024-based sizes with decimal symbols
    /// (BenchmarkDotNet's `KB` and `MB`): the binary unit of the same symbol, any other unit
    /// as it is. A terabyte has no binary unit here and stays as written.
    pub(crate) fn binary(self) -> Unit {
        match self {
            Unit::Kb => Unit::KiB,
            Unit::Mb => Unit::MiB,
            Unit::Gb => Unit::GiB,
            other => other,
        }
    }

    /// The rate of a size: its amount a second (`MiB` to `MiB/s`), as a harness means a size it
    /// prints under a rate's label (wrk's `Transfer/sec: 5.52MB`); any other unit as it is.
    pub(crate) fn per_second(self) -> Unit {
        match self {
            Unit::Bytes => Unit::BPerS,
            Unit::Kb => Unit::KbPerS,
            Unit::Mb => Unit::MbPerS,
            Unit::Gb => Unit::GbPerS,
            Unit::Tb => Unit::TbPerS,
            Unit::KiB => Unit::KiBPerS,
            Unit::MiB => Unit::MiBPerS,
            Unit::GiB => Unit::GiBPerS,
            other => other,
        }
    }

    /// A unit this module knows by one of its spellings.
    fn parse(text: &str) -> Option<Unit> {
        Some(match text {
            "%" => Unit::Percent,
            "×" | "x" | "X" => Unit::Times,
            // A time per operation, as JMH and Go print it (`12.3 ns/op`), is that time: the
            // operation is what every such value counts, so it converts like the time alone.
            // Nsight Compute spells its scaled times `nsecond`, `usecond` and `msecond`.
            "ns" | "nsec" | "nsecond" | "nanosecond" | "nanoseconds" | "ns/op" => Unit::Ns,
            "µs" | "μs" | "us" | "usec" | "usecond" | "microsecond" | "microseconds" | "us/op" | "µs/op" | "μs/op" => Unit::Us,
            "ms" | "msec" | "msecond" | "millisecond" | "milliseconds" | "ms/op" => Unit::Ms,
            "s" | "sec" | "secs" | "second" | "seconds" | "s/op" => Unit::S,
            "min" | "mins" | "minute" | "minutes" => Unit::Min,
            "h" | "hr" | "hrs" | "hour" | "hours" => Unit::H,
            // Bytes per operation, as Go prints them (`B/op`), are bytes, as `ns/op` is a time.
            // Nsight Compute writes sizes and rates with decimal prefixes and the word `byte`
            // (`Mbyte`, `Gbyte/s`, `byte/second`): 9,830,400 bytes print as `9.83 Mbyte`.
            "B" | "bytes" | "byte" | "B/op" => Unit::Bytes,
            "KiB" => Unit::KiB,
            "MiB" => Unit::MiB,
            "GiB" => Unit::GiB,
            "KB" | "kB" | "Kbyte" => Unit::Kb,
            "MB" | "Mbyte" => Unit::Mb,
            "GB" | "Gbyte" => Unit::Gb,
            "TB" | "Tbyte" => Unit::Tb,
            "B/s" | "byte/s" | "byte/second" => Unit::BPerS,
            "KB/s" | "kB/s" | "Kbyte/s" | "Kbyte/second" => Unit::KbPerS,
            "KiB/s" => Unit::KiBPerS,
            "MiB/s" => Unit::MiBPerS,
            "GiB/s" => Unit::GiBPerS,
            "MB/s" | "Mbyte/s" | "Mbyte/second" => Unit::MbPerS,
            "GB/s" | "Gbyte/s" | "Gbyte/second" => Unit::GbPerS,
            "TB/s" | "Tbyte/s" | "Tbyte/second" => Unit::TbPerS,
            // A rate of floating-point operations with its `/s` or as `FLOPS`. `GFLOPs`, with a
            // lowercase `s`, is left out: papers write it for a count of operations (a model's
            // cost per input), which is no rate.
            "GFLOP/s" | "GFLOPS" | "Gflop/s" | "GFlop/s" | "Gflops" | "GFlops" => Unit::GflopPerS,
            "TFLOP/s" | "TFLOPS" | "Tflop/s" | "TFlop/s" | "Tflops" | "TFlops" => Unit::TflopPerS,
            "PFLOP/s" | "PFLOPS" | "Pflop/s" | "PFlop/s" | "Pflops" | "PFlops" => Unit::PflopPerS,
            // A lowercase `b` with a rate is a bit (`Gb/s` is a link's gigabits, as `GB/s` is
            // gigabytes).
            "bps" | "b/s" | "bit/s" => Unit::BitPerS,
            "kbps" | "Kbps" | "kb/s" | "Kb/s" | "kbit/s" | "Kbit/s" => Unit::KbitPerS,
            "Mbps" | "Mb/s" | "Mbit/s" => Unit::MbitPerS,
            "Gbps" | "Gb/s" | "Gbit/s" => Unit::GbitPerS,
            "Tbps" | "Tb/s" | "Tbit/s" => Unit::TbitPerS,
            "pps" => Unit::PacketPerS,
            "kpps" | "Kpps" => Unit::KpacketPerS,
            "Mpps" => Unit::MpacketPerS,
            "Gpps" => Unit::GpacketPerS,
            "IOPS" => Unit::Iops,
            "kIOPS" | "KIOPS" => Unit::Kiops,
            "MIOPS" => Unit::Miops,
            "Hz" | "hz" | "cycle/second" | "cycle/s" => Unit::Hz,
            "kHz" | "KHz" | "Khz" | "khz" => Unit::KHz,
            // Older Nsight Compute prints a clock as cycles per nanosecond or per microsecond.
            "MHz" | "Mhz" | "mhz" | "cycle/usecond" | "cycle/us" => Unit::MHz,
            "GHz" | "Ghz" | "ghz" | "cycle/nsecond" | "cycle/ns" => Unit::GHz,
            "$" => Unit::Currency("$"),
            "€" => Unit::Currency("€"),
            "£" => Unit::Currency("£"),
            "¥" => Unit::Currency("¥"),
            _ => return None,
        })
    }

    /// The unit a registry declares (`unit = "s"`): a known spelling, or any other string as a
    /// free unit that matches only itself.
    pub fn declared(text: &str) -> Result<Unit, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("a unit is not empty: write one such as \"s\", \"ms\", \"µs\" or \"tokens/s\"".into());
        }
        Ok(Unit::parse(text).unwrap_or_else(|| Unit::Other(text.into())))
    }

    /// A unit as the number pattern found it after digits: a known spelling, or a free unit
    /// with a slash that is not a common abbreviation (`and/or`).
    fn quoted(text: &str) -> Option<Unit> {
        Unit::parse(text).or_else(|| (text.contains('/') && !NOT_UNITS.contains(&text)).then(|| Unit::Other(text.into())))
    }

    /// The canonical spelling, used in reports.
    pub fn symbol(&self) -> &str {
        match self {
            Unit::Percent => "%",
            Unit::Times => "×",
            Unit::Ns => "ns",
            Unit::Us => "µs",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Min => "min",
            Unit::H => "h",
            Unit::Bytes => "B",
            Unit::KiB => "KiB",
            Unit::MiB => "MiB",
            Unit::GiB => "GiB",
            Unit::Kb => "KB",
            Unit::Mb => "MB",
            Unit::Gb => "GB",
            Unit::Tb => "TB",
            Unit::BPerS => "B/s",
            Unit::KbPerS => "KB/s",
            Unit::KiBPerS => "KiB/s",
            Unit::MiBPerS => "MiB/s",
            Unit::GiBPerS => "GiB/s",
            Unit::MbPerS => "MB/s",
            Unit::GbPerS => "GB/s",
            Unit::TbPerS => "TB/s",
            Unit::GflopPerS => "GFLOP/s",
            Unit::TflopPerS => "TFLOP/s",
            Unit::PflopPerS => "PFLOP/s",
            Unit::BitPerS => "bps",
            Unit::KbitPerS => "kbps",
            Unit::MbitPerS => "Mbps",
            Unit::GbitPerS => "Gbps",
            Unit::TbitPerS => "Tbps",
            Unit::PacketPerS => "pps",
            Unit::KpacketPerS => "kpps",
            Unit::MpacketPerS => "Mpps",
            Unit::GpacketPerS => "Gpps",
            Unit::Iops => "IOPS",
            Unit::Kiops => "KIOPS",
            Unit::Miops => "MIOPS",
            Unit::Hz => "Hz",
            Unit::KHz => "kHz",
            Unit::MHz => "MHz",
            Unit::GHz => "GHz",
            Unit::Currency(c) => c,
            Unit::Other(s) => s,
        }
    }

    /// What the unit measures and how many of that kind's base unit it is (seconds, bytes,
    /// bytes, bits, FLOP, packets or I/O operations per second, hertz), so that a value computed in one unit can be compared with one
    /// quoted in another of its kind: microseconds with milliseconds, bytes with KiB, Go's
    /// `MB/s` with benchstat's `MiB/s`. A percentage, a ratio, a currency and a free unit
    /// convert to nothing but themselves.
    pub fn scale(&self) -> Option<(Dimension, f64)> {
        const KI: f64 = 1024.0;
        Some(match self {
            Unit::Ns | Unit::Us | Unit::Ms | Unit::S | Unit::Min | Unit::H => (Dimension::Time, self.seconds()?),
            Unit::Bytes => (Dimension::Bytes, 1.0),
            Unit::KiB => (Dimension::Bytes, KI),
            Unit::MiB => (Dimension::Bytes, KI * KI),
            Unit::GiB => (Dimension::Bytes, KI * KI * KI),
            Unit::Kb => (Dimension::Bytes, 1e3),
            Unit::Mb => (Dimension::Bytes, 1e6),
            Unit::Gb => (Dimension::Bytes, 1e9),
            Unit::Tb => (Dimension::Bytes, 1e12),
            Unit::BPerS => (Dimension::ByteRate, 1.0),
            Unit::KbPerS => (Dimension::ByteRate, 1e3),
            Unit::MbPerS => (Dimension::ByteRate, 1e6),
            Unit::GbPerS => (Dimension::ByteRate, 1e9),
            Unit::TbPerS => (Dimension::ByteRate, 1e12),
            Unit::KiBPerS => (Dimension::ByteRate, KI),
            Unit::MiBPerS => (Dimension::ByteRate, KI * KI),
            Unit::GiBPerS => (Dimension::ByteRate, KI * KI * KI),
            Unit::GflopPerS => (Dimension::FlopRate, 1e9),
            Unit::TflopPerS => (Dimension::FlopRate, 1e12),
            Unit::PflopPerS => (Dimension::FlopRate, 1e15),
            Unit::BitPerS => (Dimension::BitRate, 1.0),
            Unit::KbitPerS => (Dimension::BitRate, 1e3),
            Unit::MbitPerS => (Dimension::BitRate, 1e6),
            Unit::GbitPerS => (Dimension::BitRate, 1e9),
            Unit::TbitPerS => (Dimension::BitRate, 1e12),
            Unit::PacketPerS => (Dimension::PacketRate, 1.0),
            Unit::KpacketPerS => (Dimension::PacketRate, 1e3),
            Unit::MpacketPerS => (Dimension::PacketRate, 1e6),
            Unit::GpacketPerS => (Dimension::PacketRate, 1e9),
            Unit::Iops => (Dimension::IoRate, 1.0),
            Unit::Kiops => (Dimension::IoRate, 1e3),
            Unit::Miops => (Dimension::IoRate, 1e6),
            Unit::Hz => (Dimension::Frequency, 1.0),
            Unit::KHz => (Dimension::Frequency, 1e3),
            Unit::MHz => (Dimension::Frequency, 1e6),
            Unit::GHz => (Dimension::Frequency, 1e9),
            Unit::Percent | Unit::Times | Unit::Currency(_) | Unit::Other(_) => return None,
        })
    }

    /// Seconds per unit for time units, so that a value computed in microseconds can be
    /// compared with one quoted in milliseconds.
    pub fn seconds(&self) -> Option<f64> {
        match self {
            Unit::Ns => Some(1e-9),
            Unit::Us => Some(1e-6),
            Unit::Ms => Some(1e-3),
            Unit::S => Some(1.0),
            Unit::Min => Some(60.0),
            Unit::H => Some(3600.0),
            _ => None,
        }
    }
}

/// What a unit measures ([`Unit::scale`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    Time,
    Bytes,
    ByteRate,
    /// Bits per second, apart from bytes per second: a quote in `Gbps` is checked against a
    /// value in bits, never one in bytes scaled by eight behind the reader's back.
    BitRate,
    FlopRate,
    PacketRate,
    IoRate,
    Frequency,
}

/// The unit a table header or heading states in parentheses at its end: `TTFT (seconds)`,
/// `Output Tokens Throughput (tokens/s)`, or in square brackets, as hyperfine's
/// `--export-markdown` writes every table it makes (`Mean [ms]`, `Min [s]`). Brackets or
/// parentheses that hold anything else (`(n = 150)`, `(P50)`, `[1]`) state no unit.
///
/// A header that is a unit and nothing else states it too, as benchmark tools head a column of
/// values (llama-bench's `t/s`, `ns/op`, `MB/s`, `ms`, `%`). A single letter alone (`s`, `B`,
/// `x`) is left out: as a header it more often names a variable or an option than a unit. So is
/// a pair of words with a slash that is no unit this module knows and no count per second or
/// per operation (`Read/Write`, `Hit/Miss`), which names what the column compares.
pub fn unit_in_label(label: &str) -> Option<Unit> {
    let label = label.trim_end();
    let whole = label.trim_start();
    let per_time = || whole.rsplit('/').next().is_some_and(|per| ["s", "sec", "second", "op", "ms", "us", "µs", "ns"].contains(&per));
    let alone = whole == "%" || (whole.chars().count() > 1 && WHOLE_UNIT.is_match(whole) && (Unit::parse(whole).is_some() || per_time()));
    if alone {
        return Unit::quoted(whole);
    }
    let (inner, open) = match label.strip_suffix(')') {
        Some(inner) => (inner, '('),
        None => (label.strip_suffix(']')?, '['),
    };
    let open = inner.rfind(open)?;
    let inner = inner[open + 1..].trim();
    if !WHOLE_UNIT.is_match(inner) {
        return None;
    }
    Unit::quoted(inner)
}

/// How the written digits are scaled: not at all, by a power of ten written out (`1e-3`,
/// `2.5×10^3`), or by a multiplier suffix (`10k`, `1.2M`, `3G`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    #[default]
    None,
    Exponent(i32),
    Suffix(char),
}

impl Scale {
    /// The power of ten the written digits are multiplied by.
    pub fn exponent(self) -> i32 {
        match self {
            Scale::None => 0,
            Scale::Exponent(e) => e,
            Scale::Suffix('k') => 3,
            Scale::Suffix('M') => 6,
            Scale::Suffix(_) => 9,
        }
    }

    /// How the scale is written after the digits, in keys and reports.
    fn written(self) -> String {
        match self {
            Scale::None => String::new(),
            Scale::Exponent(e) => format!("e{e}"),
            Scale::Suffix(c) => c.to_string(),
        }
    }

    /// The written digits of `value`: `value` divided by the scale's power of ten. Powers of
    /// ten up to 10^22 are exact in binary, so for every scale a text uses the division (or
    /// the multiplication, for a negative power) is correctly rounded.
    fn digits_of(self, value: f64) -> f64 {
        match self.exponent() {
            0 => value,
            e if e > 0 => value / 10f64.powi(e),
            e => value * 10f64.powi(-e),
        }
    }
}

/// What shape of quantity the text shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// One value, such as `56.08 µs`, `1,764` or `38 %`.
    Single,
    /// Two values joined by a dash, such as `1.0–1.7×`: `value` is the low end.
    Range { high: f64, high_decimals: u32 },
    /// A tensor shape such as `4096×128`: a label naming a case, not a quantity.
    Dims(Vec<u64>),
}

/// A comparator written before a number: the sentence says the value lies on one side of it.
/// p-values are printed so (`<0.0001`, `p < 0.05`), and so are guarantees (`≤ 2 µs`, `at
/// least 1.5x faster`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// `<`, `less than`, `fewer than`.
    Below,
    /// `≤`, `<=`, `⩽`, `at most`, `no more than`.
    AtMost,
    /// `>`, `more than`, `greater than`.
    Above,
    /// `≥`, `>=`, `⩾`, `at least`, `no less than`.
    AtLeast,
}

impl Bound {
    /// The one symbol keys and reports write the bound with, however the text spelled it.
    pub fn symbol(self) -> &'static str {
        match self {
            Bound::Below => "<",
            Bound::AtMost => "≤",
            Bound::Above => ">",
            Bound::AtLeast => "≥",
        }
    }

    /// Whether `computed` lies on the bound's side of `limit`. Without a tolerance the limit is
    /// exact: a bound's digits are its threshold, not a measurement rounded to them, so no
    /// half-unit of rounding widens it (`<0.05` does not hold for 0.0504). A value within a few
    /// units in the last place of the limit is the limit itself, as the matching rule's
    /// decimal ties are: `≤ 0.3` holds for 0.1 + 0.2, and `< 0.3` does not. A check's
    /// `tolerance` moves the limit outwards by that much, exactly (`< 2 ms` with a tolerance of
    /// 0.1 holds below 2.1 ms), as it widens a single value's match.
    fn holds(self, computed: f64, limit: f64, tolerance: Option<f64>) -> bool {
        if let Some(t) = tolerance {
            return match self {
                Bound::Below => computed < limit + t,
                Bound::AtMost => computed <= limit + t,
                Bound::Above => computed > limit - t,
                Bound::AtLeast => computed >= limit - t,
            };
        }
        // Measured against the limit alone, so that a value farther from it is never nearer.
        let at_limit = (computed - limit).abs() <= 8.0 * f64::EPSILON * limit.abs();
        match self {
            Bound::Below => computed < limit && !at_limit,
            Bound::AtMost => computed <= limit || at_limit,
            Bound::Above => computed > limit && !at_limit,
            Bound::AtLeast => computed >= limit || at_limit,
        }
    }

    /// Whether values below the limit satisfy the bound.
    fn is_upper(self) -> bool {
        matches!(self, Bound::Below | Bound::AtMost)
    }
}

/// The characters a comparator written as a symbol begins with.
const COMPARATOR_CHARS: [char; 6] = ['<', '>', '≤', '≥', '⩽', '⩾'];

/// One number as it stands in a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    /// The text exactly as quoted, for example `1.3-2.1 us`.
    pub text: String,
    /// Byte span of `text` inside the sentence.
    pub span: Range<usize>,
    /// The value, with its sign and scale applied: `-4.5` for `−4.5 %`, 10000 for `10k`.
    pub value: f64,
    /// Decimals of the digits as written: 1 for `1.2M`.
    pub decimals: u32,
    pub scale: Scale,
    pub unit: Option<Unit>,
    pub shape: Shape,
    /// The comparator before a single value (`<0.0001`, `p ≤ 0.05`, `at least 1.5x`): the text
    /// states a bound on the value, not the value. See [`Bound`].
    pub bound: Option<Bound>,
}

impl Number {
    /// A spelling-independent key: `14.96 µs`, `14.96us` and `14.96 μs` share it, and so do
    /// `10k` and `10K`. The scale as written is part of it (`10k` and `10e3` are two keys), and
    /// so is a bound written as a comparator (`<0.0001` and `< 0.0001` share one, which
    /// `0.0001` is not).
    pub fn key(&self) -> String {
        let unit = self.unit.as_ref().map_or("", Unit::symbol);
        format!("{}{unit}", self.key_without_unit())
    }

    /// Whether the number can be part of a name: a count, an argument, a shape or a size
    /// (`[1,2]*1000`, `n = 4096`, `4096×128`, `64 KiB`), as a table's row names and column
    /// headers hold them. A time, a rate, a ratio or a percentage is read as a measurement
    /// wherever it stands.
    pub fn can_name(&self) -> bool {
        match &self.unit {
            None => true,
            Some(unit) => matches!(unit.scale(), Some((Dimension::Bytes, _))),
        }
    }

    /// The key of the value alone, for a number whose unit a table header implies and a
    /// registry may leave out.
    pub fn key_without_unit(&self) -> String {
        match &self.shape {
            Shape::Single => format!("{}{}{}", self.written_bound(), self.text_value(), self.scale.written()),
            Shape::Range { .. } => {
                let (lo, hi) = self.range_texts();
                format!("{lo}–{hi}")
            }
            Shape::Dims(_) => self.text.split(['×', 'x']).map(|d| dimension_digits(d.trim())).collect::<Vec<_>>().join("×"),
        }
    }

    /// The comparator as the key writes it, where the number's own text begins with one: `<`
    /// for `<0.0001` and `< 0.0001`, `≤` for `<=`, `⩽` and `\le`. A bound written in words
    /// (`at least 1.5x`) is prose around its number, which keys as its digits do, so that a
    /// registry's `number = "1.5x"` still names it.
    fn written_bound(&self) -> &'static str {
        match self.bound {
            Some(bound) if self.writes_its_bound() => bound.symbol(),
            _ => "",
        }
    }

    /// Whether the bound is written as a comparator, part of the number's text (`<0.0001`),
    /// rather than in words around it (`at least 1.5x`).
    pub(crate) fn writes_its_bound(&self) -> bool {
        self.bound.is_some() && self.text.starts_with(COMPARATOR_CHARS)
    }

    /// The value's digits as shown, without scale or unit.
    fn text_value(&self) -> String {
        format_decimals(self.scale.digits_of(self.value), self.decimals)
    }

    fn range_texts(&self) -> (String, String) {
        match &self.shape {
            Shape::Range { high, high_decimals } => (format_decimals(self.value, self.decimals), format_decimals(*high, *high_decimals)),
            _ => (self.text_value(), self.text_value()),
        }
    }

    /// True when this number is a tensor shape (`4096×128`), which names a case.
    pub fn is_dims(&self) -> bool {
        matches!(self.shape, Shape::Dims(_))
    }
}

/// Which end of a range a check verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    Low,
    High,
}

/// The quoted value a check compares against: a single number, or one end of a range.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Quoted {
    pub value: f64,
    pub decimals: u32,
    pub scale: Scale,
    pub unit: Option<Unit>,
    /// Where the sentence quotes a bound (`<0.0001`), which side of `value` a computed value
    /// must lie on; `None` for a value, matched by the rounding rule.
    pub bound: Option<Bound>,
}

impl Quoted {
    /// Picks the value a check verifies out of a number. A range needs `part`; a single number
    /// ignores it.
    pub fn from_number(n: &Number, part: Option<Part>) -> Result<Quoted, String> {
        match (&n.shape, part) {
            (Shape::Single, _) => Ok(Quoted { value: n.value, decimals: n.decimals, scale: n.scale, unit: n.unit.clone(), bound: n.bound }),
            (Shape::Range { .. }, None) => Err(format!("`{}` is a range: say which end the check verifies with part = \"low\" or \"high\"", n.text)),
            (Shape::Range { .. }, Some(Part::Low)) => Ok(Quoted { value: n.value, decimals: n.decimals, scale: Scale::None, unit: n.unit.clone(), bound: None }),
            (Shape::Range { high, high_decimals }, Some(Part::High)) => {
                Ok(Quoted { value: *high, decimals: *high_decimals, scale: Scale::None, unit: n.unit.clone(), bound: None })
            }
            (Shape::Dims(_), _) => Err(format!("`{}` is a shape that names a case, not a quantity to check", n.text)),
        }
    }

    /// The matching rule of this module's documentation; for a bound, whether `computed` lies
    /// on its side of the quoted value ([`Bound`] says how exactly, and how a tolerance moves
    /// it).
    pub fn matches(&self, computed: f64, tolerance: Option<f64>) -> bool {
        if !computed.is_finite() {
            return false;
        }
        if let Some(bound) = self.bound {
            return bound.holds(computed, self.value, tolerance);
        }
        match tolerance {
            Some(t) => (computed - self.value).abs() <= t,
            None => {
                // The places after the decimal point that the quote resolves: its decimals,
                // moved by its power of ten. `1.5e-3` resolves 4 places; `1.2M` resolves none
                // but hundred-thousands, so both values are first divided down to the digit
                // the quote resolves.
                let places = i64::from(self.decimals) - i64::from(self.scale.exponent());
                let (computed, quoted, places) = if places >= 0 {
                    (computed, self.value, places)
                } else {
                    let step = 10f64.powi(i32::try_from(-places).unwrap_or(i32::MAX));
                    (computed / step, self.value / step, 0)
                };
                let places = u32::try_from(places).unwrap_or(u32::MAX);
                // Comparing the written forms as numbers makes -0.00 and 0.00 equal.
                let written = |v: f64| -> f64 { format_decimals(v, places).parse().unwrap_or(f64::NAN) };
                let quoted = written(quoted);
                written(computed) == quoted || boundary_neighbours(computed, places).is_some_and(|(lo, hi)| written(lo) == quoted || written(hi) == quoted)
            }
        }
    }

    /// Whether any value from `low` to `high` (either way round) matches: the value nearest the
    /// quote in that band is tried, since a farther one matches only if it does. A band with an
    /// end that is not a finite number matches nothing.
    pub fn matches_within(&self, low: f64, high: f64, tolerance: Option<f64>) -> bool {
        if !(low.is_finite() && high.is_finite()) {
            return false;
        }
        // For a bound the end of the band on its side is the value to try: if any value of
        // the band lies on that side, that end does.
        let tried = match self.bound {
            Some(bound) if bound.is_upper() => low.min(high),
            Some(_) => low.max(high),
            None => self.value.clamp(low.min(high), low.max(high)),
        };
        self.matches(tried, tolerance)
    }

    /// The computed value shown at the quoted precision and in the quoted notation, for
    /// reports.
    pub fn display(&self, computed: f64) -> String {
        let digits = self.scale.digits_of(computed);
        // A recomputed value is shown with at least two decimals below 100 (three below 1), so
        // that a report of 1.86 against a quoted 5 does not read "2".
        let floor = if digits.fract() == 0.0 {
            0
        } else if digits.abs() < 1.0 {
            3
        } else if digits.abs() < 100.0 {
            2
        } else {
            1
        };
        let mut places = self.decimals.max(floor);
        // Against a bound, the value is shown with the places it takes to tell on which side of
        // the limit it lies, and with two significant digits: a p-value of 3e-9 against
        // `<0.0001` would otherwise read 0.0000, and 0.05004 against `<0.05` 0.050.
        if self.bound.is_some() && digits.is_finite() && digits != 0.0 {
            let limit = self.scale.digits_of(self.value);
            let shown_at = |p: u32| format_decimals(digits, p).parse::<f64>().unwrap_or(f64::NAN);
            let significant = u32::try_from(1 - digits.abs().log10().floor() as i64).unwrap_or(0);
            places = places.max(significant.min(MAX_SHOWN_PLACES));
            while places < MAX_SHOWN_PLACES && shown_at(places).total_cmp(&limit) != digits.total_cmp(&limit) {
                places += 1;
            }
        }
        self.written(format_decimals(digits, places))
    }

    /// A value the quote holds for, for a check whose observation is the quote itself (`cited`):
    /// its value, or inside a strict bound the value half a unit of its last written digit
    /// inside it.
    pub(crate) fn held_by(&self) -> f64 {
        let half_unit = 0.5 * 10f64.powi(self.scale.exponent().saturating_sub(i32::try_from(self.decimals).unwrap_or(i32::MAX)));
        match self.bound {
            Some(Bound::Below) => self.value - half_unit,
            Some(Bound::Above) => self.value + half_unit,
            _ => self.value,
        }
    }

    /// The quote as reports write it: `<0.0001`, `≥1.5×`, `56.08 µs`.
    pub fn shown(&self) -> String {
        let bound = self.bound.map_or("", Bound::symbol);
        format!("{bound}{}", self.written(format_decimals(self.scale.digits_of(self.value), self.decimals)))
    }

    /// `digits` with the quote's currency before them and its scale and unit after.
    fn written(&self, digits: String) -> String {
        let scale = self.scale.written();
        match &self.unit {
            Some(Unit::Currency(c)) => match digits.strip_prefix('-') {
                Some(abs) => format!("-{c}{abs}{scale}"),
                None => format!("{c}{digits}{scale}"),
            },
            unit => format!("{digits}{scale}{}", unit_suffix(unit.as_ref())),
        }
    }
}

/// `value` in `from` expressed in `to`. Units of one kind convert ([`Unit::scale`]: times,
/// byte counts, byte rates, bit rates, FLOP rates, packet rates, I/O rates, frequencies); a value or a quote without a unit, and two equal
/// units, stay as they are; any other pair cannot be compared, and the error says so. A free
/// unit (`tokens/s`) therefore never converts to a time.
pub fn convert(value: f64, from: Option<&Unit>, to: Option<&Unit>) -> Result<f64, String> {
    match (from, to) {
        (None, _) | (_, None) => Ok(value),
        (Some(a), Some(b)) if a == b => Ok(value),
        (Some(a), Some(b)) => match (a.scale(), b.scale()) {
            (Some((da, x)), Some((db, y))) if da == db => Ok(value * x / y),
            _ => Err(format!("the evidence is in {}, the sentence quotes {}, and the one does not convert to the other", a.symbol(), b.symbol())),
        },
    }
}

/// `×` sticks to its number as in `1.7×`; every other unit is set off by a space.
fn unit_suffix(unit: Option<&Unit>) -> String {
    match unit {
        None => String::new(),
        Some(Unit::Times) => "×".into(),
        Some(u) => format!(" {}", u.symbol()),
    }
}

/// The most decimal places a value compared with a bound is shown with: enough for a p-value
/// of 1e-15, and beyond an `f64`'s own precision for a value near 1.
const MAX_SHOWN_PLACES: u32 = 17;

/// Powers of ten beyond this are not read as numbers: no measurement is quoted as `1e999`,
/// and the value would not fit an `f64`.
const MAX_EXPONENT: i32 = 300;

/// Every number in `text`, in order, leaving out those whose span overlaps one of `skip`
/// (inline code), digits that are part of a name (`H200`, `sm_90`, `Llama-3.2-1B`), and
/// versions or dotted identifiers (`3.11.2`).
pub fn extract(text: &str, skip: &[Range<usize>]) -> Vec<Number> {
    let mut out = Vec::new();
    let mut at = 0;
    // Where the last reference or release ended (`Steps 1`), so that the numbers listed after
    // it (`, 2, and 3`) are read as it is.
    let mut named_until: Option<usize> = None;
    while let Some(mut caps) = NUMBER.captures_at(text, at) {
        if let Some(lo) = caps.name("lo")
            && lo.as_str().contains(GROUP_SPACES)
            && text[lo.end()..].starts_with(|c: char| c.is_ascii_digit())
            && let Some(again) = UNGROUPED.captures_at(text, caps.get(0).unwrap().start())
        {
            caps = again;
        }
        let whole = caps.get(0).unwrap();
        at = whole.end().max(whole.start() + 1);
        // Big-O notation (`O(1)`, `Θ(n^2)`) states how a cost grows, not a quantity: nothing
        // inside its parentheses is read.
        if let Some(close) = asymptotic_bound_end(text, whole.start()) {
            at = close.max(at);
            continue;
        }
        if let Some(dims) = caps.name("dims") {
            let span = dims.range();
            if overlaps(&span, skip) || is_part_of_name(text, span.start) {
                continue;
            }
            // A dimension too large for 64 bits is still a label: it saturates here, and its
            // key is taken from the digits as written, so nothing overflows or goes missing.
            let digits = dims.as_str().split(['×', 'x']).map(str::trim).collect::<Vec<_>>();
            let parts = digits.iter().map(|p| p.parse::<u64>().unwrap_or(u64::MAX)).collect::<Vec<_>>();
            at = span.end;
            out.push(Number {
                text: dims.as_str().to_string(),
                span,
                value: digits.first().and_then(|d| d.parse::<f64>().ok()).unwrap_or(f64::NAN),
                decimals: 0,
                scale: Scale::None,
                unit: None,
                shape: Shape::Dims(parts),
                bound: None,
            });
            continue;
        }
        let lo = caps.name("lo").unwrap();
        // A date or a moment (`2020-10-13`, `2026-05-05T12:16:30Z`, `12:16 UTC`) names a time;
        // its digits are no quantity, any more than a version's are.
        if let Some(len) = moment_at(text, lo.start()) {
            at = lo.start() + len;
            continue;
        }
        // A PCI address (`0000:05:00.0`, lspci's `05:00.0`) names a device, as a GPU
        // cluster's setup guide quotes a network card's.
        if let Some(m) = PCI_ADDRESS.find(&text[lo.start()..])
            && !text[..lo.start()].ends_with(|c: char| c.is_ascii_alphanumeric() || c == ':')
        {
            at = lo.start() + m.end();
            continue;
        }
        // A duration in hours, minutes and seconds as `time` prints one (`0m1.234s`,
        // `79m35.197s`, `1h2m3s`), or with a space between its parts as people and cargo write
        // one (`3m 48s`, cargo's `Finished … in 1m 17s`): one number of seconds, as precise as its
        // seconds' digits.
        if let Some(m) = DURATION.captures(&text[lo.start()..])
            && (m.get(2).is_some() || m.get(4).is_some())
            && caps.name("sign").is_none()
            && caps.name("cur").is_none()
            && !is_part_of_name(text, lo.start())
        {
            let whole = m.get(1).unwrap();
            let part = |i: usize| m.get(i).map_or(0.0, |g| g.as_str().parse::<f64>().unwrap_or(0.0));
            // Without seconds the duration is as precise as its minutes (`1h 30m` is 90 min,
            // give or take half a minute), so it is a number of minutes.
            let (value, decimals, unit) = match m.get(4) {
                Some(seconds) => (part(2) * 3600.0 + part(3) * 60.0 + part(4), parse_digits(seconds.as_str()).1, Unit::S),
                None => (part(2) * 60.0 + part(3), 0, Unit::Min),
            };
            let span = lo.start()..lo.start() + whole.end();
            at = span.end;
            if !overlaps(&span, skip) {
                out.push(Number { text: whole.as_str().to_string(), span, value, decimals, scale: Scale::None, unit: Some(unit), shape: Shape::Single, bound: None });
            }
            continue;
        }
        let currency = caps.name("cur");
        // A `-` is a sign only where a number can begin (after a space or an opening
        // bracket); after a letter or digit it is a hyphen (`Llama-3`, `2023-12`), and the
        // digits after it are judged on their own. So is a `+`, as a change is written
        // (`+14.6 %`), but not in `C++17` or `x+1`.
        let sign = match caps.name("sign") {
            Some(s) if starts_a_number(text, s.start()) => Some(s),
            Some(_) if currency.is_some() => continue,
            _ => None,
        };
        let start = sign.or(currency).map_or(lo.start(), |m| m.start());
        // A value written without its leading zero (`.25ms`, `p = .001`) begins where a number
        // can. Elsewhere its dot belongs to a name or an ellipsis (`v.2`, `file.25`, `...5`),
        // and the digits after the dot are judged on their own.
        if lo.as_str().starts_with('.') && !begins_without_zero(text, start) {
            at = lo.start() + 1;
            continue;
        }
        if start == lo.start() && is_part_of_name(text, lo.start()) {
            continue;
        }
        if currency.is_some() && sign.is_none() && !starts_a_number(text, start) {
            continue;
        }
        // A version or dotted identifier (`3.11.2`, `1.x`): the whole dotted run is a name.
        let exp = caps.name("exp");
        let rest = &text[lo.end()..];
        if exp.is_none() && rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            at = lo.end() + rest.find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_')).unwrap_or(rest.len());
            continue;
        }
        let (digits_value, lo_decimals) = parse_digits(lo.as_str());
        // A power written with a caret (`2^15`, pyperf's loop count; `10^-3`): one number, its
        // value the power, exact.
        // After a `×` it is the power of ten of a mantissa written before it, which the pattern
        // reads where the spaces around the `×` are plain ones.
        let after_times = text[..start].trim_end_matches([' ', '\u{2009}', '\u{202F}', '\u{A0}', GROUP_MARK]).ends_with('×');
        if exp.is_none()
            && currency.is_none()
            && !after_times
            && lo.as_str().bytes().all(|b| b.is_ascii_digit())
            && let Some((value, decimals, len)) = caret_power(digits_value, &text[lo.end()..])
        {
            let mut end = lo.end() + len;
            let unit = unit_after(&text[end..]).map(|(unit, len)| {
                end += len;
                unit
            });
            at = end;
            let span = start..end;
            if overlaps(&span, skip) {
                continue;
            }
            let value = if sign.is_some_and(|s| matches!(s.as_str(), "-" | "−")) { -value } else { value };
            out.push(Number { text: text[span.clone()].to_string(), span, value, decimals, scale: Scale::None, unit, shape: Shape::Single, bound: None });
            continue;
        }
        let mut power = match exp.map(|e| parse_power(e.as_str())) {
            None => None,
            Some(Some(p)) if p.abs() <= MAX_EXPONENT => Some(p),
            Some(_) => continue,
        };
        // A unit is real only when no letter or digit follows it: `21 samples` has no unit.
        let unit_ok = |m: &regex::Match| !text[m.end()..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_');
        let mut end = exp.map_or(lo.end(), |e| e.end());
        let mut unit = None;
        let mut shape = Shape::Single;
        if let (Some(hi), None) = (caps.name("hi"), exp) {
            // A range must not mix units (`2 ms-3 us` is two numbers), and its end must not be
            // the start of a name either.
            let lo_unit = caps.name("lounit");
            let hi_unit = caps.name("unit");
            let consistent = match (lo_unit, hi_unit) {
                (Some(a), Some(b)) => Unit::quoted(a.as_str()) == Unit::quoted(b.as_str()),
                (Some(_), None) => false,
                _ => true,
            };
            let hi_followed_by_letter = text[hi.end()..].chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && hi_unit.is_none();
            let hi_is_version = text[hi.end()..].starts_with('.') && text[hi.end() + 1..].starts_with(|c: char| c.is_ascii_digit());
            // A hyphen with a space before it and none after signs the number it is glued to
            // (`lzo 2.10 -1`, a release and then a level; `10 -20`): a range's dash is set off on
            // both sides or on neither.
            let dash_begins_a_number = text[lo_unit.map_or(lo.end(), |u| u.end())..hi.start()] == *" -";
            if consistent && !hi_followed_by_letter && !hi_is_version && !dash_begins_a_number && currency.is_none() {
                let (hi_value, hi_decimals) = parse_digits(hi.as_str());
                shape = Shape::Range { high: hi_value, high_decimals: hi_decimals };
                end = hi.end();
                if let Some(u) = hi_unit.filter(unit_ok) {
                    unit = Unit::quoted(u.as_str());
                    end = u.end();
                }
            }
        }
        if matches!(shape, Shape::Single) && currency.is_none() {
            let unit_match = caps.name("lounit").or_else(|| if caps.name("hi").is_none() { caps.name("unit") } else { None });
            if let Some(u) = unit_match.filter(unit_ok)
                && let Some(parsed) = Unit::quoted(u.as_str())
            {
                unit = Some(parsed);
                end = u.end();
            }
        }
        // A `B` glued to the digits sizes a language model in billions of parameters where the
        // model's name stands before it (`Llama 2 7B`, `Mistral 7B`, `Qwen2.5 72B`): part of
        // the name, as `Llama-3.1-8B` is. Where parameters or a model follow it (`7B
        // parameters`, `a 13B-parameter model`, `a 70B model`) it counts them, a quantity a
        // check may compute with (70B parameters at two bytes each). Anywhere else it stays a
        // byte, as GPU articles write sizes (`128B` loads, a `64B` line).
        let glued_b = unit == Some(Unit::Bytes) && matches!(shape, Shape::Single) && exp.is_none() && text[lo.end()..end] == *"B";
        if glued_b && names_a_model(&text[..start]) {
            continue;
        }
        let billions = glued_b && counts_parameters(&text[end..]);
        if billions {
            unit = None;
            end = lo.end();
        }
        // An uppercase `X` after four digits or more ends a model's name (`Ryzen 9 5950X`),
        // not a ratio (`52X`, `1.75X`).
        if unit == Some(Unit::Times) && text[..end].ends_with('X') && lo_decimals == 0 && lo.as_str().len() > 3 {
            continue;
        }
        // A count set off from a multiplication sign that a name follows (`8 × A100 GPUs`, as
        // LaTeX's `$8 \times$ A100` prints it) counts what it names: it is no ratio. A ratio is
        // written with a fraction, glued to its sign or followed by a comparison (`2.3×`, `2 ×
        // faster`, `2× over`).
        if unit == Some(Unit::Times) && lo_decimals == 0 && matches!(shape, Shape::Single) && counts_a_name(&text[lo.end()..]) {
            unit = None;
            end = lo.end();
        }
        // A multiplier glued to the digits (`10k`, `1.2M`), where no unit or power of ten was
        // read; a unit may follow it (`10k tokens/s`).
        let mut scale = power.map_or(Scale::None, Scale::Exponent);
        if unit.is_none() && power.is_none() && matches!(shape, Shape::Single) {
            let mut after = text[end..].chars();
            // An uppercase `K` is a thousand as the lowercase one is (`10K records`, `QPS:
            // 159K`, `12.5K`), after a short number or a decimal: after four digits or more it
            // ends a model's name (`12900K`), as an uppercase `X` does. A power of two before it
            // (`4K`, `64K`) stays a name: it is as often 1024-based (`4K entries`, a `64K`
            // context) or a resolution as a thousand. It keys as `k`, one spelling of one value.
            let power_of_two = lo_decimals == 0 && digits_value >= 1.0 && digits_value.log2().fract() == 0.0;
            let thousands = (lo_decimals > 0 || lo.as_str().len() <= 3) && !power_of_two;
            // A multiplier written as a word (`4 million files`, `30 billion parameters`) scales
            // the digits as its letter does, and keys as it (`4M`): a reader sees 4,000,000.
            let word = [(" thousand", 'k'), (" million", 'M'), (" billion", 'G')].into_iter().find(|(word, _)| {
                text[end..].strip_prefix(word).is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            });
            let letter = after.next().map(|c| if c == 'K' && thousands { 'k' } else { c }).filter(|_| !after.next().is_some_and(|c| c.is_alphanumeric() || c == '_'));
            let suffix = match (word, letter) {
                (Some((word, m)), _) => Some((m, word.len())),
                (None, Some(m @ ('k' | 'M' | 'G'))) => Some((m, 1)),
                (None, Some('B')) if billions => Some(('B', 1)),
                _ => None,
            };
            if let Some((m, len)) = suffix {
                scale = Scale::Suffix(m);
                power = Some(scale.exponent());
                end += len;
                if currency.is_none()
                    && let Some((parsed, len)) = unit_after(&text[end..])
                {
                    unit = Some(parsed);
                    end += len;
                }
            }
        }
        if let Some(c) = currency {
            unit = Unit::parse(c.as_str());
        }
        // Digits glued to letters (`1st`, `8B`) are a name, not a quantity.
        let glued = text[end..].chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '^');
        if glued && (unit.is_none() || currency.is_some()) {
            continue;
        }
        // A licence's name counts its clauses (`BSD 2-Clause`, `3-clause BSD`): it names the
        // licence, as `Llama-3` names a model.
        if unit.is_none() && text[end..].get(..7).is_some_and(|w| w.eq_ignore_ascii_case("-clause")) {
            continue;
        }
        // An exponent written alone (`^3`, `x^-3`) is no quantity.
        if text[..start].ends_with('^') || ["^-", "^−", "^+"].iter().any(|e| text[..start].ends_with(e)) {
            continue;
        }
        let span = start..end;
        if overlaps(&span, skip) {
            continue;
        }
        // `Table 2`, `Section 4.2`, `Eq. 7`: an ordinal that names what it refers to, as a bare
        // integer in a link's text does; `Python 3.8`, `Go 1.21`, `version 2`: a release.
        let listed = named_until.is_some_and(|e| e <= start && [", ", " and ", ", and ", " or ", ", or ", " to "].contains(&&text[e..start]));
        if unit.is_none() && currency.is_none() && sign.is_none() {
            let before = &text[..start];
            let day = lo_decimals == 0 && (1.0..=31.0).contains(&digits_value) && matches!(shape, Shape::Single);
            let year = lo_decimals == 0 && lo.as_str().len() == 4 && (1000.0..3000.0).contains(&digits_value) && matches!(shape, Shape::Single);
            let dated = (day && before_a_month(&text[end..]))
                || ((day || year) && after_a_month(before))
                || (year && (after_a_month_s_day(before) || cites_a_year(before, &text[end..])));
            let names = if listed {
                Some(true)
            } else if dated {
                Some(false)
            } else {
                refers(before).or_else(|| names_a_release(before).then_some(true))
            };
            if let Some(lists) = names {
                at = end;
                named_until = lists.then_some(end);
                continue;
            }
        }
        named_until = None;
        at = end;
        let magnitude = match power {
            // Parsing the written digits with their power of ten rounds once, correctly.
            Some(p) => format!("{}e{p}", ungrouped(lo.as_str())).parse().unwrap_or(f64::NAN),
            None => digits_value,
        };
        let value = if sign.is_some_and(|s| s.as_str() != "+") { -magnitude } else { magnitude };
        out.push(Number { text: text[span.clone()].replace(GROUP_MARK, " "), span, value, decimals: lo_decimals, scale, unit, shape, bound: None });
    }
    read_bounds(text, skip, &mut out);
    share_unit_across_plus_minus(text, &mut out);
    out
}

/// Reads the comparator that stands immediately before a single value, spaces apart, into its
/// `bound`: `<`, `>`, `≤`, `≥`, `<=`, `>=`, `⩽`, `⩾` (and so HTML's `&lt;` and LaTeX's `$<$`,
/// `\textless`, `\le` and `\geq`, which the readers have decoded to these), taken into the
/// number's span and text; and a few phrases, which stay prose around it ([`bound_in_words`]).
///
/// The same characters are often no bound, and then the number stays as it was read:
/// - an arrow or an operator of two signs (`->`, `=>`, `<-5`, `<<`, `>>`, `|>`, `~>`), or a
///   shell's redirect (`2>&1`, where the digits before the sign are no bound's subject either);
/// - the end of an HTML tag left in the text (`<br>5`, `<td align="right">5`), or a
///   placeholder in angle brackets (`<5>`);
/// - a version constraint, the one place plain `<` and `>` are glued to a name: `numpy>=1.20`,
///   `torch<2.0`, `pkg[extra]>=1.0`, the clauses of `>=1.20,<2.0`, `Python >= 3.8`. A name
///   glued to a comparator is taken for a package where the number reads as a release (no
///   unit, no sign, no power, a whole part of one or more); one letter (`p<0.05`, `n>30`) or a
///   number that cannot be a release (`FDR<0.05`, `speedup>2x`) is a bound's subject;
/// - a comparison of two quoted numbers (`5 ms < 7 ms`, `1.5 ms more than 3 ms`): the second
///   is a value of its own, which its sentence quotes exactly.
fn read_bounds(text: &str, skip: &[Range<usize>], numbers: &mut [Number]) {
    for i in 0..numbers.len() {
        let previous_end = if i == 0 { 0 } else { numbers[i - 1].span.end };
        let n = &numbers[i];
        if !matches!(n.shape, Shape::Single) || n.span.start < previous_end {
            continue;
        }
        let Some(before) = text.get(previous_end..n.span.start) else { continue };
        // A comparison of two quoted numbers: the text between them is the comparator alone,
        // set off alike on both sides (`5 ms < 7 ms`, `1<2`). One glued to the second number
        // alone is that number's (`0.976 <0.0001`, a row of a table read as one line).
        let after_a_number = i > 0;
        if let Some((bound, len)) = symbol_before(before) {
            let start = n.span.start - len;
            let ahead = &text[..start];
            let written = &text[start..];
            let ascii = written.starts_with(['<', '>']);
            let between = &before[..before.len() - len];
            let glued_after = !text[start..n.span.start].ends_with([' ', '\u{a0}', '\u{2009}', '\u{202F}']);
            let spaced_alike = between.is_empty() == glued_after;
            let spaced_from_previous = after_a_number && between.trim().is_empty() && spaced_alike;
            if spaced_from_previous
                || not_a_bound_sign(ahead, written, &text[n.span.end..])
                || (ascii && constrains_a_version(text, ahead, n))
                || names_a_release(ahead)
                || overlaps(&(start..n.span.end), skip)
            {
                continue;
            }
            let n = &mut numbers[i];
            n.bound = Some(bound);
            n.span = start..n.span.end;
            n.text = text[n.span.clone()].replace(GROUP_MARK, " ");
        } else if let Some((bound, len)) = bound_in_words(before) {
            if after_a_number && before[..before.len() - len].trim().is_empty() {
                continue;
            }
            numbers[i].bound = Some(bound);
        }
    }
}

/// How far back from a `>` to look for the `<` of an HTML tag it would close: a tag left in
/// prose is short, and the bound keeps the look-back, made for every bound, linear.
const TAG_REACH: usize = 128;

/// The comparator that `before` ends with, spaces apart, and the bytes from its first
/// character to the end of `before`.
fn symbol_before(before: &str) -> Option<(Bound, usize)> {
    let trimmed = before.trim_end_matches([' ', '\u{a0}', '\u{2009}', '\u{202F}']);
    let (bound, sign_len) = if trimmed.ends_with("<=") {
        (Bound::AtMost, 2)
    } else if trimmed.ends_with(">=") {
        (Bound::AtLeast, 2)
    } else {
        match trimmed.chars().next_back()? {
            '<' => (Bound::Below, 1),
            '>' => (Bound::Above, 1),
            c @ ('≤' | '⩽') => (Bound::AtMost, c.len_utf8()),
            c @ ('≥' | '⩾') => (Bound::AtLeast, c.len_utf8()),
            _ => return None,
        }
    };
    Some((bound, before.len() - trimmed.len() + sign_len))
}

/// Whether the comparator that `written` begins with, after `ahead`, is an arrow, an operator,
/// a redirect or the end of a tag rather than a bound on the number that `after` follows (see
/// [`read_bounds`]).
fn not_a_bound_sign(ahead: &str, written: &str, after: &str) -> bool {
    if !written.starts_with(['<', '>']) {
        // No arrow, operator or tag is written with `≤`, `≥`, `⩽` or `⩾`.
        return false;
    }
    // `<<`, `>>`, `->`, `=>`, `|>`, `~>`, `!>`, `&>`, `<=>`: a sign glued to another makes an
    // arrow or an operator.
    if ahead.ends_with(['<', '>', '-', '=', '|', '~', '!', '&']) {
        return true;
    }
    // An arrow or R's assignment to a number (`<-5`): a bound on −5 is written `< -5` or `<−5`.
    if written.starts_with("<-") {
        return true;
    }
    // Digits glued before the sign are a file descriptor being redirected (`2>1`) or the left
    // side of a comparison of two numbers (`1<2`), whose right side is no bound either; digits
    // that end a name (`A_12>0.5`, a subscript as LaTeX's math writes it) are the bound's
    // subject.
    if ahead.ends_with(|c: char| c.is_ascii_digit()) {
        let name = ahead.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !name.ends_with(|c: char| c.is_alphabetic() || c == '_') {
            return true;
        }
    }
    // A placeholder or a template's argument in angle brackets: `<5>`, `<0>`.
    if written.starts_with('<') && after.starts_with('>') {
        return true;
    }
    written.starts_with('>') && closes_a_tag(ahead)
}

/// Whether `ahead`, the text before a `>`, ends inside an HTML tag: `<br`, `</td`, `<span
/// class="x"`, `<br /`. A `<` followed by words and no `=` (`a<b and p`) is a comparison.
fn closes_a_tag(ahead: &str) -> bool {
    let mut floor = ahead.len().saturating_sub(TAG_REACH);
    while !ahead.is_char_boundary(floor) {
        floor += 1;
    }
    let Some(open) = ahead.get(floor..).and_then(|tail| tail.rfind(['<', '>'])).map(|i| floor + i) else { return false };
    let inside = &ahead[open + 1..];
    if ahead[open..].starts_with('>') {
        return false;
    }
    let inside = inside.strip_prefix('/').unwrap_or(inside);
    let name_len = inside.find(|c: char| !c.is_ascii_alphanumeric() && c != '-').unwrap_or(inside.len());
    if name_len == 0 || !inside.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return false;
    }
    let rest = &inside[name_len..];
    rest.is_empty() || (rest.starts_with(char::is_whitespace) && (rest.contains('=') || rest.trim() == "/"))
}

/// Whether a plain `<`, `>`, `<=` or `>=` before `n` constrains a version: glued to a package's
/// name or extras (`numpy>=1.20`, `pkg[extra]>=1.0`), glued after a comma to the clause before
/// it (`>=1.20,<2.0`), or with another clause glued after it. `ahead` is the text before the
/// comparator.
fn constrains_a_version(text: &str, ahead: &str, n: &Number) -> bool {
    let release_like = n.unit.is_none() && n.scale == Scale::None && n.value >= 1.0 && !n.text.contains(['-', '−', '+']);
    let another_clause = text[n.span.end..].starts_with([',', ';']) && text[n.span.end + 1..].starts_with(['<', '>', '=', '!', '~']);
    if ahead.ends_with(',') || another_clause {
        return true;
    }
    let name: &str = ahead.rsplit(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '[' | ']'))).next().unwrap_or_default();
    release_like && (name.chars().count() >= 2 || name.ends_with(']'))
}

/// The bound that a phrase at the end of `before` states, and the bytes from the phrase's start
/// to the end of `before`. Only phrases that state a bound wherever benchmark prose writes them
/// are read: `less than`, `fewer than`, `more than`, `greater than`, `at most`, `at least`, and
/// their negations (`no more than`, `not less than`). Left as values, deliberately:
/// - `up to 3×` and `as much as`: an author writes them before the largest value measured, so
///   the check recomputes that maximum and its rounding holds it to the quote; read as `≤ 3`,
///   any speed-up from 1.0 to 3.0 would pass;
/// - `under`, `over`, `below`, `above`: as often a condition or a place (`under 100 concurrent
///   users`, `averaged over 30 seeds`, `the 2 tables below`) as a bound;
/// - `within`, `about`, `nearly`, `almost`, `~`, `≈`: a tolerance or an approximation, not a
///   side.
fn bound_in_words(before: &str) -> Option<(Bound, usize)> {
    const PHRASES: [(&str, Bound); 12] = [
        ("no more than", Bound::AtMost),
        ("not more than", Bound::AtMost),
        ("no less than", Bound::AtLeast),
        ("not less than", Bound::AtLeast),
        ("no fewer than", Bound::AtLeast),
        ("less than", Bound::Below),
        ("fewer than", Bound::Below),
        ("more than", Bound::Above),
        ("greater than", Bound::Above),
        ("at most", Bound::AtMost),
        ("at least", Bound::AtLeast),
        ("not fewer than", Bound::AtLeast),
    ];
    let trimmed = before.trim_end_matches([' ', '\u{a0}']);
    if trimmed.len() == before.len() {
        return None;
    }
    PHRASES.iter().find_map(|(phrase, bound)| {
        let start = trimmed.len().checked_sub(phrase.len())?;
        let words = trimmed.get(start..)?;
        let alone = !trimmed[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        (alone && words.eq_ignore_ascii_case(phrase)).then_some((*bound, before.len() - start))
    })
}

/// A value and its spread written with one unit, `6.6 ± 0.2 ms` or `6.6 ms ± 0.2`, are both in
/// that unit: the unit is written once for the pair, as hyperfine, pytest-benchmark and most
/// papers write them. Without this the mean would read as a bare 6.6, which no time in
/// seconds or milliseconds can reproduce. Each number keeps its own text and span; only a
/// single number without a unit takes its partner's, and never a currency, which is written
/// before each amount it applies to.
fn share_unit_across_plus_minus(text: &str, numbers: &mut [Number]) {
    for i in 1..numbers.len() {
        // Numbers come in order and apart; `get` keeps any that did not from panicking here.
        let between = text.get(numbers[i - 1].span.end..numbers[i].span.start).map(str::trim);
        if !matches!(between, Some("±" | "+/-" | "+-")) {
            continue;
        }
        let bare = |n: &Number| n.unit.is_none() && matches!(n.shape, Shape::Single);
        let lends = |n: &Number| matches!(n.shape, Shape::Single) && n.unit.as_ref().is_some_and(|u| !matches!(u, Unit::Currency(_)));
        let (a, b) = numbers.split_at_mut(i);
        let (value, spread) = (&mut a[i - 1], &mut b[0]);
        if bare(value) && lends(spread) {
            value.unit = spread.unit.clone();
        } else if bare(spread) && lends(value) {
            spread.unit = value.unit.clone();
        }
    }
}

/// Parses a number written on its own, as a check's `number` key is: it must hold exactly one.
pub fn parse_one(text: &str) -> Result<Number, String> {
    // A registry writes a number as its sentence does, and `init` writes it as the sentence's
    // text reads, where every space is a plain one: a plain space between groups of digits
    // groups thousands here (`1 183 514`, which the page set with thin spaces), since a
    // registry's `number` is one number.
    let found = extract(&with_group_marks(text.trim(), |_| true), &[]);
    match found.as_slice() {
        [one] if one.span == (0..text.trim().len()) => Ok(one.clone()),
        // `p < 0.05` or `at least 1.5x`: the words before the number are its sentence's.
        [one] if one.bound.is_some() && one.span.end == text.trim().len() => {
            Err(format!("`{text}` holds words before its number: write the number as the sentence quotes it, `{}`", one.text))
        }
        [] => minutes_as_wrk_writes_them(text.trim()).ok_or_else(|| format!("`{text}` holds no number")),
        _ => Err(format!("`{text}` is not one number with an optional unit")),
    }
}

/// A registry's number written as wrk prints a time of a minute or more (`1.50m`), a number of
/// minutes. In prose a lone `m` is no unit (it is as often a metre or a million), so such a
/// number binds only to a value that a reader took to be minutes: a cell of wrk's report.
fn minutes_as_wrk_writes_them(text: &str) -> Option<Number> {
    let digits = text.strip_suffix('m')?;
    match extract(digits, &[]).as_slice() {
        [one] if one.span == (0..digits.len()) && one.unit.is_none() && one.scale == Scale::None && one.bound.is_none() && one.shape == Shape::Single => {
            Some(Number { text: text.to_string(), span: 0..text.len(), unit: Some(Unit::Min), ..one.clone() })
        }
        _ => None,
    }
}

/// Digits without the separators that group their thousands.
fn ungrouped(s: &str) -> String {
    s.chars().filter(|c| *c != ',' && !GROUP_SPACES.contains(c)).collect()
}

fn parse_digits(s: &str) -> (f64, u32) {
    let clean = ungrouped(s);
    // A count of decimals beyond `u32` would need a 4 GiB number; it saturates rather than wraps.
    let decimals = clean.split_once('.').map_or(0, |(_, d)| u32::try_from(d.len()).unwrap_or(u32::MAX));
    (clean.parse().unwrap_or(f64::NAN), decimals)
}

/// The unit that `after` begins with (after one space at most), and the bytes it takes, where no
/// letter or digit runs on from it: `10k tokens/s`, `2^20 bytes`.
fn unit_after(after: &str) -> Option<(Unit, usize)> {
    let u = UNIT_AFTER.find(after)?;
    if after[u.end()..].starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    Unit::quoted(u.as_str().trim_start_matches(' ')).map(|unit| (unit, u.end()))
}

/// The power that `after` writes of `base` with a caret (`^15`, `^-3`): its value, the decimals
/// that write it exactly (none for a whole power; at most 15), and the bytes the caret and
/// exponent take. `None` where no exponent follows, where the power leaves `f64`'s range, or
/// where the exponent runs into a letter or a decimal point (`2^15th`, `2^1.5`).
fn caret_power(base: f64, after: &str) -> Option<(f64, u32, usize)> {
    let rest = after.strip_prefix('^')?;
    let sign_len = rest.chars().next().filter(|c| matches!(c, '-' | '−' | '+')).map_or(0, char::len_utf8);
    let digits = rest[sign_len..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let tail = &rest[sign_len + digits..];
    // A unit may be glued to the exponent (`2^28ms`), as to any number's digits; other letters
    // make the power part of a word (`2^15th`).
    let glued_unit = tail.starts_with(|c: char| c.is_alphabetic()) && unit_after(tail).is_some();
    if (tail.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '^') && !glued_unit) || (tail.starts_with('.') && tail[1..].starts_with(|c: char| c.is_ascii_digit())) {
        return None;
    }
    let exponent: i32 = rest[sign_len..sign_len + digits].parse().ok()?;
    let exponent = if rest.starts_with(['-', '−']) { -exponent } else { exponent };
    let value = base.powi(exponent);
    if !value.is_finite() || value == 0.0 || exponent.abs() > MAX_EXPONENT {
        return None;
    }
    let decimals = if exponent >= 0 { 0 } else { format!("{value}").split_once('.').map_or(0, |(_, d)| d.len().min(15) as u32) };
    Some((value, decimals, 1 + sign_len + digits))
}

/// The power of ten of `e-3`, `E+6`, `×10^3` or `x 10^−3`; `None` when it does not fit.
fn parse_power(written: &str) -> Option<i32> {
    let digits = written.rsplit(['e', 'E', '^']).next()?;
    digits.replace('−', "-").trim_start_matches('+').parse().ok()
}

/// Whether a sign or currency at `at` begins a number: at the start, or after a space, an
/// opening bracket or punctuation that sets a value apart (`=`, `:`, `,`, `≈`).
fn starts_a_number(text: &str, at: usize) -> bool {
    match text[..at].chars().next_back() {
        None => true,
        Some(c) => c.is_whitespace() || "([{=:;,\"'“‘≈~<>/|".contains(c),
    }
}

/// Whether `after`, the text after a count's digits, is a multiplication sign set off by
/// spaces and then a name: a word that begins with a capital and holds a digit or is all
/// capitals, with an `s` for a plural (`A100`, `H100s`, `MI300X`, `NVIDIA`, `GPUs`). A word
/// with one capital (`Fibonacci's`) may as well be what a ratio compares with, and stays so.
fn counts_a_name(after: &str) -> bool {
    let Some(rest) = after.strip_prefix(" × ").or_else(|| after.strip_prefix(" x ")) else { return false };
    let word: &str = rest.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).next().unwrap_or_default();
    let letters = word.strip_suffix('s').unwrap_or(word);
    let named = word.starts_with(|c: char| c.is_ascii_uppercase()) && (word.contains(|c: char| c.is_ascii_digit()) || (letters.len() >= 2 && letters.chars().all(|c| c.is_ascii_uppercase())));
    // Or a part named by its size or speed, glued to its letters (`8 x 200G HCA`, `4 × 80GB`):
    // the count of such parts, not a ratio.
    let specified = word.starts_with(|c: char| c.is_ascii_digit()) && word.trim_start_matches(|c: char| c.is_ascii_digit()).starts_with(|c: char| c.is_ascii_alphabetic());
    named || specified
}

/// The letters of asymptotic notation: big and little O, Θ and Ω, as LaTeX's `O`,
/// `\mathcal{O}`, `\Theta`, `\Omega` and `\omega` print them.
const ASYMPTOTIC: [char; 5] = ['O', 'o', 'Θ', 'Ω', 'ω'];

/// How far back from a number to look for the bracket of an asymptotic bound it stands in:
/// a bound is short, and the bound keeps the look-back, made for every number, linear.
const ASYMPTOTIC_REACH: usize = 64;

/// Where the asymptotic bound that `at` stands inside ends (`O(1)`, `Θ(n^{1.5})`, `o(1)`):
/// after its closing parenthesis, or at the end of `text` where none closes it. `None` where
/// the innermost open parenthesis before `at` follows no such letter standing alone (`f(1)`,
/// `IO(1)`, `(O(1), 5 runs)`).
fn asymptotic_bound_end(text: &str, at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut open = None;
    for (i, c) in text[..at].char_indices().rev().take(ASYMPTOTIC_REACH) {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => {
                open = Some(i);
                break;
            }
            '(' => depth -= 1,
            _ => {}
        }
    }
    let mut before = text[..open?].chars().rev();
    if !before.next().is_some_and(|c| ASYMPTOTIC.contains(&c)) || before.next().is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in text[at..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(at + i + 1),
            ')' => depth -= 1,
            _ => {}
        }
    }
    Some(text.len())
}

/// Whether a value written without its leading zero (`.25`), or its sign or currency, begins
/// at `at`: at the start, or after a space, an opening bracket or a comparison (`(p = .001)`,
/// `p<.05`), as papers write p-values and fractions.
fn begins_without_zero(text: &str, at: usize) -> bool {
    match text[..at].chars().next_back() {
        None => true,
        Some(c) => c.is_whitespace() || "([=<>≤≥≈".contains(c),
    }
}

/// A dimension's digits without leading zeros: the same text `u64::to_string` gives for any
/// dimension that fits, and still exact for one that does not.
fn dimension_digits(digits: &str) -> &str {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() && !digits.is_empty() { "0" } else { trimmed }
}

/// Every finite `f64` is a binary fraction whose decimal expansion ends within 1,074 places
/// (2^-1074 is the smallest subnormal), so writing more places only appends zeros.
const EXACT_DECIMALS: u32 = 1100;

/// `v` written with `decimals` places, exactly, for any count of places. The formatter itself
/// refuses a precision above 65,535, so the places past every f64's exact expansion are
/// appended as the zeros they are.
/// The two values written with `places` decimals either side of the half-unit boundary that `c`
/// sits on, where it sits on one to within a few units in the last place of its own arithmetic;
/// `None` elsewhere. Such a value is a decimal tie that binary arithmetic has nudged to one side
/// or the other: the median of 5.590 and 5.591 computes as 5.5905000000000005 in nanoseconds,
/// and benchstat, working in seconds, printed it as 5.590. Which side the nudge falls on says
/// nothing about the data, so both quotes match it.
fn boundary_neighbours(c: f64, places: u32) -> Option<(f64, f64)> {
    // Beyond 15 places an f64 holds no tie to find, and 10^places would leave its range.
    if places > 15 {
        return None;
    }
    let scale = 10f64.powi(places as i32);
    let x = c * scale;
    let below = (x - 0.5).round();
    let off = (x - (below + 0.5)).abs();
    // Eight units in the last place of x: the error of a mean of two values, a division and
    // the scaling above, with room to spare, and still far below any difference of the data.
    (off <= 8.0 * f64::EPSILON * x.abs().max(1.0)).then(|| (below / scale, (below + 1.0) / scale))
}

pub(crate) fn format_decimals(v: f64, decimals: u32) -> String {
    if decimals <= EXACT_DECIMALS || !v.is_finite() {
        return format!("{v:.*}", decimals.min(EXACT_DECIMALS) as usize);
    }
    let mut s = format!("{v:.*}", EXACT_DECIMALS as usize);
    let extra = (decimals - EXACT_DECIMALS) as usize;
    s.reserve(extra);
    s.extend(std::iter::repeat_n('0', extra));
    s
}

fn overlaps(span: &Range<usize>, skip: &[Range<usize>]) -> bool {
    skip.iter().any(|s| s.start < span.end && span.start < s.end)
}

/// Digits that continue a word (`H200`, `sm_90`, `v1`, `2512.22219` after a letter) or a
/// hyphenated name whose previous piece is alphanumeric (`Llama-1B`, `Qwen3-8B`).
/// ISO 8601's date with an optional time and zone, or a clock time that a zone or `am`/`pm`
/// marks as one.
static MOMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?|\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)? ?(?:UTC|GMT|Z|[AaPp]\.?[Mm]\.?|[A-Z]{2,4}T))")
        .expect("moment pattern is valid")
});

/// The length of the date or moment that starts at `start`, where one does, whole: not glued to
/// letters or digits after it (`2020-10-13` and `12:16 UTC` are; `12:16` alone may be a
/// duration, and stays two numbers for a check or a label to account for).
fn moment_at(text: &str, start: usize) -> Option<usize> {
    if text[..start].ends_with(|c: char| c.is_ascii_digit() || c == ':') {
        return None;
    }
    let m = MOMENT.find(&text[start..])?;
    let after = text[start + m.end()..].chars().next();
    (!after.is_some_and(|c| c.is_alphanumeric() || c == '_')).then_some(m.end())
}

/// Words after which a number names the part of a document it refers to (`Table 2`, `Fig.
/// 3`, `§ 4.2`, `RFC 2119`), compared without case.
const REFERRING: [&str; 38] = [
    "table",
    "tables",
    "figure",
    "figures",
    "fig.",
    "figs.",
    "section",
    "sections",
    "sec.",
    "§",
    "§§",
    "chapter",
    "chapters",
    "ch.",
    "appendix",
    "equation",
    "equations",
    "eq.",
    "eqs.",
    "listing",
    "algorithm",
    "alg.",
    "theorem",
    "lemma",
    "definition",
    "step",
    "steps",
    "line",
    "lines",
    "footnote",
    "issue",
    "pr",
    "rfc",
    "cve",
    // Python's, Java's and the Kubernetes project's enhancement proposals, and US federal
    // standards (`PEP 554`, `JEP 452`, `FIPS 204`), numbered as RFCs are.
    "pep",
    "jep",
    "kep",
    "fips",
];

/// Whether the text before a number ends with a word that makes the number a reference
/// (`see Table `, `in §`), and if so whether the word is plural, so that more numbers may be
/// listed after it (`Steps 1, 2, and 3`).
fn refers(before: &str) -> Option<bool> {
    let word = word_before(before)?;
    let known = REFERRING.iter().any(|r| r.eq_ignore_ascii_case(word));
    known.then(|| word == "§§" || word.trim_end_matches('.').ends_with(['s', 'S']))
}

/// The months as dates write them, whole or cut to three letters (`Jun 21, 2024`, `21 June
/// 2024`, `March 2011`), compared as written: `may 3` is no date.
const MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/// Whether `word` names a month: whole, or its first three letters with or without a period.
fn is_month(word: &str) -> bool {
    let word = word.trim_end_matches([',', '.']);
    MONTHS.iter().any(|m| *m == word || (word.len() == 3 && m.starts_with(word)) || (*m == "September" && word == "Sept"))
}

/// Whether the text before a number ends with a month (`January `, `Jun. `, `October, `, `(Sep
/// `): the number is the day or the year of a date.
fn after_a_month(before: &str) -> bool {
    word_before(before).is_some_and(is_month)
}

/// Whether the text before a number ends with a month and a day and a comma (`Jun 21, `): the
/// number is the date's year.
fn after_a_month_s_day(before: &str) -> bool {
    let Some(rest) = before.strip_suffix(", ") else { return false };
    let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (1..=2).contains(&digits) && after_a_month(&rest[..rest.len() - digits])
}

/// Whether the text after a number begins with a month (`21 June 2024`): the number is a day.
fn before_a_month(after: &str) -> bool {
    after.strip_prefix(' ').is_some_and(|rest| is_month(rest.split(|c: char| c.is_whitespace() || c == ',').next().unwrap_or_default()))
}

/// Software whose releases are written as its name and a number (`Python 3.8`, `Go 1.21`,
/// `CUDA 12.4`, `Ubuntu 22.04`, `Java 17`), compared as written: `go 2 times` is no release.
/// A closed list, as a spelling checker's dictionary is: a release of anything else is
/// declared by a label.
const RELEASED: [&str; 82] = [
    "Python",
    "CPython",
    "PyPy",
    "Go",
    "Java",
    "JDK",
    "OpenJDK",
    "JRE",
    "GraalVM",
    "Kotlin",
    "Scala",
    "Node",
    "Node.js",
    "Deno",
    "Bun",
    "TypeScript",
    ".NET",
    "C#",
    "F#",
    "Rust",
    "rustc",
    "Swift",
    "Ruby",
    "PHP",
    "Perl",
    "Lua",
    "LuaJIT",
    "Julia",
    "Zig",
    "Haskell",
    "GHC",
    "Erlang",
    "OTP",
    "Elixir",
    "GCC",
    "gcc",
    "Clang",
    "clang",
    "LLVM",
    "MSVC",
    "Xcode",
    "CUDA",
    "cuDNN",
    "cuBLAS",
    "NCCL",
    "ROCm",
    "PyTorch",
    "TensorFlow",
    "JAX",
    "Triton",
    "NumPy",
    "Ubuntu",
    "Debian",
    "Fedora",
    "RHEL",
    "CentOS",
    "Alpine",
    "Windows",
    "macOS",
    "iOS",
    "Android",
    "Linux",
    "FreeBSD",
    "PostgreSQL",
    "Postgres",
    "MySQL",
    "SQLite",
    "Redis",
    "Kafka",
    "Spark",
    "Chrome",
    "Firefox",
    "Safari",
    "Electron",
    "React",
    "JUnit",
    "Apache",
    "GPL",
    "LGPL",
    "AGPL",
    "MPL",
    "JMH",
];

/// Language models, released by name and number (`Llama 3.1`, `Gemma 2`, `Qwen 2.5`) and
/// sized after it in billions of parameters (`Llama 2 7B`, `Mistral 7B`), as articles about
/// serving them write both. A closed list, as [`RELEASED`] is.
const MODEL_FAMILIES: [&str; 24] = [
    "Llama",
    "LLaMA",
    "CodeLlama",
    "Mistral",
    "Mixtral",
    "Gemma",
    "Qwen",
    "QwQ",
    "Falcon",
    "Phi",
    "GPT",
    "OPT",
    "BLOOM",
    "Vicuna",
    "DeepSeek",
    "Yi",
    "Grok",
    "Nemotron",
    "Granite",
    "OLMo",
    "StarCoder",
    "Baichuan",
    "InternLM",
    "Claude",
];

/// Whether `word` is a language model's family, alone or glued to its release (`Qwen2.5`,
/// `Llama-3.1`, `Phi-3`).
fn is_model_family(word: &str) -> bool {
    MODEL_FAMILIES.iter().any(|family| word.strip_prefix(family).is_some_and(|rest| rest.strip_prefix('-').unwrap_or(rest).chars().all(|c| c.is_ascii_digit() || c == '.')))
}

/// Whether the text before a size ends with a language model's name, alone or with its release
/// (`Mistral `, `Llama 2 `, `LLaMA v3.1 `, `Qwen2.5 `), so that the size is part of the name.
fn names_a_model(before: &str) -> bool {
    if !before.ends_with(' ') {
        return false;
    }
    let mut words = before.split_whitespace().rev();
    match (words.next(), words.next()) {
        (Some(last), _) if is_model_family(last) => true,
        (Some(release), Some(family)) => {
            let digits = release.strip_prefix(['v', 'V']).unwrap_or(release);
            digits.starts_with(|c: char| c.is_ascii_digit()) && digits.chars().all(|c| c.is_ascii_digit() || c == '.') && is_model_family(family)
        }
        _ => false,
    }
}

/// Whether the text after a size glued to `B` says that it counts a model's parameters or the
/// tokens it was trained on (`B parameters`, `B-parameter`, `B params`, `B model`, `B LLMs`,
/// `B tokens`).
fn counts_parameters(after: &str) -> bool {
    let rest = after.strip_prefix(['-', ' ']).unwrap_or(after);
    ["parameters", "parameter", "params", "param", "models", "model", "LLMs", "LLM", "tokens", "token"]
        .iter()
        .any(|word| rest.get(..word.len()).is_some_and(|w| w.eq_ignore_ascii_case(word)) && !rest[word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Products whose name is two words, released as the name and a number (`Visual Studio 2017`,
/// `.NET Core 3.1`, `SQL Server 2019`), compared as written, as [`RELEASED`]'s are.
const RELEASED_TWO_WORDS: [&str; 10] =
    ["Visual Studio", "Android Studio", ".NET Core", ".NET Framework", "SQL Server", "Windows Server", "Mac OS", "DGX OS", "Rocky Linux", "Amazon Linux"];

/// Whether the text before a number ends with a released product's name (`Python `, `Visual
/// Studio `) or with `version` or `release` (`version 2`), so that the number names a release.
fn names_a_release(before: &str) -> bool {
    let Some(word) = word_before(before) else { return false };
    // A licence is released by number as software is (`Apache License 2.0`, `GPL 3.0`).
    if RELEASED.contains(&word) || MODEL_FAMILIES.contains(&word) || ["version", "release", "license", "licence"].iter().any(|w| w.eq_ignore_ascii_case(word)) {
        return true;
    }
    let trimmed = before.trim_end_matches([' ', '\u{a0}']);
    RELEASED_TWO_WORDS.iter().any(|name| {
        trimmed.strip_suffix(name).is_some_and(|rest| rest.is_empty() || rest.ends_with(|c: char| c.is_whitespace() || c == '(' || c == '['))
    })
}

/// Whether a year stands as a citation does: alone in brackets (`Lamport [1976]`), after the
/// authors in brackets or parentheses (`[Garner, 2007]`, `(Boehm et al., 1988;`), alone in
/// parentheses after several authors named in the text (`Mikolov et al. (2010)`), or as a
/// sentence of its own after the authors in a list of references (`Leslie Lamport. 1976.
/// Garbage collection …`), as ACM's reference format writes it.
fn cites_a_year(before: &str, after: &str) -> bool {
    let closes = |open: char, close: char| {
        let Some(inside) = before.rfind(open).map(|i| &before[i + open.len_utf8()..]) else { return false };
        let alone = inside.is_empty();
        // Several citations in one pair of brackets are parted by `;`: this year's authors
        // follow the last.
        let inside = inside.rsplit("; ").next().unwrap_or(inside);
        let authors = inside.strip_suffix(", ").or_else(|| inside.strip_suffix(' ')).is_some_and(|names| {
            names.chars().next().is_some_and(char::is_uppercase) && names.chars().all(|c| c.is_alphabetic() || matches!(c, ' ' | '.' | ',' | '-' | '\'' | '&'))
        });
        ((alone && open == '[') || authors) && (after.starts_with(close) || after.starts_with(';') || after.starts_with(", "))
    };
    if closes('[', ']') || closes('(', ')') {
        return true;
    }
    // `Mikolov et al. (2010)`, `Gross & Wilber (2016)`: a year alone in parentheses after
    // several authors named in the text. After one name (`ResNet (2048)`) it may as well be a
    // count, and stays a number.
    if let Some(names) = before.strip_suffix(" (")
        && after.starts_with(')')
    {
        let capitalised = |w: &str| w.chars().next().is_some_and(char::is_uppercase) && w.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'');
        let words: Vec<&str> = names.split_whitespace().rev().take(3).collect();
        let several = matches!(words.as_slice(), ["al.", "et", ..]) || matches!(words.as_slice(), [last, "&" | "and", first, ..] if capitalised(last) && capitalised(first));
        if several {
            return true;
        }
    }
    // `Author. 1976. Title`: a sentence that is the year alone, after an initial or a name (or
    // read alone, as the article's sentences are cut there).
    let own_sentence = after.strip_prefix('.').is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace));
    let after_names = before.strip_suffix(". ").is_some_and(|names| names.ends_with(char::is_alphabetic));
    own_sentence && (after_names || (before.trim().is_empty() && after.trim() == "."))
}

/// The word a number follows across a space (`see Table ` gives `Table`, `(Python ` gives
/// `Python`), or `None` where no space stands between them, except after `§`, which may stand
/// glued to its number (`§4`): what a reference and a release are told by.
fn word_before(before: &str) -> Option<&str> {
    let trimmed = before.trim_end_matches([' ', '\u{a0}']);
    if trimmed.len() == before.len() && !trimmed.ends_with('§') {
        return None;
    }
    trimmed.rsplit(|c: char| c.is_whitespace() || c == '(' || c == '[').next()
}

fn is_part_of_name(text: &str, start: usize) -> bool {
    let before = &text[..start];
    let mut rev = before.chars().rev();
    match rev.next() {
        None => false,
        // Two dots join the ends of a range (`4.07 us..4.44 us`, as pyperf writes one).
        Some('.') if before.ends_with("..") && !before.ends_with("...") => false,
        Some(c) if c.is_alphanumeric() || c == '_' || c == '.' || c == '/' || c == '#' => true,
        Some('-' | '−') => rev.next().is_some_and(|c| c.is_alphanumeric()),
        // `C++17`, `g++12`: a standard or a compiler's name, as `Llama-3` is. After a digit
        // the `+` joins two numbers, as benchstat's sample counts `n=10+9` do.
        Some('+') => rev.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '+'),
        // A tilde glued to a word that ends in a digit and holds a letter joins the parts of a
        // package's version (`2ubuntu1~18.04`, `exp1~20200128`); after a space it means about
        // (`~13GB`), between digits it may join a range's ends (`1~2 ms`), and after a letter
        // it counts a git revision's ancestors (`master~1`), each read as before.
        Some('~') => {
            let word: Vec<char> = rev.take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            word.first().is_some_and(char::is_ascii_digit) && word.iter().any(|c| c.is_alphabetic())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_registry_number_grouped_by_plain_spaces_is_one_number() {
        assert_eq!(super::parse_one("1 183 514").map(|n| n.value), Ok(1183514.0));
        assert_eq!(super::parse_one("800 000 ms").map(|n| (n.value, n.unit)), Ok((800000.0, Some(super::Unit::Ms))));
        assert!(super::parse_one("12 34").is_err());
    }

    #[test]
    fn a_duration_as_time_prints_it_is_seconds() {
        let n = super::extract("Seq. time 79m35.197s, real 0m1.5s and 1h2m3s; not 3m4 or x1m2s.", &[]);
        let read: Vec<(&str, f64, u32)> = n.iter().map(|n| (n.text.as_str(), n.value, n.decimals)).collect();
        assert_eq!(read, [("79m35.197s", 4775.197, 3), ("0m1.5s", 1.5, 1), ("1h2m3s", 3723.0, 0)]);
        assert!(n.iter().all(|n| n.unit == Some(super::Unit::S)));
        // With a space between the parts, as a table of build times writes them; parts two
        // spaces apart are no duration.
        let n = super::extract("From 3m 48s to 2m 04s, then 1h 2m 3.5s; not 3m  4s.", &[]);
        let read: Vec<(&str, f64, u32)> = n.iter().map(|n| (n.text.as_str(), n.value, n.decimals)).collect();
        assert_eq!(&read[..3], [("3m 48s", 228.0, 0), ("2m 04s", 124.0, 0), ("1h 2m 3.5s", 3723.5, 1)]);
        assert!(!read.iter().any(|r| r.0.contains("  ")), "{read:?}");
        assert_eq!(super::parse_one("4m 07s").map(|n| (n.value, n.unit)), Ok((247.0, Some(super::Unit::S))));
    }

    /// Build and CI times are quoted in minutes and hours; a word that only begins like one of
    /// their units (`minimum`, `H100`) gives the number no unit.
    #[test]
    fn minutes_and_hours_are_times() {
        let n = super::extract("It takes 12 min on CI, 2.5 hours locally, 90 mins, 3 hrs, a 24 h soak and 2h; 5 minimum runs on 8 H100 GPUs.", &[]);
        let read: Vec<(&str, f64, Option<super::Unit>)> = n.iter().map(|n| (n.text.as_str(), n.value, n.unit.clone())).collect();
        use super::Unit::{H, Min};
        assert_eq!(
            read,
            [
                ("12 min", 12.0, Some(Min)),
                ("2.5 hours", 2.5, Some(H)),
                ("90 mins", 90.0, Some(Min)),
                ("3 hrs", 3.0, Some(H)),
                ("24 h", 24.0, Some(H)),
                ("2h", 2.0, Some(H)),
                ("5", 5.0, None),
                ("8", 8.0, None)
            ]
        );
        assert_eq!(n[1].key(), "2.5h");
        let close = |v: Result<f64, String>, want: f64| assert!(v.as_ref().is_ok_and(|v| (v - want).abs() < 1e-9), "{v:?} against {want}");
        close(convert(2.5, Some(&H), Some(&super::Unit::S)), 9000.0);
        close(convert(90.0, Some(&super::Unit::S), Some(&Min)), 1.5);
        // Hours and minutes without seconds are a number of minutes, as precise as they are
        // written; minutes alone (`5m`) are no duration, since `m` is as often a metre.
        let n = super::extract("It saves 1h 30m a day and 2h05m a week; 5m rows.", &[]);
        let read: Vec<(&str, f64, u32, Option<super::Unit>)> = n.iter().map(|n| (n.text.as_str(), n.value, n.decimals, n.unit.clone())).collect();
        assert_eq!(read, [("1h 30m", 90.0, 0, Some(Min)), ("2h05m", 125.0, 0, Some(Min))]);
        assert_eq!(super::parse_one("1h 30m").map(|n| n.key()), Ok("90min".to_string()));
        // A registry may write minutes as wrk prints them, since a registry's number is one
        // number; anything else glued to a lone `m` is still none.
        assert_eq!(super::parse_one("1.50m").map(|n| (n.key(), n.decimals)), Ok(("1.50min".to_string(), 2)));
        assert!(super::parse_one("-2m").is_ok_and(|n| n.value == -2.0));
        for not_minutes in ["m", "1.5km", "10km", "1e3m", "<2m", "2-3m", "4x4m"] {
            assert!(super::parse_one(not_minutes).is_err(), "{not_minutes}");
        }
    }

    #[test]
    fn an_uppercase_x_is_a_ratio_after_a_short_number_and_a_name_after_a_model_number() {
        let n = super::extract("Overhead 52X and 1.75X on a Ryzen 9 5950X, 4X less.", &[]);
        let read: Vec<(&str, Option<super::Unit>)> = n.iter().map(|n| (n.text.as_str(), n.unit.clone())).collect();
        assert_eq!(read, [("52X", Some(super::Unit::Times)), ("1.75X", Some(super::Unit::Times)), ("9", None), ("4X", Some(super::Unit::Times))]);
    }

    #[test]
    fn units_of_one_kind_convert_and_others_do_not() {
        let close = |v: Result<f64, String>, want: f64| assert!(v.as_ref().is_ok_and(|v| (v - want).abs() < 1e-9 * want.abs().max(1.0)), "{v:?} against {want}");
        close(convert(59907.0, Some(&Unit::Bytes), Some(&Unit::KiB)), 59907.0 / 1024.0);
        close(convert(2.0, Some(&Unit::MiB), Some(&Unit::Mb)), 2.097152);
        // Go's `MB/s` against benchstat's `MiB/s`: 322.2 MB/s is 307.3 MiB/s.
        close(convert(322.2, Some(&Unit::MbPerS), Some(&Unit::MiBPerS)), 322.2e6 / 1048576.0);
        close(convert(1.5, Some(&Unit::Ms), Some(&Unit::Us)), 1500.0);
        assert!(convert(1.0, Some(&Unit::Bytes), Some(&Unit::S)).is_err());
        assert!(convert(1.0, Some(&Unit::MbPerS), Some(&Unit::Mb)).is_err(), "a rate is no amount");
        assert!(convert(1.0, Some(&Unit::GflopPerS), Some(&Unit::GbPerS)).is_err());
        assert!(convert(1.0, Some(&Unit::Other("tokens/s".into())), Some(&Unit::BPerS)).is_err());
        assert_eq!(Unit::declared("B/op"), Ok(Unit::Bytes), "Go's bytes per operation are bytes");
        assert_eq!(Unit::declared("MiB/s"), Ok(Unit::MiBPerS));
    }

    /// Nsight Compute's units: times spelled `usecond`, sizes and rates with decimal prefixes
    /// and the word `byte`. Its `9.83 Mbyte` is the 9,830,400 bytes its CSV prints.
    #[test]
    fn nsight_compute_units_are_known() {
        assert_eq!(Unit::declared("usecond"), Ok(Unit::Us));
        assert_eq!(Unit::declared("msecond"), Ok(Unit::Ms));
        assert_eq!(Unit::declared("nsecond"), Ok(Unit::Ns));
        assert_eq!(Unit::declared("Gbyte/s"), Ok(Unit::GbPerS));
        assert_eq!(Unit::declared("Tbyte/second"), Ok(Unit::TbPerS));
        assert_eq!(Unit::declared("byte/s"), Ok(Unit::BPerS));
        assert_eq!(Unit::declared("Ghz"), Ok(Unit::GHz));
        let close = |v: Result<f64, String>, want: f64| assert!(v.as_ref().is_ok_and(|v| (v - want).abs() < 1e-9 * want.abs().max(1.0)), "{v:?} against {want}");
        close(convert(9_830_400.0, Some(&Unit::declared("byte").unwrap()), Some(&Unit::declared("Mbyte").unwrap())), 9.8304);
        close(convert(2_615_053_763.44, Some(&Unit::Hz), Some(&Unit::GHz)), 2.61505376344);
        assert!(convert(1.0, Some(&Unit::GHz), Some(&Unit::GbPerS)).is_err(), "a clock is no rate of bytes");
        let n = &extract("the kernel took 57.73 usecond and read 1.68 Mbyte at 2.91 Tbyte/s, SM clock 1.98 GHz", &[]);
        let got: Vec<_> = n.iter().map(|n| (n.text.as_str(), n.unit.clone())).collect();
        assert_eq!(got, [("57.73 usecond", Some(Unit::Us)), ("1.68 Mbyte", Some(Unit::Mb)), ("2.91 Tbyte/s", Some(Unit::TbPerS)), ("1.98 GHz", Some(Unit::GHz))]);
    }
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        extract(s, &[]).into_iter().map(|n| n.text).collect()
    }

    #[test]
    fn decimals_and_units_are_kept_together() {
        assert_eq!(texts("Graph replay took 56.08 µs and 3.4us."), ["56.08 µs", "3.4us"]);
        let n = &extract("took 56.08 µs", &[])[0];
        assert_eq!((n.value, n.decimals, n.unit.clone()), (56.08, 2, Some(Unit::Us)));
    }

    #[test]
    fn thousands_separators_are_one_integer() {
        let n = &extract("It has 1,764 words.", &[])[0];
        assert_eq!((n.value, n.decimals, n.unit.clone()), (1764.0, 0, None));
    }

    /// SI style groups thousands by a thin (U+2009), narrow no-break (U+202F) or no-break
    /// (U+00A0) space; each grouped number is one number, not one for each group. A plain
    /// space groups nothing.
    #[test]
    fn thin_and_no_break_spaces_group_thousands() {
        let text = "We read 1\u{202F}234\u{202F}567 rows in 2\u{2009}048.5 ms, 1\u{A0}024 MB and 1.5\u{2009}×\u{2009}10^3 s; rows 1 234.";
        let found: Vec<_> = extract(text, &[]).into_iter().map(|n| (n.value, n.decimals, n.unit)).collect();
        assert_eq!(found[..3], [(1_234_567.0, 0, None), (2048.5, 1, Some(Unit::Ms)), (1024.0, 0, Some(Unit::Mb))]);
        assert_eq!(found[4..], [(1.0, 0, None), (234.0, 0, None)]);
        // An article's text, whose spaces are all plain, marks those the source wrote as
        // group spaces again; the number's text shows a plain space.
        let plain = "read 1 234 567 rows, cells 1 234";
        let marked = with_group_marks(plain, |i| i < 15);
        let found: Vec<_> = extract(&marked, &[]).into_iter().map(|n| (n.text, n.value, n.span)).collect();
        assert_eq!(found, [("1 234 567".to_string(), 1_234_567.0, 5..14), ("1".to_string(), 1.0, 27..28), ("234".to_string(), 234.0, 29..32)]);
        assert!(matches!(with_group_marks(plain, |_| false), std::borrow::Cow::Borrowed(_)));
        assert!(groups_thousands("&thinsp;234") && groups_thousands("\u{A0}234") && !groups_thousands(" 234"));
        let one = parse_one("12\u{202F}345 ns").unwrap();
        assert_eq!((one.value, one.unit), (12345.0, Some(Unit::Ns)));
        // A group of other than three digits ends the number where the groups stop.
        let split: Vec<f64> = extract("1\u{2009}23 and 12\u{2009}3456", &[]).iter().map(|n| n.value).collect();
        assert_eq!(split, [1.0, 23.0, 12.0, 3456.0]);
    }

    /// dtaralla/hash_funsies' README (MIT) writes `200 * 200 * 20 = 800 000 coordinates` with a
    /// plain space: a group after a plain space that begins with a zero continues the number,
    /// and any other group after one does not.
    #[test]
    fn a_plain_space_groups_thousands_only_before_a_group_that_begins_with_zero() {
        let read = |text: &str| extract(&with_group_marks(text, |_| false), &[]).into_iter().map(|n| n.value).collect::<Vec<_>>();
        assert_eq!(read("an input of 200 * 200 * 20 = 800 000 coordinates"), [200.0, 200.0, 20.0, 800_000.0]);
        assert_eq!(read("1 000 000 rows in 7 050 ms"), [1_000_000.0, 7050.0]);
        // Another group, a fourth digit after the zero, or four digits before it: two numbers.
        assert_eq!(read("cells 1 234, rows 12 0345, and 2024 000"), [1.0, 234.0, 12.0, 345.0, 2024.0, 0.0]);
        // A registry's `number` is one number: `init` writes a sentence's thin-space groups
        // with plain spaces, so a plain space between groups groups them there. A sentence
        // that reads `1 234` as two numbers still holds no `1 234` for it to bind to.
        let one = parse_one("800 000").unwrap();
        assert_eq!((one.text.as_str(), one.value), ("800 000", 800_000.0));
        assert_eq!(parse_one("1 234").map(|n| n.value), Ok(1234.0));
    }

    #[test]
    fn percent_and_ratio_units() {
        let found = extract("a 38.1 % cut, or 1.6× faster, or 2x", &[]);
        let units: Vec<_> = found.iter().map(|n| n.unit.clone()).collect();
        assert_eq!(units, [Some(Unit::Percent), Some(Unit::Times), Some(Unit::Times)]);
    }

    /// pyperf prints the range outside which it counts outliers as `4.07 us..4.44 us`.
    #[test]
    fn a_range_written_with_two_dots_keeps_both_ends() {
        // Each end with its unit: two numbers, as `2 ms-3 ms` is.
        let found: Vec<(String, f64)> = extract("Number of outlier (out of 4.07 us..4.44 us): nine", &[]).into_iter().map(|n| (n.text, n.value)).collect();
        assert_eq!(found, [("4.07 us".to_string(), 4.07), ("4.44 us".to_string(), 4.44)]);
        // One unit after both: a range, as `4.07–4.44 us` is.
        let n = one("out of 4.07..4.44 us");
        assert_eq!((n.text.as_str(), n.value, n.unit.clone()), ("4.07..4.44 us", 4.07, Some(Unit::Us)));
        assert_eq!(n.shape, Shape::Range { high: 4.44, high_decimals: 2 });
        let n = one("rows 1..10 of the table");
        assert_eq!(n.shape, Shape::Range { high: 10.0, high_decimals: 0 });
        // A version's dots are still a name.
        assert!(extract("pyperf 2.10.0 here", &[]).is_empty());
    }

    /// pyperf prints its loop count as a power of two (`Loop iterations per value: 2^15`).
    #[test]
    fn a_power_written_with_a_caret_is_one_exact_number() {
        let n = one("Loop iterations per value: 2^15");
        assert_eq!((n.text.as_str(), n.value, n.decimals, n.unit.clone()), ("2^15", 32768.0, 0, None));
        let n = one("a step of 2^-3 s");
        assert_eq!((n.text.as_str(), n.value, n.decimals, n.unit.clone()), ("2^-3 s", 0.125, 3, Some(Unit::S)));
        assert_eq!(one("10^6 requests").value, 1e6);
        assert_eq!(one("drops by -2^4").value, -16.0);
        // An exponent alone, a power past f64's range, and a caret glued to letters are none.
        assert!(extract("x^-3 and x^2", &[]).is_empty(), "{:?}", extract("x^-3 and x^2", &[]));
        assert!(extract("2^9999", &[]).is_empty());
        assert!(extract("2^15th", &[]).is_empty());
        assert_eq!(one("about 2.5×10^3 requests").value, 2500.0);
    }

    #[test]
    fn ranges_keep_both_ends() {
        let n = &extract("improves by 1.0–1.7× over vLLM", &[])[0];
        assert_eq!(n.text, "1.0–1.7×");
        assert_eq!(n.shape, Shape::Range { high: 1.7, high_decimals: 1 });
        let n = &extract("costs 1.3-2.1 us per launch", &[])[0];
        assert_eq!((n.text.as_str(), n.unit.clone()), ("1.3-2.1 us", Some(Unit::Us)));
    }

    #[test]
    fn a_shape_may_end_a_sentence() {
        let found = extract("from 4096×128 to 8×262144.", &[]);
        assert_eq!(found.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["4096×128", "8×262144"]);
    }

    /// A shape written with spaces around its sign (`256 × 256`, as LaTeX's `$256 \times 256$`
    /// prints it) is the shape `256×256` is, not a speed-up of 256 and a count; a power of ten
    /// written so (`2.3 × 10^3`) stays one number.
    #[test]
    fn a_shape_may_be_written_with_spaces_around_its_sign() {
        let found = extract("We multiply 256 × 256 matrices and 3 x 4 x 5 tensors.", &[]);
        let shapes: Vec<_> = found.iter().map(|n| (n.text.as_str(), n.shape.clone(), n.key())).collect();
        assert_eq!(shapes, [("256 × 256", Shape::Dims(vec![256, 256]), "256×256".to_string()), ("3 x 4 x 5", Shape::Dims(vec![3, 4, 5]), "3×4×5".to_string())]);
        assert_eq!(parse_one("256 × 256").unwrap().key(), parse_one("256×256").unwrap().key());
        assert_eq!(found[0].value, 256.0);
        let n = one("about 2.3 × 10^3 requests");
        assert_eq!((n.text.as_str(), n.value, n.shape), ("2.3 × 10^3", 2300.0, Shape::Single));
        assert_eq!(one("about 2 × 10^3 requests").value, 2000.0);
        // One space alone is no shape's sign: `8 x86` is a count and a name.
        assert_eq!(texts("on 8 x86 machines"), ["8"]);
    }

    /// A count written before a multiplication sign and a name (`8 × A100 GPUs`) counts the
    /// named things; a ratio (`2.3×`, `2.3 × faster`, `2× over`, `3 × Fibonacci's`) stays one.
    #[test]
    fn a_count_before_a_spaced_times_sign_and_a_name_is_no_ratio() {
        let read = |t: &str| extract(t, &[]).into_iter().map(|n| (n.text, n.unit)).collect::<Vec<_>>();
        assert_eq!(
            read("on 8 × A100 GPUs, 4 × H100s, 2 x MI300X and 16 × NVIDIA cards"),
            [("8".to_string(), None), ("4".to_string(), None), ("2".to_string(), None), ("16".to_string(), None)]
        );
        // A part named by its size or speed (`8 x 200G HCA`) is counted too; its size stays a
        // number of its own.
        assert_eq!(read("with 8 x 200G HCA and 4 × 80GB cards")[0], ("8".to_string(), None));
        assert_eq!(read("with 8 x 200G HCA and 4 × 80GB cards")[2], ("4".to_string(), None));
        // A PCI address names a device; a time of day stays as it was.
        assert_eq!(read("the HCA \"0000:05:00.0\" (lspci's 05:00.1) on bus 5"), [("5".to_string(), None)]);
        assert_eq!(read("a lap of 12:34.5").len(), 2, "a device number is at most 1f");
        let times = Some(Unit::Times);
        assert_eq!(
            read("2.3×, 2.3 × faster, 2.3× over, 2 × faster, 2.5 × A100 and 3 × Fibonacci's"),
            [
                ("2.3×".to_string(), times.clone()),
                ("2.3 ×".to_string(), times.clone()),
                ("2.3×".to_string(), times.clone()),
                ("2 ×".to_string(), times.clone()),
                ("2.5 ×".to_string(), times.clone()),
                ("3 ×".to_string(), times.clone()),
            ]
        );
    }

    #[test]
    fn shapes_are_one_label_not_two_numbers() {
        let found = extract("at 4096×4096 and 32768x1024, rows", &[]);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].shape, Shape::Dims(vec![4096, 4096]));
        assert_eq!(found[1].shape, Shape::Dims(vec![32768, 1024]));
    }

    #[test]
    fn digits_inside_names_are_not_numbers() {
        assert!(texts("On the H200 with sm_90, Llama-3.2-1B and Qwen3-8B, arXiv 2512.22219v1").is_empty());
    }

    #[test]
    fn bandwidth_and_sizes() {
        assert_eq!(texts("copies at 4.3 TB/s over 64 MiB and 4244 GB/s"), ["4.3 TB/s", "64 MiB", "4244 GB/s"]);
    }

    /// Systems and networking papers quote rates of bits, packets, FLOP and I/O operations per
    /// second, often glued to the digits (`28.8Gbps`), which read as a name until these units
    /// were known, and dropped the number.
    #[test]
    fn rates_of_bits_packets_flop_and_io_are_known_units() {
        let read = |t: &str| extract(t, &[]).into_iter().map(|n| (n.text, n.value, n.unit)).collect::<Vec<_>>();
        assert_eq!(read("IPSec reaches 28.8Gbps with 4K entries"), [("28.8Gbps".to_string(), 28.8, Some(Unit::GbitPerS))]);
        assert_eq!(
            read("56.4 Mpps, 12 GFLOPS, 48 Mbps, 3 PFLOPS and 1.2M IOPS"),
            [
                ("56.4 Mpps".to_string(), 56.4, Some(Unit::MpacketPerS)),
                ("12 GFLOPS".to_string(), 12.0, Some(Unit::GflopPerS)),
                ("48 Mbps".to_string(), 48.0, Some(Unit::MbitPerS)),
                ("3 PFLOPS".to_string(), 3.0, Some(Unit::PflopPerS)),
                ("1.2M IOPS".to_string(), 1.2e6, Some(Unit::Iops)),
            ]
        );
        assert_eq!(parse_one("12 GFLOPS").unwrap().key(), parse_one("12 GFLOP/s").unwrap().key());
        assert_eq!(parse_one("1.5 TFLOPS").unwrap().key(), parse_one("1.5 Tflop/s").unwrap().key());
        assert_eq!(parse_one("350 KIOPS").unwrap().unit, Some(Unit::Kiops));
        assert_eq!(unit_in_label("Throughput (Mpps)"), Some(Unit::MpacketPerS));
        let close = |v: Result<f64, String>, want: f64| assert!(v.as_ref().is_ok_and(|v| (v - want).abs() < 1e-9 * want.abs().max(1.0)), "{v:?} against {want}");
        close(convert(28.8, Some(&Unit::GbitPerS), Some(&Unit::MbitPerS)), 28_800.0);
        close(convert(56.4e6, Some(&Unit::PacketPerS), Some(&Unit::MpacketPerS)), 56.4);
        close(convert(0.5, Some(&Unit::PflopPerS), Some(&Unit::TflopPerS)), 500.0);
        assert!(convert(1.0, Some(&Unit::MpacketPerS), Some(&Unit::MbitPerS)).is_err());
    }

    /// `Gb/s` is a link's gigabits per second, as `Gbps` is, and `GB/s` gigabytes: the two never
    /// convert into each other, so a quote in bits is never checked against bytes.
    #[test]
    fn a_lowercase_b_in_a_rate_is_a_bit_not_a_byte() {
        assert_eq!(parse_one("10 Gb/s").unwrap().unit, Some(Unit::GbitPerS));
        assert_eq!(parse_one("10 Gb/s").unwrap().key(), parse_one("10Gbps").unwrap().key());
        assert_eq!(parse_one("10 GB/s").unwrap().unit, Some(Unit::GbPerS));
        assert_ne!(parse_one("10 Gb/s").unwrap().key(), parse_one("10 GB/s").unwrap().key());
        assert!(convert(1.0, Some(&Unit::GbitPerS), Some(&Unit::GbPerS)).is_err());
        assert_eq!(Unit::declared("Gbit/s"), Ok(Unit::GbitPerS));
    }

    /// A count of floating-point operations (`GFLOPs`, a model's cost per input) is no rate, and
    /// digits glued to letters that only begin a rate's name (`5Gbit`, `5Gbpsx`) stay a name.
    #[test]
    fn spellings_that_are_no_rate_stay_as_they_were() {
        assert_eq!(one("a cost of 3.8 GFLOPs per image").unit, None);
        assert!(texts("a 5Gbit link, a 5Gbpsx port and 4K entries").is_empty());
    }

    /// Digits in an identifier are a name, whichever rate or unit their letters begin.
    #[test]
    fn identifiers_are_names_not_numbers() {
        assert!(texts("On H100, A100, sm_90, fp16, 4K, x86, 3D, 2nd, 1st, Llama-3.1-8B, v1.2 and 3.11.2").is_empty());
    }

    #[test]
    fn words_after_a_number_are_not_units() {
        let found = extract("21 samples over 132 SMs and 8-way parallelism", &[]);
        assert_eq!(found.iter().map(|n| (n.text.as_str(), n.unit.clone())).collect::<Vec<_>>(), [("21", None), ("132", None), ("8", None)]);
    }

    #[test]
    fn inline_code_is_skipped() {
        let s = "call `cudaGraphLaunch(g, 0)` 20 times";
        let code = s.find('`').unwrap()..s.rfind('`').unwrap() + 1;
        assert_eq!(extract(s, &[code]).iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["20"]);
    }

    #[test]
    fn half_unit_rule() {
        let q = Quoted { value: 14.96, decimals: 2, unit: Some(Unit::Us), ..Quoted::default() };
        assert!(q.matches(14.9551, None));
        assert!(q.matches(14.964, None));
        assert!(!q.matches(14.966, None));
        // A value on a boundary, as near as binary arithmetic gets to it, is a tie that both
        // neighbours match; a millionth of a unit off it, only its own side does.
        let lo = Quoted { value: 20.34, decimals: 2, ..Quoted::default() };
        let hi = Quoted { value: 20.35, decimals: 2, ..Quoted::default() };
        for tie in [20.345, (20.34 + 20.35) / 2.0] {
            assert!(lo.matches(tie, None) && hi.matches(tie, None), "{tie}");
        }
        assert!(lo.matches(20.344_999_99, None) && !hi.matches(20.344_999_99, None));
        assert!(!lo.matches(20.345_000_01, None) && hi.matches(20.345_000_01, None));
        // benchstat's median of 5.590 and 5.591 ns, printed 5.590 from seconds, computes as
        // 5.5905000000000005 in nanoseconds; a quote one further off still fails.
        let median = (5.590 + 5.591) / 2.0;
        assert!(median > 5.5905);
        for (quote, holds) in [(5.590, true), (5.591, true), (5.589, false), (5.592, false)] {
            assert_eq!(Quoted { value: quote, decimals: 3, ..Quoted::default() }.matches(median, None), holds, "{quote}");
        }
        assert!(!q.matches(f64::NAN, None));
        assert!(q.matches(15.0, Some(0.05)));
    }

    #[test]
    fn keys_ignore_spelling() {
        assert_eq!(parse_one("14.96 µs").unwrap().key(), parse_one("14.96us").unwrap().key());
        assert_eq!(parse_one("14.96 μs").unwrap().key(), parse_one("14.96 µs").unwrap().key());
        assert!(parse_one("about 3").is_err());
    }

    #[test]
    fn a_shape_too_large_for_64_bits_is_a_label_not_a_crash() {
        let big = "99999999999999999999x99999999999999999999";
        for text in [format!("Shape {big} here."), big.to_string(), format!("at {big}")] {
            let found = extract(&text, &[]);
            assert_eq!(found.len(), 1, "{text}");
            assert!(found[0].is_dims());
            assert_eq!(found[0].key(), "99999999999999999999×99999999999999999999");
        }
        assert_eq!(parse_one(big).unwrap().key(), parse_one("099999999999999999999×99999999999999999999").unwrap().key());
        assert_eq!(parse_one("4096x0128").unwrap().key(), "4096×128");
        assert_eq!(parse_one("0x7").map(|n| n.key()), Ok("0×7".to_string()));
    }

    #[test]
    fn numbers_with_more_decimals_than_the_formatter_allows_are_exact() {
        let text = format!("took 1.{} µs", "5".repeat(70_000));
        let n = &extract(&text, &[])[0];
        assert_eq!(n.decimals, 70_000);
        let key = n.key();
        assert_eq!(key.len(), "1.".len() + 70_000 + "µs".len());
        let q = Quoted::from_number(n, None).unwrap();
        assert!(q.matches(n.value, None));
        assert!(!q.matches(1.5, None));
        assert_eq!(format_decimals(0.5, 1105), format!("0.5{}", "0".repeat(1104)));
        assert_eq!(format_decimals(0.1, 3), "0.100");
        assert_eq!(format_decimals(f64::NAN, 70_000), "NaN");
    }

    #[test]
    fn a_range_needs_a_part() {
        let n = parse_one("1.0–1.7×").unwrap();
        assert!(Quoted::from_number(&n, None).is_err());
        assert_eq!(Quoted::from_number(&n, Some(Part::High)).unwrap().value, 1.7);
    }

    /// Properties over generated input: what the README promises for every number, not only
    /// for the examples above.
    mod properties {
        use proptest::prelude::*;

        use super::*;

        const UNITS: [&str; 26] = [
            "", "%", "×", "x", "ns", "µs", "μs", "us", "ms", "s", "B", "KiB", "MiB", "GiB", "GB", "TB/s", "GB/s", "MB/s", "GFLOP/s", "TFLOP/s", "Gbps", "Gb/s", "Mpps", "GFLOPS",
            "IOPS", "kbps",
        ];

        /// A quoted number as prose writes it: digits, maybe thousands separators, maybe
        /// decimals, maybe a unit with or without a space.
        fn quoted() -> impl Strategy<Value = (String, f64, u32, Option<Unit>)> {
            (0u64..10_000_000_000, proptest::option::of("[0-9]{1,6}"), any::<bool>(), 0..UNITS.len(), any::<bool>()).prop_map(|(int, frac, separators, unit, space)| {
                let digits = int.to_string();
                let grouped = if separators && int >= 1000 {
                    let mut out = String::new();
                    for (i, c) in digits.chars().enumerate() {
                        if i > 0 && (digits.len() - i) % 3 == 0 {
                            out.push(',');
                        }
                        out.push(c);
                    }
                    out
                } else {
                    digits.clone()
                };
                let (written, plain, decimals) = match &frac {
                    Some(f) => (format!("{grouped}.{f}"), format!("{digits}.{f}"), f.len() as u32),
                    None => (grouped, digits, 0),
                };
                let unit_text = UNITS[unit];
                let text = match (unit_text, space) {
                    ("", _) => written,
                    (u, true) => format!("{written} {u}"),
                    (u, false) => format!("{written}{u}"),
                };
                (text, plain.parse().unwrap(), decimals, Unit::parse(unit_text))
            })
        }

        proptest! {
            #[test]
            fn any_quoted_number_round_trips_through_extraction((text, value, decimals, unit) in quoted()) {
                let sentence = format!("The kernel took {text} in total.");
                let found = extract(&sentence, &[]);
                prop_assert_eq!(found.len(), 1, "{:?}", found);
                let n = &found[0];
                prop_assert_eq!(&n.text, &text);
                prop_assert_eq!(&sentence[n.span.clone()], text.as_str());
                prop_assert_eq!((n.value, n.decimals, n.unit.clone()), (value, decimals, unit));
                prop_assert_eq!(parse_one(&text).map(|m| m.key()), Ok(n.key()));
            }

            #[test]
            fn matching_accepts_exactly_one_quote_per_value_off_a_tie(computed in 0.0f64..1.0e6, decimals in 0u32..7) {
                let scale = 10f64.powi(decimals as i32);
                let centre = (computed * scale).round() as i64;
                let quote = |k: i64| -> Quoted {
                    let text = if decimals == 0 { k.to_string() } else { format!("{}.{:0width$}", k / scale as i64, k % scale as i64, width = decimals as usize) };
                    Quoted { value: text.parse().unwrap(), decimals, scale: Scale::None, unit: None, bound: None }
                };
                let matching: Vec<i64> = (centre - 3..=centre + 3).filter(|k| *k >= 0 && quote(*k).matches(computed, None)).collect();
                let expected = if boundary_neighbours(computed, decimals).is_some() { 2 } else { 1 };
                prop_assert_eq!(matching.len(), expected, "{} at {} decimals: {:?}", computed, decimals, matching);
            }
        }
    }

    fn one(s: &str) -> Number {
        let found = extract(s, &[]);
        assert_eq!(found.len(), 1, "{s}: {found:?}");
        found[0].clone()
    }

    #[test]
    fn signs_are_read_with_either_minus() {
        let n = one("a change of -4.5 % here");
        assert_eq!((n.text.as_str(), n.value, n.unit.clone()), ("-4.5 %", -4.5, Some(Unit::Percent)));
        assert_eq!(one("a change of −4.5 % here").key(), n.key());
        assert_eq!(one("slower (−38 %)").value, -38.0);
        assert_eq!(one("x = -3").value, -3.0);
        assert_eq!(parse_one("-4.5 %").unwrap().value, -4.5);
    }

    /// A change written with its plus sign is one positive number that keeps the sign in its
    /// text, and a check may quote it with or without the sign; a `+` after a letter or digit
    /// is no sign, and the digits after it belong to a name (`C++17`).
    #[test]
    fn a_plus_sign_is_read_where_a_number_begins() {
        let n = one("it costs +14.6 % more");
        assert_eq!((n.text.as_str(), n.value, n.unit.clone()), ("+14.6 %", 14.6, Some(Unit::Percent)));
        assert_eq!(parse_one("+14.6 %").unwrap().key(), n.key());
        assert_eq!(parse_one("14.6 %").unwrap().key(), n.key());
        assert_eq!(one("Δ = +0.3 ms").text, "+0.3 ms");
        assert!(texts("C++17, g++12 and x+1").is_empty());
        assert_eq!(texts("(p=0.000 n=8+10)"), ["0.000", "8", "10"]);
        assert_eq!(texts("6.6 +- 0.2 ms"), ["6.6", "0.2 ms"]);
        assert_eq!(one("a rate of 1e+3").value, 1000.0);
    }

    #[test]
    fn a_hyphen_after_a_word_or_digit_is_no_sign() {
        assert!(texts("Llama-3 and Qwen-2").is_empty());
        assert_eq!(texts("from 1.3-2.1 us"), ["1.3-2.1 us"]);
        assert_eq!(one("a 2 -x").value, 2.0);
        assert!(extract("build 10-3", &[]).iter().all(|n| n.value >= 0.0));
    }

    #[test]
    fn scientific_notation_keeps_its_precision() {
        let n = one("an error of 1e-3 here");
        assert_eq!((n.value, n.decimals, n.scale), (1e-3, 0, Scale::Exponent(-3)));
        let n = one("about 2.5×10^3 requests");
        assert_eq!((n.text.as_str(), n.value, n.decimals), ("2.5×10^3", 2500.0, 1));
        assert_eq!(one("about 2.5e3 requests").key(), n.key());
        assert_eq!(one("rate 1.5E+6 ops").value, 1.5e6);
        let q = Quoted::from_number(&one("an error of 1.5e-3"), None).unwrap();
        assert!(q.matches(0.001_54, None));
        assert!(!q.matches(0.001_56, None));
        assert_eq!(q.display(0.001_56), "1.56e-3");
    }

    #[test]
    fn a_hash_with_an_e_is_not_scientific() {
        assert!(texts("commit 1e5f and 49b6d9e17").is_empty());
    }

    #[test]
    fn multipliers_scale_the_written_digits() {
        let n = one("over 10k requests");
        assert_eq!((n.text.as_str(), n.value, n.scale), ("10k", 10_000.0, Scale::Suffix('k')));
        let n = one("1.2M tokens");
        assert_eq!((n.value, n.decimals), (1.2e6, 1));
        let q = Quoted::from_number(&n, None).unwrap();
        assert!(q.matches(1_249_999.0, None));
        assert!(!q.matches(1_250_001.0, None));
        assert_eq!(q.display(1_234_567.0), "1.23M");
        let n = one("serves 10k tokens/s");
        assert_eq!((n.text.as_str(), n.unit.clone()), ("10k tokens/s", Some(Unit::Other("tokens/s".into()))));
        // A unit that starts with the multiplier's letter is the unit.
        let n = one("copies 1.2MB");
        assert_eq!((n.value, n.unit.clone(), n.scale), (1.2, Some(Unit::Mb), Scale::None));
        assert!(texts("a 4Kx card and 5Gbit").is_empty());
    }

    #[test]
    fn currency_comes_before_the_digits() {
        let n = one("it costs $1.2k a month");
        assert_eq!((n.text.as_str(), n.value, n.unit.clone()), ("$1.2k", 1200.0, Some(Unit::Currency("$"))));
        let q = Quoted::from_number(&n, None).unwrap();
        assert_eq!(q.shown(), "$1.2k");
        assert_eq!(q.display(1234.0), "$1.23k");
        assert_ne!(n.key(), one("it costs 1.2k a month").key());
        assert!(texts("US$5").is_empty());
    }

    /// Papers write p-values and fractions without their leading zero (`p = .001`): the value is
    /// read where a number can begin, with the decimals it shows, and keyed as `0.25 ms` is.
    #[test]
    fn a_leading_decimal_point_begins_a_number() {
        let read = |t: &str| extract(t, &[]).into_iter().map(|n| (n.text, n.value, n.decimals, n.unit)).collect::<Vec<_>>();
        assert_eq!(read("a mean of .25ms (p = .001)"), [(".25ms".to_string(), 0.25, 2, Some(Unit::Ms)), (".001".to_string(), 0.001, 3, None)]);
        // The comparator before `.05` makes it a bound, which its text begins with.
        assert_eq!(read("p<.05, (.5) and -.75 %"), [("<.05".to_string(), 0.05, 2, None), (".5".to_string(), 0.5, 1, None), ("-.75 %".to_string(), -0.75, 2, Some(Unit::Percent))]);
        assert_eq!(parse_one(".25 ms").unwrap().key(), parse_one("0.25 ms").unwrap().key());
    }

    /// A dot that is no decimal point stays out of a number: a sentence's end, a name's, an
    /// extension's, a version's or an ellipsis's.
    #[test]
    fn a_dot_inside_a_name_begins_no_number() {
        assert!(texts("version .NET, file .json, v.2, file.25, a .7z archive, wait...5 and 1.2.3").is_empty());
        assert_eq!(texts("It is 2.0. Then .5 ms."), ["2.0", ".5 ms"]);
    }

    /// Asymptotic notation states how a cost grows: the digits inside `O(1)` or `Θ(n^2)` are no
    /// quantity, while a call's argument (`f(1)`) and numbers after the bound still are.
    #[test]
    fn big_o_notation_holds_no_number() {
        assert!(texts("`O(1)` and `O(\\log n)`, O(n^2), Θ(1), Ω(1), ω(1), o(1), O(2^n), O(n^{1.5}) and O(n (log n)^2)").is_empty());
        assert_eq!(texts("f(1), IO(2), Go(3), a cost of O(n) in 4 ms and (O(1), 5 runs)"), ["1", "2", "3", "4 ms", "5"]);
        assert!(texts("an unclosed O(1").is_empty());
    }

    #[test]
    fn versions_and_dotted_identifiers_are_not_numbers() {
        assert!(texts("Python 3.11.2 on CUDA 12.4.1, and 1.x or 10.0.0.1").is_empty());
        assert_eq!(texts("It is 2.0. Then 3.5 µs."), ["2.0", "3.5 µs"]);
    }

    /// A date or a marked moment names a time; `12:16` alone may be a duration and stays.
    #[test]
    fn dates_and_moments_are_not_numbers() {
        assert!(texts("Run on 2020-10-13, at 2026-05-05T12:16:30Z, 2026-05-05 12:16 UTC and 2024-01-02T03:04:05+01:00.").is_empty());
        assert!(texts("At 12:16 UTC, 9:30 am, 4:05 p.m. and 23:59:59 CEST.").is_empty());
        assert_eq!(texts("It took 12:16 over 2023 runs, 16:9, and 2020-10 to 2021-03."), ["12", "16", "2023", "16", "9", "2020-10", "2021-03"]);
        assert_eq!(texts("(2020-10-13) and 3.5 ms."), ["3.5 ms"]);
    }

    /// A day or a year beside a month names a date; a number beside a word that only looks like
    /// one is a quantity.
    #[test]
    fn dates_with_month_names_are_not_numbers() {
        assert!(texts("On Jun 21, 2024, in January 2025, on 21 June 2024, in October, 2013 and on Sept. 3, 2020.").is_empty());
        assert_eq!(texts("It may 3 times; 40 Marches; June 32 runs; on Jun 21, 40 runs"), ["3", "40", "32", "40"]);
        // A month after a parenthesis, as a release table dates its rows (`Alonzo (Sep 2021)`).
        assert!(texts("Alonzo (Sep 2021), Type functions (June 2010) and [March 2011].").is_empty());
        assert_eq!(texts("(Sep2021) and (June 32 runs)"), ["32"]);
    }

    /// A year in parentheses after several authors named in the text (`et al.`, `A & B`, `A and
    /// B`) is cited, as a paper's prose cites (Deep Gradient Compression, arXiv 1712.01887); after
    /// one name, or after words that are no names, it stays a number.
    #[test]
    fn years_after_authors_named_in_the_text_are_cited() {
        assert!(texts("The schedule in Gross & Wilber (2016), the one in Mikolov et al. (2010) and Boehm and Weiser (1988).").is_empty());
        assert_eq!(texts("ResNet (2048) and Lamport (1976); batch and size (1024); Gross & Wilber (2016 runs)."), ["2048", "1976", "1024", "2016"]);
    }

    /// A year cited as a paper is, in brackets, after its authors, or as a reference's own
    /// sentence, names a publication; a year-sized count written otherwise is a quantity.
    #[test]
    fn cited_years_are_not_numbers() {
        assert!(texts("Lamport [1976] introduced it, as [Garner, 2007] and (Boehm et al., 1988; Queinnec, 1989) did.").is_empty());
        assert!(texts("Leslie Lamport. 1976. Garbage collection with multiple processes. Hans-Juergen Boehm and Mark Weiser. 1988. Garbage.").is_empty());
        assert!(texts("1988.").is_empty(), "the year's sentence alone");
        assert_eq!(texts("1988 runs."), ["1988"]);
        assert_eq!(texts("It took [1976 runs]; (2007 samples); the 2024. Then 1988 ms. We ran 2000. And [x, 2007]."), ["1976", "2007", "2024", "1988 ms", "2000", "2007"]);
    }

    /// A number after a released product's name, or after `version`, names a release; written
    /// otherwise, or with a unit, it is a quantity.
    #[test]
    fn releases_are_not_numbers() {
        assert!(texts("Python 3.8, Go 1.21, CUDA 12.4, Node 20, Java 17, .NET 8, Ubuntu 22.04, GCC 13.2 and version 2.").is_empty());
        assert_eq!(texts("Let it go 2 times; Python 3 ms; Pythons 3; python 3.8"), ["2", "3 ms", "3", "3.8"]);
        assert!(texts("Visual Studio 2010/2012, (Visual Studio 2017), .NET Core 3.1, SQL Server 2019 and Windows Server 2022.").is_empty());
        // NVIDIA's DGX OS, as DeepOps' guides name it, and two Linux distributions.
        assert!(texts("NVIDIA DGX OS 4.4 or greater, DGX OS 7, Rocky Linux 9 and Amazon Linux 2023.").is_empty());
        assert_eq!(texts("A studio 2 days; Studio 3; MyVisual Studio 4; .NET Core 5 ms"), ["2", "3", "4", "5 ms"]);
        // Language models are released by number too.
        assert!(texts("Llama 2, Llama 3.1, Gemma 2, Qwen 2.5 and Phi 3").is_empty());
    }

    /// Articles about serving language models size them in billions of parameters with a `B`
    /// glued to the digits: after the model's name it is part of the name, before parameters or
    /// a model it counts them, and anywhere else it is still a byte.
    #[test]
    fn a_language_model_s_size_is_a_name_or_a_count_of_parameters_and_never_bytes() {
        let read = |t: &str| extract(t, &[]).into_iter().map(|n| (n.text, n.value, n.scale, n.unit)).collect::<Vec<_>>();
        assert!(texts("On Llama 2 7B, Mistral 7B, Llama 3.1 405B, Qwen2.5 72B, Gemma 2 9B and Llama-3-70B-Instruct").is_empty());
        // TensorRT-LLM's performance overview names its models so (`LLaMA v3.1 70B`).
        assert!(texts("LLaMA v3.1 8B and LLaMA v3.1 70B").is_empty());
        let billions = |text: &str, value: f64| (text.to_string(), value, Scale::Suffix('B'), None);
        assert_eq!(
            read("a 70B model, a 13B-parameter model, 46.7B parameters, 1.5B params, two 8B LLMs and 2B tokens"),
            [billions("70B", 70e9), billions("13B", 13e9), billions("46.7B", 46.7e9), billions("1.5B", 1.5e9), billions("8B", 8e9), billions("2B", 2e9)]
        );
        // A byte elsewhere, as GPU articles size loads, lines and sectors.
        assert_eq!(
            read("128B loads fill a 64B line of 32B sectors"),
            [
                ("128B".to_string(), 128.0, Scale::None, Some(Unit::Bytes)),
                ("64B".to_string(), 64.0, Scale::None, Some(Unit::Bytes)),
                ("32B".to_string(), 32.0, Scale::None, Some(Unit::Bytes))
            ]
        );
        // A registry's `70B`, read alone, is bytes, but keys as the sentence's count does (the
        // same digits and letter), so it binds to it.
        assert_eq!(one("70B").unit, Some(Unit::Bytes));
        assert_eq!(one("a 70B model").key(), one("70B").key());
        // Neither a word that only begins like one nor a family's name inside another word
        // makes a size: `7B modelling`, `Llamas 2 7B`.
        assert_eq!(read("7B modelling"), [("7B".to_string(), 7.0, Scale::None, Some(Unit::Bytes))]);
        assert_eq!(texts("Llamas 2 7B"), ["2", "7B"]);
    }

    /// A number after `Table`, `Fig.` or `§` names what it refers to; with a unit, or with no
    /// referring word before it, it is a quantity.
    #[test]
    fn references_are_not_numbers() {
        assert!(texts("See Table 2, Figure 3a, Fig. 5, figs. 6-7, Section 4.2, § 3, §4, Eq. 7 and RFC 2119 (Appendix 1).").is_empty());
        assert_eq!(texts("The table 2 ms wide; line 3 % off; Table2 3; tables: 4"), ["2 ms", "3 %", "3", "4"]);
        assert_eq!(texts("Step -1 and step +2"), ["-1", "+2"]);
        assert!(texts("Steps 1, 2, and 3; Tables 4 and 5; Go 1.7 or 1.8; Figures 6 to 8.").is_empty());
        assert_eq!(texts("Table 2 and 3 ms; Table 2, then 3 runs; Table 2, 3 runs"), ["3 ms", "3", "3"]);
    }

    #[test]
    fn word_and_free_units() {
        let n = one("TTFT was 0.50 seconds");
        assert_eq!(n.unit, Some(Unit::S));
        assert_eq!(n.key(), one("TTFT was 0.50 s").key());
        assert_eq!(one("took 3 milliseconds").unit, Some(Unit::Ms));
        assert_eq!(one("took 1 second").unit, Some(Unit::S));
        let n = one("a rate of 185 tokens/s here");
        assert_eq!((n.text.as_str(), n.unit.clone()), ("185 tokens/s", Some(Unit::Other("tokens/s".into()))));
        assert_ne!(n.key(), one("a rate of 185 tok/s").key());
        assert_eq!(extract("3 and/or 4", &[]).iter().map(|n| n.unit.clone()).collect::<Vec<_>>(), [None, None]);
        assert_eq!(parse_one("185 tokens/s").unwrap().key(), n.key());
    }

    #[test]
    fn a_label_states_its_unit_in_parentheses() {
        assert_eq!(unit_in_label("TTFT (seconds)"), Some(Unit::S));
        assert_eq!(unit_in_label("Output Tokens Throughput (tokens/s)"), Some(Unit::Other("tokens/s".into())));
        assert_eq!(unit_in_label("Bandwidth (GB/s) "), Some(Unit::GbPerS));
        assert_eq!(unit_in_label("Requests (n = 150)"), None);
        assert_eq!(unit_in_label("Latency (P50)"), None);
        assert_eq!(unit_in_label("P99"), None);
    }

    /// `6.6 ± 0.2 ms` is a mean and its spread, both in milliseconds: the unit written once
    /// belongs to both, whichever side it is written on, and however many spaces surround
    /// the sign (hyperfine's terminal output pads it). A currency is never lent.
    #[test]
    fn a_value_and_its_spread_share_the_unit_written_once() {
        let units = |t: &str| extract(t, &[]).iter().map(|n| (n.text.clone(), n.unit.clone())).collect::<Vec<_>>();
        let ms = Some(Unit::Ms);
        assert_eq!(units("took 6.6 ± 0.2 ms"), [("6.6".to_string(), ms.clone()), ("0.2 ms".to_string(), ms.clone())]);
        assert_eq!(units("took 6.6 ms ± 0.2"), [("6.6 ms".to_string(), ms.clone()), ("0.2".to_string(), ms.clone())]);
        assert_eq!(units("43.4 ms ±   1.4 ms"), [("43.4 ms".to_string(), ms.clone()), ("1.4 ms".to_string(), ms.clone())]);
        assert_eq!(units("1.2 +/- 0.1 s")[0].1, Some(Unit::S));
        assert_eq!(units("1.33 ± 0.09"), [("1.33".to_string(), None), ("0.09".to_string(), None)]);
        assert_eq!(units("6.6 and 0.2 ms")[0].1, None);
        assert_eq!(units("$5 ± 2")[1].1, None);
        assert_eq!(units("1.0–1.7 ± 0.1 s")[0].1, None);
        assert_eq!(parse_one("6.6 ms").unwrap().key(), extract("took 6.6 ± 0.2 ms", &[])[0].key());
    }

    /// hyperfine's `--export-markdown` heads its columns `Mean [ms]`, `Min [ms]`, `Max [ms]`
    /// (or `[s]`, `[µs]`, by its `--time-unit`), and its `Relative` column states none.
    #[test]
    fn a_label_states_its_unit_in_square_brackets() {
        assert_eq!(unit_in_label("Mean [ms]"), Some(Unit::Ms));
        assert_eq!(unit_in_label("Max [s] "), Some(Unit::S));
        assert_eq!(unit_in_label("Min [µs]"), Some(Unit::Us));
        assert_eq!(unit_in_label("Relative"), None);
        assert_eq!(unit_in_label("Reference [1]"), None);
        assert_eq!(unit_in_label("Mean [ms)"), None);
        assert_eq!(unit_in_label("Mean (ms]"), None);
    }

    #[test]
    fn time_units_convert_and_other_pairs_do_not() {
        assert!((convert(0.5499, Some(&Unit::S), Some(&Unit::Ms)).unwrap() - 549.9).abs() < 1e-9);
        assert_eq!(convert(3.0, None, Some(&Unit::Ms)), Ok(3.0));
        assert_eq!(convert(3.0, Some(&Unit::Other("tokens/s".into())), Some(&Unit::Other("tokens/s".into()))), Ok(3.0));
        assert!(convert(3.0, Some(&Unit::Other("tokens/s".into())), Some(&Unit::S)).is_err());
        assert!(convert(3.0, Some(&Unit::S), Some(&Unit::Other("s/token".into()))).is_err());
    }

    #[test]
    fn a_declared_unit_is_known_or_free() {
        assert_eq!(Unit::declared("s"), Ok(Unit::S));
        assert_eq!(Unit::declared("µs"), Ok(Unit::Us));
        assert_eq!(Unit::declared("GB/s"), Ok(Unit::GbPerS));
        assert_eq!(Unit::declared("tokens/s"), Ok(Unit::Other("tokens/s".into())));
        assert!(Unit::declared(" ").is_err());
    }

    /// JMH's and Go's times per operation quoted in prose are times: `12.3 ns/op` converts to
    /// and from `0.0123 µs`, and `1.2 µs/op` is 1200 ns; their bytes per operation are bytes,
    /// which convert to KiB; a rate per operation or a throughput stays a free unit.
    #[test]
    fn a_time_per_operation_is_a_time() {
        let quoted = |t: &str| parse_one(t).unwrap().unit;
        assert_eq!(quoted("12.3 ns/op"), Some(Unit::Ns));
        assert_eq!(quoted("1.2 µs/op"), Some(Unit::Us));
        assert_eq!(quoted("1.2 us/op"), Some(Unit::Us));
        assert_eq!(quoted("3 ms/op"), Some(Unit::Ms));
        assert_eq!(quoted("0.5 s/op"), Some(Unit::S));
        assert_eq!(quoted("24.000 B/op"), Some(Unit::Bytes));
        assert_eq!(quoted("1283.859 ops/ms"), Some(Unit::Other("ops/ms".into())));
        assert!((convert(1234.0, Some(&Unit::Ns), quoted("1.2 µs/op").as_ref()).unwrap() - 1.234).abs() < 1e-12);
        assert_eq!(unit_in_label("Score (ns/op)"), Some(Unit::Ns));
    }

    #[test]
    fn a_scaled_boundary_is_a_tie_and_a_value_beside_it_is_not() {
        let q = |t: &str| Quoted::from_number(&parse_one(t).unwrap(), None).unwrap();
        for (lo, hi, c, step) in
            [("1.2M", "1.3M", 1_250_000.0, 100_000.0), ("10k", "11k", 10_500.0, 1000.0), ("1.5e-3", "1.6e-3", 0.001_55, 1e-4), ("-4.5 %", "-4.4 %", -4.45, 0.1)]
        {
            assert!(q(lo).matches(c, None) && q(hi).matches(c, None), "{lo} {hi} {c}");
            let beside = c + step * 1e-6;
            assert_ne!(q(lo).matches(beside, None), q(hi).matches(beside, None), "{lo} {hi} {beside}");
        }
    }

    /// Load generators and database benchmarks write thousands with an uppercase `K` (`QPS:
    /// 159K`, `10K records`), which was read as a name and dropped.
    #[test]
    fn an_uppercase_k_after_a_short_number_is_a_thousand() {
        let read = |t: &str| extract(t, &[]).into_iter().map(|n| (n.text, n.value, n.scale, n.unit)).collect::<Vec<_>>();
        assert_eq!(read("QPS:173K and 10K rows"), [("173K".to_string(), 173_000.0, Scale::Suffix('k'), None), ("10K".to_string(), 10_000.0, Scale::Suffix('k'), None)]);
        assert_eq!(read("peaks at 12.5K req/s"), [("12.5K req/s".to_string(), 12_500.0, Scale::Suffix('k'), Some(Unit::Other("req/s".into())))]);
        assert_eq!(one("10K").key(), one("10k").key(), "two spellings of one value");
        assert_ne!(one("10k").key(), one("10e3").key(), "the scale is part of the key");
        assert_eq!(one("<0.0001").key(), one("< 0.0001").key());
        assert_ne!(one("<0.0001").key(), one("0.0001").key());
        // A model's name and a power of two, 1024-based as often as not, stay names.
        assert!(texts("a 12900K with 4K pages and a 64K context").is_empty());
    }

    /// A hyphen glued to the digits after a space is a sign, as in a compressor's level after its
    /// release (`lzo 2.10 -1`); a range's dash is spaced on both sides or on neither.
    #[test]
    fn a_dash_spaced_only_before_signs_the_next_number() {
        let read = |t: &str| extract(t, &[]).into_iter().map(|n| (n.text, n.value, n.shape)).collect::<Vec<_>>();
        assert_eq!(read("level 2.10 -1"), [("2.10".to_string(), 2.1, Shape::Single), ("-1".to_string(), -1.0, Shape::Single)]);
        assert_eq!(read("from 5 -3"), [("5".to_string(), 5.0, Shape::Single), ("-3".to_string(), -3.0, Shape::Single)]);
        assert_eq!(one("1.0 - 1.7 ms").shape, Shape::Range { high: 1.7, high_decimals: 1 });
        assert_eq!(one("1.0-1.7 ms").shape, Shape::Range { high: 1.7, high_decimals: 1 });
    }

    /// A column headed by a unit alone (llama-bench's `t/s`, Go's `ns/op`) states the unit of
    /// its cells, as `Mean [ms]` does; a letter alone or a pair of words with a slash does not.
    #[test]
    fn a_header_that_is_a_unit_alone_states_it() {
        assert_eq!(unit_in_label("t/s"), Some(Unit::Other("t/s".into())));
        assert_eq!(unit_in_label(" ns/op "), Some(Unit::Ns));
        assert_eq!(unit_in_label("MB/s"), Some(Unit::MbPerS));
        assert_eq!(unit_in_label("ms"), Some(Unit::Ms));
        assert_eq!(unit_in_label("%"), Some(Unit::Percent));
        assert_eq!(unit_in_label("s"), None);
        assert_eq!(unit_in_label("B"), None);
        assert_eq!(unit_in_label("x"), None);
        assert_eq!(unit_in_label("Read/Write"), None);
        assert_eq!(unit_in_label("and/or"), None);
    }

    /// A tilde inside a package's version (`2ubuntu1~18.04`) joins its parts; it is no number.
    #[test]
    fn a_tilde_glued_to_a_word_joins_a_version() {
        assert!(texts("gcc 10.1.0-2ubuntu1~18.04 and clang 11.0.0-1~exp1~20200128.27").is_empty());
        assert_eq!(texts("about ~13GB, 1~2 ms, master~1"), ["13GB", "1", "2 ms", "1"]);
    }

    /// A power of two with a unit glued to it (`2^28ms`) is that many of the unit, as `2^28 ms`
    /// is; it was dropped as a word's.
    #[test]
    fn a_unit_glued_to_a_power_is_the_power_s() {
        let n = one("deadlines past 2^28ms round");
        assert_eq!((n.text.as_str(), n.value, n.unit), ("2^28ms", 268_435_456.0, Some(Unit::Ms)));
        assert!(texts("the 2^15th entry").is_empty());
    }

    /// Enhancement proposals and standards are numbered documents (`PEP 554`, `FIPS 204`), a
    /// licence a release (`Apache License 2.0`, `MPL 2.0`), and a licence's clauses part of its
    /// name (`BSD 2-Clause`): none of them is a quantity.
    #[test]
    fn proposals_standards_and_licences_name_no_quantity() {
        assert!(texts("PEP 554, JEP 452 and FIPS 204").is_empty());
        assert!(texts("under the Apache License 2.0, Apache 2.0, GPL 3 or MPL 2.0").is_empty());
        assert!(texts("a BSD 2-Clause or 3-clause BSD licence").is_empty());
        assert_eq!(texts("an 8-core CPU, license 2 of 4 seats"), ["8", "4"]);
    }

    /// A multiplier written as a word scales the digits as its letter does (`4 million files`
    /// is `4M`); the digits alone read 4, a millionth of what the sentence says.
    #[test]
    fn a_multiplier_written_as_a_word_scales_the_number() {
        let read = |t: &str| extract(t, &[]).into_iter().map(|n| (n.text, n.value, n.unit)).collect::<Vec<_>>();
        assert_eq!(read("some 4 million files"), [("4 million".to_string(), 4_000_000.0, None)]);
        assert_eq!(read("a 30 billion parameter model"), [("30 billion".to_string(), 30e9, None)]);
        assert_eq!(read("2.5 thousand req/s"), [("2.5 thousand req/s".to_string(), 2500.0, Some(Unit::Other("req/s".into())))]);
        assert_eq!(one("4 million").key(), one("4M").key());
        assert_eq!(texts("4 millions of them"), ["4"]);
    }

    /// The bound each number of `s` carries, by its text.
    fn bounds(s: &str) -> Vec<(String, Option<Bound>)> {
        extract(s, &[]).into_iter().map(|n| (n.text, n.bound)).collect()
    }

    fn bounded(text: &str, bound: Option<Bound>) -> (String, Option<Bound>) {
        (text.to_string(), bound)
    }

    /// Each comparator written as a symbol before a number makes it a bound, taken into its
    /// text: ASCII, Unicode, and spaces between it and the digits or none.
    #[test]
    fn a_comparator_before_a_number_makes_it_a_bound() {
        assert_eq!(bounds("<0.0001"), [bounded("<0.0001", Some(Bound::Below))]);
        assert_eq!(bounds("all p < 0.05"), [bounded("< 0.05", Some(Bound::Below))]);
        assert_eq!(bounds("p<.05"), [bounded("<.05", Some(Bound::Below))]);
        assert_eq!(bounds("latency ≤ 2 µs, ≥ 95 % of copy"), [bounded("≤ 2 µs", Some(Bound::AtMost)), bounded("≥ 95 %", Some(Bound::AtLeast))]);
        assert_eq!(bounds("a speed-up > 10×"), [bounded("> 10×", Some(Bound::Above))]);
        assert_eq!(bounds("t <= 3 ms and n >= 30"), [bounded("<= 3 ms", Some(Bound::AtMost)), bounded(">= 30", Some(Bound::AtLeast))]);
        assert_eq!(bounds("⩽ 4 and ⩾ 5"), [bounded("⩽ 4", Some(Bound::AtMost)), bounded("⩾ 5", Some(Bound::AtLeast))]);
        assert_eq!(bounds("(p < −0.5)"), [bounded("< −0.5", Some(Bound::Below))]);
        // A subscripted name, as LaTeX's math writes `$\hat{A}_{12}>0.5$`, is the subject.
        assert_eq!(bounds("Â_12>0.5 favours it"), [bounded(">0.5", Some(Bound::Above))]);
        assert_eq!(bounds("FDR<0.05"), [bounded("<0.05", Some(Bound::Below))]);
    }

    /// The spelling of a bound does not change its key, and its key is not the plain number's.
    #[test]
    fn a_bound_keys_apart_from_its_value_whatever_its_spelling() {
        assert_eq!(one("<0.0001").key(), "<0.0001");
        assert_ne!(one("<0.0001").key(), one("0.0001").key());
        assert_eq!(one("< 0.0001").key(), one("<0.0001").key());
        assert_eq!(one("<= 2 us").key(), one("≤2 µs").key());
        assert_eq!(one("⩾ 95%").key(), one(">=95 %").key());
        assert_eq!(parse_one("<0.0001").map(|n| n.key()), Ok("<0.0001".to_string()));
        let err = parse_one("p < 0.05").unwrap_err();
        assert!(err.contains("`< 0.05`"), "{err}");
    }

    /// Arrows, operators, shifts, redirects, tags and placeholders hold a `<` or a `>` that
    /// bounds nothing: the number after them is read as it was.
    #[test]
    fn arrows_operators_redirects_and_tags_bound_nothing() {
        for s in ["x -> 5", "x->5", "x => 5", "a=>5", "x <- 5", "x <-5", "a << 3", "a >> 3", "x >>= 3", "y |> 5", "gem ~> 2", "a <=> 5", "2>1", "1<2"] {
            assert!(extract(s, &[]).iter().all(|n| n.bound.is_none()), "{s}: {:?}", extract(s, &[]));
        }
        assert_eq!(bounds("Blocks 14,556,786 -> 14,556,795"), [bounded("14,556,786", None), bounded("14,556,795", None)]);
        assert_eq!(bounds("run it 2>&1 | tee 3 logs"), [bounded("2", None), bounded("1", None), bounded("3", None)]);
        assert_eq!(bounds("a<br>5 ms"), [bounded("5 ms", None)]);
        assert_eq!(bounds("</td>5 and <td align=\"right\">6 and <br />7"), [bounded("5", None), bounded("6", None), bounded("7", None)]);
        assert_eq!(bounds("the slot <5> and <0>"), [bounded("5", None), bounded("0", None)]);
        // A comparison of two names is no number at all; after it a bound is still read.
        assert_eq!(bounds("when a<b and p>0.1"), [bounded(">0.1", Some(Bound::Above))]);
    }

    /// A version constraint is a release, not a bound: glued to a package's name, its extras
    /// or another clause, or after a released product's name.
    #[test]
    fn version_constraints_bound_nothing() {
        for s in ["numpy>=1.20", "torch<2.0", "pkg[extra]>=1.0", "python_requires>=3.8", ">=1.20,<2.0", "Python >= 3.8", "version < 2"] {
            assert!(extract(s, &[]).iter().all(|n| n.bound.is_none()), "{s}: {:?}", extract(s, &[]));
        }
        assert_eq!(texts("numpy>=1.20,<2.0"), ["1.20", "2.0"]);
    }

    /// A comparison of two quoted numbers quotes both as values: the second is no bound.
    #[test]
    fn a_comparison_of_two_numbers_bounds_neither() {
        assert_eq!(bounds("5 ms < 7 ms"), [bounded("5 ms", None), bounded("7 ms", None)]);
        assert_eq!(bounds("took 1.5 ms more than 3 ms"), [bounded("1.5 ms", None), bounded("3 ms", None)]);
        // A comparator glued to the second number alone is its own, as a row read as one line
        // writes it.
        assert_eq!(bounds("zdt1 0.976 <0.0001"), [bounded("0.976", None), bounded("<0.0001", Some(Bound::Below))]);
    }

    /// The phrases read as bounds stay prose around their number, which keeps its text and key;
    /// those left out (`up to`, `under`, `over`) leave a value.
    #[test]
    fn bounds_in_words_keep_their_number_s_text() {
        assert_eq!(bounds("at least 1.5x faster"), [bounded("1.5x", Some(Bound::AtLeast))]);
        assert_eq!(one("at least 1.5x").key(), one("1.5x").key());
        assert_eq!(bounds("At most 2 µs; no more than 3 ms"), [bounded("2 µs", Some(Bound::AtMost)), bounded("3 ms", Some(Bound::AtMost))]);
        assert_eq!(
            bounds("less than 5 %, more than 10×, fewer than 3, no less than 4"),
            [bounded("5 %", Some(Bound::Below)), bounded("10×", Some(Bound::Above)), bounded("3", Some(Bound::Below)), bounded("4", Some(Bound::AtLeast))]
        );
        assert_eq!(bounds("up to 3× faster, under 5 ms, over 30 seeds, below 12 s"), [bounded("3×", None), bounded("5 ms", None), bounded("30", None), bounded("12 s", None)]);
        // A word that merely ends in the phrase is no phrase.
        assert_eq!(bounds("the atmost 4"), [bounded("4", None)]);
    }

    /// A bound holds on its side of its limit, exactly: no rounding widens it, a value a few
    /// units in the last place from the limit is the limit, and a tolerance moves it outwards.
    #[test]
    fn a_bound_matches_on_its_side_of_its_limit() {
        let q = |s: &str| Quoted::from_number(&one(s), None).unwrap();
        assert!(q("<0.0001").matches(3e-9, None));
        assert!(!q("<0.0001").matches(0.0123, None));
        assert!(!q("<0.05").matches(0.0504, None), "no half unit of rounding");
        assert!(!q("<0.05").matches(0.05, None));
        assert!(q("≤0.3").matches(0.1 + 0.2, None), "0.1 + 0.2 is 0.3");
        assert!(!q("<0.3").matches(0.1 + 0.2, None));
        assert!(q(">10×").matches(12.0, None) && !q(">10×").matches(9.99, None));
        assert!(q("≥ 95 %").matches(95.0, None) && !q("≥ 95 %").matches(94.9, None));
        assert!(q("< 2 ms").matches(2.05, Some(0.1)) && !q("< 2 ms").matches(2.1, Some(0.1)));
        assert!(q("≥ 95 %").matches(94.95, Some(0.1)));
        assert!(!q("<0.05").matches(f64::NAN, None) && !q("<0.05").matches(0.01, Some(f64::NAN)));
        // Of a band, the end on the bound's side is tried.
        assert!(q("<0.05").matches_within(0.04, 0.2, None) && !q("<0.05").matches_within(0.06, 0.2, None));
        assert!(q(">10×").matches_within(11.0, 3.0, None) && !q(">10×").matches_within(9.0, 3.0, None));
    }

    /// Reports write the bound before the quote, and the computed value with the places it
    /// takes to tell which side of the limit it lies on.
    #[test]
    fn a_bound_is_shown_with_its_comparator() {
        let q = |s: &str| Quoted::from_number(&one(s), None).unwrap();
        assert_eq!(q("<0.0001").shown(), "<0.0001");
        assert_eq!(q("<= 2 us").shown(), "≤2 µs");
        assert_eq!(q("at least 1.5x").shown(), "≥1.5×");
        assert_eq!(q("<0.0001").display(0.0123), "0.0123");
        assert_eq!(q("<0.0001").display(3e-9), "0.0000000030");
        assert_eq!(q("<0.05").display(0.05004), "0.05004");
        assert_eq!(q("≤ 2 µs").display(2.5), "2.50 µs");
    }
}
