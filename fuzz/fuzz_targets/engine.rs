//! The command engine: bytes become up to 64 commands over a small path universe, each checked against the store invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memory_tool_wasm_fuzz::engine(data));
