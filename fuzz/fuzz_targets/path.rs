//! Path validation (docs/TOOL.md#path-rules): MemoryPath::parse against an independent reading of docs/TOOL.md#path-rules, and the invariants of accepted paths.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memory_tool_wasm_fuzz::path(data));
