//! What each torch function or tensor method does, by its name: views and allocations,
//! element-wise arithmetic, reductions, row-wise normalisations, fills, joins, matrix
//! products, factorisations and sorts, and the calls that run nothing.

/// Functions and methods that allocate without computing or only view (free here;
/// `contiguous()` of a tensor that already is one, as it mostly is, returns it).
const FREE: [&str; 28] = [
    "contiguous",
    "chunk",
    "split",
    "unbind",
    "narrow",
    "flatten",
    "unflatten",
    "expand_as",
    "select",
    "movedim",
    "as_strided",
    "detach",
    "empty",
    "empty_like",
    "empty_strided",
    "view",
    "reshape",
    "view_as",
    "unsqueeze",
    "squeeze",
    "t",
    "transpose",
    "permute",
    "expand",
    "size",
    "stride",
    "numel",
    "dim",
];

/// Element-wise functions and methods (one read, one write).
const ELEMENTWISE: [&str; 60] = [
    "pad",
    "gather",
    "glu",
    "softplus",
    "mish",
    "hardswish",
    "hardsigmoid",
    "hardtanh",
    "relu6",
    "elu",
    "selu",
    "celu",
    "logsigmoid",
    "reciprocal",
    "log1p",
    "expm1",
    "log2",
    "floor",
    "ceil",
    "round",
    "true_divide",
    "addcmul",
    "addcdiv",
    "type_as",
    "sub",
    "div",
    "pow",
    "square",
    "where",
    "masked_fill",
    "maximum",
    "minimum",
    "lerp",
    "sin",
    "cos",
    "erf",
    "leaky_relu",
    "relu",
    "gelu",
    "silu",
    "sigmoid",
    "tanh",
    "exp",
    "exp2",
    "log",
    "sqrt",
    "rsqrt",
    "abs",
    "neg",
    "clamp",
    "float",
    "half",
    "bfloat16",
    "to",
    "clone",
    "zeros_like",
    "ones_like",
    "copy_",
    "mul",
    "add",
];

/// Reductions over a dimension (one read, a small write).
const REDUCTIONS: [&str; 16] = [
    "bincount",
    "sum",
    "mean",
    "var",
    "std",
    "var_mean",
    "std_mean",
    "max",
    "min",
    "amax",
    "amin",
    "norm",
    "argmax",
    "argmin",
    "prod",
    "count_nonzero",
];

/// Losses and similarities: read both operands, write one number (a loss's default
/// `reduction='mean'`) or a row's worth (`cosine_similarity(x1, x2, dim=1)`); a loss with
/// `reduction='none'` writes the broadcast.
const COMPARISONS: [&str; 14] = [
    "kl_div",
    "cosine_similarity",
    "pairwise_distance",
    "mse_loss",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "nll_loss",
    "triplet_margin_loss",
    "hinge_embedding_loss",
    "margin_ranking_loss",
    "cosine_embedding_loss",
];
/// Functions that fill a new tensor of the shape their arguments give (one write).
const FILLS: [&str; 9] = ["zeros", "ones", "full", "randn", "rand", "randint", "arange", "linspace", "logspace"];

/// Row-wise normalisations (about two passes in torch's fused kernels).
const ROWWISE: [&str; 11] = [
    "softmax",
    "log_softmax",
    "layer_norm",
    "rms_norm",
    "group_norm",
    "batch_norm",
    "instance_norm",
    "normalize",
    "cross_entropy",
    "cumsum",
    "logsumexp",
];

/// Functions that join tensors into a new one (a read and a write of everything).
const JOINS: [&str; 2] = ["cat", "stack"];

const MATMUL: [&str; 8] = ["matmul", "mm", "bmm", "linear", "einsum", "addmm", "baddbmm", "mv"];

/// Fused attention (a flash kernel): Q·Kᵀ, the softmax and ·V in one launch.
const ATTENTION: [&str; 2] = ["scaled_dot_product_attention", "flash_attention"];

/// Factorisations and solves of the (batched) matrices of their first operand, with the
/// flops each does per element of it times its order n (LAPACK's counts: Cholesky n³/3, LU
/// 2n³/3, a triangular solve n² per right-hand side (n of them here), an inverse 2n³,
/// Householder QR 4n³/3).
const FACTORS: [(&str, f64); 12] = [
    ("cholesky", 1.0 / 3.0),
    ("cholesky_ex", 1.0 / 3.0),
    ("lu_factor", 2.0 / 3.0),
    ("lu", 2.0 / 3.0),
    ("det", 2.0 / 3.0),
    ("slogdet", 2.0 / 3.0),
    ("solve", 2.0 / 3.0 + 2.0),
    ("solve_ex", 2.0 / 3.0 + 2.0),
    ("solve_triangular", 1.0),
    ("cholesky_solve", 2.0),
    ("inv", 2.0),
    ("qr", 4.0 / 3.0),
];

/// Sorts along the last dimension (values and indices written; `topk` a few of them).
const SORTS: [&str; 4] = ["sort", "argsort", "msort", "topk"];

/// Functions of torch that make or query no tensor of the program's (random generators,
/// dtypes, a scalar tensor from Python values): nothing runs.
pub(super) const NOT_OPS: [&str; 14] = [
    "Generator",
    "manual_seed",
    "device",
    "finfo",
    "iinfo",
    "no_grad",
    "inference_mode",
    "compile",
    "is_tensor",
    "tensor",
    "as_tensor",
    "get_default_dtype",
    "set_default_dtype",
    "synchronize",
];

/// Attributes and methods only a tensor has.
pub(super) const TENSOR_ATTRS: [&str; 14] = [
    "shape",
    "dtype",
    "device",
    "numel",
    "stride",
    "data_ptr",
    "element_size",
    "is_contiguous",
    "ndim",
    "view",
    "reshape",
    "unsqueeze",
    "permute",
    "expand",
];

/// Methods of a tensor that query it without running anything.
pub(super) const QUERIES: [&str; 10] =
    ["numel", "size", "dim", "stride", "element_size", "item", "data_ptr", "is_contiguous", "tolist", "get_device"];

/// What an operation does with its tensors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    /// Reads its tensors, writes the broadcast of them.
    Elementwise,
    /// Reads one tensor, writes a row of it (or one element).
    Reduction,
    /// Reads one tensor, writes one as large (about two passes in torch's fused kernels).
    Rowwise,
    /// Reads its tensors, writes a number or a row's worth (a loss, a similarity).
    Comparison,
    Matmul,
    /// Attends queries to keys and values in one fused kernel.
    Attention,
    /// Factors or solves its first operand's matrices: flops per element times their order.
    Factor(f64),
    /// Sorts its first operand along the last dimension.
    Sort,
    /// Reads its tensors, writes them all.
    Join,
    /// Writes a new tensor of a shape its arguments give, or as large as its argument.
    Fill,
    /// Allocates or views: nothing runs.
    Free,
}

/// The kind of a torch function or tensor method, by its name (an in-place method `x.add_(y)`
/// as its function).
pub(super) fn kind(function: &str) -> Option<Kind> {
    known_kind(function).or_else(|| {
        let base = function.strip_suffix('_').filter(|b| !b.is_empty() && !b.starts_with('_'))?;
        known_kind(base)
    })
}

fn known_kind(function: &str) -> Option<Kind> {
    if let Some((_, per)) = FACTORS.iter().find(|(f, _)| *f == function) {
        return Some(Kind::Factor(*per));
    }
    Some(if SORTS.contains(&function) {
        Kind::Sort
    } else if FREE.contains(&function) {
        Kind::Free
    } else if MATMUL.contains(&function) {
        Kind::Matmul
    } else if ATTENTION.contains(&function) {
        Kind::Attention
    } else if JOINS.contains(&function) {
        Kind::Join
    } else if ROWWISE.contains(&function) {
        Kind::Rowwise
    } else if REDUCTIONS.contains(&function) {
        Kind::Reduction
    } else if COMPARISONS.contains(&function) {
        Kind::Comparison
    } else if FILLS.contains(&function) || ["zeros_like", "ones_like", "full_like"].contains(&function) {
        Kind::Fill
    } else if ELEMENTWISE.contains(&function) {
        Kind::Elementwise
    } else {
        return None;
    })
}
