//! A small JSON reader and writer: the wasm boundary speaks JSON text, and the core needs to see
//! exactly what the model sent (`null` vs absent, `2.0` vs `2`, lone surrogates), which a
//! general-purpose deserializer would hide. Keeping serde out of the wasm also keeps it small.

/// A parsed JSON value. Object members keep their order; a repeated key resolves to the last
/// one, as `JSON.parse` does.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
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

/// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 256;

impl Json {
    /// Parses one JSON text; `None` when it is not valid JSON.
    pub fn parse(text: &str) -> Option<Json> {
        let mut parser = Parser {
            bytes: text.as_bytes(),
            pos: 0,
        };
        let value = parser.value(0)?;
        parser.skip_ws();
        (parser.pos == parser.bytes.len()).then_some(value)
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

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(*n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// An integral number (`2.0` counts) as f64; `None` for fractions and non-numbers.
    pub fn as_integer(&self) -> Option<f64> {
        self.as_f64().filter(|n| n.is_finite() && n.fract() == 0.0)
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
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
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        if self.pos == int_start {
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
        let text = std::str::from_utf8(self.bytes.get(start..self.pos)?).ok()?;
        text.parse::<f64>().ok().map(Json::Number)
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        let value = u32::from_str_radix(text, 16).ok()?;
        self.pos += 4;
        Some(value)
    }

    fn string(&mut self) -> Option<JsonStr> {
        self.pos += 1;
        let mut out = JsonStr::default();
        loop {
            // Copy the run of plain bytes up to the next quote or escape in one go.
            let run_start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            let run = self.bytes.get(run_start..self.pos)?;
            out.text.push_str(std::str::from_utf8(run).ok()?);
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

/// Appends `s` as a JSON string literal.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A JSON string literal of `s`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_str(&mut out, s);
    out
}

/// A number as JavaScript's `String(n)` writes it (`1e+21`, not `1000000000000000000000`).
pub fn js_number(n: f64) -> String {
    if n == 0.0 {
        return "0".to_string();
    }
    if n.is_nan() {
        return "NaN".to_string();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let abs = n.abs();
    if (1e-7..1e21).contains(&abs) {
        format!("{n}")
    } else {
        let text = format!("{n:e}");
        match text.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
            _ => text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_values() {
        let v = Json::parse(r#"{"a": [1, 2.5, -3e2, true, false, null], "b": "x\ty"}"#);
        let v = v.unwrap_or(Json::Null);
        assert_eq!(v.get("b").and_then(Json::as_str), Some("x\ty"));
        assert_eq!(
            v.get("a"),
            Some(&Json::Array(vec![
                Json::Number(1.0),
                Json::Number(2.5),
                Json::Number(-300.0),
                Json::Bool(true),
                Json::Bool(false),
                Json::Null
            ]))
        );
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
        assert_eq!(v.get("a"), Some(&Json::Number(2.0)));
        assert!(v.field("b").is_none());
    }

    #[test]
    fn js_numbers() {
        assert_eq!(js_number(2.0), "2");
        assert_eq!(js_number(-7.0), "-7");
        assert_eq!(js_number(1.5), "1.5");
        assert_eq!(js_number(1e21), "1e+21");
        assert_eq!(js_number(1.5e300), "1.5e+300");
        assert_eq!(js_number(2f64.powi(60)), "1152921504606847000");
    }

    #[test]
    fn writes_strings() {
        assert_eq!(quote("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
    }
}
