//! LaTeX (a paper's, a report's or a thesis' `.tex` source) read into the same prose blocks as
//! Markdown, so that everything after the article model (binding, locks, checks, `init`,
//! `suggest`) reads a `.tex` manuscript as it reads a `.md` one.
//!
//! What is read is what the typeset page shows. The body between `\begin{document}` and
//! `\end{document}` is read where the source has them (the preamble only for the macros it
//! defines), else the whole file, as a chapter that a main file inputs is written. Paragraphs
//! end at blank lines and `\par`; sectioning commands (`\part` to `\subparagraph`, starred or
//! not) name sections, as `Abstract` does the abstract's sentences; list items, captions and
//! footnotes are prose blocks of their own. The `tabular` family (`tabular*`, `tabularx`,
//! `tabulary`, `longtable`, `xltabular`, `supertabular`, `NiceTabular`, tabularray's `tblr` and
//! `longtblr`) are tables, each cell one sentence with its row and column: the rows above the
//! first full rule under a row (`\midrule`, `\hline`) are the header, the first row where there
//! is no such rule, a `\multicolumn` spans its columns, and a `\multirow` in the first column
//! names each row it spans with its text and the row's own second cell (`A › 1024`), as a first
//! HTML cell that spans rows does (one counted upwards, `\multirow{-2}`, the rows above it); a
//! row of one cell across the table names the rows under it (`A100 › gemm`), or above the header
//! titles it; a table whose rules part groups of a `\multirow` with values in its first rows has
//! no header; under a rule below every row, a header row spanning some columns takes the row
//! under it as header too; a unit in the caption of the float around a table (or of a
//! longtable, or a `\captionof` beside it) applies to its cells as an enclosing heading's would.
//!
//! Inline, the reader does what TeX does to the text: comments are dropped, `~` and `\,` are
//! spaces, `--` and `---` dashes, ``` `` ``` and `''` quotes, accents and symbols (`\times`,
//! `\pm`, `\mu`, `\%`) their characters, math (`$2.3\times$`, `$10^{-3}$`) its symbols with
//! `^` kept, siunitx's quantities (`\SI{4.2}{\micro\second}`, `\qty`, `\num`, `\si`, `\unit`,
//! ranges and lists) as siunitx prints them, `\texttt`, `\verb` and `\url` as inline code (in
//! the sentence, giving no number), `\href`'s text as a link's, a comma in math as the list
//! separator TeX spaces it as (a braced one, `50{,}000`, as a thousands separator), and macros
//! the document defines (`\newcommand{\sys}{FlashFoo}`, `\newcommand{\speedup}[1]{#1$\times$}`,
//! `\def\pair#1#2{...}`) expanded where they are used, each `#1` read as its argument.
//! siunitx's rounding (`round-mode`, `round-precision`, `round-pad`, in `\sisetup` or a
//! command's options) gives the digits the page prints, and a compact uncertainty (`12.3(4)`)
//! reads as its separate form, `12.3 ± 0.4`. xparse's `\NewDocumentCommand` and
//! `\DeclareMathOperator` define macros as `\newcommand` does, `\let` copies one, and a
//! document's own definition of a symbol (`\def\approx`) is the one shown; in math a command
//! the reader does not know keeps the digits around it apart. A reference or a citation shows
//! its key as inline code (a macro's `#1` in it replaced by the argument: `tab:x`,
//! `[knuth84]`), since the number the page shows comes from another run of LaTeX; labels print
//! nothing. Conditionals show the branch the page shows where the reader can decide the test:
//! `\iftrue`, `\iffalse`, `\if` of two characters (`\if 0 `, which switches text off) and
//! the switches `\newif`, etoolbox and ifthen define, as the preamble and then the body set
//! them; both branches of any other (`\ifnum`, `\ifx`, whose tested tokens are not text). A
//! title and keywords are blocks of their own. Package setup (`\tikzset`, `\sisetup`), register
//! assignments (`\tabcolsep=3pt`), authors, margin notes (`\todo`) and the front matter of the
//! ACM, IEEE and LNCS classes (`\acmDOI`, `CCSXML`, affiliations, ORCIDs, `\institute`) print
//! nothing. Code environments (`verbatim`, `lstlisting`, `minted`, `Verbatim`, and those a
//! document defines as code) and `\mintinline` are read only for the harness console
//! tables they may hold ([`super::console`]); displayed math, pictures, pseudo-code (of an
//! `algorithm` float only the caption), the bibliography and switched-off text are not read.
//! The files `\input`, `\include`, `\subfile` and the import package bring in are spliced in
//! before this reader runs ([`super::inputs`]), so it reads one text; a command left here
//! could not be read and prints nothing. A package named by its path (the paper's own), a
//! macro used as `\sys{}` that no definition read gives, a brace or an environment left open
//! and macro expansion past its bound say so as a [`super::Warning`], since the page shows text
//! the manuscript does not hold.
//!
//! Every byte of a sentence maps to its byte in the source: text as written byte for byte, and
//! a character LaTeX makes of a command (`\times`, `\SI`'s unit, a macro's expansion) to the
//! command.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::{Block, SplitCell, console_blocks, enter_heading, lay_out_table};

/// The prose blocks of LaTeX `source`, the images it shows, and what it holds that was not
/// read, each at its source bytes.
pub(super) fn prose_blocks(source: &str) -> (Vec<Block>, Vec<String>, Vec<(Range<usize>, String)>) {
    let mut reader = Reader {
        source,
        bytes: source.as_bytes(),
        section: Vec::new(),
        levels: Vec::new(),
        blocks: Vec::new(),
        images: Vec::new(),
        warnings: Vec::new(),
        n_tables: 0,
        para: None,
        notes: Vec::new(),
        caption: None,
        label: None,
        macros: HashMap::new(),
        units: HashMap::new(),
        expanded: 0,
        depth: 0,
        expanding: Vec::new(),
        flags: HashMap::new(),
        code_environments: Vec::new(),
        conditionals: Vec::new(),
        preamble_end: 0,
        budget_warned: false,
        rounding: Rounding::default(),
        local_rounding: None,
        undefined: HashSet::new(),
    };
    let body = match reader.find_from(0, source.len(), "\\begin{document}") {
        Some(begin) => {
            let start = begin + "\\begin{document}".len();
            reader.preamble_end = begin;
            start..reader.find_from(start, source.len(), "\\end{document}").unwrap_or(source.len())
        }
        None => 0..source.len(),
    };
    // Macros are defined in the preamble, mostly, but a paper may define one after
    // `\begin{document}`: every definition is read, the last of a name winning.
    reader.definitions(0..source.len());
    reader.body(body.clone());
    reader.end_paragraph(body.end);
    (reader.blocks, reader.images, reader.warnings)
}

struct Reader<'a> {
    source: &'a str,
    bytes: &'a [u8],
    section: Vec<String>,
    levels: Vec<usize>,
    blocks: Vec<Block>,
    images: Vec<String>,
    warnings: Vec<(Range<usize>, String)>,
    n_tables: usize,
    /// The paragraph being read, until a blank line or a block ends it.
    para: Option<Block>,
    /// Footnotes met in the paragraph or table being read: each is a block of its own, read
    /// when the text around it ends, since a reader reads it apart from the sentence it marks.
    notes: Vec<Range<usize>>,
    /// The caption of the float whose body is being read: a unit in it applies to the cells of
    /// the table the float holds as an enclosing heading's would.
    caption: Option<String>,
    /// The `\label` of the float whose body is being read: the name of the table it holds,
    /// which a registry's cell may give instead of the table's place.
    label: Option<String>,
    /// Macros the document defines (`\newcommand{\sys}{FlashFoo}`,
    /// `\newcommand{\speedup}[1]{#1$\times$}`), by name.
    macros: HashMap<String, Macro>,
    /// Units defined for siunitx (`\DeclareSIUnit\flop{FLOP}`), by name: their symbols.
    units: HashMap<String, Range<usize>>,
    /// How many bytes macro bodies and arguments have given so far, each reading counted one
    /// more: a bound, since macros that use one another, or an argument read twice at every
    /// level (`\newcommand{\d}[1]{#1#1}`), can make text exponential in the source's length.
    expanded: usize,
    /// How deep the reading of arguments, groups and expansions is nested: a bound, since a
    /// hostile source can nest braces or macros deeper than a stack holds.
    depth: usize,
    /// The macros being expanded, innermost last, each with its arguments: a `#1` in a body
    /// reads the first of the innermost's.
    expanding: Vec<(String, Vec<Range<usize>>)>,
    /// The switches `\newif` defines (`\newif\ifdraft` is `draft`), each with its state: false
    /// at its definition, then as the preamble's `\drafttrue` and `\draftfalse` set it, and
    /// as the body's do where they are read.
    flags: HashMap<String, bool>,
    /// Environments the document defines as code listings (`\lstnewenvironment{code}`), read as
    /// `lstlisting` is.
    code_environments: Vec<String>,
    /// The conditionals being read, innermost last: `true` where the reader decided the test
    /// (`\iftrue`, a switch, `\if 0 `), so that an `\else` met in its branch skips to its
    /// `\fi`; `false` where it cannot (`\ifnum`), both branches being read.
    conditionals: Vec<bool>,
    /// Where the preamble ends (`\begin{document}`), 0 where there is none.
    preamble_end: usize,
    /// Whether the bound on macro expansion was met and said so: it is said once.
    budget_warned: bool,
    /// siunitx's rounding as `\sisetup` sets it, the preamble's and then the body's in order.
    rounding: Rounding,
    /// The rounding of the siunitx command being read, where its options set one.
    local_rounding: Option<Rounding>,
    /// The macros used as `\name{}` that no definition read gives, each warned once.
    undefined: HashSet<String>,
}

/// How siunitx rounds the numbers it prints (`round-mode`, `round-precision`, `round-pad`):
/// not at all by default, as siunitx 3 does; the page shows the rounded digits, so a claim
/// is read at the precision they give.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rounding {
    /// `None` for `round-mode = none`; `Some(true)` for significant figures, `Some(false)`
    /// for decimal places.
    figures: Option<bool>,
    precision: u32,
    pad: bool,
}

impl Default for Rounding {
    fn default() -> Rounding {
        Rounding { figures: None, precision: 2, pad: true }
    }
}

impl Rounding {
    /// This rounding with the keys of siunitx's options `options` (`round-mode=places,
    /// round-precision=1`) applied; keys of anything else are left alone.
    fn with(mut self, options: &str) -> Rounding {
        for pair in options.split(',') {
            let Some((key, value)) = pair.split_once('=') else { continue };
            let value = value.trim().trim_matches(['{', '}']).trim();
            match key.trim() {
                "round-mode" => {
                    self.figures = match value {
                        "places" => Some(false),
                        "figures" => Some(true),
                        _ => None,
                    }
                }
                "round-precision" => self.precision = value.parse().unwrap_or(self.precision).min(30),
                "round-pad" => self.pad = value != "false",
                _ => {}
            }
        }
        self
    }

    /// `written` (digits with a decimal point, and a sign) rounded as siunitx prints it,
    /// halves away from zero; `None` where it rounds nothing or is no plain decimal.
    fn round(&self, written: &str) -> Option<String> {
        let figures = self.figures?;
        let (sign, digits) = match written.strip_prefix(['-', '+']) {
            Some(rest) => (&written[..1], rest),
            None => ("", written),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() && fraction.is_empty() || !whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let all: Vec<u8> = whole.bytes().chain(fraction.bytes()).map(|b| b - b'0').collect();
        let point = whole.len() as i64;
        // The places to keep after the point: for figures, counted from the first digit that
        // is not zero.
        let places: i64 = if figures {
            let first = all.iter().position(|&d| d != 0).unwrap_or(all.len()) as i64;
            first + i64::from(self.precision) - point
        } else {
            i64::from(self.precision)
        };
        let mut places = places;
        // Without padding, places the number does not write stay unwritten (`7.1` stays `7.1`
        // at two places).
        if !self.pad && point + places > all.len() as i64 {
            places = all.len() as i64 - point;
        }
        let keep = (point + places).max(0) as usize;
        let mut kept: Vec<u8> = (0..keep).map(|i| all.get(i).copied().unwrap_or(0)).collect();
        if all.get(keep).is_some_and(|&d| d >= 5) {
            let mut i = kept.len();
            loop {
                if i == 0 {
                    kept.insert(0, 1);
                    // A carry into a new first digit (`9.96` to `10`) is one figure more,
                    // which significant figures give back from the end.
                    if figures && places > 0 {
                        kept.pop();
                        places -= 1;
                    }
                    break;
                }
                i -= 1;
                if kept[i] == 9 {
                    kept[i] = 0;
                } else {
                    kept[i] += 1;
                    break;
                }
            }
        }
        // Places to the left of the point (figures of a large number) are zeros.
        let shown_places = places.max(0) as usize;
        let mut text: String = kept.iter().map(|d| char::from(b'0' + d)).collect();
        if places < 0 {
            text.extend(std::iter::repeat_n('0', (-places) as usize));
        }
        let (int_part, frac_part) = text.split_at(text.len().saturating_sub(shown_places));
        let int_part = int_part.trim_start_matches('0');
        let int_part = if int_part.is_empty() { "0" } else { int_part };
        Some(if frac_part.is_empty() { format!("{sign}{int_part}") } else { format!("{sign}{int_part}.{frac_part}") })
    }
}

/// TeX's conditionals whose test this reader does not evaluate (beside `\if`, `\iftrue`,
/// `\iffalse` and the switches a document defines): both their branches are read.
const UNDECIDED_CONDITIONALS: &[&str] = &[
    "ifx",
    "ifnum",
    "ifdim",
    "ifodd",
    "ifcase",
    "ifdefined",
    "ifcsname",
    "ifcat",
    "ifvmode",
    "ifhmode",
    "ifmmode",
    "ifinner",
    "ifvoid",
    "ifhbox",
    "ifvbox",
    "ifeof",
    "ifincsname",
    "ifpdf",
    "ifxetex",
    "ifluatex",
    "ifpdftex",
    "iftex",
];

/// A macro the document defines: its body, how many arguments it takes, and the default of its
/// first where that one is optional (`\newcommand{\x}[2][ms]{#2 #1}`).
#[derive(Debug, Clone)]
struct Macro {
    body: Range<usize>,
    arguments: usize,
    default: Option<Range<usize>>,
}

/// Bytes that macro bodies and arguments may give, at most, over a whole document.
const MAX_EXPANDED: usize = 1 << 20;
/// Nesting, at most, of groups, arguments and expansions read as text.
const MAX_DEPTH: usize = 64;
/// The longest optional argument (`[...]`) and `\verb` text looked for, in bytes.
const MAX_OPTIONAL: usize = 4096;

/// Sectioning commands, with their levels.
const SECTIONS: &[(&str, usize)] = &[("part", 1), ("chapter", 2), ("section", 3), ("subsection", 4), ("subsubsection", 5), ("paragraph", 6), ("subparagraph", 7)];

/// The environments of the `tabular` family, each with the arguments that come before its
/// rows (`o` an optional one, `m` a mandatory one).
const TABULARS: &[(&str, &str)] = &[
    ("tabular", "om"),
    ("tabular*", "mom"),
    ("tabularx", "mom"),
    ("tabulary", "mom"),
    ("xltabular", "mom"),
    ("longtable", "om"),
    ("longtable*", "om"),
    ("supertabular", "om"),
    ("supertabular*", "mom"),
    ("NiceTabular", "omo"),
    ("NiceTabular*", "momo"),
    ("tabu", "m"),
    ("longtabu", "m"),
    ("tblr", "om"),
    ("longtblr", "om"),
    ("talltblr", "om"),
];

/// Environments whose body is code or program output, read only for console tables, with the
/// arguments that come before it.
const CODE_ENVIRONMENTS: &[(&str, &str)] = &[
    ("verbatim", ""),
    ("verbatim*", ""),
    ("Verbatim", "o"),
    ("BVerbatim", "o"),
    ("LVerbatim", "o"),
    ("spverbatim", ""),
    ("lstlisting", "o"),
    ("minted", "om"),
    ("alltt", ""),
    ("semiverbatim", ""),
    ("comment", ""),
    ("CCSXML", ""),
    ("filecontents", "om"),
    ("filecontents*", "om"),
];

/// Environments whose body a reader does not read as prose: displayed math, pictures and
/// plots, pseudo-code and the bibliography.
const SKIPPED_ENVIRONMENTS: &[&str] = &[
    "equation",
    "equation*",
    "align",
    "align*",
    "alignat",
    "alignat*",
    "flalign",
    "flalign*",
    "gather",
    "gather*",
    "multline",
    "multline*",
    "eqnarray",
    "eqnarray*",
    "displaymath",
    "math",
    "split",
    "array",
    "tikzpicture",
    "pgfpicture",
    "picture",
    "axis",
    "semilogxaxis",
    "semilogyaxis",
    "loglogaxis",
    "algorithmic",
    "algorithmic*",
    "algorithmicx",
    "thebibliography",
    "tabbing",
];

/// Environments whose optional and mandatory arguments come before a body read as prose.
const ENVIRONMENT_ARGUMENTS: &[(&str, &str)] = &[
    ("minipage", "ooom"),
    ("wrapfigure", "omom"),
    ("wraptable", "omom"),
    ("subfigure", "om"),
    ("subtable", "om"),
    ("adjustbox", "m"),
    ("tcolorbox", "o"),
    ("multicols", "mo"),
    ("multicols*", "mo"),
    ("threeparttable", "o"),
    ("tablenotes", "o"),
    ("enumerate", "o"),
    ("itemize", "o"),
    ("description", "o"),
];

/// Commands that show their arguments as text, or not: `o` an optional argument skipped, `m` a
/// mandatory one skipped, `T` one read as text, `M` one read as math, `C` one read as inline code, `U` a URL shown as
/// code, `u` a URL skipped, `L` a link's text, `N` a note (a block of its own), `^` a
/// superscript read as text after a caret, `p` a parenthesised one skipped (`\cmidrule(lr)`), `K` a label's key and `B`
/// citation keys (`[knuth84, lamport94]`) shown as code. The page shows a number from another
/// run of LaTeX where a key stands; the key names the same thing, gives no number, and keeps a
/// table row labelled by a citation apart from the next.
const COMMANDS: &[(&str, &str)] = &[
    ("emph", "T"),
    ("textbf", "T"),
    ("textit", "T"),
    ("textsl", "T"),
    ("textsc", "T"),
    ("textup", "T"),
    ("textmd", "T"),
    ("textnormal", "T"),
    ("textrm", "T"),
    ("textsf", "T"),
    ("underline", "T"),
    ("uline", "T"),
    ("uuline", "T"),
    ("uwave", "T"),
    ("sout", "T"),
    ("xout", "T"),
    ("hl", "T"),
    ("mbox", "T"),
    ("hbox", "T"),
    ("fbox", "T"),
    ("framebox", "ooT"),
    ("makebox", "ooT"),
    ("text", "T"),
    ("textup", "T"),
    ("mathrm", "T"),
    ("mathbf", "T"),
    ("mathit", "T"),
    ("mathsf", "T"),
    ("mathcal", "T"),
    ("mathbb", "T"),
    ("mathfrak", "T"),
    ("mathnormal", "T"),
    ("boldsymbol", "T"),
    ("bm", "T"),
    ("pmb", "T"),
    ("operatorname", "T"),
    ("ensuremath", "M"),
    ("MakeUppercase", "T"),
    ("MakeLowercase", "T"),
    ("NoCaseChange", "T"),
    ("textsuperscript", "^"),
    ("textsubscript", "T"),
    ("makecell", "oT"),
    ("thead", "oT"),
    ("shortstack", "oT"),
    ("parbox", "ooomT"),
    ("textcolor", "omT"),
    ("colorbox", "omT"),
    ("fcolorbox", "ommT"),
    ("resizebox", "smmT"),
    ("scalebox", "moT"),
    ("rotatebox", "omT"),
    ("raisebox", "mooT"),
    ("adjustbox", "mT"),
    ("smash", "oT"),
    ("ac", "T"),
    ("acs", "T"),
    ("acl", "T"),
    ("acf", "T"),
    ("acp", "T"),
    ("enquote", "T"),
    ("texttt", "C"),
    ("mathtt", "C"),
    ("code", "C"),
    ("url", "U"),
    ("nolinkurl", "U"),
    ("path", "U"),
    ("href", "uL"),
    ("hyperref", "oL"),
    ("footnote", "oN"),
    ("footnotetext", "oN"),
    ("tablefootnote", "N"),
    ("thanks", "N"),
    ("marginpar", "oN"),
    ("sidenote", "oN"),
    ("label", "m"),
    ("ref", "K"),
    ("eqref", "K"),
    ("autoref", "K"),
    ("cref", "K"),
    ("Cref", "K"),
    ("crefrange", "KK"),
    ("pageref", "K"),
    ("nameref", "K"),
    ("vref", "K"),
    ("cite", "ooB"),
    ("citep", "ooB"),
    ("citet", "ooB"),
    ("citealp", "ooB"),
    ("citealt", "ooB"),
    ("citeauthor", "oom"),
    ("citeyear", "ooB"),
    ("citeyearpar", "ooB"),
    ("parencite", "ooB"),
    ("textcite", "ooB"),
    ("autocite", "ooB"),
    ("footcite", "ooB"),
    ("nocite", "m"),
    ("tnote", "m"),
    ("footnotemark", "o"),
    ("index", "m"),
    ("glossary", "m"),
    ("vspace", "m"),
    ("hspace", "m"),
    ("addvspace", "m"),
    ("setlength", "mm"),
    ("addtolength", "mm"),
    ("setcounter", "mm"),
    ("addtocounter", "mm"),
    ("stepcounter", "m"),
    ("refstepcounter", "m"),
    ("color", "om"),
    ("pagecolor", "om"),
    ("cellcolor", "om"),
    ("rowcolor", "om"),
    ("columncolor", "om"),
    ("arrayrulecolor", "om"),
    ("rowcolors", "ommm"),
    ("hypersetup", "m"),
    ("bibliographystyle", "m"),
    ("bibliography", "m"),
    ("addbibresource", "om"),
    ("printbibliography", "o"),
    ("graphicspath", "m"),
    ("phantom", "m"),
    ("hphantom", "m"),
    ("vphantom", "m"),
    ("sisetup", "m"),
    ("pagestyle", "m"),
    ("thispagestyle", "m"),
    ("pagenumbering", "m"),
    ("linespread", "m"),
    ("fontsize", "mm"),
    ("usepackage", "om"),
    ("documentclass", "om"),
    ("newcounter", "mo"),
    ("newlength", "m"),
    ("newcommand", "smoom"),
    ("renewcommand", "smoom"),
    ("providecommand", "smoom"),
    ("DeclareRobustCommand", "smoom"),
    ("newenvironment", "smoomm"),
    ("renewenvironment", "smoomm"),
    ("DeclareSIUnit", "omm"),
    ("DeclareMathOperator", "smm"),
    ("newtheorem", "momo"),
    ("definecolor", "mmm"),
    ("captionsetup", "om"),
    ("hyphenation", "m"),
    ("bibitem", "om"),
    ("cmidrule", "opm"),
    ("cline", "m"),
    ("cdashline", "m"),
    ("Xhline", "m"),
    ("hhline", "m"),
    ("specialrule", "mmm"),
    ("addlinespace", "o"),
    ("noalign", "m"),
    ("includepdf", "om"),
    ("titlespacing", "smmmm"),
    ("titleformat", "smommo"),
    ("lstset", "m"),
    ("setminted", "om"),
    ("newpage", ""),
    // The title block's own commands: a date is no claim, and the title is set where
    // `\title` stands.
    ("date", "m"),
    ("today", ""),
    ("maketitle", ""),
    // Notes to the authors in the margin, not the text.
    ("todo", "om"),
    ("missingfigure", "om"),
    // Who wrote the paper and where they work: names and addresses, no claim.
    ("author", "om"),
    ("numberofauthors", "m"),
    ("alignauthor", ""),
    ("institute", "m"),
    ("inst", "m"),
    ("pgfplotstableread", "mm"),
    // Setup of packages: keys and values, never text.
    ("tikzset", "m"),
    ("pgfplotsset", "m"),
    ("pgfplotstableset", "m"),
    ("usetikzlibrary", "m"),
    ("usepgfplotslibrary", "m"),
    ("tikzumlset", "m"),
    ("lstdefinestyle", "mm"),
    ("lstdefinelanguage", "omom"),
    ("lstnewenvironment", "moomm"),
    ("DefineVerbatimEnvironment", "mmm"),
    ("newminted", "omm"),
    ("newcolumntype", "mom"),
    ("NewDocumentCommand", "mmm"),
    ("RenewDocumentCommand", "mmm"),
    ("ProvideDocumentCommand", "mmm"),
    ("DeclareDocumentCommand", "mmm"),
    ("newif", "m"),
    // The ACM and IEEE classes' front matter: metadata the title block or the first page's
    // footer prints (a year, a DOI, a price, an ORCID, a postcode), no claim of the paper.
    ("acmYear", "m"),
    ("copyrightyear", "m"),
    ("setcopyright", "m"),
    ("acmDOI", "m"),
    ("acmISBN", "m"),
    ("acmPrice", "m"),
    ("acmConference", "ommm"),
    ("acmBooktitle", "m"),
    ("acmJournal", "m"),
    ("acmVolume", "m"),
    ("acmNumber", "m"),
    ("acmArticle", "m"),
    ("acmArticleSeq", "m"),
    ("acmMonth", "m"),
    ("acmYearPublished", "m"),
    ("acmSubmissionID", "m"),
    ("acmBadge", "om"),
    ("orcid", "m"),
    ("affiliation", "om"),
    ("institution", "m"),
    ("department", "om"),
    ("streetaddress", "m"),
    ("city", "m"),
    ("state", "m"),
    ("country", "m"),
    ("postcode", "m"),
    ("email", "om"),
    ("additionalaffiliation", "m"),
    ("authorsaddress", "m"),
    ("authornote", "m"),
    ("authornotemark", "o"),
    ("ccsdesc", "om"),
    ("received", "om"),
    ("settopmatter", "m"),
    ("conferenceinfo", "mm"),
    ("CopyrightYear", "m"),
    ("crdata", "m"),
    ("copyrightetc", "m"),
    ("isbn", "m"),
    ("doi", "m"),
    ("IEEEauthorblockA", "m"),
    ("IEEEoverridecommandlockouts", ""),
    ("IEEEpubid", "m"),
    ("rule", "omm"),
    ("vrule", ""),
    ("hrule", ""),
    ("strut", ""),
];

/// Commands that print one character or a few, in text or in math.
const SYMBOLS: &[(&str, &str)] = &[
    ("div", "÷"),
    ("land", "∧"),
    ("lor", "∨"),
    ("wedge", "∧"),
    ("vee", "∨"),
    ("neg", "¬"),
    ("setminus", "∖"),
    ("colon", ":"),
    ("ast", "∗"),
    ("star", "⋆"),
    ("circ", "∘"),
    ("equiv", "≡"),
    ("mapsto", "↦"),
    ("bmod", " mod "),
    ("cap", "∩"),
    ("cup", "∪"),
    ("notin", "∉"),
    ("subset", "⊂"),
    ("subseteq", "⊆"),
    ("forall", "∀"),
    ("exists", "∃"),
    ("times", "×"),
    ("texttimes", "×"),
    ("pm", "±"),
    ("textpm", "±"),
    ("mp", "∓"),
    ("mu", "µ"),
    ("textmu", "µ"),
    ("upmu", "µ"),
    ("micro", "µ"),
    ("approx", "≈"),
    ("sim", "∼"),
    ("textasciitilde", "~"),
    ("simeq", "≃"),
    ("le", "≤"),
    ("leq", "≤"),
    ("leqslant", "≤"),
    ("ge", "≥"),
    ("geq", "≥"),
    ("geqslant", "≥"),
    ("ll", "≪"),
    ("gg", "≫"),
    ("neq", "≠"),
    ("ne", "≠"),
    ("cdot", "·"),
    ("textperiodcentered", "·"),
    ("cdots", "⋯"),
    ("ldots", "…"),
    ("dots", "…"),
    ("textellipsis", "…"),
    ("to", "→"),
    ("rightarrow", "→"),
    ("leftarrow", "←"),
    ("Rightarrow", "⇒"),
    ("uparrow", "↑"),
    ("downarrow", "↓"),
    ("infty", "∞"),
    ("degree", "°"),
    ("textdegree", "°"),
    ("textless", "<"),
    ("textgreater", ">"),
    ("textasciicircum", "^"),
    ("textbackslash", "\\"),
    ("textbar", "|"),
    ("textbullet", "•"),
    ("textendash", "–"),
    ("textemdash", "—"),
    ("textquoteleft", "‘"),
    ("textquoteright", "’"),
    ("textquotedblleft", "“"),
    ("textquotedblright", "”"),
    ("textdollar", "$"),
    ("textunderscore", "_"),
    ("textbraceleft", "{"),
    ("textbraceright", "}"),
    ("lbrace", "{"),
    ("rbrace", "}"),
    ("vert", "|"),
    ("lvert", "|"),
    ("rvert", "|"),
    ("mid", "|"),
    ("langle", "⟨"),
    ("rangle", "⟩"),
    ("lfloor", "⌊"),
    ("rfloor", "⌋"),
    ("lceil", "⌈"),
    ("rceil", "⌉"),
    ("sum", "∑"),
    ("prod", "∏"),
    ("in", "∈"),
    ("propto", "∝"),
    ("partial", "∂"),
    ("nabla", "∇"),
    ("S", "§"),
    ("P", "¶"),
    ("copyright", "©"),
    ("textcopyright", "©"),
    ("textregistered", "®"),
    ("texttrademark", "™"),
    ("dag", "†"),
    ("dagger", "†"),
    ("ddag", "‡"),
    ("ddagger", "‡"),
    ("checkmark", "✓"),
    ("euro", "€"),
    ("texteuro", "€"),
    ("pounds", "£"),
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ε"),
    ("varepsilon", "ε"),
    ("eta", "η"),
    ("theta", "θ"),
    ("kappa", "κ"),
    ("lambda", "λ"),
    ("nu", "ν"),
    ("pi", "π"),
    ("rho", "ρ"),
    ("sigma", "σ"),
    ("tau", "τ"),
    ("phi", "φ"),
    ("varphi", "φ"),
    ("chi", "χ"),
    ("psi", "ψ"),
    ("omega", "ω"),
    ("Gamma", "Γ"),
    ("Delta", "Δ"),
    ("Theta", "Θ"),
    ("Lambda", "Λ"),
    ("Pi", "Π"),
    ("Sigma", "Σ"),
    ("Phi", "Φ"),
    ("Omega", "Ω"),
    ("ss", "ß"),
    ("o", "ø"),
    ("O", "Ø"),
    ("ae", "æ"),
    ("AE", "Æ"),
    ("oe", "œ"),
    ("OE", "Œ"),
    ("aa", "å"),
    ("AA", "Å"),
    ("l", "ł"),
    ("L", "Ł"),
    ("i", "ı"),
    ("LaTeX", "LaTeX"),
    ("TeX", "TeX"),
    ("log", "log"),
    ("ln", "ln"),
    ("exp", "exp"),
    ("max", "max"),
    ("min", "min"),
    ("arg", "arg"),
    ("lim", "lim"),
    ("quad", " "),
    ("qquad", " "),
    ("enspace", " "),
    ("enskip", " "),
    ("space", " "),
    ("nobreakspace", "\u{a0}"),
    ("thinspace", "\u{2009}"),
    ("medspace", " "),
    ("thickspace", " "),
    ("hfill", " "),
    ("linebreak", " "),
    ("newline", " "),
    ("tabularnewline", " "),
];

/// siunitx's prefixes, by command.
const SI_PREFIXES: &[(&str, &str)] = &[
    ("yocto", "y"),
    ("zepto", "z"),
    ("atto", "a"),
    ("femto", "f"),
    ("pico", "p"),
    ("nano", "n"),
    ("micro", "µ"),
    ("milli", "m"),
    ("centi", "c"),
    ("deci", "d"),
    ("deca", "da"),
    ("deka", "da"),
    ("hecto", "h"),
    ("kilo", "k"),
    ("mega", "M"),
    ("giga", "G"),
    ("tera", "T"),
    ("peta", "P"),
    ("exa", "E"),
    ("zetta", "Z"),
    ("yotta", "Y"),
    ("kibi", "Ki"),
    ("mebi", "Mi"),
    ("gibi", "Gi"),
    ("tebi", "Ti"),
    ("pebi", "Pi"),
    ("exbi", "Ei"),
];

/// siunitx's units and their abbreviations, by command.
const SI_UNITS: &[(&str, &str)] = &[
    ("second", "s"),
    ("byte", "B"),
    ("bit", "bit"),
    ("hertz", "Hz"),
    ("watt", "W"),
    ("joule", "J"),
    ("volt", "V"),
    ("ampere", "A"),
    ("metre", "m"),
    ("meter", "m"),
    ("gram", "g"),
    ("kelvin", "K"),
    ("degreeCelsius", "°C"),
    ("percent", "%"),
    ("degree", "°"),
    ("minute", "min"),
    ("hour", "h"),
    ("day", "d"),
    ("litre", "L"),
    ("liter", "L"),
    ("newton", "N"),
    ("pascal", "Pa"),
    ("ohm", "Ω"),
    ("decibel", "dB"),
    ("radian", "rad"),
    ("mole", "mol"),
    ("candela", "cd"),
    ("bel", "B"),
    ("fs", "fs"),
    ("ps", "ps"),
    ("ns", "ns"),
    ("us", "µs"),
    ("ms", "ms"),
    ("s", "s"),
    ("Hz", "Hz"),
    ("kHz", "kHz"),
    ("MHz", "MHz"),
    ("GHz", "GHz"),
    ("THz", "THz"),
    ("mW", "mW"),
    ("W", "W"),
    ("kW", "kW"),
    ("MW", "MW"),
    ("kB", "kB"),
    ("MB", "MB"),
    ("GB", "GB"),
    ("TB", "TB"),
    ("KiB", "KiB"),
    ("MiB", "MiB"),
    ("GiB", "GiB"),
    ("TiB", "TiB"),
];

/// For each accent command, the letters it composes with and what they make, in pairs.
const ACCENTS: &[(&str, &str)] = &[
    ("'", "aáeéiíoóuúyýAÁEÉIÍOÓUÚYÝcćCĆnńNŃsśSŚzźZŹ"),
    ("`", "aàeèiìoòuùAÀEÈIÌOÒUÙ"),
    ("^", "aâeêiîoôuûAÂEÊIÎOÔUÛ"),
    ("\"", "aäeëiïoöuüyÿAÄEËIÏOÖUÜ"),
    ("~", "aãoõnñAÃOÕNÑ"),
    ("=", "aāeēiīoōuūAĀEĒIĪOŌUŪ"),
    (".", "zżZŻeėEĖ"),
    ("u", "aăgğAĂGĞ"),
    ("v", "cčsšzžrřeěnňdďtťCČSŠZŽRŘEĚNŇ"),
    ("H", "oőuűOŐUŰ"),
    ("c", "cçsşCÇSŞ"),
    ("k", "aąeęAĄEĘ"),
    ("r", "aåuůAÅUŮ"),
];

/// The commands that start a row's rules in a table, with their arguments, and whether each
/// is a rule across the whole table (which, under the header's rows, ends the header).
const RULES: &[(&str, &str, bool)] = &[
    ("hline", "", true),
    ("toprule", "o", true),
    ("midrule", "o", true),
    ("bottomrule", "o", true),
    ("specialrule", "mmm", true),
    ("Xhline", "m", true),
    ("hdashline", "o", true),
    ("hhline", "m", true),
    ("cmidrule", "opm", false),
    ("cline", "m", false),
    ("cdashline", "m", false),
    ("addlinespace", "o", false),
    ("morecmidrules", "", false),
    ("rowcolor", "om", false),
    ("rowcolors", "ommm", false),
    ("arrayrulecolor", "om", false),
    ("noalign", "m", false),
    ("hiderowcolors", "", false),
    ("showrowcolors", "", false),
];

/// What ends a row of a `longtable`'s head or foot: the rows before it are repeated on every
/// page (or the first), not the table's body.
const LONGTABLE_MARKS: &[&str] = &["endfirsthead", "endhead", "endfoot", "endlastfoot"];

/// A row of a table as split: its cells' source ranges, whether a full rule stood above it,
/// and what ended it.
struct Row {
    cells: Vec<Range<usize>>,
    rule_before: bool,
    mark: Option<&'static str>,
}

impl<'a> Reader<'a> {
    // --- Scanning -------------------------------------------------------------------------

    /// The command at `pos` (a backslash): its name's range, and where the name ends. A
    /// control word is its letters; a control symbol the one character after the backslash.
    fn command_at(&self, pos: usize, end: usize) -> (Range<usize>, usize) {
        // No command stands where no backslash does (`\def` before `µ`): an empty name, read
        // no further.
        if self.bytes.get(pos) != Some(&b'\\') || pos >= end {
            return (pos..pos, pos);
        }
        let start = pos + 1;
        let mut k = start;
        // `@` is a letter in the names of a class's or a package's internals
        // (`\@let@token`), which a paper's own definitions copy; `\@` alone stays a symbol.
        while k < end && (self.bytes[k].is_ascii_alphabetic() || self.bytes[k] == b'@' && self.bytes.get(k + 1).is_some_and(u8::is_ascii_alphabetic)) {
            k += 1;
        }
        if k == start && k < end {
            k += self.source[k..].chars().next().map_or(1, char::len_utf8);
        }
        (start..k, k)
    }

    fn name(&self, range: &Range<usize>) -> &'a str {
        &self.source[range.clone()]
    }

    /// Where a comment that begins at `pos` (a `%`) ends: after its line's end, and the spaces
    /// and tabs that begin the next line, which TeX skips too.
    fn skip_comment(&self, pos: usize, end: usize) -> usize {
        let mut k = self.source[pos..end].find('\n').map_or(end, |i| pos + i + 1);
        while k < end && matches!(self.bytes[k], b' ' | b'\t') {
            k += 1;
        }
        k
    }

    /// Where `\verb|...|` (or `\lstinline|...|`) that continues at `pos` (after the name, an
    /// optional star taken) ends, and its text's range: `None` where no delimiter closes it on
    /// its line.
    fn verb_at(&self, pos: usize, end: usize) -> Option<(Range<usize>, usize)> {
        if pos >= end {
            return None;
        }
        let delimiter = self.source[pos..end].chars().next()?;
        if delimiter.is_whitespace() || delimiter.is_ascii_alphabetic() {
            return None;
        }
        let (open, close) = if delimiter == '{' { ('{', '}') } else { (delimiter, delimiter) };
        let start = pos + open.len_utf8();
        if start > end {
            return None;
        }
        let end = end.min(start + MAX_OPTIONAL);
        let line_end = self.source[start..end].find('\n').map_or(end, |i| start + i);
        let at = self.source[start..line_end].find(close)?;
        Some((start..start + at, start + at + close.len_utf8()))
    }

    /// The next piece that matters for structure at or after `pos`: a brace, a command (its
    /// name), or another character; comments and `\verb` skipped as TeX skips them.
    fn next_piece(&self, pos: usize, end: usize) -> Option<(Piece, usize)> {
        let mut k = pos;
        while k < end {
            match self.bytes[k] {
                b'%' => k = self.skip_comment(k, end),
                b'{' => return Some((Piece::Open(k), k + 1)),
                b'}' => return Some((Piece::Close(k), k + 1)),
                b'\\' => {
                    let (name, after) = self.command_at(k, end);
                    if matches!(self.name(&name), "verb" | "lstinline") {
                        let at = self.star(after, end);
                        if let Some((_, next)) = self.verb_at(at, end) {
                            k = next;
                            continue;
                        }
                    }
                    return Some((Piece::Command(k, name), after));
                }
                _ => {
                    let len = self.source[k..].chars().next().map_or(1, char::len_utf8);
                    return Some((Piece::Char(k), k + len));
                }
            }
        }
        None
    }

    /// The `}` that closes the `{` at `open`, before `end`.
    fn closing_brace(&self, open: usize, end: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut k = open;
        while let Some((piece, next)) = self.next_piece(k, end) {
            match piece {
                Piece::Open(_) => depth += 1,
                Piece::Close(at) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(at);
                    }
                }
                _ => {}
            }
            k = next;
        }
        None
    }

    /// The first occurrence of `needle` at or after `from` outside comments.
    fn find_from(&self, from: usize, end: usize, needle: &str) -> Option<usize> {
        let mut k = from;
        while k < end {
            let at = k + self.source[k..end].find(needle)?;
            let line_start = self.source[..at].rfind('\n').map_or(0, |i| i + 1);
            if comment_start(&self.source[line_start..at]).is_none() {
                return Some(at);
            }
            // The rest of the line is the comment's too.
            k = self.source[at..end].find('\n').map_or(end, |i| at + i + 1);
        }
        None
    }

    /// Where spaces, tabs, comments and single line ends (not a blank line) at `pos` end.
    fn skip_blank(&self, pos: usize, end: usize) -> usize {
        let mut k = pos;
        while k < end {
            match self.bytes[k] {
                b' ' | b'\t' | b'\r' => k += 1,
                b'\n' if !self.blank_line_after(k, end) => k += 1,
                b'%' => k = self.skip_comment(k, end),
                _ => break,
            }
        }
        k
    }

    /// Whether the line after the line end at `pos` is blank: a paragraph's end.
    fn blank_line_after(&self, pos: usize, end: usize) -> bool {
        self.bytes[pos + 1..end].iter().take_while(|b| **b != b'\n').all(u8::is_ascii_whitespace)
    }

    /// Whether the line that holds `pos` is blank up to it: a line end there ends a paragraph.
    fn line_blank_before(&self, start: usize, pos: usize) -> bool {
        let line_start = self.source[start..pos].rfind('\n').map_or(start, |i| start + i + 1);
        self.source[line_start..pos].trim().is_empty() && line_start > start
    }

    /// A mandatory argument at `pos`: a group's inside, or else one command or one character.
    fn argument(&self, pos: usize, end: usize) -> Option<(Range<usize>, usize)> {
        let k = self.skip_blank(pos, end);
        match self.bytes.get(k)? {
            _ if k >= end => None,
            b'{' => match self.closing_brace(k, end) {
                Some(close) => Some((k + 1..close, close + 1)),
                None => Some((k + 1..end, end)),
            },
            b'\\' => {
                let (_, after) = self.command_at(k, end);
                Some((k..after, after))
            }
            b'}' => None,
            _ => {
                let len = self.source[k..].chars().next().map_or(1, char::len_utf8);
                Some((k..k + len, k + len))
            }
        }
    }

    /// A URL's argument at `pos`, as `\url` reads it: its `%` and `#` are characters of the
    /// address (`a%20b`), not a comment, so its braces are matched without reading comments.
    fn verbatim_argument(&self, pos: usize, end: usize) -> Option<(Range<usize>, usize)> {
        let k = self.skip_blank(pos, end);
        if self.bytes.get(k) != Some(&b'{') || k >= end {
            return self.argument(pos, end);
        }
        let mut depth = 0usize;
        for (i, b) in self.bytes[k..end].iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some((k + 1..k + i, k + i + 1));
                    }
                }
                // A URL ends at its line's end: a brace left open there is a typo, read as
                // `argument` reads it.
                b'\n' => break,
                _ => {}
            }
        }
        self.argument(pos, end)
    }

    /// An optional argument at `pos` (`[...]`, brackets inside braces not counted).
    fn optional(&self, pos: usize, end: usize, open: u8, close: u8) -> Option<(Range<usize>, usize)> {
        let k = self.skip_blank(pos, end);
        if self.bytes.get(k) != Some(&open) || k >= end {
            return None;
        }
        // An optional argument ends within its paragraph, and is short: a bracket no bracket
        // closes is text, and looking for its end no further keeps a hostile source linear.
        let end = end.min(k + MAX_OPTIONAL);
        let mut depth = 0usize;
        let mut j = k + 1;
        while let Some((piece, next)) = self.next_piece(j, end) {
            if let Piece::Char(at) = piece
                && self.bytes[at] == b'\n'
                && self.blank_line_after(at, end)
            {
                return None;
            }
            match piece {
                Piece::Open(_) => depth += 1,
                Piece::Close(_) => depth = depth.saturating_sub(1),
                Piece::Char(at) if depth == 0 && self.bytes[at] == close => return Some((k + 1..at, next)),
                _ => {}
            }
            j = next;
        }
        None
    }

    /// Skips the arguments `spec` names (`o`, `m`, `p`, `s` a star) at `pos`; where they end.
    fn skip_arguments(&self, spec: &str, mut pos: usize, end: usize) -> usize {
        for kind in spec.chars() {
            pos = match kind {
                'o' => self.optional(pos, end, b'[', b']').map_or(pos, |(_, next)| next),
                'p' => self.optional(pos, end, b'(', b')').map_or(pos, |(_, next)| next),
                's' => self.star(pos, end),
                _ => self.argument(pos, end).map_or(pos, |(_, next)| next),
            };
        }
        pos
    }

    /// An environment's name after `\begin` or `\end` at `pos`: a short group of no groups.
    /// Looking no further than its closing brace's place keeps a hostile source linear.
    fn environment_name(&self, pos: usize, end: usize) -> Option<(Range<usize>, usize)> {
        let k = self.skip_blank(pos, end);
        if self.bytes.get(k) != Some(&b'{') || k >= end {
            return None;
        }
        let limit = end.min(k + 1 + 64);
        let close = k + 1 + self.bytes[k + 1..limit].iter().position(|b| *b == b'}')?;
        (!self.bytes[k + 1..close].contains(&b'{')).then_some((k + 1..close, close + 1))
    }

    /// Where a star after a command's name at `pos` ends, if one stands there before `end`.
    fn star(&self, pos: usize, end: usize) -> usize {
        if pos < end && self.bytes.get(pos) == Some(&b'*') { pos + 1 } else { pos }
    }

    /// Where `\end{name}` closes the environment whose body begins at `from`: its backslash,
    /// and the end of its `}`. Environments of the same name nest; a code environment's body
    /// ends at the first `\end{name}`, as LaTeX reads it.
    fn environment_end(&self, name: &str, from: usize, end: usize, verbatim: bool) -> Option<(usize, usize)> {
        let closing = format!("\\end{{{name}}}");
        if verbatim {
            let at = from + self.source[from..end].find(&closing)?;
            return Some((at, at + closing.len()));
        }
        let mut depth = 0usize;
        let mut k = from;
        while let Some((piece, next)) = self.next_piece(k, end) {
            k = next;
            let Piece::Command(at, command) = piece else { continue };
            let command = self.name(&command);
            if command != "begin" && command != "end" {
                continue;
            }
            let Some((arg, after)) = self.environment_name(next, end) else { continue };
            if self.name(&arg).trim() != name {
                continue;
            }
            if command == "begin" {
                depth += 1;
            } else if depth == 0 {
                return Some((at, after));
            } else {
                depth -= 1;
            }
            k = after;
        }
        None
    }

    // --- Definitions ----------------------------------------------------------------------

    /// Reads the macros the document defines and siunitx's declared units in `range`. A `\def`
    /// whose parameters are delimited by anything but their numbers (`\def\x#1.{...}`) is
    /// not read: its uses show as text.
    fn definitions(&mut self, range: Range<usize>) {
        let mut k = range.start;
        while let Some((piece, next)) = self.next_piece(k, range.end) {
            k = next;
            let Piece::Command(_, name) = piece else { continue };
            match self.name(&name) {
                "newcommand" | "renewcommand" | "providecommand" | "DeclareRobustCommand" => {
                    let at = self.star(next, range.end);
                    let Some((defined, after)) = self.argument(at, range.end) else { continue };
                    let Some(macro_name) = self.name(&defined).trim().strip_prefix('\\') else { continue };
                    let (arguments, after) = match self.optional(after, range.end, b'[', b']') {
                        Some((n, next)) => (self.name(&n).trim().parse::<usize>().unwrap_or(0).min(9), next),
                        None => (0, after),
                    };
                    let (default, after) = match self.optional(after, range.end, b'[', b']') {
                        Some((default, next)) if arguments > 0 => (Some(default), next),
                        _ => (None, after),
                    };
                    let Some((body, after)) = self.argument(after, range.end) else { continue };
                    self.macros.insert(macro_name.to_string(), Macro { body, arguments, default });
                    k = after;
                }
                "def" | "gdef" | "edef" | "xdef" => {
                    let (defined, after) = self.command_at(self.skip_blank(next, range.end), range.end);
                    // Its parameters, `#1#2`, stand between its name and its body.
                    let parameters = self.source[after..range.end].bytes().take_while(|b| *b == b'#' || b.is_ascii_digit()).count();
                    let arguments = self.source[after..after + parameters].matches('#').count();
                    if self.bytes.get(after + parameters) != Some(&b'{') || defined.is_empty() || parameters != 2 * arguments {
                        continue;
                    }
                    let Some((body, after)) = self.argument(after + parameters, range.end) else { continue };
                    self.macros.insert(self.name(&defined).to_string(), Macro { body, arguments: arguments.min(9), default: None });
                    k = after;
                }
                "NewDocumentCommand" | "RenewDocumentCommand" | "ProvideDocumentCommand" | "DeclareDocumentCommand" | "NewExpandableDocumentCommand" => {
                    // xparse's form: `{\name}{m o}{body}`. Its mandatory arguments are read as
                    // `\newcommand`'s are; an optional first one (`o`, `O{default}`) as its
                    // optional one; any other kind is not given to the body.
                    let Some((defined, after)) = self.argument(next, range.end) else { continue };
                    let Some(macro_name) = self.name(&defined).trim().strip_prefix('\\') else { continue };
                    let Some((spec, after)) = self.argument(after, range.end) else { continue };
                    let Some((body, after)) = self.argument(after, range.end) else { continue };
                    let written = &self.source[spec.clone()];
                    let kinds = written.trim_start();
                    let default = if kinds.starts_with('o') {
                        Some(body.start..body.start)
                    } else if kinds.starts_with("O{") {
                        let open = spec.start + (written.len() - kinds.len()) + 1;
                        self.closing_brace(open, spec.end).map(|close| open + 1..close)
                    } else {
                        None
                    };
                    let arguments = kinds.matches('m').count() + usize::from(default.is_some());
                    self.macros.insert(macro_name.to_string(), Macro { body, arguments: arguments.min(9), default });
                    k = after;
                }
                "newbool" | "newtoggle" | "providebool" | "providetoggle" | "newboolean" => {
                    if let Some((defined, after)) = self.argument(next, range.end) {
                        self.flags.insert(self.name(&defined).trim().to_string(), false);
                        k = after;
                    }
                }
                "booltrue" | "boolfalse" | "toggletrue" | "togglefalse" | "setbool" | "settoggle" | "setboolean" if k <= self.preamble_end => {
                    k = self.set_switch(self.name(&name), next, range.end);
                }
                "newif" => {
                    let (defined, after) = self.command_at(self.skip_blank(next, range.end), range.end);
                    if let Some(flag) = self.name(&defined).strip_prefix("if").filter(|f| !f.is_empty()) {
                        self.flags.insert(flag.to_string(), false);
                    }
                    k = after;
                }
                "lstnewenvironment" | "DefineVerbatimEnvironment" => {
                    if let Some((defined, after)) = self.argument(next, range.end) {
                        self.code_environments.push(self.name(&defined).trim().to_string());
                        k = after;
                    }
                }
                "newminted" => {
                    // `\newminted{cpp}{...}` defines the environment `cppcode`, or the one its
                    // optional argument names.
                    let named = self.optional(next, range.end, b'[', b']');
                    let at = named.as_ref().map_or(next, |(_, n)| *n);
                    if let Some((language, after)) = self.argument(at, range.end) {
                        let env = named.map_or_else(|| format!("{}code", self.name(&language).trim()), |(n, _)| self.name(&n).trim().to_string());
                        self.code_environments.push(env);
                        k = after;
                    }
                }
                "newenvironment" | "renewenvironment" => {
                    // An environment that begins a verbatim one (`\VerbatimEnvironment`) is
                    // code, as the one it begins is.
                    let at = self.star(next, range.end);
                    let Some((defined, after)) = self.argument(at, range.end) else { continue };
                    let after = self.skip_arguments("oo", after, range.end);
                    if let Some((begin, _)) = self.argument(after, range.end)
                        && self.source[begin].contains("\\VerbatimEnvironment")
                    {
                        self.code_environments.push(self.name(&defined).trim().to_string());
                    }
                }
                "DeclareMathOperator" => {
                    let at = self.star(next, range.end);
                    let Some((defined, after)) = self.argument(at, range.end) else { continue };
                    let Some(macro_name) = self.name(&defined).trim().strip_prefix('\\') else { continue };
                    let Some((body, after)) = self.argument(after, range.end) else { continue };
                    self.macros.insert(macro_name.to_string(), Macro { body, arguments: 0, default: None });
                    k = after;
                }
                "let" => {
                    // `\let\old\sys`: a copy of a macro read so far.
                    let (defined, after) = self.command_at(self.skip_blank(next, range.end), range.end);
                    let at = self.skip_blank(after, range.end);
                    let at = if self.bytes.get(at) == Some(&b'=') { self.skip_blank(at + 1, range.end) } else { at };
                    if self.bytes.get(at) == Some(&b'\\') && at < range.end && !defined.is_empty() {
                        let (copied, after) = self.command_at(at, range.end);
                        if let Some(m) = self.macros.get(self.name(&copied)).cloned() {
                            self.macros.insert(self.name(&defined).to_string(), m);
                        }
                        k = after;
                    }
                }
                "usepackage" if k <= self.preamble_end => {
                    // A package named by its path (`\usepackage{includes/terms}`) is the paper's
                    // own, and its macros are not read.
                    let at = self.optional(next, range.end, b'[', b']').map_or(next, |(_, n)| n);
                    if let Some((package, after)) = self.argument(at, range.end) {
                        if self.source[package].contains('/') {
                            self.warn(
                                name.start - 1..after,
                                format!(
                                    "not read: `{}` is the paper's own package, whose macros print nothing here (inline it, or define them in this file)",
                                    &self.source[name.start - 1..after]
                                ),
                            );
                        }
                        k = after;
                    }
                }
                setter if k <= self.preamble_end && switch_setter(setter).is_some() => {
                    if let Some((flag, state)) = switch_setter(setter)
                        && let Some(value) = self.flags.get_mut(flag)
                    {
                        *value = state;
                    }
                }
                "sisetup" if k <= self.preamble_end => {
                    if let Some((options, after)) = self.argument(next, range.end) {
                        self.rounding = self.rounding.with(&self.source[options]);
                        k = after;
                    }
                }
                "DeclareSIUnit" => {
                    let at = self.optional(next, range.end, b'[', b']').map_or(next, |(_, n)| n);
                    let Some((defined, after)) = self.argument(at, range.end) else { continue };
                    let Some(unit_name) = self.name(&defined).trim().strip_prefix('\\') else { continue };
                    let Some((symbol, after)) = self.argument(after, range.end) else { continue };
                    self.units.insert(unit_name.to_string(), symbol);
                    k = after;
                }
                _ => {}
            }
        }
    }

    // --- Body -----------------------------------------------------------------------------

    /// Reads `range` as body text: paragraphs, and the blocks inside them.
    fn body(&mut self, range: Range<usize>) {
        if self.depth >= MAX_DEPTH {
            self.warn(range.start..range.start, "not read: groups nested deeper than 64".to_string());
            return;
        }
        self.depth += 1;
        let mut pos = range.start;
        while pos < range.end {
            match self.bytes[pos] {
                b'%' => pos = self.skip_comment(pos, range.end),
                b'\n' if self.line_blank_before(range.start, pos) => {
                    self.end_paragraph(pos);
                    pos += 1;
                }
                b'{' => {
                    // A group in the body (`{\small ...}`) may hold blocks: it is read as body.
                    let close = self.closing_brace(pos, range.end).unwrap_or_else(|| {
                        self.warn(pos..pos + 1, "`{` is not closed: read to the end".to_string());
                        range.end
                    });
                    self.body(pos + 1..close);
                    pos = (close + 1).min(range.end.max(close));
                }
                b'\\' => pos = self.body_command(pos, range.end),
                _ => {
                    let mut block = self.para.take().unwrap_or_else(|| Block::new(&self.section, false));
                    pos = self.inline_piece(&mut block, pos, range.end, false);
                    self.para = Some(block);
                }
            }
        }
        self.depth -= 1;
    }

    /// A command met in the body: a block of its own where it is one, else read inline into
    /// the paragraph. Where reading goes on.
    fn body_command(&mut self, pos: usize, end: usize) -> usize {
        let (name, after) = self.command_at(pos, end);
        let name = self.name(&name);
        if let Some(&(_, level)) = SECTIONS.iter().find(|(s, _)| *s == name) {
            self.end_paragraph(pos);
            let at = self.optional(self.star(after, end), end, b'[', b']').map_or(self.star(after, end), |(_, n)| n);
            let Some((title, next)) = self.argument(at, end) else { return after };
            let mut block = Block::new(&self.section, true);
            self.inline_range(&mut block, title, false);
            // A run-in heading (`\paragraph{Memory footprint.}`) ends with the stop that
            // parts it from its text: the section's name is without it.
            let trimmed = block.text.trim_end().len();
            if level >= 6 && block.text[..trimmed].ends_with('.') && !block.text[..trimmed].ends_with("..") {
                block.text.truncate(trimmed - 1);
                block.offsets.truncate(trimmed - 1);
            }
            enter_heading(&mut self.section, &mut self.levels, level, block, &mut self.blocks);
            self.flush_notes(next);
            return next;
        }
        match name {
            "begin" => self.environment(pos, after, end),
            "par" => {
                self.end_paragraph(pos);
                after
            }
            "item" => {
                self.end_paragraph(pos);
                let mut block = Block::new(&self.section, false);
                let next = match self.optional(after, end, b'[', b']') {
                    Some((label, next)) => {
                        self.inline_range(&mut block, label, false);
                        block.push(" ", self.source, next..next);
                        next
                    }
                    None => after,
                };
                self.para = Some(block);
                next
            }
            // A paper's title and its keywords are set apart from the text around them.
            "caption" | "captionof" | "title" | "keywords" => {
                self.end_paragraph(pos);
                let Some((text, next)) = self.caption_argument(name, after, end) else { return after };
                let mut block = Block::new(&self.section, false);
                self.inline_range(&mut block, text, false);
                self.para = Some(block);
                self.end_paragraph(next);
                next
            }
            "end" => {
                // An `\end` no `\begin` in the range opened: skipped, with its name.
                self.warn(pos..after, "`\\end` without its `\\begin`".to_string());
                self.argument(after, end).map_or(after, |(_, n)| n)
            }
            "[" => {
                let close = self.find_from(after, end, "\\]").unwrap_or(end);
                (close + 2).min(end)
            }
            _ => {
                // A command that shows its argument as text (`\textcolor{red}{...}`,
                // `\resizebox{\textwidth}{!}{...}`) may hold paragraphs and tables: in the body
                // its argument is read as body, the paragraph around it going on through it.
                if let Some(&(_, spec)) = COMMANDS.iter().find(|(c, _)| *c == name)
                    && spec.ends_with('T')
                    && spec.matches('T').count() == 1
                {
                    let at = self.skip_arguments(&spec[..spec.len() - 1], self.star(after, end), end);
                    if let Some((text, next)) = self.argument(at, end) {
                        self.body(text);
                        return next;
                    }
                }
                let mut block = self.para.take().unwrap_or_else(|| Block::new(&self.section, false));
                let next = self.inline_piece(&mut block, pos, end, false);
                self.para = Some(block);
                next
            }
        }
    }

    /// `\begin{name}` at `pos`, its name starting at `after`: the environment read as what it
    /// is. Where reading goes on.
    fn environment(&mut self, pos: usize, after: usize, end: usize) -> usize {
        let Some((name_range, body_start)) = self.environment_name(after, end) else { return after };
        let name = self.name(&name_range).trim();
        let code = CODE_ENVIRONMENTS.iter().any(|(n, _)| *n == name) || self.code_environments.iter().any(|n| n == name);
        let Some((body_end, next)) = self.environment_end(name, body_start, end, code) else {
            self.warn(pos..body_start, format!("`\\begin{{{name}}}` is not closed: read to the end"));
            return self.open_environment(name, body_start, end, end);
        };
        self.open_environment(name, body_start, body_end, next)
    }

    fn open_environment(&mut self, name: &str, body_start: usize, body_end: usize, next: usize) -> usize {
        if let Some((_, spec)) = TABULARS.iter().find(|(n, _)| *n == name) {
            self.end_paragraph(body_start);
            let start = self.skip_arguments(spec, body_start, body_end);
            self.tabular(start..body_end, name.starts_with("longtable") || name.starts_with("xltabular"));
            self.flush_notes(next);
        } else if let Some((env, spec)) =
            CODE_ENVIRONMENTS.iter().find(|(n, _)| *n == name).copied().or_else(|| self.code_environments.iter().any(|n| n == name).then_some(("lstlisting", "o")))
        {
            self.end_paragraph(body_start);
            if !matches!(env, "comment" | "CCSXML" | "filecontents" | "filecontents*") {
                // The arguments stand on the `\begin` line; the code starts on the next.
                let start = self.skip_arguments(spec, body_start, body_end);
                let start = self.source[start..body_end].find('\n').map_or(body_end, |i| start + i + 1);
                let parts = vec![(self.source[start..body_end].to_string(), start..body_end)];
                self.n_tables += console_blocks(&parts, self.source, &self.section, self.n_tables, &mut self.blocks);
            }
        } else if SKIPPED_ENVIRONMENTS.contains(&name) {
            if name == "thebibliography" {
                self.end_paragraph(body_start);
            }
        } else if matches!(name, "algorithm" | "algorithm*") {
            // A float of pseudo-code (algorithm2e's body, or `algorithmic` inside): only its
            // caption is prose.
            self.end_paragraph(body_start);
            let mut k = body_start;
            while let Some((piece, next)) = self.next_piece(k, body_end) {
                k = match piece {
                    Piece::Command(at, command) if self.name(&command) == "caption" => self.body_command(at, body_end),
                    _ => next,
                };
            }
        } else {
            self.end_paragraph(body_start);
            let spec = ENVIRONMENT_ARGUMENTS.iter().find(|(n, _)| *n == name).map_or("", |(_, s)| s);
            let start = self.skip_arguments(spec, body_start, body_end);
            // An environment this reader does not know may take an optional argument.
            let start = if spec.is_empty() && self.bytes.get(start) == Some(&b'[') { self.optional(start, body_end, b'[', b']').map_or(start, |(_, n)| n) } else { start };
            let is_float = matches!(
                name.trim_end_matches('*'),
                "table" | "figure" | "wraptable" | "wrapfigure" | "subtable" | "subfigure" | "sidewaystable" | "sidewaysfigure" | "threeparttable" | "minipage" | "center"
            );
            let (outer, outer_label) = if is_float {
                let caption = self.caption_text(start..body_end).and_then(|c| caption_unit(&c)).or_else(|| self.caption.clone());
                // A float without a label of its own (a `center` around a table) keeps the
                // name of the float around it.
                let label = self.label_in(start..body_end).or_else(|| self.label.clone());
                (std::mem::replace(&mut self.caption, caption), std::mem::replace(&mut self.label, label))
            } else {
                (self.caption.clone(), self.label.clone())
            };
            // The abstract is typeset under its own title, and its sentences stand in no section
            // of the paper: they are named by it, the sections around left as they were.
            let outer_section = (name == "abstract").then(|| {
                let saved = (self.section.clone(), self.levels.clone());
                let mut title = Block::new(&self.section, true);
                title.push("Abstract", self.source, body_start..body_start);
                enter_heading(&mut self.section, &mut self.levels, 1, title, &mut self.blocks);
                saved
            });
            self.body(start..body_end);
            self.end_paragraph(body_end);
            self.caption = outer;
            self.label = outer_label;
            if let Some((section, levels)) = outer_section {
                (self.section, self.levels) = (section, levels);
            }
        }
        next
    }

    /// The text of `\caption` or `\captionof` (its name ending at `after`), past its star and
    /// its short form, and where reading goes on. `\captionof{table}{...}`, a caption outside a
    /// float, names its float's kind first.
    fn caption_argument(&self, name: &str, after: usize, end: usize) -> Option<(Range<usize>, usize)> {
        let at = if name == "captionof" { self.skip_arguments("sm", after, end) } else { self.star(after, end) };
        let at = self.optional(at, end, b'[', b']').map_or(at, |(_, n)| n);
        self.argument(at, end)
    }

    /// The text of the first `\caption` in `range`, read as inline text: a unit it states
    /// applies to the cells of the table beside it, before or after it.
    fn caption_text(&mut self, range: Range<usize>) -> Option<String> {
        let mut k = range.start;
        while let Some((piece, next)) = self.next_piece(k, range.end) {
            k = next;
            if let Piece::Command(_, name) = piece
                && matches!(self.name(&name), "caption" | "captionof")
            {
                let (text, _) = self.caption_argument(self.name(&name), next, range.end)?;
                let mut block = Block::new(&self.section, false);
                let notes = self.notes.len();
                self.inline_range(&mut block, text, false);
                self.notes.truncate(notes);
                return Some(block.text.trim().to_string());
            }
        }
        None
    }

    /// The first `\label` in `range` outside the environments nested in it, or in its caption:
    /// the float's own name, not a subtable's, an equation's or an item's. A label is a key, so
    /// it is taken as written, its spaces trimmed.
    fn label_in(&self, range: Range<usize>) -> Option<String> {
        let label_at = |next: usize, end: usize| {
            let (key, _) = self.argument(next, end)?;
            let key = self.source[key].trim();
            (!key.is_empty()).then(|| key.to_string())
        };
        let mut k = range.start;
        while let Some((piece, next)) = self.next_piece(k, range.end) {
            k = next;
            let Piece::Command(_, name) = piece else { continue };
            let name = self.name(&name);
            if name == "label" {
                return label_at(next, range.end);
            }
            if matches!(name, "caption" | "captionof")
                && let Some((text, after)) = self.caption_argument(name, next, range.end)
            {
                // The caption's own pieces, read flat: a label stands at its top level.
                let mut j = text.start;
                while let Some((piece, next)) = self.next_piece(j, text.end) {
                    j = next;
                    if let Piece::Command(_, inner) = piece
                        && self.name(&inner) == "label"
                    {
                        return label_at(next, text.end);
                    }
                }
                k = after;
            } else if name == "begin"
                && let Some((env, after)) = self.environment_name(next, range.end)
            {
                let env = self.name(&env).trim();
                let verbatim = CODE_ENVIRONMENTS.iter().any(|(n, _)| *n == env);
                k = self.environment_end(env, after, range.end, verbatim).map_or(range.end, |(_, e)| e);
            }
        }
        None
    }

    /// Ends the paragraph being read, and reads the footnotes met in it.
    fn end_paragraph(&mut self, end: usize) {
        if let Some(b) = self.para.take().and_then(|b| b.finish(end)) {
            self.blocks.push(b);
        }
        self.flush_notes(end);
    }

    fn flush_notes(&mut self, end: usize) {
        while !self.notes.is_empty() {
            let notes = std::mem::take(&mut self.notes);
            for note in notes {
                let mut block = Block::new(&self.section, false);
                self.inline_range(&mut block, note, false);
                if let Some(b) = block.finish(end) {
                    self.blocks.push(b);
                }
            }
        }
    }

    fn warn(&mut self, range: Range<usize>, message: String) {
        self.warnings.push((range, message));
    }

    // --- Tables ---------------------------------------------------------------------------

    /// Reads the rows of a table whose rows span `range`.
    fn tabular(&mut self, range: Range<usize>, longtable: bool) {
        let rows = self.split_rows(range.clone());
        // A `longtable`'s head is the rows before its first head mark; the rows of any other
        // head or foot repeat it, and are not the body's.
        let mut kept: Vec<(Row, bool)> = Vec::new();
        let mut group: Vec<Row> = Vec::new();
        let mut seen_head = false;
        let marked = longtable && rows.iter().any(|r| r.mark.is_some());
        for row in rows {
            let mark = row.mark;
            group.push(row);
            if !marked {
                continue;
            }
            if let Some(mark) = mark {
                let is_head = !seen_head && matches!(mark, "endfirsthead" | "endhead");
                seen_head |= matches!(mark, "endfirsthead" | "endhead");
                if is_head {
                    kept.extend(group.drain(..).map(|r| (r, true)));
                } else {
                    group.clear();
                }
            }
        }
        kept.extend(group.into_iter().map(|r| (r, false)));
        let mut rows: Vec<(Row, bool)> = Vec::new();
        // A caption written as a row (`\caption{...}\\` in a longtable) is prose, and a unit it
        // states applies to the cells as a float's caption's does.
        let mut caption = None;
        for (row, head) in kept {
            let first = row.cells.first().map_or(range.end, |c| self.skip_blank(c.start, c.end));
            if row.cells.len() == 1 && self.source[first..].starts_with("\\caption") {
                if caption.is_none() {
                    caption = self.caption_text(row.cells[0].clone()).and_then(|c| caption_unit(&c));
                }
                self.body(row.cells[0].clone());
                self.end_paragraph(row.cells[0].end);
                continue;
            }
            if row.cells.iter().all(|c| self.skip_blank(c.start, c.end) >= c.end) {
                continue;
            }
            rows.push((row, head));
        }
        if rows.is_empty() {
            return;
        }
        // A row of one cell across every column is a title (above the header) or names the
        // rows under it (`\multicolumn{3}{c}{A100}` over A100's rows), never a row of values.
        let layouts: Vec<Vec<(usize, isize, Range<usize>)>> = rows.iter().map(|(row, _)| row.cells.iter().map(|c| self.cell_layout(c.clone())).collect()).collect();
        let n_columns = layouts.iter().map(|l| l.iter().map(|c| c.0).sum::<usize>()).max().unwrap_or(0);
        let across: Vec<bool> = layouts.iter().map(|l| n_columns > 1 && l.len() == 1 && l[0].0 == n_columns).collect();
        let spans_all = |r: usize| across[r];
        let header_rows = if marked && rows.iter().any(|(_, head)| *head) {
            rows.iter().filter(|(_, head)| *head).count()
        } else {
            // The rows above the first full rule that stands under a row, if rows follow it
            // and it is not far down; else the first row. Titles above the header, each a
            // row across the table, are read with it: the header ends at the next rule.
            let rule_after = |from: usize| rows.iter().enumerate().skip(from + 1).find(|(_, (r, _))| r.rule_before).map(|(k, _)| k).filter(|&k| k <= 3);
            let header = match rule_after(0) {
                Some(k) if (0..k).all(spans_all) => rule_after(k).unwrap_or(k),
                Some(k) => k,
                None => 1,
            };
            // A table of groups between rules with no header (`\hline` over each GPU's rows,
            // the first a `\multirow` naming them) has values where a header would name
            // columns: it has none. A header of numbers (`Batch & 1 & 8 & 32`) is a header.
            let value_in = |r: usize| layouts[r].iter().skip(1).any(|(_, _, text)| super::numbers::parse_one(self.source[text.clone()].trim()).is_ok());
            let grouped = layouts.first().and_then(|l| l.first()).is_some_and(|c| c.1 > 1);
            // A rule under every row (`\hline` after each): a header row whose cell spans some
            // columns but not all (`Latency (s)` over `AWS` and `GCP`) names the row under it,
            // which is the header's too where it holds no value.
            let spans_some = |r: usize| layouts[r].iter().any(|c| c.0 > 1 && c.0 < n_columns);
            let header =
                if header > 0 && header < rows.len() && spans_some(header - 1) && !value_in(header) && rule_after(header) == Some(header + 1) { header + 1 } else { header };
            if grouped && (0..header).any(value_in) { 0 } else { header }
        };
        // Each cell's column, span and text; for the first column a `\multirow`'s extent, as
        // (first row, rows, the row its text is in); and the rows that name those under them.
        let mut cells = Vec::new();
        let mut spans_first: Vec<(usize, usize, usize)> = Vec::new();
        let mut groups: Vec<usize> = Vec::new();
        for (r, layout) in layouts.into_iter().enumerate() {
            if r >= header_rows && spans_all(r) {
                groups.push(r);
            }
            let mut column = 0;
            for (columns, rows_spanned, text) in layout {
                if column == 0 && r >= header_rows && rows_spanned.unsigned_abs() > 1 {
                    let n = rows_spanned.unsigned_abs();
                    spans_first.push(if rows_spanned > 0 {
                        (r, n, r)
                    } else {
                        let first = (r + 1).saturating_sub(n).max(header_rows);
                        (first, r + 1 - first, r)
                    });
                }
                cells.push(SplitCell { row: r, column, columns, content: text });
                column += columns;
            }
        }
        spans_first.sort_unstable();
        let index = self.n_tables;
        self.n_tables += 1;
        let mut unit_section = self.section.clone();
        unit_section.extend(caption.or_else(|| self.caption.clone()));
        let section = self.section.clone();
        let mut blocks = std::mem::take(&mut self.blocks);
        let first_block = blocks.len();
        lay_out_table(&mut blocks, index, &section, &unit_section, cells, header_rows, range.end, |block, text| self.inline_range(block, text.clone(), false));
        // A longtable is its own float: its label stands among its rows.
        let name = if longtable { self.label_in(range.clone()).or_else(|| self.label.clone()) } else { self.label.clone() };
        for block in blocks.iter_mut().skip(first_block).filter(|b| b.cell.is_some()) {
            block.table_name.clone_from(&name);
        }
        // A first cell that spans rows names each of them with the row's own first cell, as a
        // first HTML cell that spans rows does (`A › 1024`).
        let mut by_row: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, b) in blocks.iter().enumerate().skip(first_block) {
            if let Some(cell) = &b.cell {
                by_row.entry(cell.row).or_default().push(i);
            }
        }
        let text_at = |blocks: &[Block], row: usize, column: usize| {
            by_row.get(&row).and_then(|ids| ids.iter().find(|&&i| blocks[i].cell.as_ref().is_some_and(|c| c.column == column))).map(|&i| blocks[i].text.trim().to_string())
        };
        let body_row = |r: usize| r - header_rows + 1;
        for (k, &(start, n, text_row)) in spans_first.iter().enumerate() {
            let Some(outer) = text_at(&blocks, body_row(text_row), 0) else { continue };
            // A span ends where the next one in the column begins, whatever count it gives.
            let stop = spans_first.get(k + 1).map_or(rows.len(), |next| next.0);
            for r in start..(start + n).min(stop) {
                let own = text_at(&blocks, body_row(r), 1).unwrap_or_default();
                let label = if own.is_empty() { outer.clone() } else { format!("{outer} › {own}") };
                for &i in by_row.get(&body_row(r)).into_iter().flatten() {
                    if let Some(cell) = &mut blocks[i].cell {
                        cell.row_label = label.clone();
                    }
                }
            }
        }
        // A row across the table names the rows under it, to the next such row: `A100 › gemm`.
        for (k, &group) in groups.iter().enumerate() {
            let Some(name) = text_at(&blocks, body_row(group), 0).filter(|t| !t.is_empty()) else { continue };
            let stop = groups.get(k + 1).copied().unwrap_or(rows.len());
            for r in group + 1..stop {
                for &i in by_row.get(&body_row(r)).into_iter().flatten() {
                    if let Some(cell) = &mut blocks[i].cell {
                        cell.row_label = format!("{name} › {}", cell.row_label);
                    }
                }
            }
        }
        self.blocks = blocks;
    }

    /// Splits a table's rows at `\\` and its cells at `&`, outside groups and nested
    /// environments, taking off the rules that begin each row.
    fn split_rows(&self, range: Range<usize>) -> Vec<Row> {
        let mut rows = Vec::new();
        let (mut start, rule) = self.skip_rules(range.start, range.end);
        let mut row = Row { cells: Vec::new(), rule_before: rule, mark: None };
        let mut cell_start = start;
        let mut k = start;
        while let Some((piece, next)) = self.next_piece(k, range.end) {
            k = next;
            match piece {
                Piece::Open(at) => k = self.closing_brace(at, range.end).map_or(range.end, |c| c + 1),
                Piece::Char(at) if self.bytes[at] == b'&' => {
                    row.cells.push(cell_start..at);
                    cell_start = next;
                }
                Piece::Command(at, name) => {
                    let name = self.name(&name);
                    let mark = LONGTABLE_MARKS.iter().find(|m| **m == name).copied();
                    if name == "begin" {
                        if let Some((env, after)) = self.environment_name(next, range.end) {
                            let env = self.name(&env).trim();
                            let verbatim = CODE_ENVIRONMENTS.iter().any(|(n, _)| *n == env);
                            k = self.environment_end(env, after, range.end, verbatim).map_or(range.end, |(_, e)| e);
                        }
                    } else if matches!(name, "\\" | "tabularnewline" | "cr" | "crcr") || mark.is_some() {
                        row.cells.push(cell_start..at);
                        let mut after = self.star(next, range.end);
                        if mark.is_none() {
                            after = self.optional(after, range.end, b'[', b']').map_or(after, |(_, n)| n);
                        }
                        // `\\` and a mark (`\\ \endhead`) end one row.
                        let (at_mark, mark) = match mark {
                            Some(m) => (after, Some(m)),
                            None => {
                                let j = self.skip_blank(after, range.end);
                                let (name, end_of_name) = if self.bytes.get(j) == Some(&b'\\') { self.command_at(j, range.end) } else { (j..j, j) };
                                match LONGTABLE_MARKS.iter().find(|m| **m == self.name(&name)) {
                                    Some(m) => (end_of_name, Some(*m)),
                                    None => (after, None),
                                }
                            }
                        };
                        row.mark = mark;
                        rows.push(std::mem::replace(&mut row, Row { cells: Vec::new(), rule_before: false, mark: None }));
                        let (s, rule) = self.skip_rules(at_mark, range.end);
                        start = s;
                        row.rule_before = rule;
                        cell_start = start;
                        k = start;
                    }
                }
                _ => {}
            }
        }
        row.cells.push(cell_start..range.end);
        rows.push(row);
        rows
    }

    /// Skips the rules, colours and spacing that begin a row at `pos`: where the row's text
    /// begins, and whether a full rule was among them.
    fn skip_rules(&self, pos: usize, end: usize) -> (usize, bool) {
        let mut k = pos;
        let mut full = false;
        loop {
            let j = self.skip_blank(k, end);
            let j = {
                // Blank lines between rows are no text of the row.
                let mut j = j;
                while j < end && self.bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                j
            };
            if self.bytes.get(j) != Some(&b'\\') || j >= end {
                return (j, full);
            }
            let (name, after) = self.command_at(j, end);
            let Some(&(_, spec, is_full)) = RULES.iter().find(|(n, _, _)| *n == self.name(&name)) else { return (j, full) };
            full |= is_full;
            k = self.skip_arguments(spec, after, end);
        }
    }

    /// A cell's columns (a `\multicolumn`'s count), the rows a `\multirow` in it spans
    /// (negative where they are the rows above it, as `\multirow{-2}` under `\rowcolor` is
    /// written on a span's last row), and the range of its text.
    fn cell_layout(&self, range: Range<usize>) -> (usize, isize, Range<usize>) {
        let mut columns = 1;
        let mut rows = 1;
        let mut text = range.clone();
        for _ in 0..2 {
            let k = self.skip_blank(text.start, text.end);
            if self.bytes.get(k) != Some(&b'\\') || k >= text.end {
                break;
            }
            let (name, after) = self.command_at(k, text.end);
            match self.name(&name) {
                "multicolumn" => {
                    let Some((n, after)) = self.argument(after, text.end) else { break };
                    let after = self.skip_arguments("m", after, text.end);
                    let Some((inner, _)) = self.argument(after, text.end) else { break };
                    columns = self.name(&n).trim().parse::<usize>().unwrap_or(1).clamp(1, 1000);
                    text = inner;
                }
                "multirow" => {
                    let after = self.skip_arguments("o", after, text.end);
                    let Some((n, after)) = self.argument(after, text.end) else { break };
                    let after = self.skip_arguments("omo", after, text.end);
                    let Some((inner, _)) = self.argument(after, text.end) else { break };
                    rows = self.name(&n).trim().parse::<isize>().unwrap_or(1).clamp(-1000, 1000);
                    text = inner;
                }
                _ => break,
            }
        }
        (columns, rows, text)
    }

    // --- Inline text ----------------------------------------------------------------------

    /// Reads `range` as inline text into `block`; in `math`, as math.
    fn inline_range(&mut self, block: &mut Block, range: Range<usize>, math: bool) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        let mut pos = range.start;
        while pos < range.end {
            pos = self.inline_piece(block, pos, range.end, math);
        }
        self.depth -= 1;
    }

    /// Reads the inline piece at `pos` into `block`; where the next begins.
    fn inline_piece(&mut self, block: &mut Block, pos: usize, end: usize, math: bool) -> usize {
        let b = self.bytes[pos];
        let one = |s: &str, n: usize| (s.to_string(), pos..pos + n);
        let (text, range) = match b {
            b'%' => return self.skip_comment(pos, end),
            b'{' => {
                let close = self.closing_brace(pos, end).unwrap_or(end);
                // In math a braced comma is an ordinary character (`50{,}000`): no space after.
                if math && self.source.get(pos + 1..close) == Some(",") {
                    block.push(",", self.source, pos + 1..close);
                } else {
                    self.inline_range(block, pos + 1..close, math);
                }
                return (close + 1).min(end.max(close));
            }
            b'}' => return pos + 1,
            // In math a bare comma is punctuation, which TeX sets with a space after it:
            // `$[20, 200]$` is a list of two numbers, not twenty thousand two hundred.
            b',' if math => {
                block.push(",", self.source, pos..pos + 1);
                block.push(" ", self.source, pos + 1..pos + 1);
                return pos + 1;
            }
            b'\\' => return self.inline_command(block, pos, end, math),
            b'$' => {
                let display = self.bytes.get(pos + 1) == Some(&b'$');
                let open = if display { 2 } else { 1 };
                let close = self.math_end(pos + open, end, display);
                if !display && !math {
                    self.inline_range(block, pos + 1..close, true);
                } else {
                    block.push(" ", self.source, pos..pos);
                }
                return (close + open).min(end);
            }
            b'~' if !math => one("\u{a0}", 1),
            b'-' if !math && self.source[pos..end].starts_with("---") => one("—", 3),
            b'-' if !math && self.source[pos..end].starts_with("--") => one("–", 2),
            b'`' if self.source[pos..end].starts_with("``") => one("“", 2),
            b'\'' if self.source[pos..end].starts_with("''") => one("”", 2),
            b'&' => one(" ", 1),
            b'#' => return self.parameter(block, pos, end, math),
            b'^' if math => {
                block.push_char('^', pos..pos + 1);
                return self.script(block, pos + 1, end);
            }
            b'_' if math => {
                block.push_char('_', pos..pos + 1);
                return self.script(block, pos + 1, end);
            }
            b' ' | b'\t' | b'\r' | b'\n' if math => return pos + 1,
            _ => {
                // A run of plain text, as written.
                let mut k = pos;
                while k < end && !matches!(self.bytes[k], b'%' | b'{' | b'}' | b'\\' | b'$' | b'~' | b'-' | b'`' | b'\'' | b'&' | b'^' | b'_' | b'#' | b'\n') {
                    if math && (self.bytes[k].is_ascii_whitespace() || self.bytes[k] == b',') {
                        break;
                    }
                    k += 1;
                }
                if k == pos {
                    k = pos + self.source[pos..].chars().next().map_or(1, char::len_utf8);
                }
                block.push(&self.source[pos..k], self.source, pos..k);
                return k;
            }
        };
        emit(block, &text, self.source, range.clone());
        range.end
    }

    /// A superscript's or a subscript's argument at `pos`, read as math after its caret.
    fn script(&mut self, block: &mut Block, pos: usize, end: usize) -> usize {
        match self.argument(pos, end) {
            Some((arg, next)) => {
                self.inline_range(block, arg, true);
                next
            }
            None => pos,
        }
    }

    /// Where the math that begins at `pos` ends: its closing `$` (or `$$`).
    fn math_end(&self, pos: usize, end: usize, display: bool) -> usize {
        let mut k = pos;
        while k < end {
            match self.bytes[k] {
                b'\\' => k += 1 + self.source[k + 1..].chars().next().map_or(0, char::len_utf8),
                b'%' => k = self.skip_comment(k, end),
                b'$' if !display || self.bytes.get(k + 1) == Some(&b'$') => return k,
                _ => k += 1,
            }
        }
        end
    }

    /// Reads the command at `pos` into `block`; where reading goes on.
    fn inline_command(&mut self, block: &mut Block, pos: usize, end: usize, math: bool) -> usize {
        let (name_range, after) = self.command_at(pos, end);
        let name = self.name(&name_range);
        let word = name.bytes().next().is_some_and(|c| c.is_ascii_alphabetic());
        // TeX skips the spaces after a control word (and one line end); in math every space.
        let after_word = if word { self.skip_spaces(after, end) } else { after };
        let here = pos..after;
        if let Some(c) = match name {
            "%" | "&" | "$" | "#" | "_" | "{" | "}" => name.chars().next(),
            // `.\ ` is how an author says a stop ends no sentence (`et al.\ 2`): the space is
            // a no-break one, as `~` is, which the sentence splitter does not break at.
            " " if block.text.ends_with('.') => Some('\u{a0}'),
            " " | ";" | ":" | ">" => Some(' '),
            "," => Some('\u{2009}'),
            _ => None,
        } {
            block.push_char(c, here);
            return after;
        }
        match name {
            "!" | "/" | "-" | "@" | "" => return after,
            "\\" => {
                let next = self.star(after, end);
                let next = self.optional(next, end, b'[', b']').map_or(next, |(_, n)| n);
                block.push(" ", self.source, pos..pos);
                return next;
            }
            "(" => {
                let close = self.find_from(after, end, "\\)").unwrap_or(end);
                self.inline_range(block, after..close, true);
                return (close + 2).min(end);
            }
            "[" => {
                let close = self.find_from(after, end, "\\]").unwrap_or(end);
                block.push(" ", self.source, pos..pos);
                return (close + 2).min(end);
            }
            _ => {}
        }
        if let Some((_, pairs)) = ACCENTS.iter().find(|(a, _)| *a == name) {
            let Some((arg, next)) = self.argument(after, end) else { return after };
            // An accent over nothing (`\^{}`) is the accent's own character.
            let Some(base) = self.source[arg.clone()].trim_start_matches('\\').chars().next() else {
                block.push_char(name.chars().next().unwrap_or('^'), pos..next);
                return next;
            };
            let base = if base == 'ı' || self.name(&arg) == "\\i" { 'i' } else { base };
            let chars: Vec<char> = pairs.chars().collect();
            let composed = chars.chunks(2).find(|p| p[0] == base).map_or(base, |p| p[1]);
            block.push_char(composed, pos..next);
            return next;
        }
        if name == "sisetup" {
            let Some((options, next)) = self.argument(after, end) else { return after };
            self.rounding = self.rounding.with(&self.source[options]);
            return next;
        }
        // A document may make a symbol its own (`\def\approx{$\sim$}`): the page shows its.
        if self.macros.contains_key(name) && SYMBOLS.iter().any(|(s, _)| *s == name) {
            return self.user_macro(block, pos, after, after_word, end, math);
        }
        if let Some(&(_, text)) = SYMBOLS.iter().find(|(s, _)| *s == name) {
            // A symbol that is also one of siunitx's units (`\degree`) is the symbol here.
            emit(block, text, self.source, here);
            return after_word;
        }
        if let Some(&(_, spec)) = COMMANDS.iter().find(|(c, _)| *c == name) {
            return self.command_arguments(block, spec, after, end, math);
        }
        if let Some((test, next)) = self.test(name, after_word, end) {
            return match test {
                Some(false) => match self.skip_branch(next, end, true) {
                    (at, true) => {
                        self.conditionals.push(true);
                        at
                    }
                    (at, false) => at,
                },
                _ => {
                    self.conditionals.push(test.is_some());
                    next
                }
            };
        }
        // A switch set (`\drafttrue`) where the body sets it.
        if let Some((flag, state)) = switch_setter(name)
            && let Some(value) = self.flags.get_mut(flag)
        {
            *value = state;
            return after_word;
        }
        match name {
            "booltrue" | "boolfalse" | "toggletrue" | "togglefalse" | "setbool" | "settoggle" | "setboolean" => return self.set_switch(name, after, end),
            "ifbool" | "iftoggle" | "notbool" | "nottoggle" | "ifthenelse" => {
                // etoolbox's and ifthen's tests take their branches as arguments: the one the
                // switch chooses is read, both where the test is not one this reader decides.
                let Some((test, next)) = self.argument(after, end) else { return after };
                let Some((yes, next)) = self.argument(next, end) else { return next };
                let Some((no, next)) = self.argument(next, end) else { return next };
                let switch = if name == "ifthenelse" {
                    let inner = self.skip_blank(test.start, test.end);
                    let rest = &self.source[inner..test.end];
                    rest.strip_prefix("\\boolean")
                        .and_then(|_| self.argument(inner + "\\boolean".len(), test.end))
                        .and_then(|(flag, _)| self.flags.get(self.name(&flag).trim()).copied())
                } else {
                    self.flags.get(self.name(&test).trim()).map(|&on| on != name.starts_with("not"))
                };
                match switch {
                    Some(true) => self.inline_range(block, yes, math),
                    Some(false) => self.inline_range(block, no, math),
                    None => {
                        self.inline_range(block, yes, math);
                        block.push(" ", self.source, no.start..no.start);
                        self.inline_range(block, no, math);
                    }
                }
                return next;
            }
            "verb" | "lstinline" | "mintinline" => {
                let at = self.star(after, end);
                let at = if name == "verb" { at } else { self.optional(at, end, b'[', b']').map_or(at, |(_, n)| n) };
                // minted names the language first: `\mintinline{bash}{--width=2}`.
                let at = if name == "mintinline" { self.skip_arguments("m", at, end) } else { at };
                if let Some((text, next)) = self.verb_at(at, end) {
                    let start = block.text.len();
                    block.push(&self.source[text.clone()], self.source, text);
                    block.code.push(start..block.text.len());
                    return next;
                }
                after
            }
            "hskip" | "vskip" | "kern" | "mkern" | "mskip" => self.skip_dimension(after, end),
            "else" => {
                // The end of a branch the reader chose: the other one, up to the `\fi`, is not
                // on the page.
                if self.conditionals.last() == Some(&true) {
                    self.conditionals.pop();
                    return self.skip_branch(after, end, false).0;
                }
                after_word
            }
            "fi" => {
                self.conditionals.pop();
                after_word
            }
            "futurelet" => {
                // `\futurelet\token\next` (a macro that peeks at what follows, as `\onedot`
                // does) names the peeked token and goes on with `\next`, read as it comes.
                let k = self.skip_blank(after, end);
                if self.bytes.get(k) == Some(&b'\\') && k < end { self.command_at(k, end).1 } else { after_word }
            }
            "def" | "gdef" | "edef" | "xdef" | "let" => {
                // A definition in the body prints nothing: its name, its parameters (`#1`) and
                // its body, or for `\let` the name it copies.
                let k = self.skip_blank(after, end);
                let k = if self.bytes.get(k) == Some(&b'\\') && k < end { self.command_at(k, end).1 } else { return after_word };
                if name == "let" {
                    let k = self.skip_blank(k, end);
                    let k = if self.bytes.get(k) == Some(&b'=') { self.skip_blank(k + 1, end) } else { k };
                    return if self.bytes.get(k) == Some(&b'\\') && k < end {
                        self.command_at(k, end).1
                    } else {
                        (k + self.source[k..].chars().next().map_or(1, char::len_utf8)).min(end)
                    };
                }
                let Some(open) = self.source[k..end].find('{').map(|i| k + i) else { return end };
                self.closing_brace(open, end).map_or(end, |close| close + 1)
            }
            "ding" => {
                // pifont's dingbats, by their ZapfDingbats code: a mark, not the number.
                let Some((code, next)) = self.argument(after, end) else { return after };
                let mark = match self.name(&code).trim() {
                    "51" | "52" => '✓',
                    "53" | "54" | "55" | "56" => '✗',
                    "108" => '●',
                    "109" => '○',
                    "110" | "111" | "112" => '■',
                    "113" | "114" => '□',
                    _ => '•',
                };
                block.push_char(mark, pos..next);
                next
            }
            "frac" | "dfrac" | "tfrac" | "cfrac" | "nicefrac" | "sfrac" | "xfrac" => {
                let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
                let Some((top, next)) = self.argument(at, end) else { return after };
                let Some((bottom, next)) = self.argument(next, end) else { return after };
                self.inline_range(block, top, true);
                block.push_char('/', pos..after);
                self.inline_range(block, bottom, true);
                next
            }
            "sqrt" => {
                let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
                block.push_char('√', pos..after);
                self.script(block, at, end)
            }
            "includegraphics" => {
                let at = self.optional(self.star(after, end), end, b'[', b']').map_or(self.star(after, end), |(_, n)| n);
                let Some((path, next)) = self.argument(at, end) else { return after };
                self.images.push(self.source[path].trim().to_string());
                next
            }
            // What these bring in is spliced in before reading ([`super::inputs`]); one left
            // here could not be read and was warned of there, or `\includeonly` names files.
            "input" | "include" | "subfile" | "import" | "subimport" | "includeonly" => {
                if name == "input" && self.bytes.get(self.skip_blank(after, end)) != Some(&b'{') {
                    // TeX's own form, `\input intro`: the name runs to a space.
                    let from = self.skip_blank(after, end);
                    return super::inputs::bare_name_end(self.bytes, from, end);
                }
                self.skip_arguments(if name.ends_with("import") { "mm" } else { "m" }, after, end)
            }
            "LTXtable" => self.skip_arguments("mm", after, end),
            "InputIfFileExists" => {
                let next = self.skip_arguments("mmm", after, end);
                self.warn(
                    pos..next,
                    format!("not read: `{}` brings in text from another file (flatten the document, with `latexpand` for one, to audit it whole)", &self.source[pos..next]),
                );
                next
            }
            "SI" | "qty" | "num" | "tablenum" | "numproduct" | "ang" | "SIrange" | "qtyrange" | "numrange" | "SIlist" | "qtylist" | "numlist" => {
                // The command's own options (`\num[round-precision=1]{4.25}`) round its numbers.
                let options = self.optional(after, end, b'[', b']').map(|(o, _)| self.source[o].to_string());
                let outer = self.local_rounding.replace(options.map_or(self.rounding, |o| self.rounding.with(&o)));
                let next = self.siunitx_number(block, name, pos, after, end);
                self.local_rounding = outer;
                next
            }
            "si" | "unit" => {
                let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
                let Some((unit, next)) = self.argument(at, end) else { return after };
                self.si_unit(block, unit);
                next
            }
            "begin" => {
                // An environment inside inline text (a `tabular` in a cell, for line breaks):
                // its text, its cells and rows as spaces.
                let Some((env, body)) = self.environment_name(after, end) else { return after };
                let env = self.name(&env).trim();
                let verbatim = CODE_ENVIRONMENTS.iter().any(|(n, _)| *n == env);
                let Some((body_end, next)) = self.environment_end(env, body, end, verbatim) else { return end };
                if !verbatim && !SKIPPED_ENVIRONMENTS.contains(&env) {
                    let spec = TABULARS.iter().find(|(n, _)| *n == env).map(|(_, s)| *s).unwrap_or("");
                    let start = self.skip_arguments(spec, body, body_end);
                    self.inline_range(block, start..body_end, math);
                }
                block.push(" ", self.source, next..next);
                next
            }
            "end" => self.argument(after, end).map_or(after, |(_, n)| n),
            "multicolumn" => self.command_arguments(block, "mmT", after, end, math),
            "multirow" => self.command_arguments(block, "omomT", after, end, math),
            "item" => {
                block.push(" ", self.source, pos..pos);
                self.optional(after, end, b'[', b']').map_or(after_word, |(label, next)| {
                    self.inline_range(block, label, math);
                    next
                })
            }
            _ => self.user_macro(block, pos, after, after_word, end, math),
        }
    }

    /// A TeX dimension at `pos` (`2pt`, `-0.5\baselineskip`, `1em plus 2pt minus 1pt`), which
    /// a spacing primitive takes without braces: where it ends.
    fn skip_dimension(&self, pos: usize, end: usize) -> usize {
        let mut k = pos;
        loop {
            k = self.skip_blank(k, end);
            let digits = k;
            while k < end && matches!(self.bytes[k], b'+' | b'-' | b'.' | b',' | b'0'..=b'9' | b' ') {
                k += 1;
            }
            // A number and a space end a count (`\penalty=10000 \tabcolsep`): the command after
            // them is not its unit, as `0.5\textwidth`'s is.
            if k > digits && self.bytes[k - 1] == b' ' && self.bytes[digits..k].iter().any(u8::is_ascii_digit) && self.bytes.get(k) == Some(&b'\\') {
                return k;
            }
            if self.bytes.get(k) == Some(&b'\\') && k < end {
                k = self.command_at(k, end).1;
            } else {
                while k < end && self.bytes[k].is_ascii_lowercase() && k - pos < 64 {
                    k += 1;
                }
            }
            let rest = &self.source[self.skip_blank(k, end).min(end)..end];
            if rest.starts_with("plus") || rest.starts_with("minus") {
                k = self.skip_blank(k, end) + if rest.starts_with("plus") { 4 } else { 5 };
            } else {
                return k;
            }
        }
    }

    /// Sets the etoolbox or ifthen switch that `\name` and its arguments at `pos` name
    /// (`\booltrue{long}`, `\setbool{long}{false}`, `\setboolean{long}{true}`), where the
    /// document defines it. Where reading goes on.
    fn set_switch(&mut self, name: &str, pos: usize, end: usize) -> usize {
        let Some((flag, next)) = self.argument(pos, end) else { return pos };
        let (state, next) = match name {
            "booltrue" | "toggletrue" => (true, next),
            "boolfalse" | "togglefalse" => (false, next),
            _ => match self.argument(next, end) {
                Some((value, next)) => (self.name(&value).trim() == "true", next),
                None => return next,
            },
        };
        if let Some(value) = self.flags.get_mut(self.name(&flag).trim()) {
            *value = state;
        }
        next
    }

    /// The test of the conditional `\name` (the spaces after it ending at `after_word`), where it is one:
    /// `Some(truth)` where this reader decides it, `None` where it reads both branches, and
    /// where the branch begins. `\if` compares the next two characters as TeX does, a space
    /// after the first one counting (`\if 0 ` is false, the idiom that switches text off).
    fn test(&self, name: &str, after_word: usize, end: usize) -> Option<(Option<bool>, usize)> {
        match name {
            "iftrue" => Some((Some(true), after_word)),
            "iffalse" => Some((Some(false), after_word)),
            "if" => {
                let first = self.source[after_word.min(end)..end].chars().next();
                let second = first.and_then(|c| self.source[after_word + c.len_utf8()..end].chars().next());
                match (first, second) {
                    (Some(a), Some(b)) if a != '\\' && b != '\\' => {
                        let b = if b.is_whitespace() { ' ' } else { b };
                        Some((Some(a == b), after_word + a.len_utf8() + b.len_utf8()))
                    }
                    _ => Some((None, after_word)),
                }
            }
            // `\ifx` compares the next two tokens and `\ifdefined` tests the next one: they are
            // the test's, not text, whichever branch is read.
            "ifx" | "ifdefined" => {
                let mut k = after_word;
                for _ in 0..if name == "ifx" { 2 } else { 1 } {
                    k = match self.source[k.min(end)..end].chars().next() {
                        Some('\\') => self.command_at(k, end).1,
                        Some(c) => k + c.len_utf8(),
                        None => k,
                    };
                }
                Some((None, k))
            }
            _ if UNDECIDED_CONDITIONALS.contains(&name) => Some((None, after_word)),
            _ => {
                let flag = name.strip_prefix("if")?;
                self.flags.get(flag).map(|state| (Some(*state), after_word))
            }
        }
    }

    /// Whether `\name` opens a conditional that a `\fi` closes: one [`Reader::test`] reads.
    fn is_conditional(&self, name: &str) -> bool {
        matches!(name, "iftrue" | "iffalse" | "if") || UNDECIDED_CONDITIONALS.contains(&name) || name.strip_prefix("if").is_some_and(|f| self.flags.contains_key(f))
    }

    /// Skips a branch that is not read, from `pos` to the `\fi` that closes its conditional
    /// (or, with `to_else`, to its `\else` where it has one), conditionals inside it counted:
    /// where reading goes on, and whether it stopped at an `\else`. A conditional never
    /// closed is skipped to the end.
    fn skip_branch(&self, pos: usize, end: usize, to_else: bool) -> (usize, bool) {
        let mut depth = 0usize;
        let mut k = pos;
        while let Some((piece, next)) = self.next_piece(k, end) {
            k = next;
            let Piece::Command(_, name) = piece else { continue };
            match self.name(&name) {
                "fi" if depth == 0 => return (next, false),
                "fi" => depth -= 1,
                "else" if depth == 0 && to_else => return (next, true),
                other if self.is_conditional(other) => depth += 1,
                _ => {}
            }
        }
        (end, false)
    }

    /// Spaces after a control word, and one line end, as TeX skips them: where they end.
    fn skip_spaces(&self, pos: usize, end: usize) -> usize {
        let mut k = pos;
        while k < end && matches!(self.bytes[k], b' ' | b'\t') {
            k += 1;
        }
        if k < end && self.bytes[k] == b'\n' && !self.blank_line_after(k, end) {
            k += 1;
            while k < end && matches!(self.bytes[k], b' ' | b'\t') {
                k += 1;
            }
        }
        k
    }

    /// Reads the arguments `spec` gives a known command at `pos` (see [`COMMANDS`]).
    fn command_arguments(&mut self, block: &mut Block, spec: &str, mut pos: usize, end: usize, math: bool) -> usize {
        pos = self.star(pos, end);
        for kind in spec.chars() {
            let arg = match kind {
                'o' => {
                    pos = self.optional(pos, end, b'[', b']').map_or(pos, |(_, n)| n);
                    continue;
                }
                'p' => {
                    pos = self.optional(pos, end, b'(', b')').map_or(pos, |(_, n)| n);
                    continue;
                }
                's' => {
                    pos = self.star(pos, end);
                    continue;
                }
                'U' | 'u' => self.verbatim_argument(pos, end),
                _ => self.argument(pos, end),
            };
            let Some((arg, next)) = arg else { return pos };
            pos = next;
            let start = block.text.len();
            match kind {
                // Text inside math (`\text{ms}`) is text: its spaces count.
                'T' => self.inline_range(block, arg, false),
                'M' => self.inline_range(block, arg, true),
                '^' => {
                    block.push_char('^', arg.start.saturating_sub(1)..arg.start);
                    self.inline_range(block, arg, math);
                }
                'C' => {
                    self.inline_range(block, arg, false);
                    block.code.push(start..block.text.len());
                }
                'U' if self.source[arg.clone()].contains('#') && !self.expanding.is_empty() => {
                    let raw = self.raw(arg.clone());
                    emit(block, &raw, self.source, arg);
                    block.code.push(start..block.text.len());
                }
                'U' => {
                    block.push(&self.source[arg.clone()], self.source, arg);
                    block.code.push(start..block.text.len());
                }
                'K' | 'B' => {
                    let raw = self.raw(arg.clone());
                    let keys: Vec<&str> = raw.split(',').map(str::trim).filter(|k| !k.is_empty()).collect();
                    let shown = if kind == 'B' { format!("[{}]", keys.join(", ")) } else { keys.join(", ") };
                    emit(block, &shown, self.source, arg);
                    block.code.push(start..block.text.len());
                }
                'L' => {
                    self.inline_range(block, arg, math);
                    block.links.push(start..block.text.len());
                }
                // A note is read as a block of its own once the text around it ends, outside
                // any expansion; one inside a macro's body is not read, since reading it there
                // would expand the macro again, outside the guard against its recursion.
                'N' if self.expanding.is_empty() => self.notes.push(arg),
                _ => {}
            }
        }
        pos
    }

    /// Whether a macro's `body` ends with `\xspace`, or with a macro whose body does (a few
    /// levels deep, as `\eg`'s `\onedot` and its `\@onedot` do).
    fn ends_with_xspace(&self, body: Range<usize>, depth: usize) -> bool {
        let text = self.source[body].trim_end();
        if text.ends_with("\\xspace") {
            return true;
        }
        let Some(at) = text.rfind('\\') else { return false };
        let name = &text[at + 1..];
        depth < 4
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphabetic() || b == b'@')
            && self.macros.get(name).is_some_and(|m| m.arguments == 0 && self.ends_with_xspace(m.body.clone(), depth + 1))
    }

    /// The text of `range` as written, each parameter (`#1`) of the macro being expanded
    /// replaced by its argument as written: what a key or an address in a macro's body
    /// (`\ref{tab:#1}`) is at its use.
    fn raw(&self, range: Range<usize>) -> String {
        let text = &self.source[range];
        let Some((_, frame)) = self.expanding.last().filter(|_| text.contains('#')) else { return text.to_string() };
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find('#') {
            out.push_str(&rest[..i]);
            let digit = rest[i + 1..].bytes().next().filter(u8::is_ascii_digit).map(|d| usize::from(d - b'0'));
            match digit.and_then(|d| d.checked_sub(1)).and_then(|d| frame.get(d)) {
                Some(arg) => out.push_str(self.source[arg.clone()].trim()),
                None if digit.is_some() => {}
                None => out.push('#'),
            }
            rest = &rest[i + 1 + usize::from(digit.is_some())..];
        }
        out.push_str(rest);
        out
    }

    /// A command no table here names: a macro the document defines is its expansion, its
    /// arguments read where its body has `#1` to `#9`, every character at the command and its
    /// arguments; any other prints nothing, its optional argument skipped, and the groups after
    /// it are read as text as they come.
    fn user_macro(&mut self, block: &mut Block, pos: usize, after: usize, after_word: usize, end: usize, math: bool) -> usize {
        let name = self.name(&(pos + 1..after));
        let Some(Macro { body, arguments, default }) = self.macros.get(name).cloned() else {
            // An assignment to a register (`\tabcolsep=3pt`, `\interfootnotelinepenalty=10000`)
            // prints nothing, its value included.
            let k = self.skip_blank(after, end);
            if self.bytes.get(k) == Some(&b'=') && k < end {
                return self.skip_dimension(k + 1, end);
            }
            // `\sys{}` is how a paper uses a macro that prints a name: one defined in a file
            // not read (a main file's preamble, a package of the paper's own) prints nothing
            // here, which is said once a name.
            if self.source[after..end].starts_with("{}") && name.bytes().all(|b| b.is_ascii_alphabetic()) && self.undefined.insert(name.to_string()) {
                self.warn(
                    pos..after + 2,
                    format!(
                        "not read: `\\{name}` is defined in no file read, so it prints nothing here (define it in a file the manuscript brings in, or in the manuscript)"
                    ),
                );
            }
            // In math a command this reader does not know is a symbol or an operator it does
            // not print: a space keeps the digits around it apart (`$10 \oslash 2$`).
            if math {
                block.push(" ", self.source, pos..pos);
            }
            return self.optional(after, end, b'[', b']').map_or(after_word, |(_, n)| n);
        };
        // The arguments, each a range of the source at the use: an optional first one takes
        // its default where the use gives none; a missing one is empty.
        let mut next = if arguments > 0 { after } else { after_word };
        let mut frame = Vec::new();
        if let Some(default) = default {
            let (given, at) = self.optional(next, end, b'[', b']').map_or((default, next), |(given, at)| (given, at));
            frame.push(given);
            next = at;
        }
        while frame.len() < arguments {
            let (arg, at) = self.argument(next, end).unwrap_or((next..next, next));
            frame.push(arg);
            next = at;
        }
        // A macro met again inside its own expansion would, with no conditional read to end
        // it, loop for ever in TeX too: it prints nothing there.
        let name = name.to_string();
        if self.expanded >= MAX_EXPANDED && !self.budget_warned {
            self.budget_warned = true;
            self.warn(pos..next.max(after), format!("not read: macros print nothing from here on, as their expansions reached {} MiB", MAX_EXPANDED >> 20));
        }
        if self.expanded >= MAX_EXPANDED || self.depth >= MAX_DEPTH || self.expanding.iter().any(|(active, _)| *active == name) {
            return next;
        }
        self.expanded += body.len() + 1;
        let mut expansion = Block::new(&[], false);
        self.expanding.push((name, frame));
        self.inline_range(&mut expansion, body.clone(), math);
        self.expanding.pop();
        let start = block.text.len();
        emit(block, &expansion.text, self.source, pos..next.max(after));
        block.code.extend(expansion.code.iter().map(|c| start + c.start..start + c.end));
        // `\xspace` puts back the space TeX skipped after the macro's name, also where the
        // body ends with a macro that ends with it (`\eg` with `\onedot`).
        if arguments == 0 && after_word > after && self.ends_with_xspace(body, 0) {
            block.push(" ", self.source, after..after);
        }
        next
    }

    /// A macro's parameter at `pos` (`#1`, in a body being expanded): the argument it stands
    /// for, read where the macro was used, as TeX reads it; `##` is a `#`. Where reading goes on.
    fn parameter(&mut self, block: &mut Block, pos: usize, end: usize, math: bool) -> usize {
        let next = self.bytes.get(pos + 1).copied().filter(|_| pos + 1 < end);
        match next {
            Some(b'#') => {
                block.push_char('#', pos..pos + 2);
                pos + 2
            }
            Some(d @ b'1'..=b'9') if !self.expanding.is_empty() => {
                // The argument is read where the macro was used: outside its expansion, so
                // that the macro may stand in its own argument (`\b{\b{x}}`).
                let innermost = self.expanding.pop();
                if let Some(arg) = innermost.as_ref().and_then(|(_, args)| args.get(usize::from(d - b'1'))).filter(|_| self.expanded < MAX_EXPANDED) {
                    self.expanded += arg.len() + 1;
                    self.inline_range(block, arg.clone(), math);
                }
                self.expanding.extend(innermost);
                pos + 2
            }
            _ => {
                block.push_char('#', pos..pos + 1);
                pos + 1
            }
        }
    }

    /// siunitx's `\SI[options]{value}[pre-unit]{unit}` or `\qty[options]{value}{unit}`, its
    /// name ending at `after`.
    fn quantity(&mut self, block: &mut Block, after: usize, end: usize, si: bool) -> usize {
        let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
        let Some((value, next)) = self.argument(at, end) else { return after };
        let (pre, next) = match si.then(|| self.optional(next, end, b'[', b']')).flatten() {
            Some((pre, n)) => (Some(pre), n),
            None => (None, next),
        };
        let Some((unit, next)) = self.argument(next, end) else { return after };
        if let Some(pre) = pre {
            self.si_unit(block, pre);
        }
        self.si_value(block, value);
        self.unit_after_value(block, unit);
        next
    }

    /// siunitx's commands that print numbers (`\SI`, `\qty`, `\num`, `\ang`, ranges and
    /// lists), `\name` standing at `pos` and its name ending at `after`, read with the rounding
    /// [`Reader::local_rounding`] gives. Where reading goes on.
    fn siunitx_number(&mut self, block: &mut Block, name: &str, pos: usize, after: usize, end: usize) -> usize {
        match name {
            "SI" | "qty" => self.quantity(block, after, end, name == "SI"),
            "num" | "tablenum" | "numproduct" => {
                let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
                let Some((value, next)) = self.argument(at, end) else { return after };
                self.si_value(block, value);
                next
            }
            "ang" => {
                let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
                let Some((value, next)) = self.argument(at, end) else { return after };
                self.si_value(block, value);
                block.push_char('°', pos..after);
                next
            }
            "SIrange" | "qtyrange" | "numrange" => {
                let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
                let Some((low, next)) = self.argument(at, end) else { return after };
                let Some((high, next)) = self.argument(next, end) else { return after };
                let unit = if name == "numrange" { None } else { self.argument(next, end) };
                let next = unit.as_ref().map_or(next, |(_, n)| *n);
                self.si_value(block, low);
                if let Some((unit, _)) = &unit {
                    self.unit_after_value(block, unit.clone());
                }
                emit(block, " to ", self.source, pos..after);
                self.si_value(block, high);
                if let Some((unit, _)) = unit {
                    self.unit_after_value(block, unit);
                }
                next
            }
            "SIlist" | "qtylist" | "numlist" => {
                let at = self.optional(after, end, b'[', b']').map_or(after, |(_, n)| n);
                let Some((values, next)) = self.argument(at, end) else { return after };
                let unit = if name == "numlist" { None } else { self.argument(next, end) };
                let next = unit.as_ref().map_or(next, |(_, n)| *n);
                let items: Vec<Range<usize>> = split_on(self.source, values, b';');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        let joiner = if k + 1 == items.len() { " and " } else { ", " };
                        emit(block, joiner, self.source, pos..after);
                    }
                    self.si_value(block, item.clone());
                    if let Some((unit, _)) = &unit {
                        self.unit_after_value(block, unit.clone());
                    }
                }
                next
            }
            _ => after,
        }
    }

    /// A unit after a value: a space between, except before `°` (and `′`, `″`), as siunitx
    /// sets angles.
    fn unit_after_value(&mut self, block: &mut Block, unit: Range<usize>) {
        let mut text = Block::new(&[], false);
        self.si_unit(&mut text, unit.clone());
        if !text.text.starts_with('°') && !text.text.is_empty() {
            block.push(" ", self.source, unit.start..unit.start);
        }
        block.append(&text);
    }

    /// A siunitx value as siunitx prints it: its digits, sign and decimal marker as written
    /// (a decimal comma as a point), `+-` as `±`, `x` as `×`, an exponent as written (`1.2e3`),
    /// spaces and braces dropped.
    fn si_value(&mut self, block: &mut Block, range: Range<usize>) {
        let rounding = self.local_rounding.unwrap_or(self.rounding);
        let mut k = range.start;
        while k < range.end {
            let rest = &self.source[k..range.end];
            let c = rest.chars().next().unwrap_or(' ');
            let n = c.len_utf8();
            // A number siunitx rounds shows its rounded digits, made by the command; an
            // exponent's digits are not rounded.
            if rounding.figures.is_some() && (c.is_ascii_digit() || c == '.') && !block.text.ends_with(['e', 'E']) {
                let run = rest.find(|ch: char| !(ch.is_ascii_digit() || ch == '.' || ch == ',')).unwrap_or(rest.len());
                if let Some(rounded) = rounding.round(&rest[..run].replace(',', ".")) {
                    emit(block, &rounded, self.source, k..k + run);
                    k += run;
                    continue;
                }
            }
            // siunitx's compact uncertainty (`12.3(4)`) is in the value's last digits: it is
            // printed here as siunitx's separate form prints it, `12.3 ± 0.4`, which reads as a
            // value and its spread in one unit.
            if c == '('
                && let Some(close) = rest.find(')')
                && let Some(spread) = compact_uncertainty(&block.text, &rest[1..close])
            {
                emit(block, &format!(" ± {spread}"), self.source, k..k + close + 1);
                k += close + 1;
                continue;
            }
            if rest.starts_with("+-") {
                emit(block, " ± ", self.source, k..k + 2);
                k += 2;
            } else if rest.starts_with("\\pm") {
                emit(block, " ± ", self.source, k..k + 3);
                k += 3;
            } else if rest.starts_with("\\times") {
                emit(block, " × ", self.source, k..k + 6);
                k += 6;
            } else if c == '\\' {
                let (_, after) = self.command_at(k, range.end);
                k = after;
            } else if c == 'x' {
                emit(block, " × ", self.source, k..k + 1);
                k += 1;
            } else if c == ',' {
                block.push_char('.', k..k + 1);
                k += 1;
            } else if c.is_whitespace() || c == '{' || c == '}' || c == '~' {
                k += n;
            } else {
                block.push(&self.source[k..k + n], self.source, k..k + n);
                k += n;
            }
        }
    }

    /// A siunitx unit as siunitx prints it (with `per-mode = symbol`): prefixes on their
    /// units, units apart, `\per` as `/`, powers with a caret; a unit written as text
    /// (`{GB/s}`) as written; a unit the document declares (`\DeclareSIUnit`) its symbol.
    fn si_unit(&mut self, block: &mut Block, range: Range<usize>) {
        let mut k = range.start;
        let mut after_unit = false;
        let mut power_next: Option<&str> = None;
        while k < range.end {
            let c = self.bytes[k];
            if c != b'\\' {
                let n = self.source[k..].chars().next().map_or(1, char::len_utf8);
                match c {
                    b'{' | b'}' => {}
                    b'.' | b'~' => block.push(" ", self.source, k..k),
                    b' ' | b'\t' | b'\n' | b'\r' => {}
                    _ => block.push(&self.source[k..k + n], self.source, k..k + n),
                }
                after_unit = !matches!(c, b'/' | b'.' | b'~' | b' ' | b'{' | b'}');
                k += n;
                continue;
            }
            let (name, after) = self.command_at(k, range.end);
            let name = self.name(&name);
            let here = k..after;
            k = after;
            if let Some((_, p)) = SI_PREFIXES.iter().find(|(n, _)| *n == name) {
                if after_unit {
                    block.push(" ", self.source, here.start..here.start);
                }
                emit(block, p, self.source, here);
                after_unit = false;
                continue;
            }
            let symbol = SI_UNITS.iter().find(|(n, _)| *n == name).map(|(_, s)| s.to_string()).or_else(|| self.units.get(name).map(|r| self.source[r.clone()].to_string()));
            match (name, symbol) {
                ("per", _) => {
                    emit(block, "/", self.source, here);
                    after_unit = false;
                }
                ("squared", _) => emit(block, "^2", self.source, here),
                ("cubed", _) => emit(block, "^3", self.source, here),
                ("square", _) => power_next = Some("^2"),
                ("cubic", _) => power_next = Some("^3"),
                ("tothe" | "raiseto", _) => {
                    let Some((power, next)) = self.argument(k, range.end) else { continue };
                    k = next;
                    if name == "tothe" {
                        block.push_char('^', here);
                        block.push(&self.source[power.clone()], self.source, power);
                    }
                }
                ("cdot" | "," | " ", _) => {
                    block.push(" ", self.source, here.start..here.start);
                    after_unit = false;
                }
                ("text" | "mathrm" | "textrm" | "mbox", _) => {
                    if let Some((text, next)) = self.argument(k, range.end) {
                        self.inline_range(block, text, false);
                        k = next;
                    }
                }
                (_, Some(symbol)) => {
                    // A unit after a unit is a product: siunitx sets a space between.
                    let previous_prefix = block.text.ends_with(|c: char| !c.is_whitespace() && c != '/') && !after_unit;
                    if after_unit && !previous_prefix {
                        block.push(" ", self.source, here.start..here.start);
                    }
                    let text = match self.units.get(name) {
                        Some(r) => {
                            let r = r.clone();
                            let mut inner = Block::new(&[], false);
                            self.inline_range(&mut inner, r, false);
                            inner.text
                        }
                        None => symbol,
                    };
                    emit(block, &text, self.source, here);
                    if let Some(p) = power_next.take() {
                        emit(block, p, self.source, k..k);
                    }
                    after_unit = true;
                }
                _ if self.macros.get(name).is_some_and(|m| m.arguments == 0) => {
                    let mut inner = Block::new(&[], false);
                    k = self.inline_command(&mut inner, here.start, range.end, false);
                    emit(block, &inner.text, self.source, here);
                }
                // A unit no one declared: siunitx stops there; its name is the nearest text.
                _ => emit(block, name, self.source, here),
            }
        }
    }
}

/// A piece of the source that matters for structure (see [`Reader::next_piece`]).
#[derive(Debug, Clone)]
enum Piece {
    Open(usize),
    Close(usize),
    Command(usize, Range<usize>),
    Char(usize),
}

/// The switch a `\newif` setter names and the state it sets: `\drafttrue` sets `draft` on.
fn switch_setter(name: &str) -> Option<(&str, bool)> {
    name.strip_suffix("true").map(|f| (f, true)).or_else(|| name.strip_suffix("false").map(|f| (f, false)))
}

/// The uncertainty `written` in parentheses after a value that `shown` ends with, in the
/// value's own unit: digits alone count in the value's last place (`12.3(4)` is 0.4, `1.234(56)`
/// 0.056), digits with a decimal point are already in its unit (`12.3(0.4)`); `None` where
/// either is no plain decimal.
fn compact_uncertainty(shown: &str, written: &str) -> Option<String> {
    let written = written.trim();
    let value = &shown[shown.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.').len()..];
    if value.is_empty() || written.is_empty() || !written.bytes().all(|b| b.is_ascii_digit() || b == b'.') || written.matches('.').count() > 1 {
        return None;
    }
    if written.contains('.') {
        return Some(written.to_string());
    }
    let places = value.split_once('.').map_or(0, |(_, fraction)| fraction.len());
    let padded = format!("{written:0>width$}", width = places + 1);
    let (whole, fraction) = padded.split_at(padded.len() - places);
    Some(if places == 0 { whole.to_string() } else { format!("{whole}.{fraction}") })
}

/// Appends `text`, which LaTeX makes of `source[range]`: byte for byte where the source holds
/// it as written, else every character at the command that made it, the last ending where the
/// command ends, so that a number whose unit a command makes (`\SI{4.2}{\micro\second}`)
/// spans the command whole.
fn emit(block: &mut Block, text: &str, source: &str, range: Range<usize>) {
    if source.get(range.clone()) == Some(text) {
        block.push(text, source, range);
        return;
    }
    let n = text.chars().count();
    for (k, ch) in text.chars().enumerate() {
        if k + 1 == n && range.end > range.start {
            block.push_char(ch, range.end - 1..range.end);
        } else {
            block.push_char(ch, range.clone());
        }
    }
}

/// The unit a caption states for its table, as a label that states it (`(seconds)`): the last
/// group in parentheses that is a unit and nothing else, wherever it stands, since a caption is
/// a sentence (`median runtime (seconds) by problem family`) and not a header.
fn caption_unit(caption: &str) -> Option<String> {
    let mut found = None;
    for (open, _) in caption.match_indices('(') {
        let Some(close) = caption[open..].find(')') else { continue };
        let label = &caption[open..open + close + 1];
        if super::numbers::unit_in_label(label).is_some() {
            found = Some(label.to_string());
        }
    }
    found
}

/// Where a comment begins in `line` (a `%` no backslash escapes).
pub(super) fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 2,
            b'%' => return Some(k),
            _ => k += 1,
        }
    }
    None
}

/// `range` of `source` split at each `separator` outside braces, each piece trimmed.
fn split_on(source: &str, range: Range<usize>, separator: u8) -> Vec<Range<usize>> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, range.start);
    for k in range.clone() {
        match bytes[k] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            c if c == separator && depth == 0 => {
                out.push(start..k);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(start..range.end);
    out.into_iter()
        .map(|r| {
            let piece = &source[r.clone()];
            let lead = piece.len() - piece.trim_start().len();
            r.start + lead..r.start + piece.trim_end().len()
        })
        .filter(|r| r.start < r.end)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::numbers::Bound;
    use super::super::{Article, Syntax};

    fn parse(source: &str) -> Article {
        Article::parse_as("a.tex", source.as_bytes(), Syntax::Latex).unwrap()
    }

    fn texts(a: &Article) -> Vec<&str> {
        a.sentences.iter().map(|s| s.text.as_str()).collect()
    }

    /// Every sentence's span, as the source writes it.
    fn spans(a: &Article) -> Vec<&str> {
        a.sentences.iter().map(|s| &a.source[s.span.clone()]).collect()
    }

    #[test]
    fn the_preamble_is_not_read_and_paragraphs_end_at_blank_lines() {
        let a = parse(
            "\\documentclass{article}\n\\usepackage{siunitx}\n\\title{A 2024 paper}\n\\begin{document}\n\\maketitle\nThe copy runs at 3.2~ms. It is fast.\n% a comment with 7 ms\nStill the same paragraph.\n\nA new one.\n\\end{document}\nAfter the end 9 ms.\n",
        );
        assert_eq!(texts(&a), ["The copy runs at 3.2 ms.", "It is fast.", "Still the same paragraph.", "A new one."]);
        assert!(a.sentences.iter().all(|s| s.section.is_empty()));
        assert_eq!(a.sentences[0].numbers[0].text, "3.2 ms");
        assert_eq!(spans(&a)[0], "The copy runs at 3.2~ms.");
        assert_eq!((a.sentences[2].line, a.sentences[2].col), (8, 1));
    }

    #[test]
    fn the_abstract_names_its_sentences_and_no_others() {
        let a = parse("\\begin{document}\n\\begin{abstract}\nIt is 2.5× faster.\n\\end{abstract}\nBefore any section.\n\\section{Intro}\nIn it.\n\\end{document}\n");
        let sections: Vec<String> = a.sentences.iter().map(|s| s.section_title()).collect();
        assert_eq!(sections, ["Abstract", "", "Intro"]);
    }

    #[test]
    fn sections_name_sentences() {
        let a = parse("\\section{Results}\nFused wins.\n\\subsection*[short]{On the H200}\nBy 2\\,\\%.\n\\section{End}\nDone.\n\\paragraph{Memory.} It holds.\n");
        let sections: Vec<String> = a.sentences.iter().map(|s| s.section_title()).collect();
        assert_eq!(sections, ["Results", "Results › On the H200", "End", "End › Memory"]);
        assert_eq!(texts(&a)[1], "By 2 %.");
    }

    #[test]
    fn math_symbols_and_siunitx_read_as_printed() {
        let a = parse(
            "Ours is $2.3\\times$ faster, at \\SI{4.2}{\\micro\\second} and \\qty{1.5}{\\giga\\byte\\per\\second}, $\\pm 0.3$~ms, about \\num{1.2e3} calls, $2^{15}$ rows, \\SIrange{1}{2}{\\ms} and \\SI{50}{\\percent}.\n",
        );
        assert_eq!(texts(&a), ["Ours is 2.3× faster, at 4.2 µs and 1.5 GB/s, ±0.3 ms, about 1.2e3 calls, 2^15 rows, 1 ms to 2 ms and 50 %."]);
        let numbers: Vec<&str> = a.sentences[0].numbers.iter().map(|n| n.text.as_str()).collect();
        // `±` before a number is no sign: the number is the deviation.
        assert_eq!(numbers, ["2.3×", "4.2 µs", "1.5 GB/s", "0.3 ms", "1.2e3", "2^15", "1 ms", "2 ms", "50 %"]);
        // A number made by a command points at the command.
        let s = &a.sentences[0];
        let us = &s.numbers[1];
        assert_eq!(&a.source[s.source_span(&us.span)], "4.2}{\\micro\\second");
    }

    /// The forms LaTeX authors write a bound in are decoded to the comparator the number
    /// reader takes into the number: `$<$0.05`, `$p<0.05$`, `\textless`, `\textgreater`,
    /// `\le`, `\leq`, `\ge`, `\geq` and `$\leq$ 2`, with the math's spaces dropped as TeX drops
    /// them; `\ll` (much less) is no bound.
    #[test]
    fn comparators_in_math_and_text_make_bounds() {
        let a = parse(
            "zdt1 & \\textbf{0.976} & $<$0.0001 \\\\\nAll $p<0.05$ and $p < 0.01$, \\textless 0.001 and \\textgreater{}10 runs.\n\nIt takes $\\le 2$~µs, $\\leq$ 3~ms, $n \\geq 30$, $\\ge 95\\%$ and $\\ll 1$.\n",
        );
        let bounds: Vec<(&str, Option<Bound>)> = a.sentences.iter().flat_map(|s| s.numbers.iter().map(|n| (n.text.as_str(), n.bound))).collect();
        assert_eq!(
            bounds,
            [
                ("0.976", None),
                ("<0.0001", Some(Bound::Below)),
                ("<0.05", Some(Bound::Below)),
                ("<0.01", Some(Bound::Below)),
                ("<0.001", Some(Bound::Below)),
                (">10", Some(Bound::Above)),
                ("≤2 µs", Some(Bound::AtMost)),
                ("≤ 3 ms", Some(Bound::AtMost)),
                ("≥30", Some(Bound::AtLeast)),
                ("≥95%", Some(Bound::AtLeast)),
                ("1", None),
            ]
        );
    }

    #[test]
    fn inline_code_gives_no_number_and_references_show_their_keys() {
        let a = parse("See Table~\\ref{tab:x} and \\cite{a2024, b3}: \\texttt{sm\\_90} ran \\verb|--gpu 3| in 5 ms\\footnote{On 132 SMs.}.\n");
        assert_eq!(texts(&a), ["See Table tab:x and [a2024, b3]: sm_90 ran --gpu 3 in 5 ms.", "On 132 SMs."]);
        assert_eq!(a.sentences[0].numbers.len(), 1);
    }

    #[test]
    fn tables_give_cells_with_header_labels_and_units() {
        let source = r"\begin{table}
\caption{Latency (\si{\micro\second}) on the H200.}
\begin{tabular}{lrr}
\toprule
Shape & Fused & Copy \\
\midrule
4096$\times$4096 & 38.6 & 36.8 \\
32768$\times$1024 & 72.5 & 68.5 \\ % slow
\bottomrule
\end{tabular}
\end{table}
";
        let a = parse(source);
        let cells: Vec<(usize, usize, &str, &str, &str)> =
            a.sentences.iter().filter_map(|s| s.cell.as_ref().map(|c| (c.row, c.column, c.row_label.as_str(), c.column_label.as_str(), s.text.as_str()))).collect();
        assert_eq!(cells[0], (0, 0, "Shape", "Shape", "Shape"));
        assert!(cells.contains(&(1, 1, "4096×4096", "Fused", "38.6")));
        assert!(cells.contains(&(2, 2, "32768×1024", "Copy", "68.5")));
        let fused = a.sentences.iter().find(|s| s.text == "72.5").unwrap();
        assert_eq!(fused.numbers[0].unit, Some(super::super::numbers::Unit::Us));
        assert_eq!(texts(&a)[0], "Latency (µs) on the H200.");
    }

    #[test]
    fn multicolumn_headers_join_and_multirow_names_rows() {
        let source = r"\begin{tabular}{llrr}
\hline
 & & \multicolumn{2}{c}{Time (ms)} \\
\cline{3-4}
GPU & Batch & Mean & Min \\
\hline
\multirow{2}{*}{H200} & 1 & 3.5 & 3.1 \\
 & 8 & 9.25 & 8.0 \\
\hline
\end{tabular}
";
        let a = parse(source);
        let cell = |text: &str| a.sentences.iter().find(|s| s.text == text).and_then(|s| s.cell.clone()).unwrap();
        assert_eq!(cell("9.25").column_label, "Time (ms) › Mean");
        assert_eq!(cell("9.25").row_label, "H200 › 8");
        assert_eq!(cell("3.1").row_label, "H200 › 1");
        assert_eq!(cell("3.1").row, 1);
        let ms = a.sentences.iter().find(|s| s.text == "3.5").unwrap();
        assert_eq!(ms.numbers[0].unit, Some(super::super::numbers::Unit::Ms));
    }

    #[test]
    fn a_table_inside_a_box_is_a_table_and_dingbats_are_marks() {
        let a = parse(
            "\\resizebox{\\linewidth}{!}{%\n\\begin{tabular}{lc}\nFeature & pymoo \\\\\n\\midrule\nGUI & \\ding{51} \\\\\nCLI & \\ding{55} \\\\\n\\end{tabular}}\n\\begin{tblr}{colspec={lr}}\nShape & Time (ms) \\\\\nA & 2.5 \\\\\n\\end{tblr}\n",
        );
        let cell = |text: &str| a.sentences.iter().find(|s| s.text == text).and_then(|s| s.cell.clone()).unwrap();
        assert_eq!((cell("✓").row, cell("✓").column, cell("✓").row_label.as_str()), (1, 1, "GUI"));
        assert_eq!(cell("✗").column_label, "pymoo");
        assert!(a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.table == 0)).all(|s| s.numbers.is_empty()));
        let time = a.sentences.iter().find(|s| s.text == "2.5").unwrap();
        assert_eq!((time.cell.as_ref().unwrap().table, time.numbers[0].unit.clone()), (1, Some(super::super::numbers::Unit::Ms)));
    }

    #[test]
    fn macros_without_arguments_expand_at_their_use() {
        let a = parse("\\newcommand{\\sys}{FlashFoo\\xspace}\n\\def\\speedup{2.5$\\times$}\n\\begin{document}\n\\sys is \\speedup{} faster.\n\\end{document}\n");
        assert_eq!(texts(&a), ["FlashFoo is 2.5× faster."]);
        let s = &a.sentences[0];
        assert_eq!(&a.source[s.source_span(&s.numbers[0].span)], "\\speedup");
    }

    #[test]
    fn macros_with_arguments_read_their_arguments_where_the_body_has_them() {
        let a = parse(
            "\\newcommand{\\speedup}[1]{#1$\\times$}\n\\newcommand{\\eat}[1]{}\n\\newcommand{\\lat}[2][ms]{#2~#1}\n\\def\\pair#1#2{#2 and #1}\n\\begin{document}\nOurs is \\speedup{2.5} faster\\eat{, not 9 ms}, at \\lat{3.1} or \\lat[s]{4}; \\pair{5 ms}{6 ms}.\n\\end{document}\n",
        );
        assert_eq!(texts(&a), ["Ours is 2.5× faster, at 3.1 ms or 4 s; 6 ms and 5 ms."]);
        let s = &a.sentences[0];
        // A number a macro makes spans the macro and its arguments.
        assert_eq!(&a.source[s.source_span(&s.numbers[0].span)], "\\speedup{2.5}");
    }

    #[test]
    fn a_comma_in_math_parts_numbers_unless_braced() {
        let a = parse("Sizes $\\in [20, 200]$ and $\\{1,2,5\\}$, budget $50{,}000$ and 1{,}000 runs.\n");
        let numbers: Vec<&str> = a.sentences[0].numbers.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(numbers, ["20", "200", "1", "2", "5", "50,000", "1,000"]);
    }

    #[test]
    fn a_macro_in_its_own_expansion_prints_nothing_but_one_in_its_argument_expands() {
        let a = parse("\\newcommand{\\x}{a\\x\\x 1 ms}\n\\newcommand{\\b}[1]{[#1]}\n\\begin{document}\n\\x{} and \\b{\\b{2 ms}}.\n\\end{document}\n");
        assert_eq!(texts(&a), ["a1 ms and [[2 ms]]."]);
    }

    #[test]
    fn an_argument_doubled_at_every_level_stays_bounded() {
        let nested = format!("\\newcommand{{\\d}}[1]{{#1#1}}\n\\begin{{document}}\n{}x 3 ms{}\n\\end{{document}}\n", "\\d{".repeat(40), "}".repeat(40));
        let a = parse(&nested);
        assert!(a.sentences.iter().map(|s| s.text.len()).sum::<usize>() <= 2 * (1 << 20), "expansion is bounded");
    }

    #[test]
    fn definitions_in_the_body_print_nothing() {
        let a = parse(
            "Before \\def\\x#1{hidden 9 ms #1}\\let\\y=\\x\\renewcommand{\\arraystretch}{1.3}\\rule{3in}{0.4pt}\\vskip 2pt plus 1fil \\iffalse 7 ms \\figref \\fi after 2 ms.\n",
        );
        assert_eq!(texts(&a), ["Before after 2 ms."]);
    }

    #[test]
    fn code_environments_are_read_for_console_tables_only() {
        let a = parse("Before.\n\\begin{verbatim}\nlet x = 1.5;\n\\end{verbatim}\nAfter.\n");
        assert_eq!(texts(&a), ["Before.", "After."]);
    }

    #[test]
    fn input_is_warned_and_unclosed_groups_do_not_stop_reading() {
        let a = parse("\\input{results}\nText {with 3 ms\n\n\\begin{itemize}\\item One 4 ms.\n");
        assert!(a.warnings.iter().any(|w| w.message.contains("\\input{results}")), "{:?}", a.warnings);
        assert!(a.warnings.iter().any(|w| w.message.contains("not closed")), "{:?}", a.warnings);
        assert!(texts(&a).iter().any(|t| t.contains("4 ms")), "{:?}", texts(&a));
    }

    #[test]
    fn accents_and_quotes_compose() {
        let a = parse("Caf\\'e ``na\\\"ive'' -- Erd\\H{o}s---done, a\\^{}b.\n");
        assert_eq!(texts(&a), ["Café “naïve” – Erdős—done, a^b."]);
    }

    #[test]
    fn longtable_heads_and_feet_are_not_body_rows() {
        let source = r"\begin{longtable}{lr}
\caption{Runs.}\\
Name & Time (s) \\ \hline
\endfirsthead
Name & Time (s) \\ \hline
\endhead
\hline \multicolumn{2}{r}{continued} \\
\endfoot
\endlastfoot
a & 1.5 \\
b & 2.5 \\
\end{longtable}
";
        let a = parse(source);
        let cells: Vec<(usize, &str)> = a.sentences.iter().filter_map(|s| s.cell.as_ref().map(|c| (c.row, s.text.as_str()))).collect();
        assert_eq!(cells, [(0, "Name"), (0, "Time (s)"), (1, "a"), (1, "1.5"), (2, "b"), (2, "2.5")]);
        assert_eq!(texts(&a)[0], "Runs.");
    }

    #[test]
    fn hostile_nesting_and_macro_loops_end() {
        let deep = format!("{}x 3 ms{}", "{".repeat(5000), "}".repeat(5000));
        let _ = parse(&deep);
        let a = parse("\\def\\a{\\a\\a}\n\\begin{document}\n\\a 4 ms.\n\\end{document}\n");
        assert!(texts(&a).iter().any(|t| t.contains("4 ms")));
        let _ = parse("\\verb|open\n\\SI{\n\\begin{tabular}{\n&&\\\\\n$x^");
    }

    #[test]
    fn ties_and_control_spaces_after_a_stop_do_not_end_sentences() {
        let a = parse("Latency (std.\\ dev.\\ 0.5 ms) was 3 ms. As in Sect.~3.2 and Alg.~1 it takes 5 ms. Done.\n");
        assert_eq!(a.sentences.len(), 3, "{:?}", texts(&a));
        assert!(texts(&a)[0].starts_with("Latency (std. dev. 0.5 ms)"), "{:?}", texts(&a));
    }

    #[test]
    fn front_matter_of_the_acm_and_ieee_classes_is_not_prose() {
        let a = parse(
            "\\begin{document}\n\\begin{CCSXML}\n<ccs2012><concept_significance>500</concept_significance></ccs2012>\n\\end{CCSXML}\n\\ccsdesc[500]{Networks~Transport protocols}\n\\acmYear{2018}\\copyrightyear{2018}\\setcopyright{acmlicensed}\\acmDOI{10.1145/3230543.3230553}\n\\acmConference[SIGCOMM '18]{ACM SIGCOMM 2018}{August 20--25, 2018}{Budapest}\n\\author{Ann}\\affiliation{\\institution{MIT}\\city{Cambridge}\\postcode{02139}}\\orcid{0009-0004-1234-5678}\\email{a@b.c}\n\\section{Intro}\nWe measure 3 ms.\n\\end{document}\n",
        );
        let numbers: Vec<String> = a.sentences.iter().flat_map(|s| s.numbers.iter().map(|n| n.text.clone())).collect();
        assert_eq!(numbers, ["3 ms"], "{:?}", texts(&a));
    }

    #[test]
    fn conditionals_show_the_branch_the_page_shows() {
        let a = parse(
            "\\newif\\iflong \\longfalse\n\\newif\\ifdraft\n\\drafttrue\n\\begin{document}\n\\if 0 Hidden draft with 99 ms. \\fi\n\\iflong Long says 3 ms. \\else Short says 4 ms. \\fi\n\\ifdraft Draft shows 5 ms.\\fi\n\\iffalse Off 6 ms. \\else On 7 ms. \\fi\n\\iftrue Kept 8 ms. \\else Dropped 9 ms. \\fi\n\\ifx\\a\\b Both 10 ms. \\else both 11 ms. \\fi\n\\longtrue\\iflong Now long 12 ms.\\fi\n\\end{document}\n",
        );
        let all = texts(&a).join(" ");
        for kept in ["Short says 4 ms.", "Draft shows 5 ms.", "On 7 ms.", "Kept 8 ms.", "Both 10 ms.", "both 11 ms.", "Now long 12 ms."] {
            assert!(all.contains(kept), "{kept} in {all}");
        }
        for dropped in ["99", "says 3 ms", "6 ms", "9 ms", "Hidden"] {
            assert!(!all.contains(dropped), "{dropped} in {all}");
        }
    }

    #[test]
    fn package_setup_and_register_assignments_print_nothing() {
        let a = parse(
            "\\tikzset{every node/.style={scale=0.8}}\n\\pgfplotsset{width=7cm}\\lstdefinestyle{s}{basicstyle=\\small}\n\\interfootnotelinepenalty=10000 \\tabcolsep=3pt\nHalf of it, \\nicefrac{1}{2}, took 1 ms.\n",
        );
        assert_eq!(texts(&a), ["Half of it, 1/2, took 1 ms."]);
    }

    #[test]
    fn a_percent_sign_in_a_url_is_the_address_s_not_a_comment() {
        let a = parse("See \\url{http://example.org/a%20b} and \\href{http://x.org/%7E}{the page} for 9 ms.\n\nThis paragraph says 14 ms.\n");
        assert_eq!(texts(&a), ["See http://example.org/a%20b and the page for 9 ms.", "This paragraph says 14 ms."]);
    }

    #[test]
    fn xparse_macros_redefined_symbols_and_code_environments_are_read() {
        let a = parse(
            "\\NewDocumentCommand{\\sys}{}{FlashFoo}\n\\NewDocumentCommand{\\speedup}{O{2} m}{#2 is #1$\\times$}\n\\def\\approx{$\\sim$}\n\\lstnewenvironment{code}[1][]{}{}\n\\begin{document}\n\\sys{} scales; \\speedup{A} and \\speedup[3]{B}; it takes 6.3\\approx9.5 ms.\n\\begin{code}\nint x = 42;\n\\end{code}\n\\begin{algorithm}\n\\SetAlgoLined\nwait up to 10 ms\\;\n\\caption{Batching in 32 steps.}\n\\end{algorithm}\n\\end{document}\n",
        );
        assert_eq!(texts(&a), ["FlashFoo scales; A is 2× and B is 3×; it takes 6.3∼9.5 ms.", "Batching in 32 steps."]);
    }

    #[test]
    fn a_preamble_input_and_an_exhausted_expansion_budget_are_warned() {
        let a = parse("\\input{macros}\n\\begin{document}\nText 1 ms.\n\\end{document}\n");
        assert!(a.warnings.iter().any(|w| w.message.contains("\\input{macros}") && w.line == 1), "{:?}", a.warnings);
        let body = "x".repeat(4096);
        let uses = "\\big{} ".repeat(300);
        let a = parse(&format!("\\newcommand{{\\big}}{{{body}}}\n\\begin{{document}}\n{uses}\n\\end{{document}}\n"));
        assert_eq!(a.warnings.iter().filter(|w| w.message.contains("expansions reached 1 MiB")).count(), 1, "{:?}", a.warnings);
    }

    #[test]
    fn rows_across_a_table_name_the_rows_under_them_or_title_it() {
        let a = parse(
            "\\begin{tabular}{lrr}\n\\toprule\nKernel & fp16 & fp32 \\\\\n\\midrule\n\\multicolumn{3}{c}{A100} \\\\\ngemm & 1.1 & 2.1 \\\\\n\\multicolumn{3}{c}{H100} \\\\\ngemm & 0.6 & 1.2 \\\\\n\\bottomrule\n\\end{tabular}\n\n\\begin{tabular}{lrr}\n\\toprule\n\\multicolumn{3}{c}{Results on A100} \\\\\n\\midrule\nKernel & fp16 & fp32 \\\\\n\\midrule\ngemm & 7.1 & 8.1 \\\\\n\\bottomrule\n\\end{tabular}\n",
        );
        let cell = |text: &str| a.sentences.iter().find(|s| s.text == text).and_then(|s| s.cell.clone()).unwrap();
        assert_eq!((cell("1.1").row_label.as_str(), cell("1.1").column_label.as_str()), ("A100 › gemm", "fp16"));
        assert_eq!(cell("1.2").row_label, "H100 › gemm");
        assert_eq!((cell("8.1").row_label.as_str(), cell("8.1").column_label.as_str(), cell("8.1").row), ("gemm", "Results on A100 › fp32", 1));
    }

    #[test]
    fn a_multirow_counted_upwards_and_a_table_without_a_header() {
        let a = parse(
            "\\begin{tabular}{llr}\n\\toprule\nGPU & Kernel & Time (ms) \\\\\n\\midrule\n & gemm & 3.5 \\\\\n\\multirow{-2}{*}{H100} & conv & 4.5 \\\\\n\\bottomrule\n\\end{tabular}\n\n\\begin{tabular}{|l|l|r|}\n\\hline\n\\multirow{2}{*}{A100} & gemm & 1.5 \\\\\n & conv & 2.5 \\\\\n\\hline\n\\multirow{2}{*}{H100} & gemm & 0.8 \\\\\n & conv & 1.2 \\\\\n\\hline\n\\end{tabular}\n\n\\begin{tabular}{lrr}\nBatch & 1 & 8 \\\\\n\\midrule\nfused & 5.5 & 9.5 \\\\\n\\end{tabular}\n",
        );
        let cell = |text: &str| a.sentences.iter().find(|s| s.text == text).and_then(|s| s.cell.clone()).unwrap();
        assert_eq!(cell("3.5").row_label, "H100 › gemm");
        assert_eq!(cell("4.5").row_label, "H100 › conv");
        assert_eq!((cell("1.5").row, cell("1.5").row_label.as_str(), cell("1.5").column_label.as_str()), (1, "A100 › gemm", ""));
        assert_eq!(cell("1.2").row_label, "H100 › conv");
        // A header of numbers stays a header.
        assert_eq!((cell("9.5").row_label.as_str(), cell("9.5").column_label.as_str()), ("fused", "8"));
    }

    #[test]
    fn siunitx_rounding_shows_the_digits_the_page_prints() {
        let a = parse(
            "\\sisetup{round-mode=places,round-precision=1}\n\\begin{document}\nIt runs in \\SI{4.2345}{\\micro\\second} and \\num[round-precision=3]{0.12345}; \\num[round-mode=figures,round-precision=2]{98765} and \\num[round-mode=none]{4.2345} and \\num{9.96} and \\num{1.2e3}.\n\\end{document}\n",
        );
        assert_eq!(texts(&a), ["It runs in 4.2 µs and 0.123; 99000 and 4.2345 and 10.0 and 1.2e3."]);
        let s = &a.sentences[0];
        assert_eq!(&a.source[s.source_span(&s.numbers[0].span)], "4.2345}{\\micro\\second", "the rounded number spans its command's value");
    }

    #[test]
    fn rounding_follows_siunitx() {
        let r = |mode: &str, x: &str| super::Rounding::default().with(mode).round(x);
        assert_eq!(r("round-mode=places,round-precision=2", "4.2345").as_deref(), Some("4.23"));
        assert_eq!(r("round-mode=places,round-precision=2", "4.235").as_deref(), Some("4.24"));
        assert_eq!(r("round-mode=places,round-precision=2", "-0.995").as_deref(), Some("-1.00"));
        assert_eq!(r("round-mode=places,round-precision=2", "7").as_deref(), Some("7.00"));
        assert_eq!(r("round-mode=places,round-precision=2, round-pad=false", "7.1").as_deref(), Some("7.1"));
        assert_eq!(r("round-mode=places,round-precision=2, round-pad=false", "7.104").as_deref(), Some("7.10"));
        assert_eq!(r("round-mode=figures,round-precision=2", "9.96").as_deref(), Some("10"));
        assert_eq!(r("round-mode=figures,round-precision=3", "99.96").as_deref(), Some("100"));
        assert_eq!(r("round-mode=places,round-precision=0", "2.5").as_deref(), Some("3"));
        assert_eq!(r("round-mode=figures,round-precision=3", "0.0012345").as_deref(), Some("0.00123"));
        assert_eq!(r("round-mode=figures,round-precision=1", "951").as_deref(), Some("1000"));
        assert_eq!(r("round-mode=figures,round-precision=2", ".5").as_deref(), Some("0.50"));
        assert_eq!(r("round-mode=none", "4.2345"), None);
        assert_eq!(r("round-mode=places", "1.2.3"), None);
    }

    #[test]
    fn a_longtable_s_own_caption_gives_its_cells_a_unit() {
        let a = parse(
            "\\begin{longtable}{lr}\n\\caption{Kernel latency (ms).}\\\\\n\\toprule\nKernel & A100 \\\\\n\\midrule\n\\endfirsthead\ngemm & 1.5 \\\\\n\\bottomrule\n\\end{longtable}\n",
        );
        let cell = a.sentences.iter().find(|s| s.text == "1.5").unwrap();
        assert_eq!(cell.numbers[0].unit, Some(super::super::numbers::Unit::Ms));
        assert!(texts(&a).contains(&"Kernel latency (ms)."), "{:?}", texts(&a));
    }

    #[test]
    fn a_caption_outside_a_float_gives_the_table_beside_it_a_unit() {
        let a = parse(
            "\\begin{minipage}{0.5\\textwidth}\n\\captionof{table}{Latency (us).}\n\\begin{tabular}{lr}\nKernel & A100 \\\\\n\\midrule\ngemm & 1.5 \\\\\n\\end{tabular}\n\\end{minipage}\n",
        );
        let cell = a.sentences.iter().find(|s| s.text == "1.5").unwrap();
        assert_eq!(cell.numbers[0].unit, Some(super::super::numbers::Unit::Us));
    }

    #[test]
    fn a_macro_used_as_a_name_but_defined_nowhere_is_warned_once() {
        let a = parse("\\sys{} scales 7.7$\\times$; \\sys{} again, \\centering and \\base{}, \\today{} \\date{} \\maketitle{}.\n");
        let warned: Vec<&str> = a.warnings.iter().map(|w| w.message.as_str()).filter(|m| m.contains("defined in no file")).collect();
        assert_eq!(warned.len(), 2, "{warned:?}");
        assert!(warned[0].contains("`\\sys`") && warned[1].contains("`\\base`"), "{warned:?}");
        assert_eq!(a.warnings.iter().find(|w| w.message.contains("`\\sys`")).map(|w| (w.line, w.col)), Some((1, 1)));
    }

    #[test]
    fn thin_spaces_group_digits_and_math_operators_keep_numbers_apart() {
        let a = parse("GLOVE has 1\\,183\\,514 points and took 1\\,700 seconds; $10 \\div 2$, $7 \\bmod 3$ and $4 \\oslash 5$.\n");
        let values: Vec<f64> = a.sentences[0].numbers.iter().map(|n| n.value).collect();
        assert_eq!(values, [1183514.0, 1700.0, 10.0, 2.0, 7.0, 3.0, 4.0, 5.0], "{:?}", texts(&a));
    }

    #[test]
    fn a_sentence_may_begin_with_a_reference() {
        let a = parse("It took 6 s. \\Cref{fig:x} shows 8 more. \\texttt{fold} needs 9.\n");
        assert_eq!(texts(&a), ["It took 6 s.", "fig:x shows 8 more.", "fold needs 9."]);
    }

    #[test]
    fn a_parameter_in_a_key_or_an_address_is_its_argument() {
        let a = parse("\\newcommand{\\rtab}[1]{Table~\\ref{tab:#1}}\n\\newcommand{\\repo}[1]{\\url{https://x.org/#1}}\nAs \\rtab{perf} shows, 3 ms; see \\repo{a/b}.\n");
        assert_eq!(texts(&a), ["As Table tab:perf shows, 3 ms; see https://x.org/a/b."]);
    }

    #[test]
    fn a_group_header_over_a_rule_under_every_row_names_the_row_under_it() {
        let a = parse(
            "\\begin{tabular}{|l|rr|}\\hline\n& \\multicolumn{2}{c|}{Latency (s)} \\\\ \\hline\nApp & AWS & GCP \\\\ \\hline\nIoT & 0.12 & 0.81 \\\\ \\hline\n\\end{tabular}\n",
        );
        let cell = a.sentences.iter().find(|s| s.text == "0.81").and_then(|s| s.cell.clone()).unwrap();
        assert_eq!((cell.row, cell.row_label.as_str(), cell.column_label.as_str()), (1, "IoT", "Latency (s) › GCP"));
    }

    #[test]
    fn etoolbox_and_ifthen_switches_choose_their_branch() {
        let a = parse(
            "\\newbool{full}\\booltrue{full}\\newtoggle{ext}\n\\begin{document}\n\\ifbool{full}{Full has 99 rows.}{Short has 11 rows.} \\iftoggle{ext}{Ext 1 ms.}{Base 2 ms.} \\ifthenelse{\\boolean{full}}{C 3 ms.}{D 4 ms.} \\setbool{full}{false}\\notbool{full}{E 5 ms.}{F 6 ms.} \\ifbool{unknown}{G 7 ms.}{H 8 ms.}\n\\end{document}\n",
        );
        assert_eq!(texts(&a), ["Full has 99 rows.", "Base 2 ms.", "C 3 ms.", "E 5 ms.", "G 7 ms.", "H 8 ms."]);
    }

    #[test]
    fn internals_code_notes_and_front_matter_print_nothing() {
        let a = parse(
            "\\makeatletter\n\\def\\@onedot{\\ifx\\@let@token.\\else.\\null\\fi\\xspace}\n\\def\\onedot{\\futurelet\\@let@token\\@onedot}\n\\def\\eg{\\emph{e.g}\\onedot}\n\\makeatother\n\\DeclareMathOperator{\\avg}{avg}\n\\newcommand{\\sys}{Pash}\\let\\old\\sys\n\\newminted{cpp}{}\n\\newenvironment{cplus}{\\VerbatimEnvironment\\begin{cppcode}}{\\end{cppcode}}\n\\begin{document}\n\\title{Fast FFT on 8 GPUs}\n\\numberofauthors{1}\\author{Ann Lee\\inst{1}}\\institute{University 1, Street 5, 12345 City}\n\\maketitle\n\\keywords{FFT, 5G}\n\nWe ran \\eg 3 rows of \\old{} with $\\avg = 4$ and \\mintinline{bash}{--width=2} in 5 trials.\\todo{check 99 trials}\n\\begin{cppcode}\nint x = 42;\n\\end{cppcode}\n\\begin{cplus}\nint y = 43;\n\\end{cplus}\n\\pgfplotstableread{Threads & Time \\\\ 1 & 21.5 \\\\}\\t\n\\end{document}\n",
        );
        assert_eq!(texts(&a), ["Fast FFT on 8 GPUs", "FFT, 5G", "We ran e.g. 3 rows of Pash with avg=4 and --width=2 in 5 trials."]);
    }

    #[test]
    fn the_paper_s_own_package_is_warned() {
        let a = parse("\\usepackage{booktabs}\\usepackage{includes/terms}\n\\begin{document}\nText 1 ms.\n\\end{document}\n");
        let warned: Vec<&str> = a.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(warned[0].contains("\\usepackage{includes/terms}"), "{warned:?}");
    }

    #[test]
    fn a_compact_uncertainty_is_a_value_and_its_spread() {
        let a = parse("It takes \\SI{12.3(4)}{\\ms}, \\num{1.234(56)}, \\num{12(3)} and \\num{0.0012(3)} or \\SI{5.1(0.2)}{\\us}.\n");
        assert_eq!(texts(&a), ["It takes 12.3 ± 0.4 ms, 1.234 ± 0.056, 12 ± 3 and 0.0012 ± 0.0003 or 5.1 ± 0.2 µs."]);
        let ms: Vec<(f64, Option<super::super::numbers::Unit>)> = a.sentences[0].numbers.iter().take(2).map(|n| (n.value, n.unit.clone())).collect();
        assert_eq!(ms, [(12.3, Some(super::super::numbers::Unit::Ms)), (0.4, Some(super::super::numbers::Unit::Ms))]);
    }
}
