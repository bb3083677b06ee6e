//! Any text above any offset read as `kforecast:` declarations without a panic.
#![no_main]

use kforecast_core::declaration::{call, items_before, list, split_top, Declared};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let start = data.first().map_or(0, |&b| b as usize * text.len() / 256);
    let items = items_before(&text, start);
    let _ = Declared::from_items(&items);
    for line in text.lines() {
        let _ = (list(line), call(line), split_top(line, ','));
    }
});
