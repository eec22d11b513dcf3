//! An opt-in filter for content that looks like it holds a credential: memories are stored in
//! the clear and shown back to the model, so keys must not end up there. Hand-written matchers
//! (no regex engine in the wasm), each for one well-known key shape.

use crate::format::search::{contains, find, match_indices};

/// The kind of credential `text` appears to hold, if any.
pub(crate) fn find_credential(text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    if contains(text, "-----BEGIN ") && contains(text, "PRIVATE KEY-----") {
        return Some("a private key block");
    }
    for at in match_indices(text, "sk-ant-") {
        if run_after(bytes, at + 7, is_token_char) >= 20 && starts_word(bytes, at) {
            return Some("an Anthropic API key");
        }
    }
    for at in match_indices(text, "sk-") {
        let rest = bytes.get(at + 3..).unwrap_or_default();
        if rest.starts_with(b"ant-") || !starts_word(bytes, at) {
            continue;
        }
        let body = if rest.starts_with(b"proj-") || rest.starts_with(b"svcacct-") {
            at + 3 + rest.iter().position(|b| *b == b'-').map_or(0, |p| p + 1)
        } else {
            at + 3
        };
        if run_after(bytes, body, is_token_char) >= 32 {
            return Some("an OpenAI API key");
        }
    }
    for prefix in ["AKIA", "ASIA"] {
        for at in match_indices(text, prefix) {
            let run = run_after(bytes, at + 4, |b| {
                b.is_ascii_uppercase() || b.is_ascii_digit()
            });
            if run == 16 && starts_word(bytes, at) {
                return Some("an AWS access key");
            }
        }
    }
    if let Some(at) = find(text, "aws_secret_access_key") {
        let tail = text.get(at + 21..).unwrap_or("");
        let value = tail.trim_start_matches([' ', '=', ':', '"', '\'']);
        if value
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'/' || *b == b'+')
            .count()
            >= 40
        {
            return Some("an AWS secret key");
        }
    }
    for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] {
        for at in match_indices(text, prefix) {
            if run_after(bytes, at + 4, |b| b.is_ascii_alphanumeric()) >= 36
                && starts_word(bytes, at)
            {
                return Some("a GitHub token");
            }
        }
    }
    for at in match_indices(text, "github_pat_") {
        if run_after(bytes, at + 11, |b| b.is_ascii_alphanumeric() || b == b'_') >= 22 {
            return Some("a GitHub token");
        }
    }
    for prefix in ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-"] {
        for at in match_indices(text, prefix) {
            if run_after(bytes, at + 5, |b| b.is_ascii_alphanumeric() || b == b'-') >= 20 {
                return Some("a Slack token");
            }
        }
    }
    for at in match_indices(text, "eyJ") {
        if starts_word(bytes, at) && is_jwt(bytes.get(at..).unwrap_or_default()) {
            return Some("a JSON Web Token");
        }
    }
    None
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// How many bytes from `start` satisfy `ok`.
fn run_after(bytes: &[u8], start: usize, ok: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| ok(**b))
        .count()
}

/// Whether a match at `at` is not the tail of a longer word (`task-ant-…` is not a key).
fn starts_word(bytes: &[u8], at: usize) -> bool {
    at == 0 || bytes.get(at - 1).is_none_or(|b| !b.is_ascii_alphanumeric())
}

/// `header.payload.signature`, each part base64url, header and payload JSON objects.
fn is_jwt(bytes: &[u8]) -> bool {
    let b64 = |b: &u8| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_';
    let mut parts = bytes.split(|b| *b == b'.');
    let header = parts.next().unwrap_or_default();
    let payload = parts.next().unwrap_or_default();
    let signature: Vec<u8> = parts
        .next()
        .unwrap_or_default()
        .iter()
        .copied()
        .take_while(b64)
        .collect();
    header.len() >= 10
        && header.iter().all(b64)
        && payload.len() >= 10
        && payload.starts_with(b"eyJ")
        && payload.iter().all(b64)
        && signature.len() >= 16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_kind() {
        let cases = [
            ("key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "an Anthropic API key"),
            ("OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyzABCDEF0123456789", "an OpenAI API key"),
            ("sk-abcdefghijklmnopqrstuvwxyzABCDEF0123456789", "an OpenAI API key"),
            ("id AKIAIOSFODNN7EXAMPLE here", "an AWS access key"),
            ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "an AWS secret key"),
            ("token ghp_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", "a GitHub token"),
            ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "a GitHub token"),
            ("SLACK=xoxb-1234567890-abcdefghijkl", "a Slack token"),
            ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----", "a private key block"),
            ("-----BEGIN RSA PRIVATE KEY-----", "a private key block"),
            ("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "a JSON Web Token"),
        ];
        for (text, kind) in cases {
            assert_eq!(find_credential(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn leaves_ordinary_notes_alone() {
        let notes = [
            "The user's name is Ada; she likes tea.",
            "Use the task-ant-colony metaphor; ask-ant-questions.",
            "Remember: sk- prefixes are OpenAI keys, don't store them.",
            "AKIA is the prefix of AWS access keys.",
            "Talked about ghp_ tokens and xoxb- tokens in general.",
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----",
            "eyJ is how base64 of '{\"' starts.",
            "disk-ANTHROPIC-2026 and AKIAnotakey",
            "A sha: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b",
            "See https://example.com/sk-learn-tutorial for details",
        ];
        for text in notes {
            assert_eq!(find_credential(text), None, "{text}");
        }
    }
}
