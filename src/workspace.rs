//! The loaded workspace: everything a command reads, read once. Loading opens the root, reads
//! the registries, their manuscripts (or the draft given in place of one), their locks, binds
//! every claim through the one lock-aware binding, and keeps one evidence reader shared by all
//! of them. Every command that audits (`audit`, `table`, `accept`, `recheck`, `review`) takes a
//! `&Workspace`, so no command reads a file twice and no two commands bind differently.
//!
//! Loading never stops at the first problem: what could not be read is a diagnostic beside
//! what could.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::article::{Article, Syntax};
use crate::diagnostic::Diagnostic;
use crate::evidence::store::{Ahead, Evidence, ReadError};
use crate::paths::{PathError, Root};
use crate::registry::binding::{self, Binding};
use crate::registry::lock::{self, Alignment, Lock};
use crate::registry::{self, Registry};

/// What to load.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    pub root: PathBuf,
    /// Registry files, root-relative; empty means every `claims/*.toml`.
    pub claims: Vec<String>,
    /// A draft loaded in place of its registry's manuscript (any path the user names).
    pub draft: Option<PathBuf>,
}

/// Everything loaded, for the commands.
pub(crate) struct Workspace {
    /// The one reader of files under the root; `None` when the root could not be opened.
    evidence: Option<Evidence>,
    pub registries: Vec<Loaded>,
    /// Problems loading: unreadable registries, articles and locks, bad quotes.
    pub diagnostics: Vec<Diagnostic>,
}

/// One registry with what it was loaded against.
pub(crate) struct Loaded {
    pub registry: Registry,
    /// The manuscript, or the draft standing in for it; `None` when it could not be read.
    pub article: Option<Rc<Article>>,
    /// With a draft: the manuscript path the draft stands in for.
    pub draft_of: Option<String>,
    pub lock: Option<Lock>,
    /// The article's sentences against the lock's.
    pub alignment: Option<Alignment>,
    /// One per claim, in order; empty when there is no article.
    pub bindings: Vec<Binding>,
}

impl Workspace {
    /// Loads what `options` names. Problems become diagnostics; nothing is written.
    pub(crate) fn load(options: &Options) -> Workspace {
        // Patterns with Unicode classes take milliseconds to compile: they compile on another
        // core while the registries are read, those of the checks' predicates first (parsing a
        // registry's checks needs them), then the article's number patterns.
        std::thread::spawn(|| {
            crate::checks::trace::compile_patterns();
            crate::article::numbers::compile_patterns();
        });
        let root = match Root::new(&options.root) {
            Ok(r) => r,
            Err(e) => return Workspace::failed(Diagnostic::plain(format!("cannot open root {}: {e}", options.root.display()))),
        };
        let evidence = Evidence::new(root);
        let files = match registry_files(evidence.root(), &options.claims) {
            Ok(f) => f,
            Err(d) => return Workspace { evidence: Some(evidence), registries: vec![], diagnostics: vec![d] },
        };
        let mut diagnostics = Vec::new();
        let mut clean = HashMap::new();
        let registries: Vec<Registry> = files.iter().filter_map(|f| load_registry(&evidence, f, &mut clean, &mut diagnostics)).collect();
        // A draft stands in for the manuscript of one registry, the only one loaded.
        let to_bind = match &options.draft {
            Some(_) if !diagnostics.is_empty() => return Workspace { evidence: Some(evidence), registries: vec![], diagnostics },
            Some(draft) => match registry_of_draft(registries, !options.claims.is_empty(), draft) {
                Ok(one) => ToBind::Draft(one, draft),
                Err(d) => return Workspace { evidence: Some(evidence), registries: vec![], diagnostics: vec![d] },
            },
            None => ToBind::Manuscripts(registries),
        };
        // Every command that loads a workspace audits it, so the evidence its checks parse is
        // parsed on the other cores while this one reads and binds the articles.
        let ahead: Vec<(String, Ahead)> = to_bind.registries().iter().flat_map(|r| &r.claims).flat_map(|c| &c.checks).flat_map(|c| c.kind.ahead()).collect();
        let bound = evidence.read_ahead_while(&ahead, || match to_bind {
            ToBind::Draft(registry, draft) => load_draft(&evidence, registry, draft, &mut diagnostics).map(|one| vec![one]),
            ToBind::Manuscripts(registries) => {
                let mut articles: BTreeMap<String, Option<Rc<Article>>> = BTreeMap::new();
                Ok(registries
                    .into_iter()
                    .map(|registry| {
                        let path = registry.manuscript.path.get_ref().clone();
                        let article = articles.entry(path).or_insert_with(|| load_article(&evidence, &registry, &mut diagnostics).map(Rc::new)).clone();
                        Loaded::bind(&evidence, registry, article, None, &mut diagnostics)
                    })
                    .collect())
            }
        });
        match bound {
            Ok(registries) => Workspace { evidence: Some(evidence), registries, diagnostics },
            Err(d) => Workspace { evidence: Some(evidence), registries: vec![], diagnostics: vec![d] },
        }
    }

    fn failed(d: Diagnostic) -> Workspace {
        Workspace { evidence: None, registries: vec![], diagnostics: vec![d] }
    }

    /// The evidence reader, where the root could be opened.
    pub(crate) fn evidence(&self) -> Option<&Evidence> {
        self.evidence.as_ref()
    }
}

impl Loaded {
    /// Reads the registry's lock and binds its claims through it.
    fn bind(evidence: &Evidence, registry: Registry, article: Option<Rc<Article>>, draft_of: Option<String>, diagnostics: &mut Vec<Diagnostic>) -> Loaded {
        let Some(article) = article else {
            return Loaded { registry, article: None, draft_of, lock: None, alignment: None, bindings: vec![] };
        };
        let lock = lock::read(evidence, &registry.file).unwrap_or_else(|d| {
            diagnostics.push(d);
            None
        });
        let bindings = {
            let locked = lock.as_ref().map(|l| l.claim_sentences()).unwrap_or_default();
            let audited: BTreeMap<&str, &str> = match &lock {
                Some(l) => locked.iter().map(|(id, i)| (*id, l.sentences[*i].text.as_str())).collect(),
                None => BTreeMap::new(),
            };
            binding::bind_against(&registry, &article, &audited)
        };
        let alignment = lock.as_ref().map(|l| lock::align(l, &article));
        Loaded { registry, article: Some(article), draft_of, lock, alignment, bindings }
    }
}

/// The registries a command reads: those named, or every `claims/*.toml` under the root.
fn registry_files(root: &Root, named: &[String]) -> Result<Vec<String>, Diagnostic> {
    if !named.is_empty() {
        return Ok(named.to_vec());
    }
    // Listed through the root's handle, so a `claims` folder that links out of the root lists
    // nothing; each registry is then opened by the same rules as any file.
    let entries = match root.list("claims") {
        Ok(entries) => entries,
        Err(PathError::Missing(_)) => Vec::new(),
        Err(e) => return Err(Diagnostic::plain(format!("listing the registries: {e}"))),
    };
    let mut files: Vec<String> = entries.into_iter().map(|(n, _)| n).filter(|n| n.ends_with(".toml")).map(|n| format!("claims/{n}")).collect();
    files.sort();
    if let Some(odd) = files.iter().find(|f| root.not_utf8(f)) {
        return Err(Diagnostic::plain(format!("registry {odd}: its name is not UTF-8 (shown with replacement characters), so it cannot be named to be read; rename it")));
    }
    if files.is_empty() {
        let shown = root.dir().display().to_string();
        return Err(Diagnostic::plain(format!("no claims registry found: expected claims/*.toml under {}", if shown.is_empty() { "." } else { &shown }))
            .with_note("pass --root DIR for another repository, or --claims FILE for one registry"));
    }
    Ok(files)
}

/// Reads and parses one registry, adding its diagnostics.
///
/// `clean` holds the registries this load has read without a problem, by their text. A
/// registry whose text is one of them (a copy of a registry, sharing its manuscript and
/// evidence) is that registry again under its own name: parsing depends on the name only in
/// the diagnostics, and a clean parse has none. The map lives as long as one load, so it never
/// outgrows the registries of one workspace.
fn load_registry(evidence: &Evidence, file: &str, clean: &mut HashMap<Rc<String>, Registry>, diagnostics: &mut Vec<Diagnostic>) -> Option<Registry> {
    let text = match evidence.text(file) {
        Ok(t) => t,
        Err(ReadError::Path(e)) => {
            diagnostics.push(Diagnostic::plain(format!("registry {file}: {e}")));
            return None;
        }
        Err(ReadError::Io(e)) => {
            diagnostics.push(Diagnostic::plain(format!("reading registry {file}: {e}")));
            return None;
        }
        Err(ReadError::Parse(d)) => {
            diagnostics.push(d);
            return None;
        }
    };
    if let Some(registry) = clean.get(&text) {
        return Some(Registry { file: file.to_string(), ..registry.clone() });
    }
    let (registry, mut found) = registry::parse(file, &text);
    if let (Some(registry), true) = (&registry, found.is_empty()) {
        clean.insert(text, registry.clone());
    }
    diagnostics.append(&mut found);
    registry
}

/// Reads the article a registry names.
fn load_article(evidence: &Evidence, registry: &Registry, diagnostics: &mut Vec<Diagnostic>) -> Option<Article> {
    let path = &registry.manuscript.path;
    let at = |m: String| Diagnostic::at(m, &registry.file, &registry.source, path.span(), "the manuscript");
    let bytes = match evidence.bytes(path.get_ref()) {
        Ok(b) => b,
        Err(ReadError::Path(e)) => {
            diagnostics.push(at(format!("manuscript: {e}")));
            return None;
        }
        Err(e) => {
            diagnostics.push(at(e.at(path.get_ref()).message));
            return None;
        }
    };
    // A manuscript that cannot be decoded is located in itself; one that cannot be read at
    // all, at the registry line that names it.
    if let Err(e) = std::str::from_utf8(&bytes) {
        diagnostics.push(Diagnostic::not_utf8(path.get_ref(), &bytes, e.valid_up_to()).with_note(format!("the manuscript of {}", registry.file)));
        return None;
    }
    let syntax = Syntax::of_path(path.get_ref()).unwrap_or(Syntax::Markdown);
    let dir = crate::article::folder_of(path.get_ref());
    Article::read(path.get_ref(), &bytes, syntax, &dir, &|rel| evidence.manuscript_input(rel)).map_err(|e| diagnostics.push(at(e.to_string()))).ok()
}

/// The registries a workspace binds: each to its own manuscript, or one to a draft.
enum ToBind<'a> {
    Manuscripts(Vec<Registry>),
    Draft(Registry, &'a Path),
}

impl ToBind<'_> {
    fn registries(&self) -> &[Registry] {
        match self {
            ToBind::Manuscripts(registries) => registries,
            ToBind::Draft(registry, _) => std::slice::from_ref(registry),
        }
    }
}

/// The registry whose manuscript `draft` stands in for: the one `--claims` named, else the one
/// whose manuscript has the draft's file name, else the only one.
fn registry_of_draft(registries: Vec<Registry>, named: bool, draft: &Path) -> Result<Registry, Diagnostic> {
    let name = draft.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let matching = |r: &Registry| Path::new(r.manuscript.path.get_ref()).file_name().is_some_and(|n| n.to_string_lossy() == name);
    let candidates: Vec<usize> = (0..registries.len()).filter(|i| named || registries.len() == 1 || matching(&registries[*i])).collect();
    let [chosen] = candidates.as_slice() else {
        let list: Vec<String> = registries.iter().map(|r| format!("--claims {} (manuscript {})", r.file, r.manuscript.path.get_ref())).collect();
        let what = if named {
            "several registries were named"
        } else if candidates.is_empty() {
            "no registry's manuscript is named like it"
        } else {
            "several registries' manuscripts are named like it"
        };
        return Err(Diagnostic::plain(format!("cannot tell which registry the draft {} belongs to: {what}", draft.display()))
            .with_note(format!("name one with --claims: {}", list.join("; "))));
    };
    Ok(registries.into_iter().nth(*chosen).expect("a candidate index"))
}

/// Reads the draft and binds `registry`'s claims to it, in place of its manuscript.
fn load_draft(evidence: &Evidence, registry: Registry, draft: &Path, diagnostics: &mut Vec<Diagnostic>) -> Result<Loaded, Diagnostic> {
    let shown = draft.display().to_string();
    // A draft inside the root is opened through the root's handle like every file there; one
    // elsewhere is any file the user names, read as given.
    let bytes = match evidence.root().inside(draft) {
        Some(rel) => evidence.bytes(&rel).map(|b| b.to_vec()).map_err(|e| Diagnostic::plain(format!("draft: {}", e.at(&shown).message)))?,
        None => std::fs::read(draft).map_err(|e| Diagnostic::plain(format!("draft: reading {shown}: {e}")))?,
    };
    if let Err(e) = std::str::from_utf8(&bytes) {
        return Err(Diagnostic::not_utf8(&shown, &bytes, e.valid_up_to()));
    }
    // A draft saved under a name of no known syntax (`draft.txt`) is in its manuscript's.
    let manuscript = registry.manuscript.path.get_ref();
    let syntax = Syntax::of_path(&shown).or_else(|| Syntax::of_path(manuscript)).unwrap_or(Syntax::Markdown);
    // The files a draft brings in are read where its manuscript's are: an edited copy of a
    // main file, saved anywhere, brings in the same sections.
    let dir = crate::article::folder_of(manuscript);
    let article = Article::read(&shown, &bytes, syntax, &dir, &|rel| evidence.manuscript_input(rel)).map_err(|e| Diagnostic::plain(format!("draft: {e}")))?;
    let draft_of = Some(manuscript.clone());
    Ok(Loaded::bind(evidence, registry, Some(Rc::new(article)), draft_of, diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGISTRY: &str = r#"
[manuscript]
path = "article/a.md"
sha256 = "0000000000000000000000000000000000000000000000000000000000000000"

[[claim]]
id = "C1"
quote = "Replay took 14.96 µs."
verdict = "retain"
finding = "Matches the run."

  [[claim.check]]
  kind = "arith"
  number = "14.96 µs"
  expr = "14.96"
"#;

    fn load(files: &[(&str, &str)]) -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        let ws = Workspace::load(&Options { root: dir.path().into(), ..Options::default() });
        (dir, ws)
    }

    /// A copy of a clean registry under another name loads as that name parsed fresh: the
    /// shared parse changes nothing but the work.
    #[test]
    fn a_copy_of_a_clean_registry_loads_as_its_own_file_parsed_fresh() {
        let article = "# T\n\nReplay took 14.96 µs.\n";
        let (_dir, ws) = load(&[("article/a.md", article), ("claims/a.toml", REGISTRY), ("claims/b.toml", REGISTRY)]);
        let files: Vec<&str> = ws.registries.iter().map(|l| l.registry.file.as_str()).collect();
        assert_eq!(files, ["claims/a.toml", "claims/b.toml"]);
        let fresh = registry::parse("claims/b.toml", REGISTRY).0;
        assert_eq!(format!("{:?}", ws.registries[1].registry), format!("{:?}", fresh.unwrap()));
    }

    /// A registry whose file name is not UTF-8 is named as such, not as missing.
    #[test]
    fn a_registry_whose_name_is_not_utf8_is_named_as_such() {
        use std::os::unix::ffi::OsStrExt;
        let (dir, _) = load(&[("article/a.md", "# T\n\nReplay took 14.96 µs.\n"), ("claims/a.toml", REGISTRY)]);
        std::fs::write(dir.path().join("claims").join(std::ffi::OsStr::from_bytes(b"\xffodd.toml")), REGISTRY).unwrap();
        let ws = Workspace::load(&Options { root: dir.path().into(), ..Options::default() });
        let shown: Vec<String> = ws.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert_eq!(
            shown,
            ["registry claims/\u{fffd}odd.toml: its name is not UTF-8 (shown with replacement characters), so it cannot be named to be read; rename it"],
            "{shown:?}"
        );
    }

    /// A registry with problems is parsed every time, so each copy's diagnostics name its own
    /// file.
    #[test]
    fn copies_of_a_registry_with_problems_each_report_their_own_file() {
        let bad = REGISTRY.replace("id = \"C1\"", "id = \"bad id\"");
        let (_dir, ws) = load(&[("claims/a.toml", &bad), ("claims/b.toml", &bad)]);
        for file in ["claims/a.toml", "claims/b.toml"] {
            assert!(ws.diagnostics.iter().any(|d| d.location.as_ref().is_some_and(|l| l.file == file)), "{file}: {:?}", ws.diagnostics);
        }
    }
}
