use super::*;
use crate::forecast::EmbeddedForecaster;
use crate::Language;

/// Every job fails the same way, as a base that does not build makes it.
struct BrokenBase {
    calls: u32,
}

impl Measurer for BrokenBase {
    fn measure(&mut self, _candidate: &str) -> Measured {
        self.calls += 1;
        let mut m = Measurement::failure(Status::CompileError, "sgemm.cu(12): error: identifier \"uint\" is undefined");
        m.which = Some("base".into());
        Measured { measurement: m, gpu_run: true, unavailable: false }
    }
}

#[test]
fn a_base_that_does_not_build_stops_the_search_after_one_run() {
    let text = "#define TILE 64\n// kforecast: n = 1 << 20\n__global__ void k(float* x, int n) { int i = blockIdx.x * TILE + threadIdx.x; if (i < n) x[i] = 0; }\nvoid run(float* x, int n) { k<<<n / TILE, TILE>>>(x, n); }\n";
    let original = Original::new(text, Language::Cuda, "k").expect("original");
    let forecaster = EmbeddedForecaster::new();
    let mut measurer = BrokenBase { calls: 0 };
    let mut messages = Vec::new();
    let mut progress = |p: &Progress| messages.push(p.message.clone());
    let cancel = AtomicBool::new(false);
    for surrogate in [true, false] {
        measurer.calls = 0;
        let outcome = Searcher {
            forecaster: &forecaster,
            measurer: &mut measurer,
            operators: Vec::new(),
            cancel: &cancel,
            progress: &mut progress,
        }
        .run(&original, &SearchConfig { budget: 16, seed: 1, surrogate })
        .expect("search");
        assert_eq!((outcome.runs, outcome.stop), (1, Stop::BaseFailed));
        assert!(outcome.note.contains("the original does not compile"), "{}", outcome.note);
        assert!(outcome.note.contains("identifier \"uint\" is undefined"), "{}", outcome.note);
        assert!(outcome.best.is_none());
    }
    assert_eq!(measurer.calls, 1);
    assert!(messages.iter().any(|m| m.contains("uint")), "{messages:?}");
}
