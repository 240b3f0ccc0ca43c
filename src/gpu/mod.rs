//! The GPU experiment suite: the article's CUDA kernels (`kernels/`, compiled at run time by
//! NVRTC for the device), FP64 references, the timing harness and the writer of raw evidence.
//! Nothing here runs during `audit`.

pub(crate) mod common;
pub(crate) mod device;
pub(crate) mod harness;
pub(crate) mod nvml;
pub(crate) mod pointwise;
pub(crate) mod reference;
pub(crate) mod run;
pub(crate) mod scheduling;
pub(crate) mod softmax;

/// The repository's kernel sources, compiled into the binary so that a run uses exactly the
/// source its PTX came from.
pub(crate) const KERNELS: [(&str, &str); 3] =
    [("pointwise", include_str!("../../kernels/pointwise.cu")), ("softmax", include_str!("../../kernels/softmax.cu")), ("scheduling", include_str!("../../kernels/scheduling.cu"))];

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles every kernel with NVRTC for sm_90. Needs the NVRTC library and CUDA headers
    /// (set CLAIMCHECK_CUDA_INCLUDE), but no GPU; `benches/nvrtc-check.sh` fetches the device's
    /// NVRTC version and runs it.
    #[test]
    #[ignore = "needs NVRTC: run benches/nvrtc-check.sh (or LD_LIBRARY_PATH with libnvrtc.so.13 and CLAIMCHECK_CUDA_INCLUDE)"]
    fn every_kernel_compiles_for_sm_90() {
        assert!(device::nvrtc_present(), "NVRTC is not on the library path");
        let include = std::env::var("CLAIMCHECK_CUDA_INCLUDE").unwrap_or_else(|_| "/usr/local/cuda/include".into());
        for (name, source) in KERNELS {
            let (ptx, shown) = device::compile(name, source, "sm_90", &include).unwrap_or_else(|e| panic!("{e}"));
            assert!(ptx.contains(".target sm_90"), "{name}");
            // A warning such as "used before its value is set" can hide a real read of an
            // unset value in some lane, so the sources are held to none.
            let log = compile_log(name, source, &shown);
            assert!(!log.contains("warning"), "NVRTC warns about kernels/{name}.cu:\n{log}");
            if let Ok(dir) = std::env::var("CLAIMCHECK_PTX_OUT") {
                std::fs::write(std::path::Path::new(&dir).join(format!("{name}.ptx")), &ptx).unwrap();
            }
        }
    }

    /// NVRTC's log for `source` compiled with the options a run records (cudarc returns the
    /// log only when compiling fails).
    fn compile_log(name: &str, source: &str, options: &[String]) -> String {
        use cudarc::nvrtc::result;
        let source = std::ffi::CString::new(source).unwrap();
        let file = std::ffi::CString::new(format!("{name}.cu")).unwrap();
        let program = result::create_program(&source, Some(&file)).unwrap();
        // SAFETY: `program` was created above and is destroyed only at the end.
        unsafe {
            result::compile_program(program, options).unwrap();
            let log = result::get_program_log(program).unwrap();
            result::destroy_program(program).unwrap();
            let bytes: Vec<u8> = log.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}
