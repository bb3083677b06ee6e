//! The CUDA engine: NVRTC compilation (cached by content hash), deterministic inputs,
//! an output check, and interleaved event timing with an L2 flush before every run.
//!
//! The CUDA driver and NVRTC are loaded at run time (cudarc's dynamic loading), so the
//! binary builds and runs where there is no CUDA; [`CudaEngine::open`] then reports
//! `NoGpu`. After a fault the CUDA context is unusable: the engine says so
//! ([`CudaEngine::poisoned`]) and the worker process that owns it exits.

use super::inputs::{compare, generate};
use super::protocol::{Arg, Check, CudaJob, CudaVersion, DType, DeviceInfo, Measurement, Protocol, Status};
use super::stats::{rel_half_width, speedup_interval, time_stats};
use crate::hash::{ContentHash, Hasher};
use cudarc::driver::{
    sys, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DriverError, LaunchConfig, PushKernelArg,
};
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::sync::Arc;
use std::time::Instant;

/// Bytes written before each timed run to push the previous run's data out of L2
/// (the H100 has 50 MB of L2).
const FLUSH_BYTES: usize = 256 << 20;

pub struct CudaEngine {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    info: DeviceInfo,
    arch: String,
    compiled: HashMap<ContentHash, (Arc<CudaModule>, CudaFunction)>,
    flush: Option<CudaSlice<u8>>,
    poisoned: bool,
    /// Generated input data, kept across jobs (a warm worker re-verifies at once).
    inputs: HashMap<String, Arc<Vec<u8>>>,
}

/// Host input data kept at most.
const INPUT_CACHE_BYTES: usize = 4 << 30;

/// Why a step failed, and whose fault it is.
struct Failure {
    status: Status,
    which: Option<&'static str>,
    message: String,
}

fn fault(which: &'static str, e: DriverError) -> Failure {
    let code = e.0;
    use sys::cudaError_enum::*;
    let status = match code {
        CUDA_ERROR_ILLEGAL_ADDRESS
        | CUDA_ERROR_LAUNCH_FAILED
        | CUDA_ERROR_ILLEGAL_INSTRUCTION
        | CUDA_ERROR_MISALIGNED_ADDRESS
        | CUDA_ERROR_INVALID_ADDRESS_SPACE
        | CUDA_ERROR_INVALID_PC
        | CUDA_ERROR_HARDWARE_STACK_ERROR
        | CUDA_ERROR_ASSERT
        | CUDA_ERROR_LAUNCH_TIMEOUT => Status::Fault,
        _ => Status::Error,
    };
    Failure { status, which: Some(which), message: format!("{which}: {e}") }
}

impl CudaEngine {
    /// Opens device 0, or explains why there is no GPU.
    pub fn open() -> Result<Self, Box<Measurement>> {
        let no_gpu = |m: String| Box::new(Measurement::failure(Status::NoGpu, m));
        // Loading a missing library panics inside cudarc: ask first.
        if !unsafe { sys::is_culib_present() } {
            return Err(no_gpu("the CUDA driver library (libcuda.so) is not installed on this machine".into()));
        }
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            return Err(no_gpu(
                "NVRTC (libnvrtc.so) was not found: install the CUDA toolkit or add its lib64 to LD_LIBRARY_PATH"
                    .into(),
            ));
        }
        let opened = std::panic::catch_unwind(|| CudaContext::new(0));
        let ctx = match opened {
            Ok(Ok(ctx)) => ctx,
            Ok(Err(e)) => return Err(no_gpu(format!("no usable CUDA device: {e}"))),
            Err(_) => return Err(no_gpu("the CUDA driver could not be loaded".into())),
        };
        // One stream, no cross-stream event tracking: nothing extra between our events.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let (major, minor) = ctx.compute_capability().unwrap_or((0, 0));
        let mut driver = 0i32;
        unsafe {
            let _ = sys::cuDriverGetVersion(&mut driver);
        }
        let mut total: usize = 0;
        unsafe {
            let _ = sys::cuDeviceTotalMem_v2(&mut total, ctx.cu_device());
        }
        let sm_count = ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).unwrap_or(0);
        let info = DeviceInfo {
            name: ctx.name().unwrap_or_else(|_| "CUDA device".into()),
            compute_capability: format!("{major}.{minor}"),
            memory_bytes: total as u64,
            driver: format!("CUDA {}.{}", driver / 1000, (driver % 1000) / 10),
            sm_count: sm_count.max(0) as u32,
        };
        Ok(Self {
            ctx,
            stream,
            info,
            arch: format!("{major}{minor}"),
            compiled: HashMap::new(),
            flush: None,
            poisoned: false,
            inputs: HashMap::new(),
        })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// The context faulted: the owning process must exit.
    pub fn poisoned(&self) -> bool {
        self.poisoned
    }

    fn include_paths() -> Vec<String> {
        let mut out = Vec::new();
        for var in ["CUDA_HOME", "CUDA_PATH"] {
            if let Ok(p) = std::env::var(var) {
                out.push(format!("{p}/include"));
            }
        }
        for p in ["/usr/local/cuda/include", "/opt/cuda/include"] {
            if std::path::Path::new(p).exists() {
                out.push(p.to_string());
            }
        }
        out
    }

    /// Compiles a version (or takes it from the cache). Returns (function, ms spent).
    fn compile(&mut self, v: &CudaVersion, which: &'static str) -> Result<(CudaFunction, f64), Failure> {
        let file_text = v.file.as_ref().map(|f| f.text.as_str()).unwrap_or("");
        let key =
            Hasher::new().str("nvrtc/2").str(&self.arch).str(&v.source).str(&v.name_expression).str(file_text).finish();
        if let Some((_, f)) = self.compiled.get(&key) {
            return Ok((f.clone(), 0.0));
        }
        let start = Instant::now();
        let compile_error = |m: String| Failure { status: Status::CompileError, which: Some(which), message: m };
        let program = v.file.as_ref().map_or("kernel.cu", |f| f.name.as_str());
        let nvrtc = nvrtc_compile(&v.source, program, &v.name_expression, &self.arch, &Self::include_paths());
        // NVRTC is the fast path; nvcc builds the whole file when NVRTC cannot.
        let (ptx, lowered) = match (nvrtc, &v.file) {
            (Ok(out), _) => out,
            (Err(e), None) => return Err(compile_error(e)),
            (Err(e), Some(file)) => match super::nvcc::find() {
                Some(nvcc) => super::nvcc::compile(&nvcc, file, &v.name_expression, &self.arch).map_err(|n| {
                    let first = e.lines().find(|l| l.contains("error")).unwrap_or(e.lines().next().unwrap_or(""));
                    compile_error(format!("{n}\n(NVRTC, tried first: {})", first.trim()))
                })?,
                None => {
                    return Err(compile_error(format!(
                        "{e}\n(NVRTC compiles device code without host headers; with nvcc on the worker kforecast builds the whole file)"
                    )))
                }
            },
        };
        let module = self
            .ctx
            .load_module(cudarc::nvrtc::Ptx::from_src(ptx))
            .map_err(|e| compile_error(format!("loading the compiled module: {e}")))?;
        let func =
            module.load_function(&lowered).map_err(|e| compile_error(format!("kernel `{lowered}` not found: {e}")))?;
        self.compiled.insert(key, (module, func.clone()));
        Ok((func, start.elapsed().as_secs_f64() * 1e3))
    }

    /// Measures a job: compile, check, time.
    pub fn measure(&mut self, job: &CudaJob, protocol: &Protocol) -> Measurement {
        let start = Instant::now();
        let mut m = match self.run(job, protocol) {
            Ok(m) => m,
            Err(f) => {
                if f.status == Status::Fault {
                    self.poisoned = true;
                }
                let mut m = Measurement::failure(f.status, f.message);
                m.which = f.which.map(str::to_string);
                m
            }
        };
        m.device = Some(self.info.clone());
        m.harness = "events".to_string();
        m.total_ms = start.elapsed().as_secs_f64() * 1e3;
        m
    }

    fn run(&mut self, job: &CudaJob, p: &Protocol) -> Result<Measurement, Failure> {
        // Before anything is compiled or allocated (a worker refuses such a job already).
        if let Some(why) = job.size_refusal() {
            return Err(Failure { status: Status::Error, message: why, which: None });
        }
        let (base_fn, t_base) = self.compile(&job.base, "base")?;
        let (cand_fn, t_cand) = self.compile(&job.candidate, "candidate")?;
        let compile_ms = t_base + t_cand;
        let err = |which: &'static str| move |e: DriverError| fault(which, e);
        // Inputs: the same bytes for both versions, each in its own buffers.
        let host: Vec<Option<Arc<Vec<u8>>>> = job
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                Arg::Buffer { dtype, len, init, .. } => Some(self.input(*dtype, *len as usize, init, p.seed, i as u64)),
                Arg::Scalar { .. } => None,
            })
            .collect();
        let upload = |this: &Self, which: &'static str| -> Result<Vec<Option<CudaSlice<u8>>>, Failure> {
            host.iter()
                .map(|h| {
                    h.as_ref().map(|bytes| this.stream.memcpy_stod(bytes.as_slice()).map_err(err(which))).transpose()
                })
                .collect()
        };
        let base_bufs = upload(self, "base")?;
        let cand_bufs = upload(self, "candidate")?;
        if p.flush_l2 && self.flush.is_none() {
            self.flush = Some(self.stream.alloc_zeros::<u8>(FLUSH_BYTES).map_err(err("base"))?);
        }
        let config = |v: &CudaVersion| LaunchConfig {
            grid_dim: (v.grid[0], v.grid[1], v.grid[2]),
            block_dim: (v.block[0], v.block[1], v.block[2]),
            shared_mem_bytes: v.shared_mem,
        };
        let (base_cfg, cand_cfg) = (config(&job.base), config(&job.candidate));
        for (f, v) in [(&base_fn, &job.base), (&cand_fn, &job.candidate)] {
            if v.shared_mem > 48 * 1024 {
                let _ = f.set_attribute(
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    v.shared_mem as i32,
                );
            }
        }
        // Correctness: one run of each, outputs compared.
        self.launch(&base_fn, &job.args, &base_bufs, base_cfg).map_err(err("base"))?;
        self.stream.synchronize().map_err(err("base"))?;
        self.launch(&cand_fn, &job.args, &cand_bufs, cand_cfg).map_err(err("candidate"))?;
        self.stream.synchronize().map_err(err("candidate"))?;
        let mut check = Check { ok: true, ..Check::default() };
        for (i, a) in job.args.iter().enumerate() {
            let Arg::Buffer { name, dtype, output: true, .. } = a else { continue };
            let (Some(b), Some(c)) = (&base_bufs[i], &cand_bufs[i]) else { continue };
            let bv = self.stream.memcpy_dtov(b).map_err(err("base"))?;
            let cv = self.stream.memcpy_dtov(c).map_err(err("candidate"))?;
            let one = compare(name, *dtype, &bv, &cv, p.rtol, p.atol);
            check.max_abs_err = check.max_abs_err.max(one.max_abs_err);
            check.max_rel_err = check.max_rel_err.max(one.max_rel_err);
            if !one.ok && check.ok {
                check.ok = false;
                check.message = one.message;
            }
        }
        if !check.ok {
            let mut m = Measurement::failure(Status::WrongResult, check.message.clone());
            m.which = Some("candidate".into());
            m.check = Some(check);
            m.compile_ms = compile_ms;
            return Ok(m);
        }
        // Warm-up, then interleaved timing (ABBA…) until the interval is tight.
        for _ in 0..p.warmup {
            self.launch(&base_fn, &job.args, &base_bufs, base_cfg).map_err(err("base"))?;
            self.launch(&cand_fn, &job.args, &cand_bufs, cand_cfg).map_err(err("candidate"))?;
        }
        self.stream.synchronize().map_err(err("base"))?;
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let (mut tb, mut tc) = (Vec::new(), Vec::new());
        let started = Instant::now();
        for rep in 0..p.max_reps.max(3) {
            let order: [(&'static str, bool); 2] = if rep % 2 == 0 {
                [("base", true), ("candidate", false)]
            } else {
                [("candidate", false), ("base", true)]
            };
            for (which, is_base) in order {
                if let Some(f) = &mut self.flush {
                    self.stream.memset_zeros(f).map_err(err(which))?;
                }
                let (func, bufs, cfg) =
                    if is_base { (&base_fn, &base_bufs, base_cfg) } else { (&cand_fn, &cand_bufs, cand_cfg) };
                let e0 = self.stream.record_event(timing).map_err(err(which))?;
                self.launch(func, &job.args, bufs, cfg).map_err(err(which))?;
                let e1 = self.stream.record_event(timing).map_err(err(which))?;
                e1.synchronize().map_err(err(which))?;
                let ms = e0.elapsed_ms(&e1).map_err(err(which))? as f64;
                if is_base {
                    tb.push(ms);
                } else {
                    tc.push(ms);
                }
            }
            let n = rep + 1;
            if n >= p.min_reps {
                if let Some((s, lo, hi)) = speedup_interval(&tb, &tc) {
                    if rel_half_width(s, lo, hi) <= p.target_rel_ci {
                        break;
                    }
                }
                if started.elapsed().as_millis() as u64 >= p.max_time_ms {
                    break;
                }
            }
        }
        let (s, lo, hi) = speedup_interval(&tb, &tc).unwrap_or((f64::NAN, f64::NAN, f64::NAN));
        let mut m = Measurement::failure(Status::Ok, "");
        m.base = Some(time_stats(&tb));
        m.candidate = Some(time_stats(&tc));
        m.speedup = Some(s);
        m.ci_low = Some(lo);
        m.ci_high = Some(hi);
        m.spread = Some(rel_half_width(s, lo, hi));
        m.reps = tb.len() as u32;
        m.check = Some(check);
        m.compile_ms = compile_ms;
        Ok(m)
    }

    fn input(
        &mut self,
        dtype: DType,
        len: usize,
        init: &super::protocol::Init,
        seed: u64,
        stream: u64,
    ) -> Arc<Vec<u8>> {
        let key = format!("{dtype:?}/{len}/{init:?}/{seed}/{stream}");
        if let Some(v) = self.inputs.get(&key) {
            return v.clone();
        }
        let data = Arc::new(generate(dtype, len, init, seed, stream));
        let held: usize = self.inputs.values().map(|v| v.len()).sum();
        if held + data.len() > INPUT_CACHE_BYTES {
            self.inputs.clear();
        }
        self.inputs.insert(key, data.clone());
        data
    }

    fn launch(
        &self,
        func: &CudaFunction,
        args: &[Arg],
        bufs: &[Option<CudaSlice<u8>>],
        cfg: LaunchConfig,
    ) -> Result<(), DriverError> {
        enum Scalar {
            I8(i8),
            U8(u8),
            U16(u16),
            I32(i32),
            U32(u32),
            F32(f32),
            I64(i64),
            U64(u64),
            F64(f64),
        }
        let scalars: Vec<Option<Scalar>> = args
            .iter()
            .map(|a| match a {
                Arg::Scalar { dtype, value, .. } => Some(match dtype {
                    DType::I8 => Scalar::I8(*value as i8),
                    DType::U8 => Scalar::U8(*value as u8),
                    DType::F16 => Scalar::U16(super::inputs::f32_to_f16(*value as f32)),
                    DType::Bf16 => Scalar::U16(super::inputs::f32_to_bf16(*value as f32)),
                    DType::I32 => Scalar::I32(*value as i32),
                    DType::U32 => Scalar::U32(*value as u32),
                    DType::F32 => Scalar::F32(*value as f32),
                    DType::I64 => Scalar::I64(*value as i64),
                    DType::U64 => Scalar::U64(*value as u64),
                    DType::F64 => Scalar::F64(*value),
                }),
                Arg::Buffer { .. } => None,
            })
            .collect();
        let mut builder = self.stream.launch_builder(func);
        for (i, s) in scalars.iter().enumerate() {
            match (s, &bufs[i]) {
                (Some(Scalar::I8(v)), _) => builder.arg(v),
                (Some(Scalar::U8(v)), _) => builder.arg(v),
                (Some(Scalar::U16(v)), _) => builder.arg(v),
                (Some(Scalar::I32(v)), _) => builder.arg(v),
                (Some(Scalar::U32(v)), _) => builder.arg(v),
                (Some(Scalar::F32(v)), _) => builder.arg(v),
                (Some(Scalar::I64(v)), _) => builder.arg(v),
                (Some(Scalar::U64(v)), _) => builder.arg(v),
                (Some(Scalar::F64(v)), _) => builder.arg(v),
                (None, Some(buf)) => builder.arg(buf),
                (None, None) => return Err(DriverError(sys::cudaError_enum::CUDA_ERROR_INVALID_VALUE)),
            };
        }
        // Safety: the argument list follows the kernel's parameter list, built from its
        // signature; buffers hold the declared number of elements.
        unsafe { builder.launch(cfg) }.map(|_| ())
    }
}

/// NVRTC: source → (PTX, lowered kernel name).
fn nvrtc_compile(
    source: &str,
    program: &str,
    name_expression: &str,
    arch: &str,
    includes: &[String],
) -> Result<(String, String), String> {
    use cudarc::nvrtc::{result, sys as nv};
    let src = CString::new(source).map_err(|_| "the source contains a NUL byte".to_string())?;
    let name = CString::new(program).map_err(|e| e.to_string())?;
    let expr = CString::new(name_expression).map_err(|_| "bad kernel name".to_string())?;
    let prog = result::create_program(&src, Some(&name)).map_err(|e| format!("NVRTC: {e}"))?;
    let mut options =
        vec![format!("--gpu-architecture=compute_{arch}"), "-std=c++17".to_string(), "-default-device".to_string()];
    options.extend(includes.iter().map(|i| format!("-I{i}")));
    let out = (|| unsafe {
        nv::nvrtcAddNameExpression(prog, expr.as_ptr()).result().map_err(|e| format!("NVRTC: {e}"))?;
        if let Err(e) = result::compile_program(prog, &options) {
            let log = result::get_program_log(prog)
                .map(|l| CStr::from_ptr(l.as_ptr()).to_string_lossy().into_owned())
                .unwrap_or_default();
            return Err(format!("{e}\n{}", log.trim()));
        }
        let mut lowered: *const std::ffi::c_char = std::ptr::null();
        nv::nvrtcGetLoweredName(prog, expr.as_ptr(), &mut lowered).result().map_err(|e| format!("NVRTC: {e}"))?;
        if lowered.is_null() {
            return Err(format!("NVRTC did not find `{name_expression}`"));
        }
        let lowered = CStr::from_ptr(lowered).to_string_lossy().into_owned();
        let ptx = result::get_ptx(prog).map_err(|e| format!("NVRTC: {e}"))?;
        let ptx = CStr::from_ptr(ptx.as_ptr()).to_string_lossy().into_owned();
        Ok((ptx, lowered))
    })();
    unsafe {
        let _ = result::destroy_program(prog);
    }
    out
}
