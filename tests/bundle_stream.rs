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
