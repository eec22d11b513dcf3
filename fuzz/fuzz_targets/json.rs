//! The JSON reader under tool input: never panics, and accepts exactly what serde_json accepts,
//! except where it is meant to differ (lone surrogates become U+FFFD; numbers of any size).
//! The writer: any text, quoted, reads back as itself, by serde_json and by ours.
#![no_main]

use memory_tool_wasm::{quote, Json};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return memory_tool_wasm_fuzz::json_no_panic(data);
    };
    let quoted = quote(text);
    assert_eq!(serde_json::from_str::<String>(&quoted).ok().as_deref(), Some(text));
    assert_eq!(Json::parse(&quoted).as_ref().and_then(Json::as_str), Some(text));
    let ours = Json::parse(text);
    // Nesting: ours refuses past 256, serde_json's default past 128. Surrogate escapes: ours
    // reads a lone one as U+FFFD (and flags it), serde_json refuses it.
    let surrogate_escape = text.as_bytes().windows(4).any(|w| {
        w[0] == b'\\'
            && w[1] == b'u'
            && matches!(w[2], b'd' | b'D')
            && matches!(w[3], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
    });
    if surrogate_escape || text.bytes().filter(|b| matches!(b, b'[' | b'{')).count() > 100 {
        return;
    }
    match (
        ours.is_some(),
        serde_json::from_str::<serde_json::Value>(text),
    ) {
        (true, Ok(_)) | (false, Err(_)) => {}
        (false, Ok(_)) => panic!("refused valid JSON: {text:?}"),
        (true, Err(e)) => {
            let why = e.to_string();
            assert!(
                why.contains("number out of range"),
                "accepted invalid JSON ({why}): {text:?}"
            );
        }
    }
});
