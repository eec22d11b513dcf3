//! The streamed export's pieces (docs/TOOL.md#bundles), put together as the JS adapter does
//! (head, memories in path order, versions oldest first), give exactly the text of `export`:
//! one format, whichever way it is written.

use memory_tool_wasm::{bundle_stream, Config, MemStore, Operation};

fn store() -> MemStore {
    let mut store = MemStore::new(Config::default());
    for input in [
        r#"{"command":"create","path":"/memories/b.md","file_text":"bee\n"}"#,
        r#"{"command":"create","path":"/memories/a/é.md","file_text":"accent \"quoted\" \\ tab\t"}"#,
        r#"{"command":"str_replace","path":"/memories/b.md","old_str":"bee","new_str":"B"}"#,
        r#"{"command":"create","path":"/memories/z.md","file_text":"gone"}"#,
        r#"{"command":"delete","path":"/memories/z.md"}"#,
    ] {
        assert!(!store.execute(input).is_error(), "{input}");
    }
    let png = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00];
    assert!(!store
        .run(Operation::host_write("/memories/img.png", png.to_vec()))
        .is_error());
    store
}

fn streamed(store: &MemStore, include_versions: bool) -> String {
    let mut out = bundle_stream::head();
    // The storage's key order (UTF-16 code units), as IndexedDB walks it.
    let mut records: Vec<_> = store.files.values().collect();
    records.sort_by(|a, b| a.path.encode_utf16().cmp(b.path.encode_utf16()));
    for (i, record) in records.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let mut json = String::new();
        record.write_json(&mut json);
        let bytes = store
            .contents
            .get(&record.content)
            .cloned()
            .unwrap_or_default();
        out.push_str(&bundle_stream::memory(&json, &bytes, include_versions).expect("an entry"));
    }
    out.push(']');
    if include_versions {
        out.push_str(",\"versions\":[");
        for (i, version) in store.versions.values().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let mut json = String::new();
            version.write_json(&mut json);
            let content = version.content.as_ref().and_then(|k| store.contents.get(k));
            out.push_str(
                &bundle_stream::version(&json, content.map(Vec::as_slice)).expect("an entry"),
            );
        }
        out.push(']');
    }
    out.push('}');
    out
}

#[test]
fn the_pieces_put_together_are_the_export() {
    let mut store = store();
    for include_versions in [false, true] {
        let call = format!(r#"{{"call":"export","include_versions":{include_versions}}}"#);
        let export = store.run(Operation::host(&call));
        assert_eq!(
            streamed(&store, include_versions),
            export.value.unwrap_or_default(),
            "include_versions: {include_versions}"
        );
    }
}

#[test]
fn a_record_that_cannot_be_read_or_does_not_match_its_bytes_gives_no_entry() {
    assert_eq!(bundle_stream::memory("{\"path\":\"/a\"}", b"", false), None);
    let store = store();
    let record = store.files.get("/b.md").expect("a record");
    let mut json = String::new();
    record.write_json(&mut json);
    assert_eq!(bundle_stream::memory(&json, b"not its bytes", false), None);
    assert_eq!(bundle_stream::version("[]", None), None);
}

/// The bundle put together a chunk at a time (`memories` / `versions`, `size` entries per
/// call), as the JS adapter does.
fn chunked(store: &MemStore, include_versions: bool, size: usize) -> String {
    let mut records: Vec<_> = store.files.values().collect();
    records.sort_by(|a, b| a.path.encode_utf16().cmp(b.path.encode_utf16()));
    let mut out = bundle_stream::head();
    let mut first = true;
    for chunk in records.chunks(size) {
        let json = array(chunk.iter().map(|r| {
            let mut json = String::new();
            r.write_json(&mut json);
            json
        }));
        let mut contents = Vec::new();
        let mut lengths = Vec::new();
        for r in chunk {
            let bytes = store.contents.get(&r.content).cloned().unwrap_or_default();
            lengths.push(bytes.len() as u32);
            contents.extend(bytes);
        }
        let answer = bundle_stream::entries(false, &json, &contents, &lengths, include_versions);
        let (unread, text) = answer.split_at(chunk.len());
        assert_eq!(unread, vec![0u8; chunk.len()]);
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(std::str::from_utf8(text).expect("UTF-8"));
    }
    out.push(']');
    if include_versions {
        out.push_str(",\"versions\":[");
        let versions: Vec<_> = store.versions.values().collect();
        let mut first = true;
        for chunk in versions.chunks(size) {
            let json = array(chunk.iter().map(|v| {
                let mut json = String::new();
                v.write_json(&mut json);
                json
            }));
            let mut contents = Vec::new();
            let mut lengths = Vec::new();
            for v in chunk {
                match v.content.as_ref().and_then(|k| store.contents.get(k)) {
                    Some(bytes) => {
                        lengths.push(bytes.len() as u32);
                        contents.extend(bytes);
                    }
                    None => lengths.push(bundle_stream::NO_CONTENT),
                }
            }
            let answer = bundle_stream::entries(true, &json, &contents, &lengths, false);
            let (unread, text) = answer.split_at(chunk.len());
            assert_eq!(unread, vec![0u8; chunk.len()]);
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(std::str::from_utf8(text).expect("UTF-8"));
        }
        out.push(']');
    }
    out.push('}');
    out
}

/// The records as the adapter sends them: JSON, one a line.
fn array(elements: impl Iterator<Item = String>) -> String {
    elements.collect::<Vec<_>>().join("\n")
}

#[test]
fn the_chunks_put_together_are_the_export_whatever_their_size() {
    let mut store = store();
    for include_versions in [false, true] {
        let call = format!(r#"{{"call":"export","include_versions":{include_versions}}}"#);
        let export = store.run(Operation::host(&call)).value.unwrap_or_default();
        for size in [1, 2, 3, 100] {
            assert_eq!(
                chunked(&store, include_versions, size),
                export,
                "include_versions: {include_versions}, {size} per chunk"
            );
        }
    }
}

#[test]
fn a_chunk_leaves_out_and_flags_what_cannot_be_read_and_keeps_the_rest() {
    let store = store();
    let record = store.files.get("/b.md").expect("a record");
    let mut good = String::new();
    record.write_json(&mut good);
    let bytes = store
        .contents
        .get(&record.content)
        .cloned()
        .unwrap_or_default();
    let one = bundle_stream::memory(&good, &bytes, false).expect("an entry");
    // Unreadable, good, wrong size (bytes that are not its content: 2), good, no element, no
    // bytes left.
    let json = format!("{{\"path\":\"/a\"}}\n{good}\n{good}\n{good}");
    let mut contents = bytes.clone();
    contents.extend(b"xyz");
    contents.extend(&bytes);
    let n = bytes.len() as u32;
    let lengths = [0, n, 3, n, 0, 7];
    let answer = bundle_stream::entries(false, &json, &contents, &lengths, false);
    assert_eq!(answer[..6], [1, 0, 2, 0, 1, 1]);
    assert_eq!(
        std::str::from_utf8(&answer[6..]),
        Ok(format!("{one},{one}").as_str())
    );
    // Lengths past the bytes there are: no panic, no entry.
    let answer = bundle_stream::entries(false, &json, &contents, &[u32::MAX - 1, n], false);
    assert_eq!(answer, [1, 1]);
    // Not a record (what the adapter sends for one JSON cannot write): nothing can be read.
    let lengths = [bundle_stream::NO_CONTENT; 2];
    assert_eq!(
        bundle_stream::entries(true, "null\n[]", b"", &lengths, false),
        [1, 1]
    );
}
