#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| scalewise::fuzzing::runs(data));
