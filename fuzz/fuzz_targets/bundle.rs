//! Bundles: real exports mutated and bundles made up from bytes, imported; a refusal writes nothing, a success keeps every invariant and re-imports identically.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memory_tool_wasm_fuzz::bundle(data));
