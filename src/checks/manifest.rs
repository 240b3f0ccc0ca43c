//! `manifest`: a run directory is exactly what its manifest says.
//!
//! What it does: reads `manifest` (`sha256sum` format) and checks that every listed file has
//! that SHA-256, and that every file of the manifest's directory is listed. A listed file that
//! is absent here is a failure unless `remote-only` names it (kept elsewhere because of its
//! size). Yields the number of files verified.
//!
//! Why: evidence is written by the tool and never edited; a hash per file makes any edit,
//! addition or loss visible.
//!
//! ```toml
//! [[claim.check]]
//! kind = "manifest"
//! manifest = "evidence/runs/r1/MANIFEST.sha256"
//! ```
//! An edited file fails as `samples.jsonl: sha256 is 3f…, manifest says 9a…`.

use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::evidence::manifest;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub manifest: Spanned<String>,
    #[serde(default)]
    pub remote_only: Vec<String>,
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.manifest.get_ref().as_str()]
    }

    /// Nothing to check before files are read.
    pub(super) fn validate(&self) -> Result<(), (String, std::ops::Range<usize>)> {
        Ok(())
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let text = ctx.read_text(&self.manifest)?;
        let shown = self.manifest.get_ref();
        let dir = shown.rsplit_once('/').map_or(".", |(d, _)| d);
        // A manifest is verified (every file hashed) once per process for each set of
        // remote-only files, whichever registry asks.
        let verdict = ctx.evidence.derived(&format!("manifest:{shown}:{:?}", self.remote_only), || manifest::verify(ctx.evidence, dir, &text, shown, &self.remote_only));
        let (verified, problems) = verdict.as_ref().clone()?;
        let listed = verified + problems.iter().filter(|p| !p.contains(": present but not listed")).count();
        Ok(Observation { value: Some(verified as f64), unit: None, problems, detail: format!("{verified} of {listed} listed files verified"), band: None })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml};
    use crate::hash::sha256_hex;

    fn manifest(files: &[(&str, &str)]) -> String {
        files.iter().map(|(p, t)| format!("{}  {p}\n", sha256_hex(t.as_bytes()))).collect()
    }

    const CHECK: &str = "kind = \"manifest\"\nmanifest = \"run/MANIFEST.sha256\"";

    #[test]
    fn a_whole_run_verifies() {
        let m = manifest(&[("a.txt", "a"), ("t/b.txt", "b")]);
        let f = Fixture::new(&[("run/a.txt", "a"), ("run/t/b.txt", "b"), ("run/MANIFEST.sha256", &m)]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert!(obs.problems.is_empty(), "{:?}", obs.problems);
        assert_eq!(obs.value, Some(2.0));
    }

    #[test]
    fn an_edited_file_fails() {
        let m = manifest(&[("a.txt", "a")]);
        let f = Fixture::new(&[("run/a.txt", "edited"), ("run/MANIFEST.sha256", &m)]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert!(obs.problems[0].starts_with("a.txt: sha256 is"), "{:?}", obs.problems);
    }

    #[test]
    fn an_unlisted_file_fails() {
        let m = manifest(&[("a.txt", "a")]);
        let f = Fixture::new(&[("run/a.txt", "a"), ("run/extra.txt", "x"), ("run/MANIFEST.sha256", &m)]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.problems, ["extra.txt: present but not listed"]);
    }

    #[test]
    fn a_listed_entry_that_is_a_link_is_a_located_error_wherever_it_points() {
        let m = manifest(&[("a.txt", "a"), ("alias.txt", "a")]);
        let f = Fixture::new(&[("run/a.txt", "a"), ("run/MANIFEST.sha256", &m)]);
        std::os::unix::fs::symlink("a.txt", f.evidence.root().dir().join("run/alias.txt")).unwrap();
        let err = f.observe(&check_toml(CHECK)).unwrap_err();
        assert_eq!(err.position().as_deref(), Some("run/MANIFEST.sha256:2:1"), "{}", err.render());
        assert!(err.message.contains("`alias.txt` is a symbolic link"), "{}", err.message);
    }

    #[test]
    fn an_unlisted_link_is_named_as_one_and_never_followed() {
        let m = manifest(&[("a.txt", "a")]);
        let f = Fixture::new(&[("run/a.txt", "a"), ("run/MANIFEST.sha256", &m)]);
        std::os::unix::fs::symlink("/nonexistent/secret", f.evidence.root().dir().join("run/probe")).unwrap();
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.problems, ["probe: present but not listed (a symbolic link)"]);
        assert_eq!(obs.detail, "1 of 1 listed files verified");
    }

    #[test]
    fn a_missing_file_fails_unless_remote_only() {
        let m = manifest(&[("a.txt", "a"), ("big.bin", "b")]);
        let f = Fixture::new(&[("run/a.txt", "a"), ("run/MANIFEST.sha256", &m)]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.problems, ["big.bin: listed but missing"]);
        let obs = f.observe(&check_toml(&format!("{CHECK}\nremote-only = [\"big.bin\"]"))).unwrap();
        assert!(obs.problems.is_empty());
        assert_eq!(obs.value, Some(1.0));
    }
}
