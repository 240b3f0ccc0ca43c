//! SHA-256 as lowercase hex: the one hash claimcheck records for manuscripts, locks, manifests
//! and figures.

use sha2::{Digest, Sha256};

/// The SHA-256 of `bytes` as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The first 12 characters of a hash, for messages. A recorded hash is registry text and may
/// hold anything, multi-byte characters included, so it is cut at a character boundary.
pub fn short(sha: &str) -> &str {
    crate::diagnostic::first_chars(sha, 12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_hash_never_cuts_a_character() {
        assert_eq!(short(&"a".repeat(64)), "aaaaaaaaaaaa");
        assert_eq!(short("ééééééééééééé"), "éééééééééééé");
        assert_eq!(short("ab"), "ab");
    }
}
