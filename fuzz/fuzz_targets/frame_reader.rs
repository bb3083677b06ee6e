//! Any byte stream through the frame reader and the body check: bounded, never a
//! panic, and every frame passed on is one tower-lsp decodes.
#![no_main]

#[path = "../../server/kforecast/src/lsp/frame.rs"]
#[allow(dead_code)]
mod frame;

use frame::{Frame, FrameReader, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A small body limit, so that the over-limit path is reached too.
    let mut reader = FrameReader::with_max_body(data, 4096);
    for _ in 0..data.len() + 1 {
        match reader.next_frame() {
            Frame::End => break,
            Frame::Skip(_) => {}
            Frame::Body(body) => {
                assert!(body.len() <= 4096);
                match frame::check(body).0 {
                    Outcome::Pass { body, .. } => assert!(frame::decodes(&body)),
                    Outcome::Refuse { id, code, message } => {
                        assert!(frame::valid_id(&id));
                        assert!(frame::decodes(&frame::refusal(&id, code, &message)));
                    }
                    Outcome::Drop(_) => {}
                }
            }
        }
    }
});
