//! The one reader of files under the root for a loaded workspace. Each file is opened once,
//! whatever asks for it (a check of any registry, the recheck, the review), and what was parsed
//! from it is kept, one value per file and type, for everyone after. This module owns opening,
//! caching and counting; what a file means belongs to the typed readers beside it.
//!
//! **Architecture Invariant:** no command opens a file under the root twice. Every evidence
//! read goes through [`Evidence`], which counts opens, and a test holds `review` of the shipped
//! repository to one open per file.
//!
//! **Architecture Invariant:** a file is opened by the root's handle at the moment it is read
//! ([`Root::read`]), never resolved to a name first and opened later: a link that leaves the
//! root is refused by the open itself, however the tree changes meanwhile, and an error names
//! the path as given, never what lies outside.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use serde::de::DeserializeOwned;

use super::columns::{self, Grouped};
use super::jsonl::Jsonl;
use super::readers::{self, Format, Table};
use super::trace::{self, TraceFile};
use crate::diagnostic::Diagnostic;
use crate::paths::{Held, PathError, Root, Stream};

/// Files under one root, each read once.
pub struct Evidence {
    root: Root,
    /// Each file's bytes by its normal root-relative path, and whether the open reached it
    /// through a link.
    bytes: RefCell<HashMap<String, (Rc<Vec<u8>>, bool)>>,
    parsed: RefCell<HashMap<(String, TypeId), Rc<dyn Any>>>,
    opens: RefCell<BTreeMap<String, usize>>,
    /// Files read ahead found large enough to stream, left open for the one reader that
    /// streams them ([`Evidence::columns`]), by their normal path.
    streams: RefCell<HashMap<String, Stream>>,
    /// The files streamed so far.
    streamed: RefCell<std::collections::HashSet<String>>,
}

/// The delimiter of a CSV or TSV file, told by its name as the table reader tells it; `None`
/// for any other file.
pub(crate) fn delimiter(rel: &str) -> Option<u8> {
    let extension = rel.rsplit_once('.')?.1.to_ascii_lowercase();
    match extension.as_str() {
        "csv" => Some(b','),
        "tsv" | "tab" => Some(b'\t'),
        _ => None,
    }
}

/// The size from which a JSONL, CSV or TSV file is streamed through a columnar reader where a
/// check can use it ([`Evidence::columns`]), rather than held and parsed whole: two of its chunks, below
/// which it reads on one thread anyway.
pub(crate) const STREAMED_FROM: u64 = 2 * columns::CHUNK as u64;

/// How [`Evidence::read_ahead`] reads a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ahead {
    Jsonl,
    Trace,
    /// A JSON (or TOML) document, as [`Evidence::document`] reads it.
    Document,
    /// A samples file a check may stream ([`Evidence::columns`]): left open where it is large
    /// enough, otherwise read and kept as [`Evidence::bytes`] keeps it, for its reader.
    Stream,
}

/// What a thread of [`Evidence::read_ahead`] made of a file.
enum Parsed {
    Jsonl(Option<Jsonl>),
    Trace(Option<TraceFile>),
    Document(Option<serde_json::Value>),
    /// Read, not parsed (a samples file to stream, which was small).
    Nothing,
}

/// What a thread of [`Evidence::read_ahead`] did with a file: read (unless it was held already)
/// and parsed, or left open because it is to be streamed.
enum Read {
    Parsed(Option<(Vec<u8>, bool)>, Vec<Parsed>),
    Large(Stream),
}

/// Why a file could not be had; each caller locates it as suits its reader.
#[derive(Debug)]
pub enum ReadError {
    Path(PathError),
    Io(std::io::Error),
    /// The file was read but its content is not what the reader expects; the diagnostic is
    /// located in the file.
    Parse(Diagnostic),
}

impl ReadError {
    /// A path error, with a failure to read kept apart from a refused path.
    fn path(e: PathError) -> ReadError {
        match e {
            PathError::Io { source, .. } => ReadError::Io(source),
            e => ReadError::Path(e),
        }
    }

    /// The error as a plain diagnostic about `rel`.
    pub fn at(self, rel: &str) -> Diagnostic {
        match self {
            ReadError::Path(e) => Diagnostic::plain(format!("{rel}: {e}")),
            ReadError::Io(e) => Diagnostic::plain(format!("reading {rel}: {e}")),
            ReadError::Parse(d) => d,
        }
    }
}

impl Evidence {
    pub fn new(root: Root) -> Self {
        Evidence { root, bytes: RefCell::default(), parsed: RefCell::default(), opens: RefCell::default(), streams: RefCell::default(), streamed: RefCell::default() }
    }

    pub fn root(&self) -> &Root {
        &self.root
    }

    /// Whether `rel` names a file or folder inside the root.
    pub fn exists(&self, rel: &str) -> bool {
        self.root.exists(rel)
    }

    /// The bytes of the file at `rel`, read on first use.
    pub fn bytes(&self, rel: &str) -> Result<Rc<Vec<u8>>, ReadError> {
        let key = self.root.normal(rel).map_err(ReadError::path)?;
        if let Some((hit, _)) = self.bytes.borrow().get(&key) {
            return Ok(hit.clone());
        }
        let (bytes, linked) = self.root.read(rel).map_err(ReadError::path)?;
        *self.opens.borrow_mut().entry(key.clone()).or_insert(0) += 1;
        let bytes = Rc::new(bytes);
        self.bytes.borrow_mut().insert(key, (bytes.clone(), linked));
        Ok(bytes)
    }

    /// A file a manuscript brings in (a LaTeX `\input`), read as [`Evidence::bytes`] reads
    /// any: a path outside the root, or a link leading out of it, is refused.
    pub(crate) fn manuscript_input(&self, rel: &str) -> crate::article::Load {
        use crate::article::Load;
        match self.bytes(rel) {
            Ok(bytes) => Load::Read(bytes.to_vec()),
            Err(ReadError::Path(PathError::Missing(_))) => Load::Missing,
            Err(ReadError::Path(e)) => Load::Refused(e.to_string()),
            Err(ReadError::Io(e)) => Load::Refused(format!("could not be read: {e}")),
            Err(ReadError::Parse(d)) => Load::Refused(d.message),
        }
    }

    /// The bytes of the file at `rel`, which must be the file itself, not a symbolic link to
    /// one (a manifest entry): a link is refused, even one that stays inside the root. Shares
    /// the cache with [`Evidence::bytes`], which records whether its open followed a link.
    pub fn file_itself(&self, rel: &str) -> Result<Rc<Vec<u8>>, ReadError> {
        let key = self.root.normal(rel).map_err(ReadError::path)?;
        if let Some((hit, linked)) = self.bytes.borrow().get(&key) {
            return if *linked { Err(ReadError::Path(PathError::Link(rel.to_string()))) } else { Ok(hit.clone()) };
        }
        let bytes = Rc::new(self.root.read_itself(rel).map_err(ReadError::path)?);
        *self.opens.borrow_mut().entry(key.clone()).or_insert(0) += 1;
        self.bytes.borrow_mut().insert(key, (bytes.clone(), false));
        Ok(bytes)
    }

    /// What `make` gives of each file at `rels`, each file had as [`Evidence::file_itself`] has
    /// it (a link refused, even one inside the root), in order. The files not read before are
    /// read on every core, each opened once by the root's handle and then kept and counted as
    /// `file_itself` keeps and counts it; `make` (a hash) runs on every core too.
    pub fn each_file_itself<T: Send>(&self, rels: &[String], make: impl Fn(&[u8]) -> T + Sync) -> Vec<Result<T, ReadError>> {
        // Each distinct file once: its normal key, a path as given, and its bytes if kept.
        let mut files: Vec<(String, &str, Option<Rc<Vec<u8>>>)> = Vec::new();
        let mut slot: Vec<Result<usize, ReadError>> = Vec::with_capacity(rels.len());
        for rel in rels {
            let key = match self.root.normal(rel) {
                Ok(key) => key,
                Err(e) => {
                    slot.push(Err(ReadError::path(e)));
                    continue;
                }
            };
            if let Some(i) = files.iter().position(|(k, _, _)| *k == key) {
                slot.push(Ok(i));
                continue;
            }
            let cached = match self.bytes.borrow().get(&key) {
                Some((_, true)) => {
                    slot.push(Err(ReadError::Path(PathError::Link(rel.to_string()))));
                    continue;
                }
                Some((bytes, false)) => Some(bytes.clone()),
                None => None,
            };
            slot.push(Ok(files.len()));
            files.push((key, rel, cached));
        }
        let work: Vec<(&str, Option<&[u8]>)> = files.iter().map(|(_, rel, cached)| (*rel, cached.as_deref().map(Vec::as_slice))).collect();
        let root = &self.root;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8).min(work.len());
        let done = on_every_core(&work, threads, |(rel, cached)| {
            Some(match cached {
                Some(bytes) => Ok((None, make(bytes))),
                None => root.read_itself(rel).map(|bytes| {
                    let value = make(&bytes);
                    (Some(bytes), value)
                }),
            })
        });
        let mut made: Vec<Option<Result<T, ReadError>>> = (0..files.len()).map(|_| None).collect();
        for (i, result) in done {
            made[i] = Some(match result {
                Ok((fresh, value)) => {
                    if let Some(bytes) = fresh {
                        let key = files[i].0.clone();
                        *self.opens.borrow_mut().entry(key.clone()).or_insert(0) += 1;
                        self.bytes.borrow_mut().insert(key, (Rc::new(bytes), false));
                    }
                    Ok(value)
                }
                Err(e) => Err(ReadError::path(e)),
            });
        }
        // A file a failed helper left is read here, as `file_itself` reads it.
        let mut made: Vec<Option<Result<T, ReadError>>> =
            made.into_iter().zip(&files).map(|(m, (_, rel, _))| Some(m.unwrap_or_else(|| self.file_itself(rel).map(|b| make(&b))))).collect();
        // A file listed twice gives its value twice; `make` runs again for the second.
        let mut out = Vec::with_capacity(slot.len());
        for s in slot {
            out.push(match s {
                Err(e) => Err(e),
                Ok(i) => match made[i].take() {
                    Some(value) => value,
                    None => self.file_itself(files[i].1).map(|b| make(&b)),
                },
            });
        }
        out
    }

    /// The value `parse` makes of the file at `rel`, made once per file and type.
    pub fn parsed<T: 'static>(&self, rel: &str, parse: impl FnOnce(&str, &[u8]) -> Result<T, Diagnostic>) -> Result<Rc<T>, ReadError> {
        self.parsed_as(rel, "", parse)
    }

    /// As [`Evidence::parsed`], for one of several readings of a file told apart by `how`.
    fn parsed_as<T: 'static>(&self, rel: &str, how: &str, parse: impl FnOnce(&str, &[u8]) -> Result<T, Diagnostic>) -> Result<Rc<T>, ReadError> {
        let key = (format!("{}{how}", self.key(rel)?), TypeId::of::<T>());
        if let Some(hit) = self.parsed.borrow().get(&key) {
            return Ok(hit.clone().downcast::<T>().expect("one type per key"));
        }
        let bytes = self.bytes(rel)?;
        let value = Rc::new(parse(rel, &bytes).map_err(ReadError::Parse)?);
        self.parsed.borrow_mut().insert(key, value.clone());
        Ok(value)
    }

    /// A value derived from several files (a run's rendered figures), made once per key.
    pub fn derived<T: 'static>(&self, key: &str, make: impl FnOnce() -> T) -> Rc<T> {
        let key = (format!("derived:{key}"), TypeId::of::<T>());
        if let Some(hit) = self.parsed.borrow().get(&key) {
            return hit.clone().downcast::<T>().expect("one type per key");
        }
        let value = Rc::new(make());
        self.parsed.borrow_mut().insert(key, value.clone());
        value
    }

    /// The file at `rel` as UTF-8 text; a gzip-compressed file is the text it holds, as the
    /// record readers read it.
    pub fn text(&self, rel: &str) -> Result<Rc<String>, ReadError> {
        self.parsed(rel, |rel, bytes| {
            let inflated = readers::inflated(rel, bytes)?;
            let bytes = inflated.as_deref().unwrap_or(bytes);
            String::from_utf8(bytes.to_vec()).map_err(|e| not_utf8(rel, bytes, e.utf8_error().valid_up_to()))
        })
    }

    /// The evidence file at `rel` as a table of records, in `format` or the one detected.
    /// Files a format refers to (nvbench's sample files, criterion's `benchmark.json`) are read
    /// through this reader too, so they are inside the root like everything else.
    pub(crate) fn table(&self, rel: &str, format: Option<Format>, records: Option<&str>) -> Result<Rc<Table>, ReadError> {
        let how = format!("#{}#{}", format.map_or("", |f| f.name()), records.unwrap_or(""));
        self.parsed_as(rel, &how, |rel, bytes| {
            let sidecar = |path: &str| self.bytes(path).map(|b| b.to_vec()).map_err(|e| e.at(path).message);
            // A JSONL file is the one `jsonl` reads, parsed once for both; a file put in place
            // of this one (`insert_jsonl`) is not what these bytes say, so it is parsed apart.
            let jsonl = || match self.key(rel) {
                Ok(key) if !key.starts_with("inserted:") => self.jsonl(rel).map_err(|e| e.at(rel)),
                _ => Jsonl::parse(rel, bytes).map(Rc::new),
            };
            readers::read_with(rel, bytes, format, records, &sidecar, &jsonl)
        })
    }

    /// The JSONL file at `rel`.
    pub fn jsonl(&self, rel: &str) -> Result<Rc<Jsonl>, ReadError> {
        // `Jsonl::parse` refuses bytes that are not UTF-8 with the error `not_utf8` gives.
        self.parsed(rel, Jsonl::parse)
    }

    /// The trace file at `rel`, read straight into its header and tasks, or `None` where the
    /// fast typed reader leaves it to the whole read ([`trace::read_typed`]).
    pub fn trace(&self, rel: &str) -> Result<Rc<Option<Rc<TraceFile>>>, ReadError> {
        self.parsed_as(rel, "#trace", |_, bytes| Ok(trace::read_typed(bytes).map(Rc::new)))
    }

    /// Reads `files` ahead of the checks that will ask for them, on every core: each as a
    /// JSONL file ([`Evidence::jsonl`]), a trace ([`Evidence::trace`]) or a document
    /// ([`Evidence::document`]), kept as those would keep it. Each file is opened once, by the root's handle (which refuses a link out at the
    /// open, from any thread), and its bytes are kept and counted as [`Evidence::bytes`] keeps
    /// and counts them. A file that cannot be read or parsed is skipped: the check that asks for
    /// it reads it again and reports the error then, located as it locates it.
    pub fn read_ahead(&self, files: &[(String, Ahead)]) {
        self.read_ahead_while(files, || ());
    }

    /// As [`Evidence::read_ahead`], while `meanwhile` runs on this thread (loading binds the
    /// articles as the evidence is parsed on the other cores), and returns what it returns.
    /// What was read ahead is kept after `meanwhile` returns; a file it read itself is kept as
    /// it read it, and the read ahead of it is counted but not kept again.
    pub fn read_ahead_while<R>(&self, files: &[(String, Ahead)], meanwhile: impl FnOnce() -> R) -> R {
        // One job a file, with every way it is to be parsed; it keeps the path as the first
        // asker wrote it: a JSONL file names itself so in its diagnostics, as it would have had
        // that asker read it.
        struct Job<'a> {
            normal: String,
            rel: &'a str,
            hows: Vec<(String, Ahead)>,
            cached: Option<Rc<Vec<u8>>>,
        }
        let mut jobs: Vec<Job> = Vec::new();
        for (rel, how) in files {
            let Ok(key) = self.key(rel) else { continue };
            let kept = match how {
                Ahead::Jsonl => (key.clone(), TypeId::of::<Jsonl>()),
                Ahead::Trace => (format!("{key}#trace"), TypeId::of::<Option<Rc<TraceFile>>>()),
                Ahead::Document => (format!("{key}#document"), TypeId::of::<serde_json::Value>()),
                Ahead::Stream => (format!("{key}#stream"), TypeId::of::<()>()),
            };
            if *how == Ahead::Stream && self.bytes.borrow().contains_key(&key) {
                continue;
            }
            let streaming = self.streams.borrow().contains_key(&key) || self.streamed.borrow().contains(&key);
            if key.starts_with("inserted:") || self.parsed.borrow().contains_key(&kept) || streaming {
                continue;
            }
            match jobs.iter_mut().find(|j| j.normal == key) {
                Some(job) if job.hows.iter().any(|(k, _)| *k == kept.0) => {}
                Some(job) => job.hows.push((kept.0, *how)),
                None => {
                    let cached = self.bytes.borrow().get(&key).map(|(bytes, _)| bytes.clone());
                    jobs.push(Job { normal: key, rel, hows: vec![(kept.0, *how)], cached });
                }
            }
        }
        if jobs.is_empty() {
            return meanwhile();
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(jobs.len());
        // Each file is taken by the next free thread, which reads it through the root's handle
        // (unless it was read before) and parses it.
        let work: Vec<(&str, Vec<Ahead>, Option<&[u8]>)> = jobs.iter().map(|j| (j.rel, j.hows.iter().map(|(_, h)| *h).collect(), j.cached.as_deref().map(Vec::as_slice))).collect();
        let root = &self.root;
        // A file that cannot be read, or that a failed thread left, is read when asked for.
        let each = |(rel, hows, cached): &(&str, Vec<Ahead>, Option<&[u8]>)| {
            // A JSONL file of a size that is streamed is left to the checks that ask for it,
            // which stream it where they can ([`Evidence::columns`]).
            let fresh = match (cached, hows.as_slice()) {
                (Some(_), _) => None,
                (None, [Ahead::Jsonl | Ahead::Stream]) => match root.read_if_below(rel, STREAMED_FROM).ok()? {
                    Held::Bytes(bytes, linked) => Some((bytes, linked)),
                    Held::Large(stream) => return Some(Read::Large(stream)),
                },
                (None, _) => root.read(rel).ok(),
            };
            let bytes = cached.or(fresh.as_ref().map(|(b, _)| b.as_slice()))?;
            let parsed: Vec<Parsed> = hows
                .iter()
                .map(|how| match how {
                    Ahead::Jsonl => Parsed::Jsonl(Jsonl::parse(rel, bytes).ok()),
                    Ahead::Trace => Parsed::Trace(trace::read_typed(bytes)),
                    Ahead::Document => Parsed::Document(document(rel, bytes).ok()),
                    Ahead::Stream => Parsed::Nothing,
                })
                .collect();
            Some(Read::Parsed(fresh, parsed))
        };
        let (done, returned) = std::thread::scope(|scope| {
            let reader = scope.spawn(|| on_every_core(&work, threads, each));
            let returned = meanwhile();
            (reader.join().unwrap_or_default(), returned)
        });
        let mut parsed = self.parsed.borrow_mut();
        for (i, read) in done {
            let job = &jobs[i];
            *self.opens.borrow_mut().entry(job.normal.clone()).or_insert(0) += usize::from(!matches!(read, Read::Parsed(None, _)));
            let (fresh, values) = match read {
                Read::Parsed(fresh, values) => (fresh, values),
                Read::Large(stream) => {
                    self.streams.borrow_mut().insert(job.normal.clone(), stream);
                    continue;
                }
            };
            if let Some((bytes, linked)) = fresh {
                // Read here, once, as `bytes` would have read it: counted (above) and kept.
                self.bytes.borrow_mut().entry(job.normal.clone()).or_insert((Rc::new(bytes), linked));
            }
            for ((key, _), value) in job.hows.iter().zip(values) {
                match value {
                    Parsed::Jsonl(Some(jsonl)) => {
                        parsed.entry((key.clone(), TypeId::of::<Jsonl>())).or_insert_with(|| Rc::new(jsonl));
                    }
                    Parsed::Jsonl(None) => {}
                    Parsed::Trace(file) => {
                        parsed.entry((key.clone(), TypeId::of::<Option<Rc<TraceFile>>>())).or_insert_with(|| Rc::new(file.map(Rc::new)));
                    }
                    Parsed::Document(Some(value)) => {
                        parsed.entry((key.clone(), TypeId::of::<serde_json::Value>())).or_insert_with(|| Rc::new(value));
                    }
                    Parsed::Document(None) | Parsed::Nothing => {}
                }
            }
        }
        returned
    }

    /// The JSONL, CSV or TSV file at `rel` grouped by the fields `by`, with the column of
    /// `field` per group ([`columns::read`], [`columns::delimited::stream`]), once per process for each grouping and field. Only a file that
    /// [`Evidence::read_ahead`] found to be [`STREAMED_FROM`] bytes or more is streamed, from the
    /// handle it left open (so it is opened once), on every core and never held: held whole, its
    /// records would take several times its size. `None` for any other file, and where the
    /// columnar reader refuses it: the caller then reads it whole, which says what is wrong,
    /// located as it locates it.
    pub(crate) fn columns(&self, rel: &str, by: &[String], field: &str) -> Rc<Option<Grouped>> {
        let Ok(key) = self.key(rel) else { return Rc::new(None) };
        self.derived(&format!("columns of {key} by {by:?}: {field}"), || {
            // A second grouping of the file opens it again: streaming keeps no bytes to share.
            let stream = match self.streams.borrow_mut().remove(&key) {
                Some(stream) => stream,
                None if self.streamed.borrow().contains(&key) => {
                    *self.opens.borrow_mut().entry(key.clone()).or_insert(0) += 1;
                    self.root.open(rel).ok()?
                }
                None => return None,
            };
            self.streamed.borrow_mut().insert(key.clone());
            let fields = [field.to_string()];
            let threads = columns::threads_for(stream.len());
            match delimiter(rel) {
                Some(delimiter) => columns::delimited::stream(stream, delimiter, by, &fields, threads).ok().flatten(),
                None => columns::read(rel, stream, by, &fields, threads).ok(),
            }
        })
    }

    /// The JSON file at `rel`, read into `T`; an error is located at serde's line and column.
    pub fn json<T: DeserializeOwned + 'static>(&self, rel: &str) -> Result<Rc<T>, ReadError> {
        self.parsed(rel, |rel, bytes| {
            let text = std::str::from_utf8(bytes).map_err(|e| not_utf8(rel, bytes, e.valid_up_to()))?;
            serde_json::from_str(text).map_err(|e| json_error(rel, text, &e))
        })
    }

    /// The JSON document at `rel` (TOML where its name ends in `.toml`) as a tree of values,
    /// parsed once per process for every registry and check that reads it (the shipped
    /// registries read `meta.json` in 27 checks). A malformed document is located in itself,
    /// where its parser stopped.
    pub fn document(&self, rel: &str) -> Result<Rc<serde_json::Value>, ReadError> {
        self.parsed_as(rel, "#document", document)
    }

    /// Puts a JSONL file parsed elsewhere (a fresh run's samples, before they are written)
    /// under `rel`, which need not exist yet.
    pub fn insert_jsonl(&self, rel: &str, jsonl: Jsonl) {
        self.parsed.borrow_mut().insert((format!("inserted:{rel}"), TypeId::of::<Jsonl>()), Rc::new(jsonl));
    }

    /// How often each root-relative file was opened and read (a file that is missing or
    /// refused is not counted).
    pub fn opens(&self) -> BTreeMap<String, usize> {
        self.opens.borrow().clone()
    }

    fn key(&self, rel: &str) -> Result<String, ReadError> {
        let inserted = format!("inserted:{rel}");
        if self.parsed.borrow().contains_key(&(inserted.clone(), TypeId::of::<Jsonl>())) {
            return Ok(inserted);
        }
        self.root.normal(rel).map_err(ReadError::path)
    }
}

/// The document `rel` holds; see [`Evidence::document`]. A gzip-compressed file (pyperf's
/// `.json.gz`) is the document it holds, as the record readers read it.
fn document(rel: &str, bytes: &[u8]) -> Result<serde_json::Value, Diagnostic> {
    let inflated = readers::inflated(rel, bytes)?;
    let bytes = inflated.as_deref().unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| not_utf8(rel, bytes, e.valid_up_to()))?;
    if readers::strip_gz(rel).ends_with(".toml") {
        let t: toml::Value = toml::from_str(text).map_err(|e| Diagnostic::toml(&format!("{rel}: not TOML"), rel, text, &e))?;
        serde_json::to_value(t).map_err(|e| Diagnostic::plain(format!("{rel}: {e}")))
    } else {
        serde_json::from_str(text).map_err(|e| Diagnostic::json(&format!("{rel}: not JSON"), rel, text, &e))
    }
}

/// Runs `each` over `work` on up to `threads` threads (this one among them), every item taken
/// by the next free thread; the results with their items' indices, in no order. An item for
/// which `each` gives `None`, or whose thread failed, is missing: the caller does that work
/// itself when it is asked for.
fn on_every_core<W: Sync, R: Send>(work: &[W], threads: usize, each: impl Fn(&W) -> Option<R> + Sync) -> Vec<(usize, R)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let one = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(w) = work.get(i) else { break };
            if let Some(r) = each(w) {
                done.push((i, r));
            }
        }
        done
    };
    if threads < 2 {
        return one();
    }
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(one)).collect();
        let mut done = one();
        for helper in helpers {
            done.extend(helper.join().unwrap_or_default());
        }
        done
    })
}

/// A located error for bytes that are not UTF-8, at the first bad byte.
pub fn not_utf8(rel: &str, bytes: &[u8], valid_up_to: usize) -> Diagnostic {
    Diagnostic::not_utf8(rel, bytes, valid_up_to)
}

/// A serde_json error placed at its line and column in `text`.
pub fn json_error(rel: &str, text: &str, e: &serde_json::Error) -> Diagnostic {
    // At the end of the input serde counts a new line with column 0: the place is the end of
    // the line before it.
    let (line, column) = if e.column() == 0 && e.line() > 1 {
        let prev = text.split_inclusive('\n').nth(e.line() - 2).unwrap_or("");
        (e.line() - 1, prev.trim_end_matches(['\n', '\r']).chars().count().max(1))
    } else {
        (e.line().max(1), e.column())
    };
    let line_start: usize = text.split_inclusive('\n').take(line - 1).map(str::len).sum();
    let line_text = text[line_start..].split('\n').next().unwrap_or("");
    let col = column.max(1).min(line_text.len().max(1));
    let at = crate::diagnostic::floor_char_boundary(text, (line_start + col - 1).min(text.len()));
    let end = crate::diagnostic::floor_char_boundary(text, (at + 1).min(line_start + line_text.len()).max(at));
    Diagnostic::at(format!("{rel}: not the JSON expected here: {e}"), rel, text, at..end, "here")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_opened_once_whatever_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.jsonl"), "{\"a\":1}\n").unwrap();
        let root = Root::new(dir.path()).unwrap();
        let evidence = Evidence::new(root);
        evidence.text("s.jsonl").unwrap();
        evidence.jsonl("s.jsonl").unwrap();
        evidence.jsonl("./s.jsonl").unwrap();
        evidence.bytes("s.jsonl").unwrap();
        assert_eq!(evidence.opens(), BTreeMap::from([("s.jsonl".to_string(), 1)]));
    }

    /// Files read ahead give what the readers give when asked first: the same tables, traces
    /// and errors (named by the path as the asker wrote it), each file opened once.
    #[test]
    fn files_read_ahead_read_as_files_read_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let trace = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/example/evidence/runs/example-run/traces/queue-ragged.jsonl")).unwrap();
        std::fs::create_dir(dir.path().join("r")).unwrap();
        std::fs::write(dir.path().join("r/t.jsonl"), &trace).unwrap();
        std::fs::write(dir.path().join("r/s.jsonl"), "{\"a\":1}\n{\"a\":-2.5}\n").unwrap();
        std::fs::write(dir.path().join("r/bad.jsonl"), "{\"a\":1}\n{\"a\":\n").unwrap();
        let ahead = Evidence::new(Root::new(dir.path()).unwrap());
        let asked = Evidence::new(Root::new(dir.path()).unwrap());
        let files = [("./r/s.jsonl", Ahead::Jsonl), ("r/bad.jsonl", Ahead::Jsonl), ("r/t.jsonl", Ahead::Trace), ("r/missing.jsonl", Ahead::Jsonl)];
        ahead.read_ahead(&files.map(|(f, h)| (f.to_string(), h)));
        assert!(ahead.trace("r/t.jsonl").unwrap().is_some(), "the example trace reads typed");
        assert_eq!(ahead.trace("r/t.jsonl").unwrap(), asked.trace("r/t.jsonl").unwrap());
        for rel in ["./r/s.jsonl", "r/s.jsonl"] {
            let (a, b) = (ahead.jsonl(rel).unwrap(), asked.jsonl("./r/s.jsonl").unwrap());
            let all = |j: &Jsonl| j.records.iter().map(|r| (r.line, j.line_text(r).to_string(), j.text_of(j.get(r, "a")))).collect::<Vec<_>>();
            assert_eq!(all(&a), all(&b));
            let rows = |j: &Jsonl| j.samples(&j.records.iter().collect::<Vec<_>>(), "a").unwrap_err().render();
            assert_eq!(rows(&a), rows(&b), "the error names the file as the asker wrote it");
        }
        let error = |e: &Evidence| e.jsonl("r/bad.jsonl").unwrap_err().at("r/bad.jsonl").render();
        assert_eq!(error(&ahead), error(&asked));
        assert!(ahead.jsonl("r/missing.jsonl").is_err());
        assert!(ahead.opens().values().all(|n| *n == 1), "{:?}", ahead.opens());
    }

    /// A large samples file read ahead is left open and streamed from that handle: opened
    /// once, never held; a small one is read and kept; a link out of the root is refused there
    /// as anywhere.
    #[test]
    fn a_large_file_read_ahead_is_streamed_from_the_one_open() {
        let dir = tempfile::tempdir().unwrap();
        let line = "{\"case\":\"a\",\"t\":1.5}\n";
        let large = line.repeat(STREAMED_FROM as usize / line.len() + 1);
        std::fs::write(dir.path().join("large.jsonl"), &large).unwrap();
        std::fs::write(dir.path().join("large.csv"), "case,t\n".to_string() + &"a,1.5\n".repeat(STREAMED_FROM as usize / 6 + 1)).unwrap();
        std::fs::write(dir.path().join("small.csv"), "case,t\na,1.5\n").unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("x.jsonl"), &large).unwrap();
        std::os::unix::fs::symlink(outside.path().join("x.jsonl"), dir.path().join("out.jsonl")).unwrap();
        let evidence = Evidence::new(Root::new(dir.path()).unwrap());
        let files = [("large.jsonl", Ahead::Jsonl), ("large.csv", Ahead::Stream), ("small.csv", Ahead::Stream), ("out.jsonl", Ahead::Jsonl)];
        evidence.read_ahead(&files.map(|(f, h)| (f.to_string(), h)));
        let by = ["case".to_string()];
        for file in ["large.jsonl", "large.csv"] {
            let grouped = evidence.columns(file, &by, "t");
            let grouped = grouped.as_ref().as_ref().unwrap_or_else(|| panic!("{file} was not streamed"));
            assert_eq!(
                grouped.groups[&vec!["a".to_string()]][0].len(),
                if file.ends_with("csv") { STREAMED_FROM as usize / 6 + 1 } else { STREAMED_FROM as usize / line.len() + 1 }
            );
            assert!(grouped.strings.contains(&vec!["a".to_string()]));
            assert!(!evidence.bytes.borrow().contains_key(file), "{file} is held");
        }
        assert!(evidence.columns("small.csv", &by, "t").is_none(), "a small file is read whole");
        assert!(evidence.bytes.borrow().contains_key("small.csv"));
        assert!(evidence.columns("out.jsonl", &by, "t").is_none());
        assert!(evidence.jsonl("out.jsonl").is_err());
        let opens = evidence.opens();
        assert_eq!(opens, BTreeMap::from([("large.jsonl".to_string(), 1), ("large.csv".to_string(), 1), ("small.csv".to_string(), 1)]));
    }

    /// Documents read ahead are the documents read when asked: the same tree, the same located
    /// error, each file opened once, a document and a JSONL reading of one file sharing it.
    /// pyperf commits its results as `.json.gz`: a `json` or `contains` check reads what the
    /// file holds, as the record readers do, and a cut file is an error, not garbage.
    #[test]
    fn a_gzip_compressed_document_or_text_is_what_it_holds() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"{\"version\": \"1.0\", \"n\": 60}").unwrap();
        let gz = gz.finish().unwrap();
        std::fs::write(dir.path().join("r.json.gz"), &gz).unwrap();
        std::fs::write(dir.path().join("cut.json.gz"), &gz[..gz.len() / 2]).unwrap();
        let evidence = Evidence::new(Root::new(dir.path()).unwrap());
        assert_eq!(evidence.document("r.json.gz").unwrap()["n"], 60);
        assert!(evidence.text("r.json.gz").unwrap().contains("\"version\": \"1.0\""));
        let cut = evidence.document("cut.json.gz").unwrap_err().at("cut.json.gz").message;
        assert!(cut.contains("cannot be decompressed"), "{cut}");
    }

    #[test]
    fn documents_read_ahead_read_as_documents_read_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.json"), "{\"a\": [1, 2.5, {\"b\": \"x\"}]}").unwrap();
        std::fs::write(dir.path().join("bad.json"), "{\"a\": [1,\n 2,,]}").unwrap();
        std::fs::write(dir.path().join("c.toml"), "a = 1\n[b]\nc = \"x\"\n").unwrap();
        std::fs::write(dir.path().join("not.json"), b"{\"a\": \"\xff\"}").unwrap();
        let ahead = Evidence::new(Root::new(dir.path()).unwrap());
        let asked = Evidence::new(Root::new(dir.path()).unwrap());
        let files = ["m.json", "bad.json", "c.toml", "not.json", "missing.json"];
        ahead.read_ahead(&files.map(|f| (f.to_string(), Ahead::Document)));
        for rel in ["m.json", "c.toml"] {
            assert_eq!(ahead.document(rel).unwrap(), asked.document(rel).unwrap(), "{rel}");
        }
        for rel in ["bad.json", "not.json"] {
            let error = |e: &Evidence| e.document(rel).unwrap_err().at(rel).render();
            assert_eq!(error(&ahead), error(&asked), "{rel}");
        }
        assert!(ahead.document("missing.json").is_err());
        assert!(ahead.opens().values().all(|n| *n == 1), "{:?}", ahead.opens());
    }

    /// Files had on every core are had as `file_itself` has them, one by one: a link refused
    /// (read before through it or not), a missing file missing, a file listed twice read once.
    #[test]
    fn files_read_on_every_core_read_as_file_itself_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [("a", "A"), ("b", "BB"), ("c", "CCC")] {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        std::os::unix::fs::symlink("a", dir.path().join("link")).unwrap();
        std::os::unix::fs::symlink("b", dir.path().join("read-link")).unwrap();
        let rels: Vec<String> = ["a", "link", "b", "missing", "./a", "read-link", "c", "../out"].map(String::from).to_vec();
        let together = Evidence::new(Root::new(dir.path()).unwrap());
        let alone = Evidence::new(Root::new(dir.path()).unwrap());
        for e in [&together, &alone] {
            e.bytes("read-link").unwrap();
            e.bytes("c").unwrap();
        }
        let shown = |r: Result<usize, ReadError>| r.map_err(|e| e.at("x").message);
        let got: Vec<_> = together.each_file_itself(&rels, |b| b.len()).into_iter().map(shown).collect();
        let expected: Vec<_> = rels.iter().map(|r| shown(alone.file_itself(r).map(|b| b.len()))).collect();
        assert_eq!(got, expected);
        assert_eq!(together.opens(), alone.opens());
        assert!(together.opens().values().all(|n| *n == 1), "{:?}", together.opens());
    }

    /// Swaps `inside` for a link to `outside` and back, over and over, until `stop`.
    fn swapper(inside: std::path::PathBuf, outside: std::path::PathBuf, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> std::thread::JoinHandle<usize> {
        std::thread::spawn(move || {
            let name = inside.file_name().unwrap().to_string_lossy().into_owned();
            let kept = inside.with_file_name(format!("{name}.kept"));
            let link = inside.with_file_name(format!("{name}.link"));
            std::os::unix::fs::symlink(&outside, &link).unwrap();
            let mut swaps = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                // The real entry moves aside and a link to the outside takes its name, then
                // the real one comes back: between two steps of a walk, any may be there.
                std::fs::rename(&inside, &kept).unwrap();
                std::fs::rename(&link, &inside).unwrap();
                std::fs::rename(&inside, &link).unwrap();
                std::fs::rename(&kept, &inside).unwrap();
                swaps += 1;
            }
            swaps
        })
    }

    /// Reads `rel` through a fresh reader (so nothing is cached) while `inside` is swapped for
    /// a link to `outside`, for a bounded time: every read gives the inside text or an error
    /// that names only `rel`, never the outside file.
    fn read_while_swapped(swapped: &str, outside: &str, rel: &str) {
        let dir = tempfile::tempdir().unwrap();
        let root_dir = dir.path().join("root");
        std::fs::create_dir_all(root_dir.join("evidence/runs/r")).unwrap();
        std::fs::write(root_dir.join("evidence/runs/r/samples.jsonl"), "inside\n").unwrap();
        std::fs::create_dir_all(dir.path().join("outside/r")).unwrap();
        std::fs::write(dir.path().join("outside/secret"), "OUTSIDE\n").unwrap();
        std::fs::write(dir.path().join("outside/r/samples.jsonl"), "OUTSIDE\n").unwrap();
        let root = Root::new(&root_dir).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let thread = swapper(root_dir.join(swapped), dir.path().join(outside), stop.clone());
        let (mut inside, mut refused) = (0, 0);
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_millis(700) {
            match Evidence::new(root.clone()).bytes(rel) {
                Ok(bytes) => {
                    assert_eq!(bytes.as_slice(), b"inside\n", "read the outside file");
                    inside += 1;
                }
                Err(e) => {
                    let shown = e.at(rel).message;
                    assert!(!shown.contains("OUTSIDE") && !shown.contains("outside/"), "{shown}");
                    refused += 1;
                }
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let swaps = thread.join().unwrap();
        assert!(swaps > 0 && inside + refused > 0, "{swaps} swaps, {inside} read, {refused} refused");
    }

    #[test]
    fn a_file_swapped_for_a_link_out_is_never_read_through_it() {
        read_while_swapped("evidence/runs/r/samples.jsonl", "outside/secret", "evidence/runs/r/samples.jsonl");
    }

    #[test]
    fn a_run_folder_swapped_for_a_link_out_is_never_read_through_it() {
        read_while_swapped("evidence/runs/r", "outside/r", "evidence/runs/r/samples.jsonl");
    }

    #[test]
    fn a_manifest_entry_that_is_a_link_is_refused_even_after_a_read_through_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("real.json"), "{}").unwrap();
        std::os::unix::fs::symlink("real.json", dir.path().join("alias.json")).unwrap();
        let evidence = Evidence::new(Root::new(dir.path()).unwrap());
        assert_eq!(evidence.bytes("alias.json").unwrap().as_slice(), b"{}");
        assert!(matches!(evidence.file_itself("alias.json"), Err(ReadError::Path(PathError::Link(_)))));
        assert_eq!(evidence.file_itself("real.json").unwrap().as_slice(), b"{}");
    }

    #[test]
    fn bad_json_is_located_at_its_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.json"), "{\n  \"suites\": \"softmax\"\n}\n").unwrap();
        let root = Root::new(dir.path()).unwrap();
        let evidence = Evidence::new(root);
        let d = evidence.json::<crate::evidence::meta::Meta>("m.json").unwrap_err().at("m.json");
        assert!(d.position().unwrap().starts_with("m.json:2:"), "{}", d.render());
        assert!(d.render().contains("\"suites\": \"softmax\""), "{}", d.render());
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("t.txt"), b"ok\nab\xffc\n").unwrap();
        let root = Root::new(dir.path()).unwrap();
        let d = Evidence::new(root).text("t.txt").unwrap_err().at("t.txt");
        assert_eq!(d.position().as_deref(), Some("t.txt:2:3"));
    }
}
