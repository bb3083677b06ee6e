//! Any text as a CUDA or a Triton file: kernels extracted and profiled without a panic,
//! and ranges that stay inside the text.
#![no_main]

use kforecast_core::extract::extract_text;
use kforecast_core::kernel::Language;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let language = if first % 2 == 0 { Language::Cuda } else { Language::Triton };
    let text = String::from_utf8_lossy(rest);
    let extraction = extract_text(language, &text);
    for kernel in &extraction.kernels {
        assert!(kernel.range.end <= text.len());
        let _ = kforecast_core::features::profile(kernel);
    }
});
