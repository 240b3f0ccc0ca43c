//! `init`: starts a registry for an article. It writes `claims/<name>.toml` with the
//! manuscript's path and SHA-256 and, commented out, a claim skeleton for every sentence and
//! table cell that holds numbers, so that the file loads as it is (every number then reported
//! unbound) and each claim is written by uncommenting it. A row's name or a column's header
//! whose numbers are arguments, counts, shapes or sizes gets a comment instead: the claims bound
//! by `cell` in its row or column name it. It never replaces a file: an existing
//! registry is refused, and the new one appears whole or not at all.

use std::fmt::Write;
use std::path::Path;

use crate::article::{Article, Names, Sentence};
use crate::evidence::store::Evidence;
use crate::paths::{Kind, Root};
use crate::status::Failure;

/// What `init` wrote.
pub(crate) struct Written {
    /// The registry, root-relative.
    pub registry: String,
    /// Sentences and cells given a skeleton.
    pub skeletons: usize,
    pub numbers: usize,
    /// What of the article could not be read as written (an `\input`, a macro defined in no
    /// file read), each located: the numbers it hides are in no skeleton.
    pub warnings: Vec<crate::article::Warning>,
}

/// Writes the registry for `article` (root-relative) under `root`; `evidence` names folders
/// whose readable files are listed in the registry's header.
pub(crate) fn init(root: &Path, article: &str, evidence_dirs: &[String]) -> Result<Written, Failure> {
    let root = Root::new(root).map_err(|e| Failure::input(format!("cannot open root {}: {e}", root.display())))?;
    let store = Evidence::new(root);
    let bytes = store.bytes(article).map_err(|e| e.at(article))?;
    if let Err(e) = std::str::from_utf8(&bytes) {
        return Err(crate::diagnostic::Diagnostic::not_utf8(article, &bytes, e.valid_up_to()).into());
    }
    let syntax = crate::article::Syntax::of_path(article).unwrap_or(crate::article::Syntax::Markdown);
    let dir = crate::article::folder_of(article);
    let parsed = Article::read(article, &bytes, syntax, &dir, &|rel| store.manuscript_input(rel)).map_err(|e| Failure::input(e.to_string()))?;
    let stem = Path::new(article)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Failure::input(format!("{article}: no file name to name the registry by")))?;
    let registry = format!("claims/{stem}.toml");
    for dir in evidence_dirs {
        store.root().folder(dir).map_err(|e| Failure::input(format!("--evidence {dir}: {e}")))?;
    }
    // The folder is made through the root's handle, so that a `claims` link out of the root is
    // refused; the registry is written whole, and never over anything standing at its name.
    store.root().create_dir_all("claims").map_err(|e| Failure::input(format!("claims: {e}")))?;
    if store.root().kind(&registry).map_err(|e| Failure::input(e.to_string()))?.is_some() {
        return Err(Failure::input(format!("{registry} exists: init never replaces a registry (remove it, or audit it as it is)")));
    }
    let (text, skeletons, numbers) = render(&store, article, &parsed, evidence_dirs);
    store.root().write_new(&registry, text.as_bytes()).map_err(|e| match e {
        crate::paths::PathError::Exists(_) => Failure::input(format!("{registry} exists: init never replaces a registry")),
        e if e.is_refusal() => Failure::input(e.to_string()),
        e => Failure::writing(&registry, e),
    })?;
    Ok(Written { registry, skeletons, numbers, warnings: parsed.warnings })
}

/// The registry's text, and how many skeletons and numbers it holds.
fn render(store: &Evidence, path: &str, article: &Article, evidence_dirs: &[String]) -> (String, usize, usize) {
    let mut out = String::new();
    let _ = writeln!(out, "# The claims registry of {path}, started by `claimcheck init`.");
    let _ = writeln!(out, "# Every claim below is commented out: uncomment one, choose its verdict (retain, qualify,");
    let _ = writeln!(out, "# correct, judgment), write its finding and its checks. `claimcheck suggest` proposes checks");
    let _ = writeln!(out, "# that reproduce the numbers from the evidence; `claimcheck audit` lists the numbers still unbound.");
    let _ = writeln!(out, "\n[manuscript]\npath = {}\nsha256 = \"{}\"", quoted(path), article.sha256);
    if !evidence_dirs.is_empty() {
        let _ = writeln!(out, "\n# Evidence (the formats as detected; a check may name one with `format`):");
        for dir in evidence_dirs {
            // Listed through the root's handle: sub-folders are walked, never through a link.
            let prefix = dir.trim_end_matches('/');
            let files: Vec<String> =
                store.root().list_tree(prefix).unwrap_or_default().into_iter().filter(|(_, k)| *k == Kind::File).map(|(p, _)| format!("{prefix}/{p}")).collect();
            for rel in files {
                match store.table(&rel, None, None) {
                    Ok(t) => {
                        let names = t.jsonl.field_names().join(", ");
                        let _ = writeln!(out, "#   {rel}: {}, {} records; fields: {names}", t.read_as(), t.jsonl.records.len());
                    }
                    Err(e) => {
                        let why = e.at(&rel).message;
                        let _ = writeln!(out, "#   {rel}: not read as records ({})", why.lines().next().unwrap_or_default());
                    }
                }
            }
        }
    }
    let (mut skeletons, mut numbers) = (0, 0);
    let selectors = crate::registry::binding::Selectors::new(article);
    for s in article.sentences.iter().filter(|s| !s.numbers.is_empty()) {
        numbers += s.numbers.len();
        // A row's name or a column's header whose numbers are arguments, counts or shapes
        // (`[1,2]*1000`, `4096×128`) is named by the claims of the cells it heads, as their
        // selectors write it: no claim of its own is started for it.
        if let Some(names) = s.names().filter(|_| s.numbers.iter().all(|n| n.can_name())) {
            let shown: Vec<&str> = s.numbers.iter().map(|n| n.text.as_str()).collect();
            let what = match names {
                Names::Row => "in a row's name (of every row its cell spans), which a claim bound by `cell` in such a row names: no claim of its own",
                Names::Column => "in a column's header, which a claim bound by `cell` under it names: no claim of its own",
            };
            let _ = writeln!(out, "\n# {} ({}): {} {what}", s.place(&article.path), s.section_title(), shown.join(", "));
            continue;
        }
        skeletons += 1;
        skeleton(&mut out, &selectors, article, s);
    }
    (out, skeletons, numbers)
}

/// One commented claim with a check stub per number.
fn skeleton(out: &mut String, selectors: &crate::registry::binding::Selectors<'_>, article: &Article, s: &Sentence) {
    let shown: Vec<&str> = s.numbers.iter().map(|n| n.text.as_str()).collect();
    let _ = writeln!(out, "\n# {} ({}): {}", s.place(&article.path), s.section_title(), shown.join(", "));
    let _ = writeln!(out, "# [[claim]]");
    // A file the article brings in names the id too, as its lines repeat the main file's.
    let file = if s.file == article.path {
        String::new()
    } else {
        let stem = Path::new(&s.file).file_stem().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let stem: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect();
        format!("{stem}-")
    };
    let _ = writeln!(out, "# id = \"{file}line{}-{}\"", s.line, s.col);
    // A header cell is no body cell a `cell` names, so it is quoted; a table under no heading
    // names no section.
    // Tables under one heading that share the row and column are told apart by `table`.
    match s.cell.as_ref().filter(|c| c.row > 0) {
        Some(c) => {
            let selector = selectors.of(c, (!s.section.is_empty()).then(|| s.section_title()));
            let table = selector.table.as_ref().map_or(String::new(), |t| format!(", table = {}", t.toml()));
            let section = selector.section.as_ref().map_or(String::new(), |t| format!(", section = {}", quoted(t)));
            let _ = writeln!(out, "# cell = {{ row = {}, column = {}{section}{table} }}", quoted(&selector.row), quoted(&selector.column));
        }
        None => {
            let _ = writeln!(out, "# quote = {}", quoted(&s.text.split_whitespace().collect::<Vec<_>>().join(" ")));
        }
    }
    let _ = writeln!(out, "# verdict = \"retain\"");
    let _ = writeln!(out, "# finding = \"\"");
    for n in &s.numbers {
        let _ = writeln!(out, "#\n#   [[claim.check]]\n#   kind = \"stat\"          # or arith, json, compare, …\n#   number = {}", quoted(&n.text));
    }
}

/// A TOML basic string.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}
