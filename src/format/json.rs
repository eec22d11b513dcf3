//! A small JSON reader and writer: the wasm boundary speaks JSON text, and the core needs to see
//! exactly what the model sent (`null` vs absent, `2.0` vs `2`, lone surrogates), which a
//! general-purpose deserializer would hide. Keeping serde out of the wasm also keeps it small.

/// A parsed JSON value. Object members keep their order; a repeated key resolves to the last
/// one, as `JSON.parse` does.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(JsonNumber),
    Str(JsonStr),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// A JSON string. `lone_surrogate` is set when an escape named half a surrogate pair: the text
/// holds U+FFFD in its place (as `TextEncoder` would write it), and path checks refuse it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JsonStr {
    pub text: String,
    pub lone_surrogate: bool,
}

/// A JSON number. Everything the core counts is whole (sizes, times, line numbers), so a number
/// is kept as its integral value, saturated to `i64`, when it has one, and as the text that was
/// sent, for echoing; no floating point is needed (which keeps the wasm small).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonNumber {
    pub integer: Option<i64>,
    pub text: String,
}

impl JsonNumber {
    /// The number as JavaScript's `String(n)` writes it: exact for integers below 10^15, which
    /// covers every count and line number; other values are echoed as sent (from
    /// `JSON.stringify` that is the same text).
    pub fn shown(&self) -> String {
        match self.integer {
            Some(n) if n.unsigned_abs() < 1_000_000_000_000_000 => crate::format::render::signed(n),
            _ => self.text.clone(),
        }
    }

    fn from_lexeme(text: &str) -> JsonNumber {
        JsonNumber {
            integer: integral_value(text),
            text: text.to_string(),
        }
    }
}

/// The integral value of a JSON number literal (saturated), or `None` if it has a fraction.
fn integral_value(text: &str) -> Option<i64> {
    // The common case, every size, time and line number: up to 18 digits, no fraction or
    // exponent (below 10^18, so it cannot overflow).
    let plain = text.strip_prefix('-').unwrap_or(text);
    if !plain.is_empty() && plain.len() <= 18 && plain.bytes().all(|b| b.is_ascii_digit()) {
        let value = plain
            .bytes()
            .fold(0i64, |value, b| value * 10 + i64::from(b - b'0'));
        return Some(if plain.len() < text.len() {
            -value
        } else {
            value
        });
    }
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (
            unsigned.get(..at).unwrap_or(""),
            unsigned.get(at + 1..).unwrap_or(""),
        ),
        None => (unsigned, "0"),
    };
    let exponent = exponent.strip_prefix('+').unwrap_or(exponent);
    // Huge exponents only matter as "very large" or "very small": clamp them.
    let exponent: i64 = exponent
        .parse::<i64>()
        .unwrap_or(if exponent.starts_with('-') {
            -100_000
        } else {
            100_000
        });
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = [whole, fraction].concat();
    let digits = digits.trim_start_matches('0');
    let scale = exponent - fraction.len() as i64;
    let kept = if scale >= 0 {
        digits
    } else {
        let cut = digits.len() as i64 + scale;
        let (kept, dropped) = digits.split_at_checked(cut.max(0) as usize)?;
        if dropped.bytes().any(|b| b != b'0') {
            return None;
        }
        kept
    };
    let mut value: i64 = 0;
    let saturated = if negative { i64::MIN } else { i64::MAX };
    for b in kept.bytes() {
        let digit = i64::from(b - b'0');
        value = match value.checked_mul(10).and_then(|v| v.checked_add(digit)) {
            Some(v) => v,
            None => return Some(saturated),
        };
    }
    for _ in 0..scale.max(0) {
        if value == 0 {
            break;
        }
        value = match value.checked_mul(10) {
            Some(v) => v,
            None => return Some(saturated),
        };
    }
    Some(if negative { -value } else { value })
}

/// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 256;

impl Json {
    /// Parses one JSON text; `None` when it is not valid JSON.
    pub fn parse(text: &str) -> Option<Json> {
        Self::parse_at(text, 0)
    }

    /// Parses one JSON text that stands for a value `depth` levels down in a bigger one (a
    /// part of a bundle, read apart from its host call): nested too deep for that, as the whole
    /// would be, it is `None` too.
    pub(crate) fn parse_at(text: &str, depth: usize) -> Option<Json> {
        let mut parser = Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
        };
        let value = parser.value(depth)?;
        parser.skip_ws();
        (parser.pos == parser.bytes.len()).then_some(value)
    }

    /// A string value.
    pub fn string(text: &str) -> Json {
        Json::Str(JsonStr {
            text: text.to_string(),
            lone_surrogate: false,
        })
    }

    /// An integer value.
    pub fn int(n: i64) -> Json {
        Json::Number(JsonNumber {
            integer: Some(n),
            text: crate::format::render::signed(n),
        })
    }

    /// The member `key` of an object (the last one if repeated); `None` for other values.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key`, treating JSON `null` as absent.
    pub fn field(&self, key: &str) -> Option<&Json> {
        self.get(key).filter(|v| !matches!(v, Json::Null))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(&s.text),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<&JsonNumber> {
        match self {
            Json::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// An integral number (`2.0` counts), saturated to `i64`; `None` for fractions and
    /// non-numbers.
    pub fn as_integer(&self) -> Option<i64> {
        self.as_number().and_then(|n| n.integer)
    }
}

struct Parser<'a> {
    /// The text, for slicing (every cut is next to an ASCII byte, so on a char boundary: no
    /// UTF-8 check needed), and its bytes, for scanning.
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, literal: &[u8]) -> bool {
        let end = self.pos + literal.len();
        if self.bytes.get(self.pos..end) == Some(literal) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Json> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_ws();
        match self.peek()? {
            b'n' => self.eat(b"null").then_some(Json::Null),
            b't' => self.eat(b"true").then_some(Json::Bool(true)),
            b'f' => self.eat(b"false").then_some(Json::Bool(false)),
            b'"' => self.string().map(Json::Str),
            b'[' => self.array(depth),
            b'{' => self.object(depth),
            _ => self.number(),
        }
    }

    fn array(&mut self, depth: usize) -> Option<Json> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.eat(b"]") {
            return Some(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            if self.eat(b"]") {
                return Some(Json::Array(items));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Json> {
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.eat(b"}") {
            return Some(Json::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?.text;
            self.skip_ws();
            if !self.eat(b":") {
                return None;
            }
            members.push((key, self.value(depth + 1)?));
            self.skip_ws();
            if self.eat(b"}") {
                return Some(Json::Object(members));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    fn number(&mut self) -> Option<Json> {
        let text = self.number_lexeme()?;
        Some(Json::Number(JsonNumber::from_lexeme(text)))
    }

    /// The text of a number literal (checked, not converted).
    fn number_lexeme(&mut self) -> Option<&'a str> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        // JSON has no leading zeros: `0` alone, or a digit 1-9 first.
        let digits = self.pos - int_start;
        if digits == 0 || (digits > 1 && self.bytes.get(int_start) == Some(&b'0')) {
            return None;
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            let frac_start = self.pos;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
            if self.pos == frac_start {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            let exp_start = self.pos;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
            if self.pos == exp_start {
                return None;
            }
        }
        self.text.get(start..self.pos)
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4)?;
        // Exactly four hex digits: `from_str_radix` alone would also take a sign (`\u+041`).
        let mut value = 0;
        for b in digits {
            value = value * 16 + char::from(*b).to_digit(16)?;
        }
        self.pos += 4;
        Some(value)
    }

    fn string(&mut self) -> Option<JsonStr> {
        self.pos += 1;
        let mut out = JsonStr::default();
        loop {
            // Copy the run of plain bytes up to the next quote or escape in one go.
            let run_start = self.pos;
            let rest = self.bytes.get(run_start..)?;
            let run = rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(rest.len());
            self.pos = run_start + run;
            out.text.push_str(self.text.get(run_start..self.pos)?);
            match self.peek()? {
                b'"' => {
                    self.pos += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.pos += 1;
                    let escaped = self.peek()?;
                    self.pos += 1;
                    let c = match escaped {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape(&mut out.lone_surrogate)?,
                        _ => return None,
                    };
                    out.text.push(c);
                }
                _ => return None, // a raw control character
            }
        }
    }

    fn unicode_escape(&mut self, lone: &mut bool) -> Option<char> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) {
            let save = self.pos;
            if self.eat(b"\\u") {
                if let Some(second) = self.hex4() {
                    if (0xDC00..0xE000).contains(&second) {
                        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        return char::from_u32(code);
                    }
                }
            }
            self.pos = save;
            *lone = true;
            return Some('\u{FFFD}');
        }
        if (0xDC00..0xE000).contains(&first) {
            *lone = true;
            return Some('\u{FFFD}');
        }
        char::from_u32(first)
    }
}

/// A member's value as `parse_object_array` hands it over: strings and integral numbers
/// converted (a number with a fraction is `Int(None)`, as `Json::as_integer` sees it), anything
/// else only checked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Str(String),
    Int(Option<i64>),
    /// Any other value (an object, a list, a boolean), as its tree.
    Other(Json),
}

/// Parses a JSON array of objects without building a `Json` tree: `member` gets each member of
/// each object (its key and value) on the item `new` made for that object, in order, so a
/// repeated key's last value is the one that stays. `None` unless the whole text is valid JSON
/// and every item an object. For the answers that carry thousands of records (a `subtree` of
/// 10,000 file records is 2.9 MB of JSON), where the tree costs more than the records.
pub(crate) fn parse_object_array<T>(
    text: &str,
    mut new: impl FnMut() -> T,
    mut member: impl FnMut(&mut T, &str, Scalar),
) -> Option<Vec<T>> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
    };
    parser.skip_ws();
    if !parser.eat(b"[") {
        return None;
    }
    let mut items = Vec::new();
    parser.skip_ws();
    if !parser.eat(b"]") {
        loop {
            parser.skip_ws();
            if !parser.eat(b"{") {
                return None;
            }
            let mut item = new();
            parser.skip_ws();
            if !parser.eat(b"}") {
                loop {
                    parser.skip_ws();
                    if parser.peek()? != b'"' {
                        return None;
                    }
                    let key = parser.key()?;
                    parser.skip_ws();
                    if !parser.eat(b":") {
                        return None;
                    }
                    let value = parser.scalar()?;
                    member(&mut item, &key, value);
                    parser.skip_ws();
                    if parser.eat(b"}") {
                        break;
                    }
                    if !parser.eat(b",") {
                        return None;
                    }
                }
            }
            items.push(item);
            parser.skip_ws();
            if parser.eat(b"]") {
                break;
            }
            if !parser.eat(b",") {
                return None;
            }
        }
    }
    parser.skip_ws();
    (parser.pos == parser.bytes.len()).then_some(items)
}

impl<'a> Parser<'a> {
    /// An object key: borrowed from the text when it has no escapes (every key the adapter
    /// sends), else decoded.
    fn key(&mut self) -> Option<std::borrow::Cow<'a, str>> {
        let start = self.pos + 1;
        let mut end = start;
        while let Some(&b) = self.bytes.get(end) {
            if b == b'"' {
                let key = self.text.get(start..end)?;
                self.pos = end + 1;
                return Some(std::borrow::Cow::Borrowed(key));
            }
            if b == b'\\' || b < 0x20 {
                break;
            }
            end += 1;
        }
        self.string().map(|s| std::borrow::Cow::Owned(s.text))
    }

    /// A member's value (nested values only checked, at the depth of an object's member).
    fn scalar(&mut self) -> Option<Scalar> {
        self.skip_ws();
        match self.peek()? {
            b'"' => self.string().map(|s| Scalar::Str(s.text)),
            b'n' => self.eat(b"null").then_some(Scalar::Null),
            b'-' | b'0'..=b'9' => self.number_lexeme().map(|t| Scalar::Int(integral_value(t))),
            _ => self.value(2).map(Scalar::Other),
        }
    }
}

/// Appends `s` as a JSON string literal.
pub(crate) fn write_str(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    // Runs of bytes that need no escape are copied whole; every byte that does is ASCII, so
    // each cut falls on a char boundary.
    let mut run_start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(s.get(run_start..i).unwrap_or_default());
        run_start = i + 1;
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push_str(escape);
        }
    }
    out.push_str(s.get(run_start..).unwrap_or_default());
    out.push('"');
}

/// Writes one JSON object member by member: `{"a":1,"b":"x"}`.
pub(crate) struct ObjectWriter<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> ObjectWriter<'a> {
    pub(crate) fn new(out: &'a mut String) -> ObjectWriter<'a> {
        out.push('{');
        ObjectWriter { out, first: true }
    }

    fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        write_str(self.out, key);
        self.out.push(':');
        self.out
    }

    pub(crate) fn str(&mut self, key: &str, value: &str) -> &mut Self {
        let out = self.key(key);
        write_str(out, value);
        self
    }

    /// A string, or `null`.
    pub(crate) fn opt_str(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        match value {
            Some(v) => self.str(key, v),
            None => self.raw(key, "null"),
        }
    }

    pub(crate) fn int(&mut self, key: &str, value: i64) -> &mut Self {
        crate::format::render::push_signed(self.key(key), value);
        self
    }

    /// An integer, or `null`.
    pub(crate) fn opt_int(&mut self, key: &str, value: Option<i64>) -> &mut Self {
        match value {
            Some(v) => self.int(key, v),
            None => self.raw(key, "null"),
        }
    }

    /// A member whose value is JSON text already.
    pub(crate) fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key).push_str(json);
        self
    }

    pub(crate) fn finish(&mut self) {
        self.out.push('}');
    }
}

/// A JSON string literal of `s`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_str(&mut out, s);
    out
}

/// Writes a parsed JSON value back as JSON text.
pub fn write_value(value: &Json) -> String {
    fn go(value: &Json, out: &mut String) {
        match value {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(&n.text),
            Json::Str(s) => crate::format::json::write_str(out, &s.text),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    go(item, out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    crate::format::json::write_str(out, k);
                    out.push(':');
                    go(v, out);
                }
                out.push('}');
            }
        }
    }
    let mut out = String::new();
    go(value, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_values() {
        let v = Json::parse(r#"{"a": [1, 2.5, -3e2, true, false, null], "b": "x\ty"}"#);
        let v = v.unwrap_or(Json::Null);
        assert_eq!(v.get("b").and_then(Json::as_str), Some("x\ty"));
        let Some(Json::Array(items)) = v.get("a") else {
            panic!("no array");
        };
        let ints: Vec<Option<i64>> = items.iter().map(Json::as_integer).collect();
        assert_eq!(ints, [Some(1), None, Some(-300), None, None, None]);
        assert_eq!(items.get(3), Some(&Json::Bool(true)));
    }

    #[test]
    fn rejects_bad_json() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "01x",
            "\"\u{1}\"",
            "nul",
            "1 2",
            "-",
            "1.",
            "1e",
        ] {
            assert!(Json::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn surrogates() {
        let pair = Json::parse(r#""\ud83d\ude00""#);
        assert_eq!(pair.as_ref().and_then(Json::as_str), Some("😀"));
        for lone in [r#""\ud83d""#, r#""\ude00x""#, r#""\ud83d\u0041""#] {
            match Json::parse(lone) {
                Some(Json::Str(s)) => {
                    assert!(s.lone_surrogate, "{lone}");
                    assert!(s.text.starts_with('\u{FFFD}'));
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert!(Json::parse(&deep).is_none());
    }

    #[test]
    fn last_duplicate_key_wins_and_null_is_absent() {
        let v = Json::parse(r#"{"a":1,"a":2,"b":null}"#).unwrap_or(Json::Null);
        assert_eq!(v.get("a").and_then(Json::as_integer), Some(2));
        assert!(v.field("b").is_none());
    }

    #[test]
    fn integers_from_any_spelling() {
        let int = |t: &str| integral_value(t);
        assert_eq!(int("2"), Some(2));
        assert_eq!(int("2.0"), Some(2));
        assert_eq!(int("-0"), Some(0));
        assert_eq!(int("1.5"), None);
        assert_eq!(int("15e-1"), None);
        assert_eq!(int("150e-1"), Some(15));
        assert_eq!(int("1.5e1"), Some(15));
        assert_eq!(int("1e21"), Some(i64::MAX));
        assert_eq!(int("-1e300"), Some(i64::MIN));
        assert_eq!(int("1e-300"), None);
        assert_eq!(int("0e-5"), Some(0));
        assert_eq!(int("0.000"), Some(0));
        assert_eq!(int("9223372036854775808"), Some(i64::MAX));
        let shown = |t: &str| JsonNumber::from_lexeme(t).shown();
        assert_eq!(shown("2.0"), "2");
        assert_eq!(shown("-7"), "-7");
        assert_eq!(shown("1e+21"), "1e+21");
        assert_eq!(shown("1.5"), "1.5");
    }

    #[test]
    fn writes_strings() {
        assert_eq!(quote("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
        assert_eq!(quote(""), r#""""#);
        assert_eq!(
            quote("\u{1f}é\r\t€\u{7f}😀\""),
            "\"\\u001fé\\r\\t€\u{7f}😀\\\"\""
        );
        // Every character up to U+00FF and some beyond read back as written (the json fuzz
        // target checks any text, with serde_json too).
        let all: String = (0u32..0x100)
            .chain([0x2028, 0xfffd, 0x1f600])
            .filter_map(char::from_u32)
            .collect();
        assert_eq!(
            Json::parse(&quote(&all)).and_then(|j| j.as_str().map(str::to_string)),
            Some(all)
        );
    }
}
