//! Path validation (SPEC §2): MemoryPath::parse against an independent reading of the SPEC, and the invariants of accepted paths.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memory_tool_wasm_fuzz::path(data));
