//! Tool input (docs/TOOL.md#input): arbitrary bytes as text, parsed and run on a small store; never panics, errors change nothing.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memory_tool_wasm_fuzz::tool_input(data));
