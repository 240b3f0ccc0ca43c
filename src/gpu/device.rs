//! The one place that talks to CUDA, through cudarc with dynamic loading. It owns probing
//! for the libraries (cudarc panics when one is missing, so nothing is touched before the
//! probe), compiling kernels with NVRTC for the device's architecture, timing one submission,
//! capturing graphs, and reading kernel and graph metadata. It never changes the card's
//! settings: no clocks, power, compute mode or persistence are set here.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use super::harness::Timing;
pub(crate) use crate::evidence::kernels::KernelInfo;
pub(crate) use crate::evidence::meta::DeviceInfo;
use cudarc::driver::{CudaContext, CudaFunction, CudaGraph, CudaModule, CudaStream, sys};
use cudarc::nvrtc::{CompileOptions, compile_ptx_with_opts};

/// Why the GPU cannot be used here; the command says so in one sentence and exits 2.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum Unavailable {
    #[error("no CUDA driver library found (libcuda): this command needs an NVIDIA GPU and its driver")]
    NoDriver,
    #[error("no NVRTC library found (libnvrtc): put the CUDA toolkit's lib64 on LD_LIBRARY_PATH")]
    NoNvrtc,
    #[error("no CUDA device could be opened: {0}")]
    NoDevice(String),
}

/// Whether the NVRTC library can be loaded, without touching the driver.
pub(crate) fn nvrtc_present() -> bool {
    // SAFETY: only tries to open the library; no symbol is called.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Whether cuDNN can be loaded.
pub(crate) fn cudnn_present() -> bool {
    // SAFETY: as above.
    unsafe { cudarc::cudnn::sys::is_culib_present() }
}

/// Compiles `source` to PTX for `arch` (such as `sm_90`). Needs NVRTC but no GPU, so the
/// kernels' syntax can be checked on any machine that has the library.
pub(crate) fn compile(name: &str, source: &str, arch: &'static str, include_dir: &str) -> anyhow::Result<(String, Vec<String>)> {
    // CUDA 13 keeps the CCCL headers that cooperative_groups.h includes (<nv/target>) under
    // include/cccl; older layouts keep them in include itself. Both are searched.
    let mut include_paths = vec![include_dir.to_string()];
    let cccl = format!("{include_dir}/cccl");
    if std::path::Path::new(&cccl).is_dir() {
        include_paths.push(cccl);
    }
    let mut shown = vec![format!("--gpu-architecture={arch}"), "-std=c++17".to_string()];
    shown.extend(include_paths.iter().map(|p| format!("--include-path={p}")));
    let options = CompileOptions { arch: Some(arch), include_paths, options: vec!["-std=c++17".into()], name: Some(format!("{name}.cu")), ..CompileOptions::default() };
    let ptx = compile_ptx_with_opts(source, options).map_err(|e| anyhow::anyhow!("compiling kernels/{name}.cu: {e}"))?;
    Ok((ptx.to_src(), shown))
}

/// A compiled module with its PTX and the options it was compiled with.
pub(crate) struct Module {
    pub name: String,
    pub ptx: String,
    pub options: Vec<String>,
    pub module: Arc<CudaModule>,
}

impl Module {
    pub(crate) fn function(&self, name: &str) -> anyhow::Result<CudaFunction> {
        self.module.load_function(name).map_err(|e| anyhow::anyhow!("loading {name} from {}: {e}", self.name))
    }
}

/// The opened device: a context with event tracking off (graph capture needs that) and one
/// non-default stream that every submission goes to.
pub(crate) struct Gpu {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub info: DeviceInfo,
    pub arch: &'static str,
    pub include_dir: String,
    /// The SM clock reader, where NVML could be loaded; read only.
    pub nvml: Option<super::nvml::Nvml>,
}

/// The device's SM clock through NVML and a millisecond timer, for the harness's warm-up.
pub(crate) struct GpuClock<'a> {
    nvml: Option<&'a super::nvml::Nvml>,
    start: Instant,
}

impl super::harness::Clock for GpuClock<'_> {
    fn sm_mhz(&mut self) -> Option<u32> {
        self.nvml?.sm_mhz()
    }
    fn now_ms(&mut self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1e3
    }
}

/// Whether the CUDA driver and NVRTC libraries can be loaded, touching neither.
pub(crate) fn probe() -> Result<(), Unavailable> {
    // SAFETY: is_culib_present only tries to open the library.
    if !unsafe { sys::is_culib_present() } {
        return Err(Unavailable::NoDriver);
    }
    if !nvrtc_present() {
        return Err(Unavailable::NoNvrtc);
    }
    Ok(())
}

impl Gpu {
    /// Probes the libraries, then opens device 0.
    pub(crate) fn open() -> Result<Gpu, Unavailable> {
        probe()?;
        let fail = |e: &dyn std::fmt::Display| Unavailable::NoDevice(e.to_string());
        let ctx = CudaContext::new(0).map_err(|e| fail(&e))?;
        // SAFETY: called before any allocation or launch, as cudarc requires.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream().map_err(|e| fail(&e))?;
        let attr = |a| ctx.attribute(a).map_err(|e| fail(&e));
        use sys::CUdevice_attribute as A;
        let (major, minor) = ctx.compute_capability().map_err(|e| fail(&e))?;
        let mut driver_version = 0;
        // SAFETY: writes one int.
        unsafe { sys::cuDriverGetVersion(&mut driver_version) };
        let (mut nv_major, mut nv_minor) = (0, 0);
        // SAFETY: writes two ints; NVRTC's presence was probed above.
        unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut nv_major, &mut nv_minor) };
        let cudnn_version = cudnn_present().then(cudarc::cudnn::result::get_version);
        let info = DeviceInfo {
            name: ctx.name().map_err(|e| fail(&e))?,
            compute_capability: [major, minor],
            sm_count: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            l2_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
            max_shared_per_block_optin: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
            max_shared_per_sm: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
            total_memory_bytes: ctx.total_mem().map_err(|e| fail(&e))?,
            driver_version,
            nvrtc_version: [nv_major, nv_minor],
            cudnn_version,
        };
        let arch: &'static str = Box::leak(format!("sm_{major}{minor}").into_boxed_str());
        let include_dir = std::env::var("CLAIMCHECK_CUDA_INCLUDE").unwrap_or_else(|_| "/usr/local/cuda/include".into());
        let nvml = pci_bus_id(&ctx).and_then(|id| super::nvml::Nvml::open(&id));
        Ok(Gpu { ctx, stream, info, arch, include_dir, nvml })
    }

    /// The SM clock of this device, for the harness.
    pub(crate) fn clock(&self) -> GpuClock<'_> {
        GpuClock { nvml: self.nvml.as_ref(), start: Instant::now() }
    }

    /// Compiles and loads one of the repository's kernel files.
    pub(crate) fn module(&self, name: &str, source: &str) -> anyhow::Result<Module> {
        let (ptx, options) = compile(name, source, self.arch, &self.include_dir)?;
        let module = self.ctx.load_module(cudarc::nvrtc::Ptx::from_src(ptx.clone()))?;
        Ok(Module { name: name.to_string(), ptx, options, module })
    }

    /// Times one submission: an event and the host clock before `submit`, an event after it,
    /// then a stream synchronise; host time runs from before submission to after the sync.
    pub(crate) fn time(&self, submit: impl FnOnce(&Arc<CudaStream>) -> anyhow::Result<()>) -> anyhow::Result<Timing> {
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = self.stream.record_event(flags)?;
        let t0 = Instant::now();
        submit(&self.stream)?;
        let end = self.stream.record_event(flags)?;
        self.stream.synchronize()?;
        let host_us = t0.elapsed().as_secs_f64() * 1e6;
        let device_us = start.elapsed_ms(&end)? as f64 * 1000.0;
        Ok(Timing { host_us, device_us })
    }

    /// Runs `submit` once on the stream and waits, reporting any launch error.
    pub(crate) fn run_once(&self, submit: impl FnOnce(&Arc<CudaStream>) -> anyhow::Result<()>) -> anyhow::Result<()> {
        submit(&self.stream)?;
        self.stream.synchronize()?;
        Ok(())
    }

    /// Captures what `submit` enqueues into a graph, instantiates and uploads it. Capture,
    /// instantiation and upload are setup: the caller keeps them out of the timing and records
    /// how long they took.
    pub(crate) fn capture(&self, submit: impl FnOnce(&Arc<CudaStream>) -> anyhow::Result<()>) -> anyhow::Result<(CudaGraph, f64)> {
        let t0 = Instant::now();
        self.stream.begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)?;
        let submitted = submit(&self.stream);
        let ended = self.stream.end_capture(sys::CUgraphInstantiate_flags(0));
        submitted?;
        let graph = ended?.ok_or_else(|| anyhow::anyhow!("stream capture produced no graph"))?;
        graph.upload()?;
        self.stream.synchronize()?;
        Ok((graph, t0.elapsed().as_secs_f64() * 1e6))
    }

    /// Register, memory and occupancy facts for `f` launched with `threads` threads and
    /// `dynamic_shared` bytes.
    pub(crate) fn kernel_info(&self, module: &str, kernel: &str, f: &CudaFunction, threads: u32, dynamic_shared: u32) -> anyhow::Result<KernelInfo> {
        Ok(KernelInfo {
            module: module.into(),
            kernel: kernel.into(),
            block_threads: threads,
            dynamic_shared_bytes: dynamic_shared,
            registers: f.num_regs()?,
            static_shared_bytes: f.shared_size_bytes()?,
            local_bytes: f.local_size_bytes()?,
            max_threads_per_block: f.max_threads_per_block()?,
            max_active_blocks_per_sm: f.occupancy_max_active_blocks_per_multiprocessor(threads, dynamic_shared as usize, None)?,
            other: Default::default(),
        })
    }
}

/// The device's PCI bus id as CUDA reports it (`0000:19:00.0`), which NVML accepts.
fn pci_bus_id(ctx: &CudaContext) -> Option<String> {
    let mut buf = [0 as std::ffi::c_char; 32];
    // SAFETY: the buffer holds `len` bytes and the driver writes a NUL-terminated string.
    unsafe { sys::cuDeviceGetPCIBusId(buf.as_mut_ptr(), buf.len() as i32, ctx.cu_device()) }.result().ok()?;
    // SAFETY: NUL-terminated within the buffer, as above.
    let id = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
    id.to_str().ok().map(str::to_string)
}

/// Node counts of a graph by type (`kernel`, `memset`, …).
pub(crate) fn graph_nodes(graph: &CudaGraph) -> anyhow::Result<BTreeMap<String, usize>> {
    let g = graph.cu_graph();
    let mut n = 0usize;
    // SAFETY: a null node array asks for the count only.
    unsafe { sys::cuGraphGetNodes(g, std::ptr::null_mut(), &mut n) }.result()?;
    let mut nodes = vec![std::ptr::null_mut(); n];
    // SAFETY: `nodes` holds room for `n` nodes.
    unsafe { sys::cuGraphGetNodes(g, nodes.as_mut_ptr(), &mut n) }.result()?;
    let mut counts = BTreeMap::new();
    for node in nodes {
        let mut kind = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_EMPTY;
        // SAFETY: `node` came from the graph above.
        unsafe { sys::cuGraphNodeGetType(node, &mut kind) }.result()?;
        let name = format!("{kind:?}").trim_start_matches("CU_GRAPH_NODE_TYPE_").to_ascii_lowercase();
        *counts.entry(name).or_insert(0) += 1;
    }
    Ok(counts)
}

/// The graph in Graphviz form, as the driver prints it, written to a temporary file first.
pub(crate) fn graph_dot(graph: &CudaGraph) -> anyhow::Result<String> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("graph.dot");
    let c_path = std::ffi::CString::new(path.to_string_lossy().as_bytes())?;
    // SAFETY: the path is a valid C string; flags 0 prints the default detail.
    unsafe { sys::cuGraphDebugDotPrint(graph.cu_graph(), c_path.as_ptr(), 0) }.result()?;
    Ok(std::fs::read_to_string(path)?)
}
