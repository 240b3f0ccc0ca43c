//! The one reader of files under the root for a loaded workspace. Each file is opened once,
//! whatever asks for it (a check of any registry, the recheck, the review), and what was parsed
//! from it is kept, one value per file and type, for everyone after. This module owns opening,
//! caching and counting; what a file means belongs to the typed readers beside it.
//!
//! **Architecture Invariant:** no command opens a file under the root twice. Every evidence
//! read goes through [`Evidence`], which counts opens, and a test holds `review` of the shipped
//! repository to one open per file.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::rc::Rc;

use serde::de::DeserializeOwned;

use super::jsonl::Jsonl;
use super::readers::{self, Format, Table};
use crate::diagnostic::Diagnostic;
use crate::paths::{PathError, Root};

/// Files under one root, each read once.
pub struct Evidence {
    root: Root,
    bytes: RefCell<HashMap<PathBuf, Rc<Vec<u8>>>>,
    parsed: RefCell<HashMap<(String, TypeId), Rc<dyn Any>>>,
    opens: RefCell<BTreeMap<String, usize>>,
    /// Paths resolved inside the root, by the name asked for: the checks of every registry ask
    /// for the same few files, and each resolution walks the file system link by link.
    resolved: RefCell<HashMap<String, PathBuf>>,
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
        Evidence { root, bytes: RefCell::default(), parsed: RefCell::default(), opens: RefCell::default(), resolved: RefCell::default() }
    }

    pub fn root(&self) -> &Root {
        &self.root
    }

    /// Whether `rel` names a file or folder inside the root.
    pub fn exists(&self, rel: &str) -> bool {
        self.resolve(rel).is_ok()
    }

    /// `rel` resolved inside the root ([`Root::resolve`]); a success is remembered.
    fn resolve(&self, rel: &str) -> Result<PathBuf, PathError> {
        if let Some(hit) = self.resolved.borrow().get(rel) {
            return Ok(hit.clone());
        }
        let full = self.root.resolve(rel)?;
        self.resolved.borrow_mut().insert(rel.to_string(), full.clone());
        Ok(full)
    }

    /// The bytes of the file at `rel`, read on first use.
    pub fn bytes(&self, rel: &str) -> Result<Rc<Vec<u8>>, ReadError> {
        let full = self.resolve(rel).map_err(ReadError::Path)?;
        if let Some(hit) = self.bytes.borrow().get(&full) {
            return Ok(hit.clone());
        }
        *self.opens.borrow_mut().entry(self.root.relative(&full)).or_insert(0) += 1;
        let bytes = Rc::new(std::fs::read(&full).map_err(ReadError::Io)?);
        self.bytes.borrow_mut().insert(full, bytes.clone());
        Ok(bytes)
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

    /// The file at `rel` as UTF-8 text.
    pub fn text(&self, rel: &str) -> Result<Rc<String>, ReadError> {
        self.parsed(rel, |rel, bytes| {
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
            readers::read(rel, bytes, format, records, &sidecar)
        })
    }

    /// The JSONL file at `rel`.
    pub fn jsonl(&self, rel: &str) -> Result<Rc<Jsonl>, ReadError> {
        self.parsed(rel, |rel, bytes| {
            std::str::from_utf8(bytes).map_err(|e| not_utf8(rel, bytes, e.valid_up_to()))?;
            Jsonl::parse(rel, bytes)
        })
    }

    /// The JSON file at `rel`, read into `T`; an error is located at serde's line and column.
    pub fn json<T: DeserializeOwned + 'static>(&self, rel: &str) -> Result<Rc<T>, ReadError> {
        self.parsed(rel, |rel, bytes| {
            let text = std::str::from_utf8(bytes).map_err(|e| not_utf8(rel, bytes, e.valid_up_to()))?;
            serde_json::from_str(text).map_err(|e| json_error(rel, text, &e))
        })
    }

    /// Puts a JSONL file parsed elsewhere (a fresh run's samples, before they are written)
    /// under `rel`, which need not exist yet.
    pub fn insert_jsonl(&self, rel: &str, jsonl: Jsonl) {
        self.parsed.borrow_mut().insert((format!("inserted:{rel}"), TypeId::of::<Jsonl>()), Rc::new(jsonl));
    }

    /// How often each root-relative file was opened.
    pub fn opens(&self) -> BTreeMap<String, usize> {
        self.opens.borrow().clone()
    }

    fn key(&self, rel: &str) -> Result<String, ReadError> {
        let inserted = format!("inserted:{rel}");
        if self.parsed.borrow().contains_key(&(inserted.clone(), TypeId::of::<Jsonl>())) {
            return Ok(inserted);
        }
        let full = self.resolve(rel).map_err(ReadError::Path)?;
        Ok(full.to_string_lossy().into_owned())
    }
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
