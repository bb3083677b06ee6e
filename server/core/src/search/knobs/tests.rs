use super::*;

const TRANSPOSE: &str = r#"#define TILE_DIM   32
#define BLOCK_ROWS 8   // rows per block
#define WARP_SIZE 32
// kforecast: rows = 4096; cols = 4096; in: f32[rows, cols]; out: f32[rows, cols]
__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[x + j * WARP_SIZE];
    __syncthreads();
    #pragma unroll 4
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[x + j] = tile[threadIdx.x][threadIdx.y + j];
}
void launch(const float* in, float* out, int rows, int cols) {
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid(cols / TILE_DIM, rows / TILE_DIM);
    transpose<<<grid, block>>>(in, out, rows, cols);
}
"#;

fn names(space: &KnobSpace) -> Vec<&str> {
    space.knobs.iter().map(|k| k.name.as_str()).collect()
}

#[test]
fn cuda_constants_unrolls_and_launch_bounds() {
    let space = KnobSpace::discover(TRANSPOSE, Language::Cuda, "transpose").expect("space");
    assert_eq!(names(&space), vec!["TILE_DIM", "BLOCK_ROWS", "minBlocksPerSM", "unroll@L10", "unroll@L13"]);
    assert_eq!(space.original(), vec![32, 8, 0, 0, 4]);
    let mut v = space.original();
    v[0] = 64;
    v[2] = 2;
    v[3] = 2;
    v[4] = 0;
    let text = space.render(&v);
    assert!(text.starts_with("#define TILE_DIM   64\n#define BLOCK_ROWS 8   // rows per block\n#define WARP_SIZE 32"));
    assert!(text.contains("__launch_bounds__(TILE_DIM * BLOCK_ROWS, 2)"), "{text}");
    assert!(text.contains("#pragma unroll 2\n") && text.contains("    #pragma unroll\n"), "{text}");
    assert_eq!(space.render(&space.original()), TRANSPOSE);
    assert_eq!(space.describe(&v), "TILE_DIM 32→64, minBlocksPerSM default→2, unroll@L10 full→2, unroll@L13 4→full");
    // Re-reading the variant finds the new values at the same knobs.
    let again = KnobSpace::discover(&text, Language::Cuda, "transpose").expect("again");
    assert_eq!(again.original(), v);
    let all: Vec<Vec<i64>> = space.combinations().collect();
    assert_eq!(all.len() as f64, space.size());
    assert_eq!(all[0], space.original());
    assert_eq!(all.iter().collect::<std::collections::HashSet<_>>().len(), all.len());
}

#[test]
fn cuda_literal_block_ties_template_argument_and_bounds() {
    let text = "template <int BLOCK>\n__global__ void __launch_bounds__(256) k(float* o) { o[threadIdx.x] = BLOCK; }\nvoid go(float* o) {\n    const int threads = 256;\n    k<256><<<4, threads>>>(o);\n}\n";
    let space = KnobSpace::discover(text, Language::Cuda, "k").expect("space");
    let block = space.knobs.iter().find(|k| k.name == "block").expect("block");
    assert_eq!(block.sites.len(), 3, "{block:?}");
    let i = space.knobs.iter().position(|k| k.name == "block").expect("i");
    let mut v = space.original();
    v[i] = 128;
    let out = space.render(&v);
    assert!(
        out.contains("__launch_bounds__(128)") && out.contains("threads = 128;") && out.contains("k<128><<<"),
        "{out}"
    );
}

const ADD: &str = r#"import triton
# kforecast: wrapper = add(x, y); x: f32[1 << 24]; y: f32[1 << 24]
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)

def add(x, y):
    out = torch.empty_like(x)
    BLOCK_SIZE = 64
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=1)
    return out
"#;

#[test]
fn triton_locals_literals_and_absent_options() {
    let space = KnobSpace::discover(ADD, Language::Triton, "add_kernel").expect("space");
    assert_eq!(names(&space), vec!["BLOCK_SIZE", "num_warps", "num_stages"]);
    assert_eq!(space.original(), vec![64, 1, 0]);
    let text = space.render(&[1024, 4, 2]);
    assert!(text.contains("    BLOCK_SIZE = 1024\n"), "{text}");
    assert!(text.contains("BLOCK_SIZE=BLOCK_SIZE, num_warps=4, num_stages=2)"), "{text}");
    let tuple = ADD.replace("    BLOCK_SIZE = 64\n", "    BLOCK_SIZE, OTHER = 64, 3\n");
    let space = KnobSpace::discover(&tuple, Language::Triton, "add_kernel").expect("tuple");
    assert!(space.render(&[128, 1, 0]).contains("BLOCK_SIZE, OTHER = 128, 3"));
}

#[test]
fn triton_branching_locals_and_autotune_configs() {
    let branches = ADD
        .replace("num_warps=1", "num_warps=nw")
        .replace("    BLOCK_SIZE = 64\n", "    BLOCK_SIZE = 64\n    nw = 4\n    if n > 10:\n        nw = 8\n");
    let space = KnobSpace::discover(&branches, Language::Triton, "add_kernel").expect("space");
    let nw = space.knobs.iter().find(|k| k.name == "num_warps").expect("num_warps");
    assert_eq!(nw.value, 8);
    assert!(space.render(&[64, 2, 0]).contains("num_warps=2)"));
    let tuned = ADD
        .replace(
            "@triton.jit",
            "@triton.autotune(configs=[triton.Config({\"BLOCK_SIZE\": 128}, num_warps=4)], key=[\"n\"])\n@triton.jit",
        )
        .replace(", BLOCK_SIZE=BLOCK_SIZE, num_warps=1", "");
    let space = KnobSpace::discover(&tuned, Language::Triton, "add_kernel").expect("tuned");
    assert_eq!(names(&space), vec!["config1.BLOCK_SIZE", "config1.num_warps"]);
    assert!(space.render(&[256, 8]).contains("triton.Config({\"BLOCK_SIZE\": 256}, num_warps=8)"));
}

#[test]
fn problem_sizes_are_never_knobs() {
    let sgemm = include_str!("../../../../../tests/data/foreign/sgemm/sgemm_2d.cu");
    let space = KnobSpace::discover(sgemm, Language::Cuda, "sgemm2DBlocktiling").expect("space");
    let found = names(&space);
    for tile in ["BM", "BN", "BK", "TM", "TN"] {
        assert!(found.contains(&tile), "{tile} is a knob: {found:?}");
    }
    for size in ["M", "N", "K"] {
        assert!(!found.contains(&size), "{size} sets the problem: {found:?}");
    }
    let matvec = include_str!("../../../../../tests/data/foreign/matvec.cu");
    let space = KnobSpace::discover(matvec, Language::Cuda, "matvec").expect("space");
    let found = names(&space);
    assert!(found.contains(&"threads") && !found.contains(&"M") && !found.contains(&"N"), "{found:?}");
    // A declared size is not a knob either.
    let declared = "#define N 4096\n#define TILE 32\n// kforecast: N = 4096\n__global__ void k(float* x) { x[threadIdx.x % TILE] = N; }\nvoid run(float* x) { k<<<N / TILE, TILE>>>(x); }\n";
    let space = KnobSpace::discover(declared, Language::Cuda, "k").expect("space");
    assert_eq!(names(&space), vec!["TILE"]);
}
