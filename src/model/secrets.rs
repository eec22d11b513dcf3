//! An opt-in filter for writes that look like they hold a credential (docs/TOOL.md#secret-filter):
//! memories are stored in the clear and shown back to the model, so keys must not end up there,
//! neither in a file's content nor in its name. Hand-written matchers (no regex engine in the
//! wasm), each for one well-known key shape; a candidate must also look random (mixed
//! characters, enough entropy, no placeholder words or runs), so notes about keys, documented
//! example keys and placeholders pass.
//!
//! Content is read in every text encoding it can be decoded as: UTF-8; UTF-16 LE and BE (with a
//! byte-order mark, or without one when a quarter of the bytes on one side are NUL, as in UTF-16
//! text); and, for bytes that are not UTF-8, Latin-1 (one byte, one character), which shows the
//! ASCII of any ASCII-based encoding.

use crate::format::render::base64_decode;
use crate::format::search::match_indices;
use std::borrow::Cow;

/// The kind of credential that `bytes` (a file's content) appear to hold in any decoding, if any.
pub(crate) fn find_in_content(bytes: &[u8]) -> Option<&'static str> {
    decodings(bytes)
        .iter()
        .find_map(|text| find_credential(text))
}

/// The kind of credential that store path `key` appears to hold in a name, if any: the path as
/// given and, when it holds a `%`, percent-decoded.
pub(crate) fn find_in_path(key: &str) -> Option<&'static str> {
    find_credential(key).or_else(|| {
        let decoded = percent_decoded(key)?;
        find_in_content(&decoded)
    })
}

/// The texts `bytes` can be read as (docs/TOOL.md#secret-filter).
fn decodings(bytes: &[u8]) -> Vec<Cow<'_, str>> {
    let mut texts = Vec::new();
    let utf8 = std::str::from_utf8(bytes).ok();
    if let Some(text) = utf8 {
        texts.push(Cow::Borrowed(text));
    }
    match bytes {
        [0xFF, 0xFE, rest @ ..] => texts.push(Cow::Owned(utf16(rest, u16::from_le_bytes))),
        [0xFE, 0xFF, rest @ ..] => texts.push(Cow::Owned(utf16(rest, u16::from_be_bytes))),
        _ if looks_like_utf16(bytes) => {
            texts.push(Cow::Owned(utf16(bytes, u16::from_le_bytes)));
            texts.push(Cow::Owned(utf16(bytes, u16::from_be_bytes)));
        }
        _ => {}
    }
    if utf8.is_none() {
        texts.push(Cow::Owned(bytes.iter().map(|b| char::from(*b)).collect()));
    }
    texts
}

/// Whether `bytes` without a byte-order mark may be UTF-16 text: at least a quarter of the
/// bytes at even or at odd offsets are NUL (ASCII in UTF-16 has a NUL beside every letter;
/// other binary data, a NUL in 256 bytes).
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let (mut even, mut odd) = (0usize, 0usize);
    for (i, b) in bytes.iter().enumerate() {
        if *b == 0 {
            if i % 2 == 0 {
                even += 1;
            } else {
                odd += 1;
            }
        }
    }
    let half = bytes.len() / 2;
    half > 0 && (even * 4 >= half || odd * 4 >= half)
}

/// `bytes` as UTF-16 code units read by `unit`, unpaired surrogates as U+FFFD (a last odd
/// byte is dropped).
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|pair| match pair {
        [a, b] => unit([*a, *b]),
        _ => 0,
    });
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// `key` with each `%` and two hex digits decoded, when there is one.
fn percent_decoded(key: &str) -> Option<Vec<u8>> {
    let bytes = key.as_bytes();
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut changed = false;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let pair = (bytes.get(i + 1).copied(), bytes.get(i + 2).copied());
        if let (b'%', (Some(h), Some(l))) = (b, pair) {
            if let (Some(h), Some(l)) = (hex(h), hex(l)) {
                out.push((h * 16 + l) as u8);
                changed = true;
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    changed.then_some(out)
}

/// A credential that starts with a fixed prefix.
struct Prefixed {
    prefix: &'static str,
    kind: &'static str,
    /// The characters of the part after the prefix.
    body: fn(u8) -> bool,
    /// The least and the most characters of that part (a longer run is no match when `max`
    /// is set: `AKIA` and 20 letters is a word, not a key).
    min: usize,
    max: Option<usize>,
    /// How many of upper case, lower case and digits the part must mix.
    classes: usize,
    /// The longest run of letters and digits the part must hold (slugs and CSS classes such
    /// as `sk-hynix-memory-prices-2026` are words between dashes).
    run: usize,
    /// Whether the prefix must start a token (not follow `A-Z a-z 0-9 - _`): a prefix of three
    /// characters turns up inside base64url data too often to be glued to anything.
    word_start: bool,
}

const fn prefixed(
    prefix: &'static str,
    kind: &'static str,
    body: fn(u8) -> bool,
    min: usize,
) -> Prefixed {
    Prefixed {
        prefix,
        kind,
        body,
        min,
        max: None,
        classes: 2,
        run: 0,
        word_start: false,
    }
}

const ANTHROPIC: &str = "an Anthropic API key";
const GITHUB: &str = "a GitHub token";
const SLACK: &str = "a Slack token";

/// The prefixed shapes, in the order they are tried (the first that matches names the kind).
const PREFIXED: &[Prefixed] = &[
    prefixed("sk-ant-", ANTHROPIC, is_token_char, 20),
    prefixed("sk_live_", "a Stripe secret key", is_alnum, 20),
    prefixed("rk_live_", "a Stripe restricted key", is_alnum, 20),
    prefixed("whsec_", "a Stripe webhook secret", is_alnum, 32),
    Prefixed {
        max: Some(16),
        classes: 1,
        ..prefixed("AKIA", "an AWS access key", is_upper_digit, 16)
    },
    Prefixed {
        max: Some(16),
        classes: 1,
        ..prefixed("ASIA", "an AWS access key", is_upper_digit, 16)
    },
    Prefixed {
        max: Some(35),
        ..prefixed("AIza", "a Google API key", is_token_char, 35)
    },
    prefixed("ghp_", GITHUB, is_alnum, 36),
    prefixed("gho_", GITHUB, is_alnum, 36),
    prefixed("ghu_", GITHUB, is_alnum, 36),
    prefixed("ghs_", GITHUB, is_alnum, 36),
    prefixed("ghr_", GITHUB, is_alnum, 36),
    prefixed("github_pat_", GITHUB, is_word_char, 22),
    prefixed("glpat-", "a GitLab token", is_token_char, 20),
    prefixed("npm_", "an npm token", is_alnum, 36),
    Prefixed {
        word_start: true,
        ..prefixed("hf_", "a Hugging Face token", is_alnum, 30)
    },
    Prefixed {
        run: 10,
        ..prefixed("xoxb-", SLACK, is_token_char, 20)
    },
    Prefixed {
        run: 10,
        ..prefixed("xoxp-", SLACK, is_token_char, 20)
    },
    Prefixed {
        run: 10,
        ..prefixed("xoxa-", SLACK, is_token_char, 20)
    },
    Prefixed {
        run: 10,
        ..prefixed("xoxr-", SLACK, is_token_char, 20)
    },
    Prefixed {
        run: 10,
        ..prefixed("xoxs-", SLACK, is_token_char, 20)
    },
    Prefixed {
        run: 10,
        ..prefixed("xapp-", SLACK, is_token_char, 20)
    },
];

/// The kind of credential `text` appears to hold, if any (docs/TOOL.md#secret-filter).
pub(crate) fn find_credential(text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    // ASCII case folded: the same byte offsets, for the names matched in any case.
    let folded = text.to_ascii_lowercase();
    private_key_block(text)
        .or_else(|| putty_key(text))
        .or_else(|| PREFIXED.iter().find_map(|shape| prefixed_key(text, shape)))
        .or_else(|| openai_key(text))
        .or_else(|| aws_secret(bytes, &folded))
        .or_else(|| url_password(bytes))
        .or_else(|| webhook(text))
        .or_else(|| sendgrid_key(text))
        .or_else(|| discord_bot_token(bytes))
        .or_else(|| azure_key(bytes, &folded))
        .or_else(|| authorization(bytes, &folded))
        .or_else(|| jwt(text))
}

fn prefixed_key(text: &str, shape: &Prefixed) -> Option<&'static str> {
    let bytes = text.as_bytes();
    match_indices(text, shape.prefix).find_map(|at| {
        let glued = at > 0 && bytes.get(at - 1).is_some_and(|b| is_token_char(*b));
        if shape.word_start && glued {
            return None;
        }
        let body = run(bytes, at + shape.prefix.len(), shape.body);
        let fits = body.len() >= shape.min && shape.max.is_none_or(|max| body.len() <= max);
        (fits && looks_random(body, shape.classes) && longest_alnum_run(body) >= shape.run)
            .then_some(shape.kind)
    })
}

/// `sk-` (not `sk-ant-`), optionally `proj-`, `svcacct-` or `admin-`, then a random part of at
/// least 32 characters holding a run of 20 letters and digits.
fn openai_key(text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    match_indices(text, "sk-").find_map(|at| {
        let rest = bytes.get(at + 3..).unwrap_or_default();
        if rest.starts_with(b"ant-") {
            return None;
        }
        let skip = [&b"proj-"[..], b"svcacct-", b"admin-"]
            .iter()
            .find(|p| rest.starts_with(p))
            .map_or(0, |p| p.len());
        let body = run(bytes, at + 3 + skip, is_token_char);
        (body.len() >= 32 && looks_random(body, 2) && longest_alnum_run(body) >= 20)
            .then_some("an OpenAI API key")
    })
}

/// `-----BEGIN … PRIVATE KEY-----` (or `PGP PRIVATE KEY BLOCK`) followed by a base64 body of at
/// least 40 random characters: a note that only names the armour lines is not a key.
fn private_key_block(text: &str) -> Option<&'static str> {
    match_indices(text, "-----BEGIN ").find_map(|at| {
        let after = text.get(at + 11..)?;
        let label_end = match_indices(after, "-----").next()?;
        let label = after.get(..label_end)?;
        let is_private = label.ends_with("PRIVATE KEY") || label == "PGP PRIVATE KEY BLOCK";
        let body_text = after.get(label_end + 5..)?;
        (is_private && armoured_body(body_text).len() >= 40).then_some("a private key block")
    })
}

/// The base64 lines after an armour line, up to the first line that is not base64 (headers
/// such as `Proc-Type:` and blank lines skipped; `\n` written as two characters, as in a JSON
/// key file, counts as a line break). Empty unless the body looks random.
fn armoured_body(text: &str) -> String {
    let mut body = String::new();
    for line in armour_lines(text).take(400) {
        let line = line.trim();
        if line.is_empty() || (body.is_empty() && line.contains(':')) {
            continue;
        }
        if line.starts_with("-----") || !line.bytes().all(is_base64_char) {
            break;
        }
        body.push_str(line);
    }
    // Key material in base64 runs `AAAA` wherever it holds zero bytes: no repeat rule here,
    // and a floor of 3.5 bits per character (a whole body has 5 to 6).
    let bytes = body.as_bytes();
    if classes(bytes) >= 2 && entropy(bytes) >= 3.5 && !has_placeholder_word(bytes) {
        body
    } else {
        String::new()
    }
}

/// The lines of `text` split at line feeds and at the two characters `\n` (a key pasted into
/// a JSON or shell string), as `text.split('\n').flat_map(|l| l.split("\\n"))` gives them.
/// By bytes: `str::split` with a `&str` pattern brings in the standard library's slicing panic,
/// whose message ships the Unicode `printable` tables in the wasm (see `format::search`).
fn armour_lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut at = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        // Both separators are ASCII, so every cut is at a char boundary and `get` succeeds.
        while let Some(&b) = bytes.get(at) {
            let width = match b {
                b'\n' => 1,
                b'\\' if bytes.get(at + 1) == Some(&b'n') => 2,
                _ => 0,
            };
            if width > 0 {
                let line = text.get(start..at);
                at += width;
                start = at;
                return line;
            }
            at += 1;
        }
        done = true;
        text.get(start..)
    })
}

/// A PuTTY key file: `PuTTY-User-Key-File-` and, after it, `Private-Lines:` with a random body.
fn putty_key(text: &str) -> Option<&'static str> {
    let at = match_indices(text, "PuTTY-User-Key-File-").next()?;
    let rest = text.get(at..)?;
    let lines = match_indices(rest, "Private-Lines:").next()?;
    let after = rest.get(lines + 14..)?;
    // The count of lines, then the lines.
    let after =
        after.trim_start_matches([' ', '\t', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    (armoured_body(after).len() >= 40).then_some("a PuTTY private key")
}

/// `aws_secret_access_key` or `SecretAccessKey` (any case), then spaces, `=`, `:` or quotes,
/// then 40 random characters of `A-Z a-z 0-9 / +`.
fn aws_secret(bytes: &[u8], folded: &str) -> Option<&'static str> {
    ["aws_secret_access_key", "secretaccesskey"]
        .iter()
        .flat_map(|name| match_indices(folded, name).map(move |at| at + name.len()))
        .find_map(|end| {
            let start = end
                + skip(bytes, end, |b| {
                    matches!(b, b' ' | b'\t' | b'=' | b':' | b'"' | b'\'')
                });
            let value = run(bytes, start, |b| {
                b.is_ascii_alphanumeric() || b == b'/' || b == b'+'
            });
            (value.len() == 40 && looks_random(value, 2)).then_some("an AWS secret key")
        })
}

/// `scheme://user:password@host` with a password that is not a placeholder.
fn url_password(bytes: &[u8]) -> Option<&'static str> {
    const DATABASES: &[&str] = &[
        "postgres",
        "postgresql",
        "mysql",
        "mariadb",
        "mongodb",
        "mongodb+srv",
        "redis",
        "rediss",
        "amqp",
        "amqps",
        "mssql",
        "sqlserver",
        "oracle",
        "cockroachdb",
        "clickhouse",
    ];
    let mut from = 0;
    while let Some(at) = bytes
        .get(from..)
        .and_then(|rest| rest.windows(3).position(|w| w == b"://"))
        .map(|p| p + from)
    {
        from = at + 3;
        let scheme_len = bytes
            .get(..at)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
            .count();
        if scheme_len == 0 {
            continue;
        }
        let userinfo = run(bytes, from, |b| {
            !matches!(b, b'/' | b'?' | b'#' | b'@') && !b.is_ascii_whitespace() && b != b'"'
        });
        if bytes.get(from + userinfo.len()) != Some(&b'@') {
            continue;
        }
        let Some(colon) = userinfo.iter().position(|b| *b == b':') else {
            continue;
        };
        let password = userinfo.get(colon + 1..).unwrap_or_default();
        if password.is_empty() || is_placeholder_password(password) {
            continue;
        }
        let scheme = bytes.get(at - scheme_len..at).unwrap_or_default();
        let scheme = scheme.to_ascii_lowercase();
        let database = DATABASES.iter().any(|d| d.as_bytes() == scheme.as_slice())
            || scheme.starts_with(b"jdbc");
        return Some(if database {
            "a database URL with a password"
        } else {
            "a URL with a password"
        });
    }
    None
}

/// `password`, `<password>`, `${DB_PASS}`, `****`, `your-password`, …
fn is_placeholder_password(password: &[u8]) -> bool {
    const WORDS: &[&str] = &[
        "password",
        "pass",
        "passwd",
        "pwd",
        "secret",
        "changeme",
        "redacted",
        "hidden",
        "pw",
        "xxx",
        "example",
        "mypassword",
        "yourpassword",
        "your-password",
        "your_password",
        "placeholder",
        "token",
        "guest",
        "anonymous",
    ];
    let lower = password.to_ascii_lowercase();
    matches!(
        lower.first(),
        Some(b'<' | b'{' | b'$' | b'%' | b'[' | b'*' | b'.')
    ) || WORDS.iter().any(|w| w.as_bytes() == lower.as_slice())
        || lower.iter().all(|b| Some(b) == lower.first())
        || has_placeholder(&lower)
}

/// Slack and Discord webhook URLs, whose path is the secret.
fn webhook(text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    let slack = [
        "hooks.slack.com/services/",
        "hooks.slack.com/workflows/",
        "hooks.slack.com/triggers/",
    ];
    for prefix in slack {
        for at in match_indices(text, prefix) {
            let path = run(bytes, at + prefix.len(), |b| {
                b.is_ascii_alphanumeric() || b == b'/'
            });
            if path.len() >= 30 && looks_random(path, 2) {
                return Some("a Slack webhook URL");
            }
        }
    }
    for prefix in ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"] {
        for at in match_indices(text, prefix) {
            let start = at + prefix.len();
            let id = run(bytes, start, |b| b.is_ascii_digit());
            if id.len() < 17 || bytes.get(start + id.len()) != Some(&b'/') {
                continue;
            }
            let token = run(bytes, start + id.len() + 1, is_token_char);
            if token.len() >= 60 && looks_random(token, 2) {
                return Some("a Discord webhook URL");
            }
        }
    }
    None
}

/// `SG.`, 22 characters, `.`, 43 characters.
fn sendgrid_key(text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    match_indices(text, "SG.").find_map(|at| {
        let id = run(bytes, at + 3, is_token_char);
        let dot = at + 3 + id.len();
        let secret = run(bytes, dot + 1, is_token_char);
        (id.len() == 22
            && bytes.get(dot) == Some(&b'.')
            && secret.len() == 43
            && looks_random(secret, 2))
        .then_some("a SendGrid API key")
    })
}

/// A Discord bot token: the bot's id in base64 (24 to 28 characters, starting `M`, `N` or `O`),
/// `.`, 6 characters, `.`, 27 to 40 characters.
fn discord_bot_token(bytes: &[u8]) -> Option<&'static str> {
    (0..bytes.len()).find_map(|at| {
        let first = *bytes.get(at)?;
        if !matches!(first, b'M' | b'N' | b'O')
            || at > 0 && bytes.get(at - 1).is_some_and(|b| is_token_char(*b))
        {
            return None;
        }
        let id = run(bytes, at, is_token_char);
        if !(24..=28).contains(&id.len()) || bytes.get(at + id.len()) != Some(&b'.') {
            return None;
        }
        let stamp_at = at + id.len() + 1;
        let stamp = run(bytes, stamp_at, is_token_char);
        if stamp.len() != 6 || bytes.get(stamp_at + 6) != Some(&b'.') {
            return None;
        }
        let hmac = run(bytes, stamp_at + 7, is_token_char);
        ((27..=40).contains(&hmac.len()) && looks_random(id, 2) && looks_random(hmac, 2))
            .then_some("a Discord bot token")
    })
}

/// `AccountKey=` or `SharedAccessKey=` (any case), then at least 32 random base64 characters.
fn azure_key(bytes: &[u8], folded: &str) -> Option<&'static str> {
    ["accountkey=", "sharedaccesskey="]
        .iter()
        .flat_map(|name| match_indices(folded, name).map(move |at| at + name.len()))
        .find_map(|start| {
            let value = run(bytes, start, is_base64_char);
            (value.len() >= 32 && looks_random(value, 2)).then_some("an Azure connection string")
        })
}

/// `Authorization: Basic <base64 of user:password>` or `Authorization: Bearer <token>`.
fn authorization(bytes: &[u8], folded: &str) -> Option<&'static str> {
    match_indices(folded, "authorization").find_map(|at| {
        let mut start = at + 13;
        start += skip(bytes, start, |b| {
            matches!(b, b' ' | b'\t' | b'=' | b':' | b'"' | b'\'')
        });
        let scheme = run(bytes, start, |b| b.is_ascii_alphabetic()).to_ascii_lowercase();
        let value_at = start + scheme.len();
        let value_at = value_at + skip(bytes, value_at, |b| b == b' ' || b == b'\t');
        match scheme.as_slice() {
            b"basic" => {
                let value = run(bytes, value_at, is_base64_char);
                let value = std::str::from_utf8(value).unwrap_or_default();
                let decoded = base64_decode(value).unwrap_or_default();
                let colon = decoded.iter().position(|b| *b == b':')?;
                let password = decoded.get(colon + 1..).unwrap_or_default();
                (!password.is_empty() && !is_placeholder_password(password))
                    .then_some("HTTP Basic credentials")
            }
            b"bearer" | b"token" => {
                let value = run(bytes, value_at, |b| {
                    is_token_char(b) || matches!(b, b'.' | b'~' | b'+' | b'/' | b'=')
                });
                (value.len() >= 20 && looks_random(value, 2)).then_some("a bearer token")
            }
            _ => None,
        }
    })
}

/// `header.payload.signature`, each part base64url, header and payload JSON objects.
fn jwt(text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    match_indices(text, "eyJ")
        .find(|at| is_jwt(bytes.get(*at..).unwrap_or_default()))
        .map(|_| "a JSON Web Token")
}

fn is_jwt(bytes: &[u8]) -> bool {
    let b64 = |b: &u8| is_token_char(*b);
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
        && looks_random(&signature, 2)
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

fn is_word_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn is_upper_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

fn is_base64_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// The bytes from `start` that satisfy `ok`.
fn run(bytes: &[u8], start: usize, ok: impl Fn(u8) -> bool) -> &[u8] {
    let rest = bytes.get(start..).unwrap_or_default();
    let len = rest.iter().take_while(|b| ok(**b)).count();
    rest.get(..len).unwrap_or_default()
}

/// How many bytes from `start` satisfy `ok`.
fn skip(bytes: &[u8], start: usize, ok: impl Fn(u8) -> bool) -> usize {
    run(bytes, start, ok).len()
}

/// The longest run of ASCII letters and digits in `body`.
fn longest_alnum_run(body: &[u8]) -> usize {
    body.split(|b| !b.is_ascii_alphanumeric())
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

/// Whether `body` looks like generated key material: at least `classes` of upper case, lower
/// case and digits, at least 3 bits of entropy per character (2.5 for 16 characters or fewer),
/// and no placeholder (`your-…-here`, `EXAMPLE`, `xxxx`).
fn looks_random(body: &[u8], least: usize) -> bool {
    let floor = if body.len() <= 16 { 2.5 } else { 3.0 };
    classes(body) >= least && entropy(body) >= floor && !has_placeholder(body)
}

/// How many of upper case, lower case and digits `body` holds.
fn classes(body: &[u8]) -> usize {
    [
        body.iter().any(u8::is_ascii_uppercase),
        body.iter().any(u8::is_ascii_lowercase),
        body.iter().any(u8::is_ascii_digit),
    ]
    .iter()
    .filter(|x| **x)
    .count()
}

/// Shannon entropy of `body`'s bytes, in bits per byte.
fn entropy(body: &[u8]) -> f64 {
    let mut counts = [0u32; 256];
    for b in body {
        if let Some(c) = counts.get_mut(usize::from(*b)) {
            *c += 1;
        }
    }
    let n = body.len() as f64;
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = f64::from(*c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether `body` holds a placeholder: a word such as `example` or `placeholder` anywhere, a
/// word such as `your` or `here` between separators, or one character four times running.
fn has_placeholder(body: &[u8]) -> bool {
    let lower = body.to_ascii_lowercase();
    let repeated = lower
        .windows(4)
        .any(|w| w.iter().all(|b| Some(b) == w.first()));
    repeated || has_placeholder_word(body)
}

/// `has_placeholder` without the rule of repeats.
fn has_placeholder_word(body: &[u8]) -> bool {
    const ANYWHERE: &[&str] = &[
        "example",
        "placeholder",
        "redacted",
        "dummy",
        "sample",
        "changeme",
        "insert",
    ];
    const WORDS: &[&str] = &[
        "your", "here", "my", "key", "token", "secret", "fake", "test", "todo", "replace", "xxx",
        "foo", "bar", "abc",
    ];
    let lower = body.to_ascii_lowercase();
    let anywhere = ANYWHERE
        .iter()
        .any(|w| lower.windows(w.len()).any(|win| win == w.as_bytes()));
    let word = lower
        .split(|b| !b.is_ascii_alphanumeric())
        .any(|part| WORDS.iter().any(|w| w.as_bytes() == part));
    anywhere || word
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armour_lines_split_as_str_split_does() {
        let texts = [
            "",
            "\n",
            "\\n",
            "a",
            "a\nb",
            "a\\nb",
            "\\\\n",
            "\\",
            "a\\",
            "\\\n\\n\n",
            "x\\n\\n",
            "\n\n",
            "é\\né\n\\",
            "AAAA\\nBBBB\nCCCC\\n",
        ];
        for text in texts {
            let want: Vec<&str> = text.split('\n').flat_map(|l| l.split("\\n")).collect();
            assert_eq!(armour_lines(text).collect::<Vec<_>>(), want, "{text:?}");
        }
    }

    #[test]
    fn finds_each_kind() {
        let cases = [
            ("key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "an Anthropic API key"),
            ("OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyzABCDEF0123456789", "an OpenAI API key"),
            ("sk-abcdefghijklmnopqrstuvwxyzABCDEF0123456789", "an OpenAI API key"),
            ("id AKIAZ7Q3K5LMRW2XPN4D here", "an AWS access key"),
            ("aws_secret_access_key = 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", "an AWS secret key"),
            ("token ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5", "a GitHub token"),
            ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "a GitHub token"),
            ("SLACK=xoxb-2718281828-3141592653589-Zq4Xw8Yv2Tu6Sr0Pq3No7Ml", "a Slack token"),
            ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----", "a private key block"),
            ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "a bearer token"),
            ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "a JSON Web Token"),
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
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----",
            "-----BEGIN RSA PRIVATE KEY-----",
            "eyJ is how base64 of '{\"' starts.",
            "disk-ANTHROPIC-2026 and AKIAnotakey",
            "A sha: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b",
            "See https://example.com/sk-learn-tutorial for details",
            "AWS's documented example: AKIAIOSFODNN7EXAMPLE",
        ];
        for text in notes {
            assert_eq!(find_credential(text), None, "{text}");
        }
    }

    #[test]
    fn reads_every_decoding() {
        let key = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";
        let le: Vec<u8> = key.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = key.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let with_bom = [&[0xFF, 0xFE][..], &le].concat();
        let latin1 = [key.as_bytes(), &[0xE9, 0xFF]].concat();
        for bytes in [le, be, with_bom, latin1] {
            assert_eq!(find_in_content(&bytes), Some(GITHUB), "{bytes:?}");
        }
        assert_eq!(find_in_content(&[0x89, b'P', b'N', b'G', 0, 0]), None);
    }

    #[test]
    fn paths_percent_decoded() {
        assert_eq!(
            find_in_path("/keys/ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5.md"),
            Some(GITHUB)
        );
        assert_eq!(
            find_in_path("/keys/ghp%5FaB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5.md"),
            Some(GITHUB)
        );
        assert_eq!(find_in_path("/notes/100%25 done.md"), None);
    }
}
