#!/usr/bin/env bash
# Compiles every kernel in kernels/ for sm_90 with the NVRTC the H200 machine has (13.0; the
# runs record it in meta.json), on a machine without a GPU. A newer NVRTC accepts code that
# 13.0 refuses (a generic lambda in device code cost one device call on 2026-12-04), so run this
# before a device call. The NVRTC library and the CUDA headers come from PyPI wheels, installed
# once under target/ (no GPU and no CUDA toolkit needed); the check itself is the ignored test
# gpu::tests::every_kernel_compiles_for_sm_90.
# Usage, from the repository root: bash benches/nvrtc-check.sh
set -euo pipefail
dir=${NVRTC_DIR:-target/nvrtc-13.0}
lib=$dir/lib/nvidia/cu13/lib
include=$dir/include/nvidia/cu13/include
if [ ! -e "$lib/libnvrtc.so.13" ] || [ ! -e "$include/cooperative_groups.h" ]; then
  # Two targets: pip skips a package whose top folder (nvidia/) already exists in its target.
  python3 -m pip install -q --no-deps --target "$dir/lib" nvidia-cuda-nvrtc==13.0.88
  python3 -m pip install -q --no-deps --target "$dir/include" nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85
fi
LD_LIBRARY_PATH=$lib CLAIMCHECK_CUDA_INCLUDE=$include cargo test --release --lib every_kernel_compiles_for_sm_90 -- --ignored
