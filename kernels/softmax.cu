// Row softmax on the H200: the article's RMS-scaled softmax y = softmax(x / rms(x)), with
// rms(x) = sqrt(mean(x^2) + eps), and the plain stable softmax y = softmax(x) for the
// side-by-side benchmark. FP32 throughout.
//
// Variants:
//   four-kernel   sm_rms, sm_max, sm_sum, sm_norm: one block per row each, with the per-row
//                 rms, max and sum in global memory between them (20 bytes per element).
//   fused-block   one block per row, rms, max and sum kept on chip, but the row read from
//                 global memory on each of its three passes (16 bytes per element, the
//                 re-reads often served by L2).
//   fused         the shape-dispatched kernel below: one read and one write per element
//                 (8 bytes per element), the row held in registers between passes.
//   rms_scale     the scaling kernel in front of cuDNN's softmax for the library baseline.
//
// Dispatch rule of `fused` (chosen on the host, see src/gpu/softmax.rs), and why:
//   cols in {128, 256, 512, 1024}       a warp per row, 8 rows per block. A block per row
//                                       would leave most of its threads idle or make one
//                                       block reduction per 128 elements; a warp reduces with
//                                       shuffles alone, and each lane keeps cols / 32 values
//                                       in registers (16-byte loads).
//   cols in {4096, 8192, 16384}         a block of cols / 16 threads per row, 16 values per
//                                       thread in registers, 16-byte loads; several blocks per
//                                       SM hide each other's reductions.
//   cols == 32768                       the mixed form (issue 16, version 6): a block per row
//                                       keeps part of its row in registers and the rest in
//                                       shared memory (cp.async), so that two blocks share an
//                                       SM and one block's loads stream while the other
//                                       reduces. The plain softmax takes 512 threads with half
//                                       the row in registers (fused_mix_plain_8_8_512_1), the
//                                       RMS-scaled one, with its two reductions, 1024 threads
//                                       with a quarter in registers (fused_mix_rms_2_6_1024_1);
//                                       each was the faster of the two for its softmax in every
//                                       run that timed both. Before version 10 this was a block
//                                       of 1024 threads holding 32 values a thread, which fits
//                                       once per SM (50 registers a thread), so nothing
//                                       overlapped its reductions: 86 % of copy.
//   cols a multiple of 8192 and few     the row split over cols / 8192 blocks of 512 threads
//   rows (rows * split <= resident)     of one cooperative launch (two an SM), 16 values a
//                                       thread in registers; each block stores its partials
//                                       beside the launch's tag in one 64-bit word and polls
//                                       only its row-mates' (`slot`, version 8). Before version
//                                       10, 16 blocks of 1024 threads a row that met through
//                                       two grid-wide syncs (fused_split_*, still the fallback
//                                       where the slot form's blocks do not all fit but these do).
//   anything else                       fused-block.
//
// Candidate forms (issue 16; timed only with CLAIMCHECK_SOFTMAX_CANDIDATES, dispatched only
// with CLAIMCHECK_SOFTMAX_DISPATCH; outcomes in kernels/NOTES.md, version 5, run
// 20261202T214912Z-softmax-bench):
//   reg1      the plain softmax with one online (max, sum) block reduction: 1024x32768 78.6 ->
//             73.9 us; no change at 4096x4096.
//   pipe      cols == 32768, persistent, the next row prefetched by bulk copies into shared
//             memory: 76.4 us plain, 76.6 us RMS-scaled (the RMS form's best).
//   cluster   a cluster of CS blocks per row, partials in distributed shared memory: 8x262144
//             12.8 -> 12.0 us with 8 blocks of 1024 threads; 16-block clusters of one-per-SM
//             blocks fit only 7 at once on the H200, so 8 rows take two waves.
// Version 6 (runs 20261203T075601Z-softmax-bench and later; outcomes in kernels/NOTES.md):
//   mix       cols == 32768, half of each row (or 3/4) in shared memory by cp.async, so two
//             blocks share an SM: 1024x32768 plain 79.1 -> 72.3 us, RMS-scaled 82.7 -> 72.5 us.
//   flag      few long rows split over cooperative blocks that wait only for their row-mates,
//             through a counter per row: 8x262144 plain 12.1 -> 9.3 us, RMS-scaled 12.3 -> 10.8.
//   pair      as flag, two rows a block so that one row's wait overlaps the other's work:
//             slower than flag (10.9 and 13.6 us).
// Version 7 (runs 20261203T104742Z-softmax-bench to 20261203T111544Z; kernels/NOTES.md):
//   mixp      mix with persistent blocks, the next row loaded as this one is stored: 3-4.5 us
//             slower than mix.
//   mixd      mix with the first wave's second blocks started late: level with mix.
//   stag      pair with the second row loaded after the first is published: level with pair.
//   flagd     flag with the rows started one after another: level or slower than flag.
// Version 8 (runs 20261203T164505Z-softmax-bench to 20261203T174606Z; kernels/NOTES.md):
//   slot      flag with each partial stored beside its launch's tag in one 64-bit word, so
//             the poll that finds every tag current has the partials: 0.4-0.6 us faster than
//             flag plain, 0.7-1.0 us RMS-scaled; still 69-78 % of copy.
//   mix3      mix with three blocks an SM (mix14-18x256): 2-3 us slower than mix.
//   ord       every block holding a piece of every row, rows stored as they complete, a row's
//             blocks meeting through the last to count: correct, but about 30 us, since the
//             eight grid-wide meetings run one after another.
//   copy_phased, a diagnostic: a copy that reads every value of a block before writing any is
//             3-8 % faster than copy_f4 at 8x262144, so the split forms lose by waiting for
//             the last piece of their row, not by the order.
// Version 9 (runs 20261203T190952Z-softmax-bench to 20261203T194747Z; kernels/NOTES.md):
//   fan       every block holding a piece of every row, each row published as it arrives and
//             its meeting independent of the others': correct, but 5 us slower than slot at
//             8x262144 (eight merges a warp, eight meetings of the whole grid); fanw, a poller
//             warp for each group of rows, takes off what the poller's passes cost, not more.
//   cap       the rule's own kernels with unused dynamic shared memory, so that fewer blocks
//             fit on an SM: slower at every cap, even at the residency the kernel already has.
//   mixf      mix with the smallest carveout that holds its blocks (four times the L1): level
//             plain, 0.8 us faster RMS-scaled in one run.
// Version 11 (runs 20261204T031905Z-softmax-bench to 20261204T033113Z; kernels/NOTES.md): Nsight
// Compute put the loss of `mix` at 1024x32768 in SMs left without a block (about 2.9 us more
// than the copy's), not in its bytes or its busy cycles.
//   tail      mix with its last rows split into pieces that meet through tagged slots, placed by
//             a ticket: 1.8-11 us slower, since each piece spins until its last row-mate starts.
//   hand      mix (mixh: letting the next kernel start once all its blocks have started) for all
//             but the last rows, which go to a cluster kernel launched as a programmatic
//             dependent: level with mix at best, slower RMS-scaled.
// Version 12 (kernels/NOTES.md): no new form. The TRACE_MARK hooks below let
// benches/trace_blocks.py stamp when each block passes them; the timeline put the mixed form's
// idle SMs at the end of the kernel and the slot form's loss in meetings slowed by other rows'
// stores, and the changes it suggested (pauses between polls, a line a slot, bulk stores for
// every block or for the first on each SM, a store gate) were all refuted.
// Version 13 (runs 20261204T123803Z-softmax-bench to 133137Z; kernels/NOTES.md):
//   last      mix with its last rows split into pieces that never wait, the last piece of a row
//             to count writing all of it (the others' pieces read again): 4.5 us slower than
//             its control with no split row at best (66 rows in four pieces), more with more.
//   slott     slot polling its meetings by bulk copies into shared memory, off the load/store
//             path: plain level or 0.35 us faster, RMS-scaled 0.3-0.5 us slower; removed (it is
//             in commit 9731b71).
// Version 14 (runs 20261204T164319Z-softmax-bench to 164518Z; kernels/NOTES.md):
//   narrow    cols == 128, a group of 4, 8 or 16 lanes a row instead of a warp, so that each
//             reduction takes 2-4 shuffles for several rows at once: level with the warp kernel
//             or up to 4 % slower, so the shuffles are not what keeps 4096x128 from the copy.
// Version 15 (kernels/NOTES.md):
//   hint      the rule's warp, block and mixed forms, and the copy kernel, with every pairing
//             of four load hints and two store hints (HINT_PAIRS): over five runs no pairing is
//             shown faster than the rule's at any shape (the best plain one at 1024x32768 ahead
//             in every run by 0.4-1.1 us, INCONCLUSIVE), and streaming loads on the mixed form
//             are shown slower.
// Version 20 (runs 20261206T010053Z-softmax-bench and 010213Z; kernels/NOTES.md):
//   clshare   cols == 262144: rows - 1 clusters of 16 blocks, a row each, meeting in distributed
//             shared memory, and the last row shared by every block through tagged slots (only
//             7 clusters of 16 are resident at once on the H200); clsharep loads the shared
//             row's first poll before the cluster meetings, clsharepw as clsharep with L2-only
//             loads and write-back stores. All validate; all are 4.7-5.4 us behind the rule
//             plain and 7.8-8.5 us RMS-scaled: the shared row's meeting spans the whole grid.
// Version 21 (kernels/NOTES.md; not measured yet, the device lent no machine):
//   mom       cols == 262144: the slot form's blocks, the RMS-scaled softmax in one meeting, each
//             block sending the moments of its exponentials at its own guess of the scale, from
//             which every row-mate rebuilds the row's sum; momx always takes the second meeting
//             too (the control).
//
// Exponentials use exp2f on arguments pre-multiplied by log2(e): the arguments are <= 0, the
// relative error stays near 1e-6, and the declared tolerance is 1e-5.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define NEG_INF __int_as_float(0xff800000)
#define LOG2E 1.4426950408889634f

// Issue 16, version 12: `benches/trace_blocks.py` defines TRACE_MARK to stamp the time at which
// thread 0 of a block passes each mark (2: its row or piece has arrived, 3: the row's statistics
// are known, 4: the second meeting of the RMS-scaled slot form is over). The tool defines
// nothing, so the marks compile to nothing and its kernels are unchanged.
#ifndef TRACE_MARK
#define TRACE_MARK(k)
#endif

// A row's statistics for its validation record: the root mean square (1 / scale), the maximum
// of the scaled row and the sum of its exponentials. The index keeps its own type (a block index
// is unsigned, a row number an int), so that each kernel computes the address as it did when it
// wrote the three words itself.
template <typename I>
__device__ __forceinline__ void record_row_stats(float* stats, I row, float scale, float mx, float s) {
    stats[3 * row + 0] = 1.f / scale;
    stats[3 * row + 1] = mx * scale;
    stats[3 * row + 2] = s;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// Block-wide sum and max of two values at once (one barrier pair), result in every thread.
// `red` holds 64 floats.
__device__ __forceinline__ void block_sum_max(float& s, float& m, float* red) {
    s = warp_sum(s);
    m = warp_max(m);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nwarps = blockDim.x >> 5;
    __syncthreads();
    if (lane == 0) { red[warp] = s; red[32 + warp] = m; }
    __syncthreads();
    s = lane < nwarps ? red[lane] : 0.f;
    m = lane < nwarps ? red[32 + lane] : NEG_INF;
    s = warp_sum(s);
    m = warp_max(m);
}

__device__ __forceinline__ float block_sum(float s, float* red) {
    float m = NEG_INF;
    block_sum_max(s, m, red);
    return s;
}

__device__ __forceinline__ float block_max(float m, float* red) {
    float s = 0.f;
    block_sum_max(s, m, red);
    return m;
}

// ---------------------------------------------------------------------------------------
// Four-kernel path: one block per row, grid-stride over the row, intermediates in global.

extern "C" __global__ void sm_rms(const float* __restrict__ x, float* __restrict__ rms, int cols, float eps) {
    __shared__ float red[64];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float s = 0.f;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) s = fmaf(xr[i], xr[i], s);
    s = block_sum(s, red);
    if (threadIdx.x == 0) rms[blockIdx.x] = sqrtf(s / cols + eps);
}

extern "C" __global__ void sm_max(const float* __restrict__ x, const float* __restrict__ rms, float* __restrict__ mx, int cols) {
    __shared__ float red[64];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float inv = 1.f / rms[blockIdx.x];
    float m = NEG_INF;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, xr[i] * inv);
    m = block_max(m, red);
    if (threadIdx.x == 0) mx[blockIdx.x] = m;
}

extern "C" __global__ void sm_sum(const float* __restrict__ x, const float* __restrict__ rms, const float* __restrict__ mx,
                                  float* __restrict__ sum, int cols) {
    __shared__ float red[64];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float inv = 1.f / rms[blockIdx.x], m = mx[blockIdx.x];
    float s = 0.f;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) s += exp2f((xr[i] * inv - m) * LOG2E);
    s = block_sum(s, red);
    if (threadIdx.x == 0) sum[blockIdx.x] = s;
}

extern "C" __global__ void sm_norm(const float* __restrict__ x, const float* __restrict__ rms, const float* __restrict__ mx,
                                   const float* __restrict__ sum, float* __restrict__ y, int cols) {
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float inv = 1.f / rms[blockIdx.x], m = mx[blockIdx.x], r = 1.f / sum[blockIdx.x];
    for (int i = threadIdx.x; i < cols; i += blockDim.x) yr[i] = exp2f((xr[i] * inv - m) * LOG2E) * r;
}

// The scaling kernel in front of cuDNN: xs = x / rms(x), one block per row.
extern "C" __global__ void rms_scale(const float* __restrict__ x, float* __restrict__ xs, int cols, float eps) {
    __shared__ float red[64];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* sr = xs + (size_t)blockIdx.x * cols;
    float s = 0.f;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) s = fmaf(xr[i], xr[i], s);
    s = block_sum(s, red);
    float inv = 1.f / sqrtf(s / cols + eps);
    for (int i = threadIdx.x; i < cols; i += blockDim.x) sr[i] = xr[i] * inv;
}

// ---------------------------------------------------------------------------------------
// fused-block: one block per row, statistics on chip, the row re-read from global memory.
// Writes the per-row statistics too (rms, max of the scaled row, sum), for validation.

template <bool RMS>
__device__ void fused_block_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int cols, float eps) {
    __shared__ float red[64];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float sq = 0.f, mx = NEG_INF;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) {
        float v = xr[i];
        sq = fmaf(v, v, sq);
        mx = fmaxf(mx, v);
    }
    block_sum_max(sq, mx, red);
    // Scaling by a positive factor keeps the maximum where it is, so max(x / rms) = max(x) / rms.
    float scale = RMS ? 1.f / sqrtf(sq / cols + eps) : 1.f;
    float k = scale * LOG2E;
    float s = 0.f;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) s += exp2f((xr[i] - mx) * k);
    s = block_sum(s, red);
    float r = 1.f / s;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) yr[i] = exp2f((xr[i] - mx) * k) * r;
    if (stats && threadIdx.x == 0) {
        record_row_stats(stats, blockIdx.x, scale, mx, s);
    }
}

extern "C" __global__ void fused_block_rms(const float* x, float* y, float* stats, int cols, float eps) { fused_block_row<true>(x, y, stats, cols, eps); }
extern "C" __global__ void fused_block_plain(const float* x, float* y, float* stats, int cols, float eps) { fused_block_row<false>(x, y, stats, cols, eps); }

// ---------------------------------------------------------------------------------------
// LD picks a load's cache hints: 0 streaming (ld.global.cs, evict-first; the rule's warp and
// block kernels and every split form), 1 the default (ld.global, as Triton's and Liger's row
// kernels load; the rule's mixed forms), 2 the default with a 256-byte L2 prefetch hint
// (.L2::256B, whole 256-byte sector groups), 3 the L2 only (ld.global.cg, no L1 line), 4 the
// read-only path (ld.global.nc; x is never written while a kernel runs). ST picks a store's: 0
// streaming (st.global.cs, as every fused form stores), 1 the default write-back (st.global, as
// Triton's row kernel stores). Codes 3 and 4, and ST 1, were added for the sweep of issue 16,
// version 15; 0 and 0 give exactly the intrinsics the kernels used before it.
template <int LD>
__device__ __forceinline__ float4 ld4(const float4* p) {
    float4 v;
    if (LD == 0) {
        v = __ldcs(p);
    } else if (LD == 1) {
        asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    } else if (LD == 2) {
        asm volatile("ld.global.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    } else if (LD == 3) {
        asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    } else {
        asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    }
    return v;
}

template <int ST>
__device__ __forceinline__ void st4(float4* p, float4 v) {
    if (ST == 0) {
        __stcs(p, v);
    } else {
        asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
    }
}

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

template <int LD>
__device__ __forceinline__ void cp_async16(void* dst, const void* src) {
    if (LD == 2) {
        asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(smem_u32(dst)), "l"(src) : "memory");
    } else {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_u32(dst)), "l"(src) : "memory");
    }
}

// ---------------------------------------------------------------------------------------
// fused, a group of L lanes per row: lane l of a group holds float4s l, l + L, ..., V of them
// (cols = 4 L V), so a warp holds 32 / L rows and each of its reductions takes log2(L) shuffles
// for all of them at once. The rule's warp-per-row kernel is L = 32 (below; NVRTC gives it the
// PTX it had with a body of its own). The `narrow` candidates (issue 16, version 14) take L = 4,
// 8 or 16: at 4096x128 the warp kernel's rows arrive together and then wait on ten dependent
// shuffles each, 310 shuffle issues an SM, and with 8 lanes a row that is 47; they were level
// or slower. A group never straddles a warp, and a narrow form is launched only where every
// block's rows exist, so no warp leaves its shuffles in part.

template <int L>
__device__ __forceinline__ float group_sum(float v) {
#pragma unroll
    for (int o = L / 2; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

template <int L>
__device__ __forceinline__ float group_max(float v) {
#pragma unroll
    for (int o = L / 2; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

template <bool RMS, int L, int V, int LD = 0, int ST = 0>
__device__ void fused_narrow_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int rows, float eps) {
    constexpr int cols = 4 * L * V;
    int row = blockIdx.x * (blockDim.x / L) + threadIdx.x / L;
    int lane = threadIdx.x % L;
    if (row >= rows) return;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = ld4<LD>(xr + lane + L * k);
    float sq = 0.f, mx = NEG_INF;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        sq = fmaf(v[k].x, v[k].x, fmaf(v[k].y, v[k].y, fmaf(v[k].z, v[k].z, fmaf(v[k].w, v[k].w, sq))));
        mx = fmaxf(mx, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
    mx = group_max<L>(mx);
    float scale = 1.f;
    if (RMS) scale = 1.f / sqrtf(group_sum<L>(sq) / cols + eps);
    float k2 = scale * LOG2E, s = 0.f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        v[k].x = exp2f((v[k].x - mx) * k2); v[k].y = exp2f((v[k].y - mx) * k2);
        v[k].z = exp2f((v[k].z - mx) * k2); v[k].w = exp2f((v[k].w - mx) * k2);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    s = group_sum<L>(s);
    float r = 1.f / s;
#pragma unroll
    for (int k = 0; k < V; ++k) st4<ST>(yr + lane + L * k, make_float4(v[k].x * r, v[k].y * r, v[k].z * r, v[k].w * r));
    if (stats && lane == 0) {
        record_row_stats(stats, row, scale, mx, s);
    }
}

// ---------------------------------------------------------------------------------------
// fused, warp per row: lane l holds float4s l, l + 32, ..., V of them (cols = 128 V), the
// group form above with a group of 32 lanes.

template <bool RMS, int V, int LD = 0, int ST = 0>
__device__ void fused_warp_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int rows, float eps) {
    fused_narrow_rows<RMS, 32, V, LD, ST>(x, y, stats, rows, eps);
}

// NAME_rms_V and NAME_plain_V; the rule's are fused_warp_*, the capped forms' fused_cap_warp_*.
#define WARP_KERNELS(NAME, V)                                                                                                 \
    extern "C" __global__ void __launch_bounds__(256) NAME##_rms_##V(const float* x, float* y, float* st, int rows, float eps) { \
        fused_warp_rows<true, V>(x, y, st, rows, eps);                                                                         \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(256) NAME##_plain_##V(const float* x, float* y, float* st, int rows, float eps) { \
        fused_warp_rows<false, V>(x, y, st, rows, eps);                                                                        \
    }
#define WARP_KERNEL(V) WARP_KERNELS(fused_warp, V)
WARP_KERNEL(1)
WARP_KERNEL(2)
WARP_KERNEL(4)
WARP_KERNEL(8)

// fused_narrow_rms_L_V_T and fused_narrow_plain_L_V_T.
#define NARROW_KERNEL(L, V, T)                                                                                                \
    extern "C" __global__ void __launch_bounds__(T) fused_narrow_rms_##L##_##V##_##T(const float* x, float* y, float* st, int rows, float eps) { \
        fused_narrow_rows<true, L, V>(x, y, st, rows, eps);                                                                    \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T) fused_narrow_plain_##L##_##V##_##T(const float* x, float* y, float* st, int rows, float eps) { \
        fused_narrow_rows<false, L, V>(x, y, st, rows, eps);                                                                   \
    }
NARROW_KERNEL(8, 4, 128)
NARROW_KERNEL(8, 4, 64)
NARROW_KERNEL(16, 2, 256)
NARROW_KERNEL(16, 2, 128)
NARROW_KERNEL(4, 8, 64)

// ---------------------------------------------------------------------------------------
// fused, block per row: thread t holds float4s t, t + T, ..., V of them (cols = 4 T V).

template <bool RMS, int V, int LD = 0, int ST = 0>
__device__ void fused_reg_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int cols, float eps) {
    __shared__ float red[64];
    const int T = blockDim.x;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)blockIdx.x * cols);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)blockIdx.x * cols);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = ld4<LD>(xr + threadIdx.x + T * k);
    float sq = 0.f, mx = NEG_INF;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        sq = fmaf(v[k].x, v[k].x, fmaf(v[k].y, v[k].y, fmaf(v[k].z, v[k].z, fmaf(v[k].w, v[k].w, sq))));
        mx = fmaxf(mx, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
    block_sum_max(sq, mx, red);
    float scale = RMS ? 1.f / sqrtf(sq / cols + eps) : 1.f;
    float k2 = scale * LOG2E, s = 0.f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        v[k].x = exp2f((v[k].x - mx) * k2); v[k].y = exp2f((v[k].y - mx) * k2);
        v[k].z = exp2f((v[k].z - mx) * k2); v[k].w = exp2f((v[k].w - mx) * k2);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    s = block_sum(s, red);
    float r = 1.f / s;
#pragma unroll
    for (int k = 0; k < V; ++k) st4<ST>(yr + threadIdx.x + T * k, make_float4(v[k].x * r, v[k].y * r, v[k].z * r, v[k].w * r));
    if (stats && threadIdx.x == 0) {
        record_row_stats(stats, blockIdx.x, scale, mx, s);
    }
}

// NAME_rms_V_T and NAME_plain_V_T; the rule's are fused_reg_*, the capped forms' fused_cap_reg_*.
#define REG_KERNELS(NAME, V, T)                                                                                               \
    extern "C" __global__ void __launch_bounds__(T) NAME##_rms_##V##_##T(const float* x, float* y, float* st, int cols, float eps) { \
        fused_reg_row<true, V>(x, y, st, cols, eps);                                                                           \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T) NAME##_plain_##V##_##T(const float* x, float* y, float* st, int cols, float eps) { \
        fused_reg_row<false, V>(x, y, st, cols, eps);                                                                          \
    }
#define REG_KERNEL(V, T) REG_KERNELS(fused_reg, V, T)
REG_KERNEL(4, 256)
REG_KERNEL(4, 512)
REG_KERNEL(4, 1024)
REG_KERNEL(8, 1024)
REG_KERNEL(2, 512)

// ---------------------------------------------------------------------------------------
// fused, row split over `split` blocks of 1024 threads (16384 values each, 16 per thread),
// cooperative launch with grid = rows * split. `part` holds 3 * rows * split floats.

template <bool RMS>
__device__ void fused_split_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, float* __restrict__ part,
                                int cols, int split, float eps) {
    constexpr int V = 4;
    __shared__ float red[64];
    __shared__ float row_stat[2];
    cg::grid_group grid = cg::this_grid();
    int row = blockIdx.x / split, piece = blockIdx.x % split;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols + (size_t)piece * 16384);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols + (size_t)piece * 16384);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = __ldcs(xr + threadIdx.x + 1024 * k);
    float sq = 0.f, mx = NEG_INF;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        sq = fmaf(v[k].x, v[k].x, fmaf(v[k].y, v[k].y, fmaf(v[k].z, v[k].z, fmaf(v[k].w, v[k].w, sq))));
        mx = fmaxf(mx, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
    block_sum_max(sq, mx, red);
    float* p = part + 2 * (size_t)row * split;
    if (threadIdx.x == 0) { p[2 * piece] = sq; p[2 * piece + 1] = mx; }
    grid.sync();
    if (threadIdx.x < 32) {
        float s = 0.f, m = NEG_INF;
        for (int i = threadIdx.x; i < split; i += 32) { s += __ldcg(p + 2 * i); m = fmaxf(m, __ldcg(p + 2 * i + 1)); }
        s = warp_sum(s);
        m = warp_max(m);
        if (threadIdx.x == 0) { row_stat[0] = s; row_stat[1] = m; }
    }
    __syncthreads();
    sq = row_stat[0];
    mx = row_stat[1];
    float scale = RMS ? 1.f / sqrtf(sq / cols + eps) : 1.f;
    float k2 = scale * LOG2E, s = 0.f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        v[k].x = exp2f((v[k].x - mx) * k2); v[k].y = exp2f((v[k].y - mx) * k2);
        v[k].z = exp2f((v[k].z - mx) * k2); v[k].w = exp2f((v[k].w - mx) * k2);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    s = block_sum(s, red);
    // The second round of partials goes to the other half of `part`'s row slots: the first
    // half may still be read by slower blocks of this row.
    float* q = part + 2 * (size_t)gridDim.x + (size_t)row * split;
    if (threadIdx.x == 0) q[piece] = s;
    grid.sync();
    if (threadIdx.x < 32) {
        float t = 0.f;
        for (int i = threadIdx.x; i < split; i += 32) t += __ldcg(q + i);
        t = warp_sum(t);
        if (threadIdx.x == 0) row_stat[0] = t;
    }
    __syncthreads();
    s = row_stat[0];
    float r = 1.f / s;
#pragma unroll
    for (int k = 0; k < V; ++k) __stcs(yr + threadIdx.x + 1024 * k, make_float4(v[k].x * r, v[k].y * r, v[k].z * r, v[k].w * r));
    if (stats && piece == 0 && threadIdx.x == 0) {
        record_row_stats(stats, row, scale, mx, s);
    }
}

extern "C" __global__ void __launch_bounds__(1024, 1) fused_split_rms(const float* x, float* y, float* st, float* part, int cols, int split, float eps) {
    fused_split_row<true>(x, y, st, part, cols, split, eps);
}
extern "C" __global__ void __launch_bounds__(1024, 1) fused_split_plain(const float* x, float* y, float* st, float* part, int cols, int split, float eps) {
    fused_split_row<false>(x, y, st, part, cols, split, eps);
}

// ---------------------------------------------------------------------------------------
// Shared pieces of the issue-16 kernels: the end of a row held in registers (V float4s per
// thread, float4 k of thread t at t + T k), with the row's statistics already known.

// Online (max, sum) pair: s is a sum of exp2((x - m) * k) over the values it covers.
__device__ __forceinline__ void online_merge(float& m, float& s, float m2, float s2, float k) {
    float mm = fmaxf(m, m2);
    s = s * exp2f((m - mm) * k) + s2 * exp2f((m2 - mm) * k);
    m = mm;
}

__device__ __forceinline__ void warp_online(float& m, float& s, float k) {
    for (int o = 16; o; o >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
        online_merge(m, s, m2, s2, k);
    }
}

// Block-wide online (max, sum), result in every thread; one barrier pair. `red` holds 64 floats.
__device__ __forceinline__ void block_online(float& m, float& s, float k, float* red) {
    warp_online(m, s, k);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nwarps = blockDim.x >> 5;
    __syncthreads();
    if (lane == 0) { red[warp] = m; red[32 + warp] = s; }
    __syncthreads();
    m = lane < nwarps ? red[lane] : red[0];
    s = lane < nwarps ? red[32 + lane] : 0.f;
    warp_online(m, s, k);
}

// Exponentiates the thread's values against its own maximum and returns their sum (plain
// softmax, one-reduction form).
template <int V>
__device__ __forceinline__ float exp_local(float4 (&v)[V], float m) {
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        v[k].x = exp2f((v[k].x - m) * LOG2E); v[k].y = exp2f((v[k].y - m) * LOG2E);
        v[k].z = exp2f((v[k].z - m) * LOG2E); v[k].w = exp2f((v[k].w - m) * LOG2E);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    return s;
}

template <int V>
__device__ __forceinline__ float local_max(const float4 (&v)[V]) {
    float mx = NEG_INF;
#pragma unroll
    for (int k = 0; k < V; ++k) mx = fmaxf(mx, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    return mx;
}

template <int V>
__device__ __forceinline__ void local_sq_max(const float4 (&v)[V], float& sq, float& mx) {
    sq = 0.f;
    mx = NEG_INF;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        sq = fmaf(v[k].x, v[k].x, fmaf(v[k].y, v[k].y, fmaf(v[k].z, v[k].z, fmaf(v[k].w, v[k].w, sq))));
        mx = fmaxf(mx, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
}

template <int V>
__device__ __forceinline__ float exp_scaled(float4 (&v)[V], float mx, float k2) {
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        v[k].x = exp2f((v[k].x - mx) * k2); v[k].y = exp2f((v[k].y - mx) * k2);
        v[k].z = exp2f((v[k].z - mx) * k2); v[k].w = exp2f((v[k].w - mx) * k2);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    return s;
}

// One float4 at a time: exp2((h - mx) k2) in each lane, the lanes' sum, the lanes times r.
__device__ __forceinline__ float4 exp4(float4 h, float mx, float k2) {
    return make_float4(exp2f((h.x - mx) * k2), exp2f((h.y - mx) * k2), exp2f((h.z - mx) * k2), exp2f((h.w - mx) * k2));
}
__device__ __forceinline__ float sum4(float4 h) { return (h.x + h.y) + (h.z + h.w); }
__device__ __forceinline__ float4 times4(float4 h, float r) { return make_float4(h.x * r, h.y * r, h.z * r, h.w * r); }

// The VS float4s a thread of a mixed form keeps in shared memory (slots t, t + T, ...),
// exponentiated in place, each added to s in turn.
template <int VS, int T>
__device__ __forceinline__ void exp_rest(float4* rest, int t, float mx, float k2, float& s) {
#pragma unroll
    for (int k = 0; k < VS; ++k) {
        const float4 h = exp4(rest[t + T * k], mx, k2);
        s += sum4(h);
        rest[t + T * k] = h;
    }
}

template <int V, int ST = 0>
__device__ __forceinline__ void store_scaled(float4* __restrict__ yr, int stride, const float4 (&v)[V], float r) {
#pragma unroll
    for (int k = 0; k < V; ++k) st4<ST>(yr + threadIdx.x + stride * k, make_float4(v[k].x * r, v[k].y * r, v[k].z * r, v[k].w * r));
}

// ---------------------------------------------------------------------------------------
// fused, block per row, plain softmax with one block reduction (issue 16): each thread
// exponentiates against its own maximum, and the block merges (max, sum) pairs online, so
// the plain softmax needs one barrier pair instead of two. The RMS-scaled softmax cannot: its
// exponent needs the whole row's rms first (it keeps fused_reg_rms_*).

template <int V>
__device__ void fused_reg1_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int cols) {
    __shared__ float red[64];
    const int T = blockDim.x;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)blockIdx.x * cols);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)blockIdx.x * cols);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = __ldcs(xr + threadIdx.x + T * k);
    float m0 = local_max(v);
    float s = exp_local(v, m0), m = m0;
    block_online(m, s, LOG2E, red);
    store_scaled(yr, T, v, exp2f((m0 - m) * LOG2E) / s);
    if (stats && threadIdx.x == 0) {
        record_row_stats(stats, blockIdx.x, 1.f, m, s);
    }
}

#define REG1_KERNELS(NAME, V, T)                                                                                              \
    extern "C" __global__ void __launch_bounds__(T) NAME##_plain_##V##_##T(const float* x, float* y, float* st, int cols, float eps) { \
        fused_reg1_row<V>(x, y, st, cols);                                                                                     \
    }
#define REG1_KERNEL(V, T) REG1_KERNELS(fused_reg1, V, T)
REG1_KERNEL(4, 256)
REG1_KERNEL(2, 512)
REG1_KERNEL(8, 1024)

// The rule's warp and block-per-row kernels again under other names (issue 16, version 9;
// `Capped` forms, timed with the `occ` candidates). The host launches them with dynamic shared
// memory they do not use, so that fewer blocks fit on an SM than registers and threads allow;
// as separate entry points, their launch attributes (shared-memory carveout and limit) leave
// the rule's own kernels as they are.
WARP_KERNELS(fused_cap_warp, 4)
WARP_KERNELS(fused_cap_warp, 8)
REG_KERNELS(fused_cap_reg, 4, 256)
REG1_KERNELS(fused_cap_reg1, 4, 256)

// ---------------------------------------------------------------------------------------
// fused, persistent with the next row prefetched (issue 16), cols == 32768: one block of 1024
// threads per SM loops over rows blockIdx.x, blockIdx.x + gridDim.x, ... The row being worked
// on lives in registers (32 values a thread); the next row streams from global memory into
// 128 KB of shared memory through the bulk copy engine (cp.async.bulk, completing on an
// mbarrier) while this one is reduced, exponentiated and stored, so the SM's reads do not stop
// for the reductions and the stores. Dynamic shared memory: 131072 bytes.


__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbar_expect_tx(unsigned long long* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned phase) {
    unsigned done = 0;
    do {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(smem_u32(bar)), "r"(phase)
                     : "memory");
    } while (!done);
}

__device__ __forceinline__ void bulk_g2s(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem_u32(dst)), "l"(src),
                 "r"(bytes), "r"(smem_u32(bar))
                 : "memory");
}

// Thread 0 only: the whole row (128 KB) into `buf`, in 8 bulk copies of 16 KB.
__device__ __forceinline__ void pipe_issue(float4* buf, const float* src, unsigned long long* bar) {
    constexpr unsigned BYTES = 32768 * 4, CHUNK = 16384;
    mbar_expect_tx(bar, BYTES);
#pragma unroll
    for (unsigned c = 0; c < BYTES / CHUNK; ++c) bulk_g2s(reinterpret_cast<char*>(buf) + c * CHUNK, reinterpret_cast<const char*>(src) + c * CHUNK, CHUNK, bar);
}

template <bool RMS>
__device__ void fused_pipe_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int rows, float eps) {
    constexpr int T = 1024, V = 8, COLS = 32768;
    extern __shared__ __align__(128) float4 buf[];
    __shared__ __align__(8) unsigned long long bar;
    __shared__ float red[64];
    int row = blockIdx.x;
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0 && row < rows) pipe_issue(buf, x + (size_t)row * COLS, &bar);
    unsigned phase = 0;
    for (; row < rows; row += gridDim.x) {
        mbar_wait(&bar, phase);
        phase ^= 1;
        float4 v[V];
#pragma unroll
        for (int k = 0; k < V; ++k) v[k] = buf[threadIdx.x + T * k];
        __syncthreads();
        int next = row + gridDim.x;
        if (threadIdx.x == 0 && next < rows) {
            // The buffer was read through the generic proxy; the copy engine writes it next.
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            pipe_issue(buf, x + (size_t)next * COLS, &bar);
        }
        float4* yr = reinterpret_cast<float4*>(y + (size_t)row * COLS);
        float scale = 1.f, mx, s;
        if (RMS) {
            float sq;
            local_sq_max(v, sq, mx);
            block_sum_max(sq, mx, red);
            scale = 1.f / sqrtf(sq / COLS + eps);
            s = block_sum(exp_scaled(v, mx, scale * LOG2E), red);
            store_scaled(yr, T, v, 1.f / s);
        } else {
            float m0 = local_max(v);
            s = exp_local(v, m0);
            mx = m0;
            block_online(mx, s, LOG2E, red);
            store_scaled(yr, T, v, exp2f((m0 - mx) * LOG2E) / s);
        }
        if (stats && threadIdx.x == 0) {
            record_row_stats(stats, row, scale, mx, s);
        }
    }
}

extern "C" __global__ void __launch_bounds__(1024, 1) fused_pipe_rms(const float* x, float* y, float* st, int rows, float eps) { fused_pipe_rows<true>(x, y, st, rows, eps); }
extern "C" __global__ void __launch_bounds__(1024, 1) fused_pipe_plain(const float* x, float* y, float* st, int rows, float eps) { fused_pipe_rows<false>(x, y, st, rows, eps); }

// ---------------------------------------------------------------------------------------
// fused, a thread-block cluster per row (issue 16): the row split over CS blocks of T threads
// of one cluster (compile-time cluster dims; blocks CS r .. CS r + CS - 1 hold row r), each
// block keeping its cols / CS values in registers (4 V per thread). Partial statistics meet in
// distributed shared memory across cluster barriers instead of global memory and grid syncs.
// The plain softmax exchanges one online (max, sum) pair per block (one cluster barrier); the
// RMS-scaled one exchanges (sum of squares, max), then the sum (two barriers). A block does
// not exit before every block of its cluster has read its partials (a last arrive/wait pair,
// the wait after the stores).

__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }

__device__ __forceinline__ void cluster_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"); }
__device__ __forceinline__ void fence_cluster() { asm volatile("fence.acq_rel.cluster;" ::: "memory"); }

// A cluster meeting: thread 0 has written its block's partials to `xch`, and every block reads
// every block's after it. RELAXED arrives without release semantics, thread 0 fencing its
// partials to the cluster first, so that the arrive of a warp with loads in flight does not
// wait for them (clshare).
template <bool RELAXED>
__device__ __forceinline__ void cluster_meet() {
    if (RELAXED) {
        if (threadIdx.x == 0) fence_cluster();
        cluster_arrive_relaxed();
    } else {
        cluster_arrive();
    }
    cluster_wait();
}

// A row held by a cluster, each block's values in registers: what the meetings find.
struct ClusterRow {
    float scale = 1.f;  // 1 / rms(x), or 1 for the plain softmax
    float mx;           // the row's maximum (of x, unscaled)
    float s;            // the sum of the row's exponentials
    float m0;           // the plain softmax's thread maximum its exponentials were taken at
    float r;            // what each exponentiated value is stored times
};

// A block's partials for the cluster's first meeting, written to xch by thread 0: the sum of
// squares and the maximum (RMS-scaled), or the online maximum and sum, the values v
// exponentiated at the thread's own maximum (plain).
template <bool RMS, int V>
__device__ __forceinline__ void cluster_partials(float4 (&v)[V], float* red, float* xch, ClusterRow& c) {
    float a, b;
    if (RMS) {
        local_sq_max(v, a, b);
        block_sum_max(a, b, red);
    } else {
        c.m0 = local_max(v);
        b = exp_local(v, c.m0);
        a = c.m0;
        block_online(a, b, LOG2E, red);
    }
    if (threadIdx.x == 0) { xch[0] = a; xch[1] = b; }
}

// The cluster's meetings over a row whose partials are in xch: one for the plain softmax, two
// for the RMS-scaled one (its sum needs the scale first). On return every thread has the row's
// statistics in c, and v holds the exponentials to be stored times c.r.
template <bool RMS, int V, int CS, bool RELAXED>
__device__ __forceinline__ void cluster_meetings(cg::cluster_group& cluster, float4 (&v)[V], float* red, float* xch, int cols, float eps, ClusterRow& c) {
    const int lane = threadIdx.x & 31;
    cluster_meet<RELAXED>();
    if (RMS) {
        float a = 0.f, b = NEG_INF;
        if (lane < CS) {
            const float* p = cluster.map_shared_rank(xch, lane);
            a = p[0];
            b = p[1];
        }
        c.mx = warp_max(b);
        c.scale = 1.f / sqrtf(warp_sum(a) / cols + eps);
        const float s = block_sum(exp_scaled(v, c.mx, c.scale * LOG2E), red);
        if (threadIdx.x == 0) xch[2] = s;
        cluster_meet<RELAXED>();
        a = 0.f;
        if (lane < CS) a = cluster.map_shared_rank(xch, lane)[2];
        c.s = warp_sum(a);
        c.r = 1.f / c.s;
    } else {
        float bm = c.m0, bs = 0.f;
        if (lane < CS) {
            const float* p = cluster.map_shared_rank(xch, lane);
            bm = p[0];
            bs = p[1];
        }
        warp_online(bm, bs, LOG2E);
        c.mx = bm;
        c.s = bs;
        c.r = exp2f((c.m0 - c.mx) * LOG2E) / c.s;
    }
}

template <bool RMS, int V, int CS>
__device__ void fused_cluster_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int cols, float eps) {
    __shared__ float red[64];
    __shared__ float xch[4];
    cg::cluster_group cluster = cg::this_cluster();
    const int T = blockDim.x;
    const int rank = (int)cluster.block_rank();
    const int row = blockIdx.x / CS;
    const size_t piece = (size_t)cols / CS;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols + rank * piece);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols + rank * piece);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = __ldcs(xr + threadIdx.x + T * k);
    ClusterRow c;
    cluster_partials<RMS>(v, red, xch, c);
    cluster_meetings<RMS, V, CS, false>(cluster, v, red, xch, cols, eps, c);
    // Every read of another block's partials is done: let the cluster go on, store, then wait.
    cluster_arrive();
    store_scaled(yr, T, v, c.r);
    if (stats && rank == 0 && threadIdx.x == 0) {
        record_row_stats(stats, row, c.scale, c.mx, c.s);
    }
    cluster_wait();
}

#define CLUSTER_KERNEL(CS, V, T, MINB)                                                                                         \
    extern "C" __global__ void __cluster_dims__(CS, 1, 1) __launch_bounds__(T, MINB)                                           \
        fused_cl_rms_##CS##_##V##_##T(const float* x, float* y, float* st, int cols, float eps) {                             \
        fused_cluster_row<true, V, CS>(x, y, st, cols, eps);                                                                   \
    }                                                                                                                         \
    extern "C" __global__ void __cluster_dims__(CS, 1, 1) __launch_bounds__(T, MINB)                                           \
        fused_cl_plain_##CS##_##V##_##T(const float* x, float* y, float* st, int cols, float eps) {                           \
        fused_cluster_row<false, V, CS>(x, y, st, cols, eps);                                                                  \
    }
CLUSTER_KERNEL(16, 4, 1024, 1)
CLUSTER_KERNEL(8, 8, 1024, 1)
CLUSTER_KERNEL(16, 8, 512, 2)
CLUSTER_KERNEL(2, 8, 512, 2)
CLUSTER_KERNEL(4, 4, 512, 3)

// ---------------------------------------------------------------------------------------
// fused, two rows resident per SM at cols == 32768 (issue 16, version 6): a block of T threads
// per row keeps VR float4s a thread in registers and VS float4s a thread in shared memory
// (cols = 4 T (VR + VS)), the shared half loaded by cp.async so that it takes no registers in
// flight. A whole 128 KB row does not fit twice in the register file, but half of it in
// registers and half in shared memory does: two blocks share an SM, and one block's loads
// stream while the other reduces and stores, where the one-block-per-SM forms leave the SM's
// reads idle during each row's reductions. Each thread reads back only the shared-memory
// slots its own cp.async wrote, so no barrier is needed between the copy and its use.
// Dynamic shared memory: 16 T VS bytes.

__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

// The delayed-start forms' prologue (issue 16, version 7): warp 0 spins for n * delay SM
// clocks, counted with clock64, while the rest of the block waits at the barrier; nothing is
// loaded before it ends.
__device__ __forceinline__ void stagger_start(int n, int delay) {
    if (delay > 0) {
        if (threadIdx.x < 32) {
            const long long start = clock64(), until = (long long)n * delay;
            while (clock64() - start < until) {
            }
        }
        __syncthreads();
    }
}

// The mixed forms' statistics of one row, shared by `mix` and `mixp`: VR float4s a thread in
// registers (v) and VS in shared memory (rest, each thread reading only its own slots), both
// exponentiated in place; r is the factor every value is then stored times, and scale, mx and
// s are the row's statistics for the validation record.
template <bool RMS, int VR, int VS, int T>
__device__ __forceinline__ void mix_row_stats(float4 (&v)[VR], float4* rest, float* red, float eps, float& scale, float& mx, float& s, float& r) {
    constexpr int COLS = 4 * T * (VR + VS);
    const int t = threadIdx.x;
    if (RMS) {
        float sq;
        local_sq_max(v, sq, mx);
#pragma unroll
        for (int k = 0; k < VS; ++k) {
            float4 h = rest[t + T * k];
            sq = fmaf(h.x, h.x, fmaf(h.y, h.y, fmaf(h.z, h.z, fmaf(h.w, h.w, sq))));
            mx = fmaxf(mx, fmaxf(fmaxf(h.x, h.y), fmaxf(h.z, h.w)));
        }
        asm volatile("" ::: "memory");
        block_sum_max(sq, mx, red);
        scale = 1.f / sqrtf(sq / COLS + eps);
        float k2 = scale * LOG2E;
        s = exp_scaled(v, mx, k2);
        exp_rest<VS, T>(rest, t, mx, k2, s);
        asm volatile("" ::: "memory");
        s = block_sum(s, red);
        r = 1.f / s;
    } else {
        float m0 = local_max(v);
#pragma unroll
        for (int k = 0; k < VS; ++k) {
            float4 h = rest[t + T * k];
            m0 = fmaxf(m0, fmaxf(fmaxf(h.x, h.y), fmaxf(h.z, h.w)));
        }
        // Read the shared half again below rather than keep it: kept, it would double the
        // registers a thread holds and spill.
        asm volatile("" ::: "memory");
        s = exp_local(v, m0);
        exp_rest<VS, T>(rest, t, m0, LOG2E, s);
        mx = m0;
        block_online(mx, s, LOG2E, red);
        r = exp2f((m0 - mx) * LOG2E) / s;
    }
}

template <bool RMS, int VR, int VS, int T, int LD, int ST = 0>
__device__ void fused_mix_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, float eps) {
    constexpr int COLS = 4 * T * (VR + VS);
    extern __shared__ __align__(16) float4 rest[];
    __shared__ float red[64];
    const int t = threadIdx.x;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)blockIdx.x * COLS);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)blockIdx.x * COLS);
#pragma unroll
    for (int k = 0; k < VS; ++k) cp_async16<LD>(&rest[t + T * k], xr + t + T * (VR + k));
    float4 v[VR];
#pragma unroll
    for (int k = 0; k < VR; ++k) v[k] = ld4<LD>(xr + t + T * k);
    cp_async_wait_all();
    TRACE_MARK(2);
    float scale = 1.f, mx, s, r;
    mix_row_stats<RMS, VR, VS, T>(v, rest, red, eps, scale, mx, s, r);
    TRACE_MARK(3);
    store_scaled<VR, ST>(yr, T, v, r);
#pragma unroll
    for (int k = 0; k < VS; ++k) {
        float4 h = rest[t + T * k];
        st4<ST>(yr + t + T * (VR + k), make_float4(h.x * r, h.y * r, h.z * r, h.w * r));
    }
    if (stats && t == 0) {
        record_row_stats(stats, blockIdx.x, scale, mx, s);
    }
}

// NAME_rms_VR_VS_T_LD and NAME_plain_...: fused_mix_* (launched with the largest shared-memory
// carveout) and, in version 9, fused_mixf_* (the same kernels launched with the smallest carveout
// that holds their blocks, so that the rest of the SM's 256 KB stays L1).
#define MIX_KERNELS(NAME, VR, VS, T, MINB, LD)                                                                                \
    extern "C" __global__ void __launch_bounds__(T, MINB) NAME##_rms_##VR##_##VS##_##T##_##LD(const float* x, float* y, float* st, int cols, float eps) { \
        fused_mix_row<true, VR, VS, T, LD>(x, y, st, eps);                                                                    \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) NAME##_plain_##VR##_##VS##_##T##_##LD(const float* x, float* y, float* st, int cols, float eps) { \
        fused_mix_row<false, VR, VS, T, LD>(x, y, st, eps);                                                                   \
    }
#define MIX_KERNEL(VR, VS, T, MINB, LD) MIX_KERNELS(fused_mix, VR, VS, T, MINB, LD)
MIX_KERNEL(8, 8, 512, 2, 0)
MIX_KERNEL(8, 8, 512, 2, 1)
MIX_KERNEL(8, 8, 512, 2, 2)
MIX_KERNEL(10, 6, 512, 2, 0)
MIX_KERNEL(2, 6, 1024, 2, 0)
MIX_KERNEL(2, 6, 1024, 2, 1)
MIX_KERNEL(2, 6, 1024, 2, 2)
MIX_KERNEL(14, 18, 256, 3, 0)
MIX_KERNEL(14, 18, 256, 3, 1)
MIX_KERNELS(fused_mixf, 8, 8, 512, 2, 0)
MIX_KERNELS(fused_mixf, 8, 8, 512, 2, 1)
MIX_KERNELS(fused_mixf, 2, 6, 1024, 2, 1)

// The rule's warp, block and mixed forms with every pairing of four load hints and two store
// hints (issue 16, version 15; `ld4` and `st4` above give the codes), the rule's own pairing
// among them as a control under another name: fused_hint_{rms,plain}_warp_V_LD_ST,
// fused_hint_{rms,plain}_reg_V_T_LD_ST and fused_hint_{rms,plain}_mix_VR_VS_T_LD_ST. The mixed
// forms' shared-memory half is loaded by cp.async.cg in every pairing.
#define HINT_WARP(V, LD, ST)                                                                                                   \
    extern "C" __global__ void __launch_bounds__(256) fused_hint_rms_warp_##V##_##LD##_##ST(const float* x, float* y, float* st, int rows, float eps) { \
        fused_warp_rows<true, V, LD, ST>(x, y, st, rows, eps);                                                                 \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(256) fused_hint_plain_warp_##V##_##LD##_##ST(const float* x, float* y, float* st, int rows, float eps) { \
        fused_warp_rows<false, V, LD, ST>(x, y, st, rows, eps);                                                                \
    }
#define HINT_REG(V, T, LD, ST)                                                                                                 \
    extern "C" __global__ void __launch_bounds__(T) fused_hint_rms_reg_##V##_##T##_##LD##_##ST(const float* x, float* y, float* st, int cols, float eps) { \
        fused_reg_row<true, V, LD, ST>(x, y, st, cols, eps);                                                                   \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T) fused_hint_plain_reg_##V##_##T##_##LD##_##ST(const float* x, float* y, float* st, int cols, float eps) { \
        fused_reg_row<false, V, LD, ST>(x, y, st, cols, eps);                                                                  \
    }
#define HINT_MIX(VR, VS, T, LD, ST)                                                                                            \
    extern "C" __global__ void __launch_bounds__(T, 2) fused_hint_rms_mix_##VR##_##VS##_##T##_##LD##_##ST(const float* x, float* y, float* st, int cols, float eps) { \
        fused_mix_row<true, VR, VS, T, LD, ST>(x, y, st, eps);                                                                 \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, 2) fused_hint_plain_mix_##VR##_##VS##_##T##_##LD##_##ST(const float* x, float* y, float* st, int cols, float eps) { \
        fused_mix_row<false, VR, VS, T, LD, ST>(x, y, st, eps);                                                                \
    }
// Every pairing: loads 0, 1, 3, 4 (streaming, default, L2 only, read-only path) with stores 0, 1
// (streaming, default).
#define HINT_PAIRS(M, ...) \
    M(__VA_ARGS__, 0, 0) M(__VA_ARGS__, 0, 1) M(__VA_ARGS__, 1, 0) M(__VA_ARGS__, 1, 1) M(__VA_ARGS__, 3, 0) M(__VA_ARGS__, 3, 1) M(__VA_ARGS__, 4, 0) M(__VA_ARGS__, 4, 1)
HINT_PAIRS(HINT_WARP, 1)
HINT_PAIRS(HINT_WARP, 4)
HINT_PAIRS(HINT_WARP, 8)
HINT_PAIRS(HINT_REG, 4, 256)
HINT_PAIRS(HINT_MIX, 8, 8, 512)
HINT_PAIRS(HINT_MIX, 2, 6, 1024)

// The mixed form with the first wave's second block on each SM started late (issue 16, version
// 7): blocks first..2 first - 1 (first = the SM count; in launch order these are the second
// blocks the SMs take) spin for `delay` SM clocks before loading. All of the first wave
// otherwise reads, reduces and stores in step, so the memory idles while both blocks of every
// SM reduce; started half a phase apart, one block's reduction runs during the other's
// loads. The body is mix's with the default loads; only this prologue differs.
#define MIXD_KERNEL(VR, VS, T, MINB)                                                                                           \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mixd_rms_##VR##_##VS##_##T(const float* x, float* y, float* st, int cols, float eps, int first, int delay) { \
        stagger_start(blockIdx.x >= first && blockIdx.x < 2 * first, delay);                                                  \
        fused_mix_row<true, VR, VS, T, 1>(x, y, st, eps);                                                                     \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mixd_plain_##VR##_##VS##_##T(const float* x, float* y, float* st, int cols, float eps, int first, int delay) { \
        stagger_start(blockIdx.x >= first && blockIdx.x < 2 * first, delay);                                                 \
        fused_mix_row<false, VR, VS, T, 1>(x, y, st, eps);                                                                    \
    }
MIXD_KERNEL(8, 8, 512, 2)
MIXD_KERNEL(2, 6, 1024, 2)

// ---------------------------------------------------------------------------------------
// fused, the mixed form made persistent (issue 16, version 7): a block of T threads stays on
// its SM (two a SM, as `mix`) and works through rows blockIdx.x, blockIdx.x + gridDim.x, ...;
// while it stores a row, each slot it has just stored is refilled with the next row's values
// (a cp.async into the same shared-memory slot, a load into the same registers), so the next
// row's reads are in flight during this row's stores instead of waiting for the block to exit
// and a new one to be scheduled. Each thread refills only the slots it alone reads, and a slot
// is refilled only after the store that uses its old value has been issued (the store needs
// the value, so the shared-memory read has completed), so no barrier is needed. The loads are
// volatile so that the compiler issues them where they are written, after the stores they
// follow, rather than hoisting the next row's loads above them into more registers.
__device__ __forceinline__ float4 ldcs_ordered(const float4* p) {
    float4 v;
    asm volatile("ld.global.cs.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}

template <bool RMS, int VR, int VS, int T>
__device__ void fused_mixp_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, int rows, float eps) {
    constexpr int COLS = 4 * T * (VR + VS);
    extern __shared__ __align__(16) float4 rest[];
    __shared__ float red[64];
    const int t = threadIdx.x;
    int row = blockIdx.x;
    if (row >= rows) return;
    float4 v[VR];
    {
        const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * COLS);
#pragma unroll
        for (int k = 0; k < VS; ++k) cp_async16<0>(&rest[t + T * k], xr + t + T * (VR + k));
#pragma unroll
        for (int k = 0; k < VR; ++k) v[k] = ldcs_ordered(xr + t + T * k);
    }
    for (; row < rows; row += gridDim.x) {
        cp_async_wait_all();
        float scale = 1.f, mx, s, r;
        mix_row_stats<RMS, VR, VS, T>(v, rest, red, eps, scale, mx, s, r);
        const int next = row + gridDim.x;
        const bool more = next < rows;
        const float4* xn = reinterpret_cast<const float4*>(x + (size_t)(more ? next : row) * COLS);
        float4* yr = reinterpret_cast<float4*>(y + (size_t)row * COLS);
#pragma unroll
        for (int k = 0; k < VS; ++k) {
            float4 h = rest[t + T * k];
            __stcs(yr + t + T * (VR + k), make_float4(h.x * r, h.y * r, h.z * r, h.w * r));
            if (more) cp_async16<0>(&rest[t + T * k], xn + t + T * (VR + k));
        }
#pragma unroll
        for (int k = 0; k < VR; ++k) {
            __stcs(yr + t + T * k, make_float4(v[k].x * r, v[k].y * r, v[k].z * r, v[k].w * r));
            if (more) v[k] = ldcs_ordered(xn + t + T * k);
        }
        if (stats && t == 0) {
            record_row_stats(stats, row, scale, mx, s);
        }
    }
}

#define MIXP_KERNEL(VR, VS, T, MINB)                                                                                           \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mixp_rms_##VR##_##VS##_##T(const float* x, float* y, float* st, int rows, float eps) { \
        fused_mixp_rows<true, VR, VS, T>(x, y, st, rows, eps);                                                                \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mixp_plain_##VR##_##VS##_##T(const float* x, float* y, float* st, int rows, float eps) { \
        fused_mixp_rows<false, VR, VS, T>(x, y, st, rows, eps);                                                               \
    }
MIXP_KERNEL(8, 8, 512, 2)
MIXP_KERNEL(2, 6, 1024, 2)

// ---------------------------------------------------------------------------------------
// fused, the mixed form over a cluster of two blocks a row (issue 16, version 6): each block
// holds half of the row, VR float4s a thread in registers and VS in shared memory, and the two
// halves' statistics meet through distributed shared memory. Four blocks share an SM, two
// rows' worth as in the mixed form, but the unit of work is half a row, which halves the
// kernel's tail (the last rows finishing while most SMs have nothing left to do).
// Its loads, shared-memory passes and stores repeat fused_mix_row's. They are written out
// twice on purpose: moved into shared helpers, both kernels compiled to other register
// allocations (with spills where the measured forms have none), and these are the forms the
// runs measured.

template <bool RMS, int VR, int VS, int T>
__device__ void fused_clmix_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, float eps) {
    constexpr int CS = 2, PIECE = 4 * T * (VR + VS), COLS = CS * PIECE;
    extern __shared__ __align__(16) float4 rest[];
    __shared__ float red[64];
    __shared__ float xch[4];
    cg::cluster_group cluster = cg::this_cluster();
    const int t = threadIdx.x, lane = t & 31;
    const int rank = (int)cluster.block_rank();
    const int row = blockIdx.x / CS;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * COLS + rank * PIECE);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * COLS + rank * PIECE);
#pragma unroll
    for (int k = 0; k < VS; ++k) cp_async16<0>(&rest[t + T * k], xr + t + T * (VR + k));
    float4 v[VR];
#pragma unroll
    for (int k = 0; k < VR; ++k) v[k] = __ldcs(xr + t + T * k);
    cp_async_wait_all();
    float scale = 1.f, mx, s, r;
    if (RMS) {
        float sq;
        local_sq_max(v, sq, mx);
#pragma unroll
        for (int k = 0; k < VS; ++k) {
            float4 h = rest[t + T * k];
            sq = fmaf(h.x, h.x, fmaf(h.y, h.y, fmaf(h.z, h.z, fmaf(h.w, h.w, sq))));
            mx = fmaxf(mx, fmaxf(fmaxf(h.x, h.y), fmaxf(h.z, h.w)));
        }
        asm volatile("" ::: "memory");
        block_sum_max(sq, mx, red);
        if (t == 0) { xch[0] = sq; xch[1] = mx; }
        cluster_arrive();
        cluster_wait();
        float a = 0.f, b = NEG_INF;
        if (lane < CS) {
            const float* p = cluster.map_shared_rank(xch, lane);
            a = p[0];
            b = p[1];
        }
        sq = warp_sum(a);
        mx = warp_max(b);
        scale = 1.f / sqrtf(sq / COLS + eps);
        float k2 = scale * LOG2E;
        s = exp_scaled(v, mx, k2);
        exp_rest<VS, T>(rest, t, mx, k2, s);
        asm volatile("" ::: "memory");
        s = block_sum(s, red);
        if (t == 0) xch[2] = s;
        cluster_arrive();
        cluster_wait();
        a = 0.f;
        if (lane < CS) a = cluster.map_shared_rank(xch, lane)[2];
        s = warp_sum(a);
        r = 1.f / s;
    } else {
        float m0 = local_max(v);
#pragma unroll
        for (int k = 0; k < VS; ++k) {
            float4 h = rest[t + T * k];
            m0 = fmaxf(m0, fmaxf(fmaxf(h.x, h.y), fmaxf(h.z, h.w)));
        }
        asm volatile("" ::: "memory");
        s = exp_local(v, m0);
        exp_rest<VS, T>(rest, t, m0, LOG2E, s);
        mx = m0;
        block_online(mx, s, LOG2E, red);
        if (t == 0) { xch[0] = mx; xch[1] = s; }
        cluster_arrive();
        cluster_wait();
        float bm = mx, bs = 0.f;
        if (lane < CS) {
            const float* p = cluster.map_shared_rank(xch, lane);
            bm = p[0];
            bs = p[1];
        }
        warp_online(bm, bs, LOG2E);
        mx = bm;
        s = bs;
        r = exp2f((m0 - mx) * LOG2E) / s;
    }
    // Every read of the other block's partials is done: let it go on, store, then wait.
    cluster_arrive();
    store_scaled(yr, T, v, r);
#pragma unroll
    for (int k = 0; k < VS; ++k) {
        float4 h = rest[t + T * k];
        __stcs(yr + t + T * (VR + k), make_float4(h.x * r, h.y * r, h.z * r, h.w * r));
    }
    if (stats && rank == 0 && t == 0) {
        record_row_stats(stats, row, scale, mx, s);
    }
    cluster_wait();
}

#define CLMIX_KERNEL(VR, VS, T, MINB)                                                                                          \
    extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(T, MINB)                                            \
        fused_clmix_rms_##VR##_##VS##_##T(const float* x, float* y, float* st, int cols, float eps) {                         \
        fused_clmix_row<true, VR, VS, T>(x, y, st, eps);                                                                      \
    }                                                                                                                         \
    extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(T, MINB)                                            \
        fused_clmix_plain_##VR##_##VS##_##T(const float* x, float* y, float* st, int cols, float eps) {                       \
        fused_clmix_row<false, VR, VS, T>(x, y, st, eps);                                                                     \
    }
CLMIX_KERNEL(8, 8, 256, 4)
CLMIX_KERNEL(2, 6, 512, 4)

// ---------------------------------------------------------------------------------------
// fused, row split over `split` blocks of T threads that meet through a per-row counter
// (issue 16, version 6), for few long rows (8 x 262144). The split kernel waits twice at
// grid-wide syncs, every block for all 128; here a block waits only for the blocks of its own
// row, once for the plain softmax (an online (max, sum) pair per block) and twice for the
// RMS-scaled one. The launch stays cooperative, which guarantees that all blocks are resident
// at once (a block spinning for a row-mate that was never scheduled would hang). The counter
// only grows: each wait takes the next multiple of `split` above the value its own increment
// saw, so no reset is needed between launches (2^32 is a multiple of every power-of-two
// split) as long as no other kernel with another split counts on the same words: each form
// gets its own `cnt` (one word per row) from the host. `part` holds 3 rows split floats.

// The end of a split form's piece (flag, flagd, slot): the piece stored times r, and the row's
// statistics recorded once, by the first thread of its first piece.
template <int V>
__device__ __forceinline__ void store_piece(float4* __restrict__ yr, int stride, const float4 (&v)[V], float r, float* __restrict__ stats, int row, int piece,
                                            float scale, float mx, float s) {
    store_scaled(yr, stride, v, r);
    if (stats && piece == 0 && threadIdx.x == 0) {
        record_row_stats(stats, row, scale, mx, s);
    }
}

__device__ __forceinline__ void row_arrive_wait(unsigned* cnt, unsigned split) {
    __syncthreads();
    if (threadIdx.x < 32) {
        unsigned target = 0;
        if (threadIdx.x == 0) {
            unsigned old;
            asm volatile("atom.add.release.gpu.u32 %0, [%1], 1;" : "=r"(old) : "l"(cnt) : "memory");
            target = (old / split + 1) * split;
        }
        target = __shfl_sync(0xffffffffu, target, 0);
        unsigned cur;
        do {
            asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(cur) : "l"(cnt) : "memory");
        } while ((int)(cur - target) < 0);
    }
}

template <bool RMS, int V>
__device__ void fused_flag_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, float* __restrict__ part,
                               unsigned* __restrict__ counters, int cols, int split, float eps) {
    __shared__ float red[64];
    __shared__ float row_stat[2];
    const int T = blockDim.x;
    const int row = blockIdx.x / split, piece = blockIdx.x % split;
    const int lane = threadIdx.x & 31;
    const size_t per = (size_t)4 * T * V;
    unsigned* cnt = counters + row;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols + piece * per);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols + piece * per);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = __ldcs(xr + threadIdx.x + T * k);
    float* pairs = part + 2 * (size_t)row * split;
    float scale = 1.f, mx, s, r;
    if (RMS) {
        float sq;
        local_sq_max(v, sq, mx);
        block_sum_max(sq, mx, red);
        if (threadIdx.x == 0) { pairs[2 * piece] = sq; pairs[2 * piece + 1] = mx; }
        row_arrive_wait(cnt, split);
        if (threadIdx.x < 32) {
            float a = 0.f, b = NEG_INF;
            for (int i = lane; i < split; i += 32) { a += __ldcg(pairs + 2 * i); b = fmaxf(b, __ldcg(pairs + 2 * i + 1)); }
            a = warp_sum(a);
            b = warp_max(b);
            if (lane == 0) { row_stat[0] = a; row_stat[1] = b; }
        }
        __syncthreads();
        sq = row_stat[0];
        mx = row_stat[1];
        scale = 1.f / sqrtf(sq / cols + eps);
        s = block_sum(exp_scaled(v, mx, scale * LOG2E), red);
        // The second round's partials go to their own slots: row-mates may still read the first.
        float* q = part + 2 * (size_t)gridDim.x + (size_t)row * split;
        if (threadIdx.x == 0) q[piece] = s;
        row_arrive_wait(cnt, split);
        if (threadIdx.x < 32) {
            float a = 0.f;
            for (int i = lane; i < split; i += 32) a += __ldcg(q + i);
            a = warp_sum(a);
            if (lane == 0) row_stat[0] = a;
        }
        __syncthreads();
        s = row_stat[0];
        r = 1.f / s;
    } else {
        float m0 = local_max(v);
        s = exp_local(v, m0);
        mx = m0;
        block_online(mx, s, LOG2E, red);
        if (threadIdx.x == 0) { pairs[2 * piece] = mx; pairs[2 * piece + 1] = s; }
        row_arrive_wait(cnt, split);
        if (threadIdx.x < 32) {
            // Lanes without a partial start from the first one with a zero sum, which merges
            // as nothing (two empty starts at -inf would give NaN).
            float bm = __ldcg(pairs), bs = 0.f;
            for (int i = lane; i < split; i += 32) online_merge(bm, bs, __ldcg(pairs + 2 * i), __ldcg(pairs + 2 * i + 1), LOG2E);
            warp_online(bm, bs, LOG2E);
            if (lane == 0) { row_stat[0] = bm; row_stat[1] = bs; }
        }
        __syncthreads();
        float rm = row_stat[0];
        s = row_stat[1];
        r = exp2f((m0 - rm) * LOG2E) / s;
        mx = rm;
    }
    store_piece(yr, T, v, r, stats, row, piece, scale, mx, s);
}

#define FLAG_KERNEL(V, T, MINB)                                                                                               \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_flag_rms_##V##_##T(const float* x, float* y, float* st, float* part, unsigned* cnt, int rows, int cols, int split, float eps) { \
        fused_flag_row<true, V>(x, y, st, part, cnt, cols, split, eps);                                                           \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_flag_plain_##V##_##T(const float* x, float* y, float* st, float* part, unsigned* cnt, int rows, int cols, int split, float eps) { \
        fused_flag_row<false, V>(x, y, st, part, cnt, cols, split, eps);                                                          \
    }
FLAG_KERNEL(4, 1024, 1)
FLAG_KERNEL(4, 512, 2)
FLAG_KERNEL(8, 512, 2)
FLAG_KERNEL(4, 256, 4)
FLAG_KERNEL(8, 256, 2)
FLAG_KERNEL(2, 512, 4)

// The counting form with rows started one after another (issue 16, version 7): warp 0 of
// each block of row r spins for r * delay SM clocks before the block loads, so that row 0's
// pieces arrive first, its wait and stores run while later rows are still being read, and
// reads and writes overlap in the memory as they do in a copy. With every row started at
// once (flag), all rows finish reading together, then all wait, then all write. The body is
// flag's; only this prologue differs.
#define FLAGD_KERNEL(V, T, MINB)                                                                                              \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_flagd_rms_##V##_##T(const float* x, float* y, float* st, float* part, unsigned* cnt, int rows, int cols, int split, float eps, int delay) { \
        stagger_start(blockIdx.x / split, delay);                                                                             \
        fused_flag_row<true, V>(x, y, st, part, cnt, cols, split, eps);                                                        \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_flagd_plain_##V##_##T(const float* x, float* y, float* st, float* part, unsigned* cnt, int rows, int cols, int split, float eps, int delay) { \
        stagger_start(blockIdx.x / split, delay);                                                                             \
        fused_flag_row<false, V>(x, y, st, part, cnt, cols, split, eps);                                                       \
    }
FLAGD_KERNEL(4, 512, 2)
FLAGD_KERNEL(8, 256, 2)

// ---------------------------------------------------------------------------------------
// fused, row split over cooperative blocks that meet through tagged slots (issue 16, version
// 8). `flag` waits in three steps, each a round trip to L2: a release add on the row's counter
// whose old value the block must see, polls until the counter reaches the row's split, then
// loads of the row-mates' partials. Here each partial travels with its own tag in one 64-bit
// word (tag in the high half, the float's bits in the low half), and a 64-bit word is stored
// and loaded whole, so a reader that sees the tag sees the value: no counter, no fence, and
// the poll that finds every tag current has the partials already. The tag a launch writes is
// one more than the one in the block's own slot when it starts; every launch writes every
// slot of its region once, so all of a row's slots hold the same tag when a launch starts, and
// no reset is needed. Each form has its own region (slot words (round · rows + row) · split +
// piece; rounds 0 and 1 are the first wait's two words, round 2 the RMS form's second wait).

__device__ __forceinline__ unsigned long long ld_slot(const unsigned long long* p) {
    unsigned long long w;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
    return w;
}

__device__ __forceinline__ void st_slot(unsigned long long* p, unsigned tag, float value) {
    unsigned long long w = ((unsigned long long)tag << 32) | __float_as_uint(value);
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
}

__device__ __forceinline__ bool slot_is(unsigned long long w, unsigned tag) { return (unsigned)(w >> 32) == tag; }
__device__ __forceinline__ float slot_value(unsigned long long w) { return __uint_as_float((unsigned)w); }

// `unit` is the piece's place in row-major order (row unit / split, piece unit % split): the
// block's index in the slot forms, a ticket in the tail form's split rows.
template <bool RMS, int V>
__device__ void fused_slot_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots,
                               int rows, int cols, int split, float eps, unsigned unit) {
    __shared__ float red[64];
    __shared__ float row_stat[2];
    const int T = blockDim.x;
    const int row = unit / split, piece = unit % split;
    const int lane = threadIdx.x & 31;
    const size_t per = (size_t)4 * T * V;
    unsigned long long* a = slots + (size_t)row * split;
    unsigned long long* b = slots + ((size_t)rows + row) * split;
    unsigned long long* c = slots + ((size_t)2 * rows + row) * split;
    // The tags this launch writes, read before the row so that their latency hides behind it.
    unsigned tag = 0, tag2 = 0;
    if (threadIdx.x < 32) {
        tag = (unsigned)(ld_slot(a + piece) >> 32) + 1;
        if (RMS) tag2 = (unsigned)(ld_slot(c + piece) >> 32) + 1;
    }
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols + piece * per);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols + piece * per);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = __ldcs(xr + threadIdx.x + T * k);
    float scale = 1.f, mx, s, r;
    if (RMS) {
        float sq;
        local_sq_max(v, sq, mx);
        block_sum_max(sq, mx, red);
        TRACE_MARK(2);
        if (threadIdx.x < 32) {
            if (lane == 0) { st_slot(a + piece, tag, sq); st_slot(b + piece, tag, mx); }
            float qa, qb;
            for (;;) {
                qa = 0.f;
                qb = NEG_INF;
                bool ok = true;
                for (int i = lane; i < split; i += 32) {
                    unsigned long long wa = ld_slot(a + i), wb = ld_slot(b + i);
                    ok = ok && slot_is(wa, tag) && slot_is(wb, tag);
                    qa += slot_value(wa);
                    qb = fmaxf(qb, slot_value(wb));
                }
                if (__all_sync(0xffffffffu, ok)) break;
            }
            qa = warp_sum(qa);
            qb = warp_max(qb);
            if (lane == 0) { row_stat[0] = qa; row_stat[1] = qb; }
        }
        __syncthreads();
        TRACE_MARK(3);
        sq = row_stat[0];
        mx = row_stat[1];
        scale = 1.f / sqrtf(sq / cols + eps);
        s = block_sum(exp_scaled(v, mx, scale * LOG2E), red);
        if (threadIdx.x < 32) {
            if (lane == 0) st_slot(c + piece, tag2, s);
            float qs;
            for (;;) {
                qs = 0.f;
                bool ok = true;
                for (int i = lane; i < split; i += 32) {
                    unsigned long long w = ld_slot(c + i);
                    ok = ok && slot_is(w, tag2);
                    qs += slot_value(w);
                }
                if (__all_sync(0xffffffffu, ok)) break;
            }
            qs = warp_sum(qs);
            if (lane == 0) row_stat[0] = qs;
        }
        __syncthreads();
        TRACE_MARK(4);
        s = row_stat[0];
        r = 1.f / s;
    } else {
        float m0 = local_max(v);
        s = exp_local(v, m0);
        mx = m0;
        block_online(mx, s, LOG2E, red);
        TRACE_MARK(2);
        if (threadIdx.x < 32) {
            if (lane == 0) { st_slot(a + piece, tag, mx); st_slot(b + piece, tag, s); }
            float bm, bs;
            for (;;) {
                // Each lane starts from its own first partial, loaded in the same poll as the
                // rest: a separate load of another slot could be a previous launch's value
                // and merge in a stale maximum.
                bool ok = true;
                for (int i = lane; i < split; i += 32) {
                    unsigned long long wm = ld_slot(a + i), ws = ld_slot(b + i);
                    ok = ok && slot_is(wm, tag) && slot_is(ws, tag);
                    if (i == lane) {
                        bm = slot_value(wm);
                        bs = slot_value(ws);
                    } else {
                        online_merge(bm, bs, slot_value(wm), slot_value(ws), LOG2E);
                    }
                }
                if (__all_sync(0xffffffffu, ok)) break;
            }
            // Lanes without a partial take lane 0's maximum with a zero sum, which merges as
            // nothing (two empty starts at -inf would give NaN).
            const float m_first = __shfl_sync(0xffffffffu, bm, 0);
            if (lane >= split) {
                bm = m_first;
                bs = 0.f;
            }
            warp_online(bm, bs, LOG2E);
            if (lane == 0) { row_stat[0] = bm; row_stat[1] = bs; }
        }
        __syncthreads();
        TRACE_MARK(3);
        float rm = row_stat[0];
        s = row_stat[1];
        r = exp2f((m0 - rm) * LOG2E) / s;
        mx = rm;
    }
    store_piece(yr, T, v, r, stats, row, piece, scale, mx, s);
}

#define SLOT_KERNEL(V, T, MINB)                                                                                               \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_slot_rms_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_slot_row<true, V>(x, y, st, slots, rows, cols, split, eps, blockIdx.x);                                         \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_slot_plain_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_slot_row<false, V>(x, y, st, slots, rows, cols, split, eps, blockIdx.x);                                        \
    }
SLOT_KERNEL(4, 512, 2)
SLOT_KERNEL(8, 256, 2)
SLOT_KERNEL(4, 256, 4)
SLOT_KERNEL(4, 1024, 1)

// ---------------------------------------------------------------------------------------
// fused, the RMS-scaled softmax of few long rows with one meeting instead of two (`mom`,
// issue 16, version 21). The slot form's RMS-scaled blocks meet twice: the exponent needs the
// row's scale g = 1 / rms(x), known only after the first meeting, and the row's sum of
// exponentials needs the exponent. Version 12 timed the second meeting under load at 0.7 to
// 2.3 us after the exponentials, more than the 0.58 us of a meeting alone. Here each block
// guesses the scale from its own values, g0, and sends at the one meeting, beside its sum of
// squares and its maximum m, the moments mu_k = sum exp(g0 u) u^k (k = 0..4) of u = x - m <= 0.
// With d = g - g0, the block's share of the row's sum is exp(g (m - M)) sum exp(g0 u) exp(d u),
// and exp(d u) is the series sum_k (d u)^k / k! up to k = 4, whose remainder is at most
// |d u|^5 / 120 exp(|d| U), U the block's range (m - its minimum). Every row-mate rebuilds the
// row's sum from the moments and bounds what the series leaves out by |d|^4 mu_4 |d| U
// exp(|d| U) / 120 a block. Where that bound exceeds 2^-22 of the sum (or anything is not
// finite) the row falls back to the slot form's second meeting. Every block of a row decides
// alike, since each computes the decision from the same words in the same order, so the
// fallback's slots keep equal tags as the slot form's do. `momx` always falls back: it times
// what the moments add to the slot form's path. The plain softmax of both is the slot form's.
// Words of a form's region: kind k of row r and piece p at (k rows + r) split + p; kinds 0 to
// 8 are the sum of squares, maximum, g0, U and mu_0 to mu_4, kind 9 the fallback's partial.
// The kernel needs split <= 32 (one lane of the polling warp a row-mate).

__device__ __forceinline__ float warp_min(float v) {
    for (int o = 16; o; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

template <int V>
__device__ __forceinline__ void local_sq_max_min(const float4 (&v)[V], float& sq, float& mx, float& mn) {
    local_sq_max(v, sq, mx);
    mn = -NEG_INF;
#pragma unroll
    for (int k = 0; k < V; ++k) mn = fminf(mn, fminf(fminf(v[k].x, v[k].y), fminf(v[k].z, v[k].w)));
}

// Block-wide sum of s, max of m and min of n (one barrier pair), result in every thread.
// `red` holds 96 floats.
__device__ __forceinline__ void block_sum_max_min(float& s, float& m, float& n, float* red) {
    s = warp_sum(s);
    m = warp_max(m);
    n = warp_min(n);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nwarps = blockDim.x >> 5;
    __syncthreads();
    if (lane == 0) { red[warp] = s; red[32 + warp] = m; red[64 + warp] = n; }
    __syncthreads();
    s = warp_sum(lane < nwarps ? red[lane] : 0.f);
    m = warp_max(lane < nwarps ? red[32 + lane] : NEG_INF);
    n = warp_min(lane < nwarps ? red[64 + lane] : -NEG_INF);
}

// Block-wide sums of five values (one barrier pair), result in every thread. `red` holds 160
// floats.
__device__ __forceinline__ void block_sum5(float (&a)[5], float* red) {
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nwarps = blockDim.x >> 5;
#pragma unroll
    for (int k = 0; k < 5; ++k) a[k] = warp_sum(a[k]);
    __syncthreads();
    if (lane == 0) {
#pragma unroll
        for (int k = 0; k < 5; ++k) red[32 * k + warp] = a[k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 5; ++k) a[k] = warp_sum(lane < nwarps ? red[32 * k + lane] : 0.f);
}

// A thread's moments sum exp2(u k2) u^j, j = 0..4, of its values' u = x - m.
template <int V>
__device__ __forceinline__ void local_moments(const float4 (&v)[V], float m, float k2, float (&mu)[5]) {
#pragma unroll
    for (int j = 0; j < 5; ++j) mu[j] = 0.f;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const float c[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float u = c[i] - m;
            float p = exp2f(u * k2);
            mu[0] += p;
            p *= u;
            mu[1] += p;
            p *= u;
            mu[2] += p;
            p *= u;
            mu[3] += p;
            p *= u;
            mu[4] += p;
        }
    }
}

template <bool EXACT, int V>
__device__ void fused_mom_row(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots,
                              int rows, int cols, int split, float eps) {
    __shared__ float red[160];
    __shared__ float row_stat[3];
    __shared__ int fall_back;
    const int T = blockDim.x;
    const int row = blockIdx.x / split, piece = blockIdx.x % split;
    const int lane = threadIdx.x & 31;
    const size_t per = (size_t)4 * T * V;
    // Kind k of this row's words starts at own + k * kind.
    const size_t kind = (size_t)rows * split;
    unsigned long long* own = slots + (size_t)row * split;
    // The tags this launch writes, read before the row so that their latency hides behind it.
    unsigned tag = 0, tag2 = 0;
    if (threadIdx.x < 32) {
        tag = (unsigned)(ld_slot(own + piece) >> 32) + 1;
        tag2 = (unsigned)(ld_slot(own + 9 * kind + piece) >> 32) + 1;
    }
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols + piece * per);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols + piece * per);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = __ldcs(xr + threadIdx.x + T * k);
    float sq, mx, mn;
    local_sq_max_min(v, sq, mx, mn);
    block_sum_max_min(sq, mx, mn, red);
    const float g0 = 1.f / sqrtf(sq / (float)per + eps);
    float mu[5];
    local_moments(v, mx, g0 * LOG2E, mu);
    block_sum5(mu, red);
    TRACE_MARK(2);
    if (threadIdx.x < 32) {
        // Lane k < 9 publishes kind k.
        const float mine = lane == 0 ? sq : lane == 1 ? mx : lane == 2 ? g0 : lane == 3 ? mx - mn : lane == 4 ? mu[0] : lane == 5 ? mu[1] : lane == 6 ? mu[2] : lane == 7 ? mu[3] : mu[4];
        if (lane < 9) st_slot(own + lane * kind + piece, tag, mine);
        float q[9];
        for (;;) {
            bool ok = true;
            if (lane < split) {
#pragma unroll
                for (int k = 0; k < 9; ++k) {
                    unsigned long long w = ld_slot(own + k * kind + lane);
                    ok = ok && slot_is(w, tag);
                    q[k] = slot_value(w);
                }
            }
            if (__all_sync(0xffffffffu, ok)) break;
        }
        // A butterfly gives every lane the same sum, bit for bit, and every block of the row
        // runs these steps on the same words: all of them reach the same g, M, sum and verdict.
        const float total_sq = warp_sum(lane < split ? q[0] : 0.f);
        const float m_row = warp_max(lane < split ? q[1] : NEG_INF);
        const float g = 1.f / sqrtf(total_sq / cols + eps);
        float term = 0.f, bound = 0.f;
        if (lane < split) {
            const float d = g - q[2], ad = fabsf(d), du = ad * q[3];
            const float w = exp2f((q[1] - m_row) * (g * LOG2E));
            term = w * (q[4] + d * (q[5] + d * 0.5f * (q[6] + d * (1.f / 3.f) * (q[7] + d * 0.25f * q[8]))));
            bound = w * (ad * ad) * (ad * ad) * q[8] * du * expf(du) * (1.f / 120.f);
        }
        const float s_row = warp_sum(term), b_row = warp_sum(bound);
        if (lane == 0) {
            row_stat[0] = g;
            row_stat[1] = m_row;
            row_stat[2] = s_row;
            fall_back = EXACT || !(s_row > 0.f) || !(s_row < -NEG_INF) || !(b_row <= s_row * 2.384185791015625e-7f);
        }
    }
    __syncthreads();
    TRACE_MARK(3);
    const float scale = row_stat[0];
    mx = row_stat[1];
    float s = exp_scaled(v, mx, scale * LOG2E);
    if (fall_back) {
        s = block_sum(s, red);
        if (threadIdx.x < 32) {
            unsigned long long* c = own + 9 * kind;
            if (lane == 0) st_slot(c + piece, tag2, s);
            float qs;
            for (;;) {
                qs = 0.f;
                bool ok = true;
                for (int i = lane; i < split; i += 32) {
                    unsigned long long w = ld_slot(c + i);
                    ok = ok && slot_is(w, tag2);
                    qs += slot_value(w);
                }
                if (__all_sync(0xffffffffu, ok)) break;
            }
            qs = warp_sum(qs);
            if (lane == 0) row_stat[2] = qs;
        }
        __syncthreads();
    }
    TRACE_MARK(4);
    s = row_stat[2];
    store_piece(yr, T, v, 1.f / s, stats, row, piece, scale, mx, s);
}

#define MOM_KERNEL(V, T, MINB)                                                                                                \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mom_rms_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_mom_row<false, V>(x, y, st, slots, rows, cols, split, eps);                                                      \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_momx_rms_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_mom_row<true, V>(x, y, st, slots, rows, cols, split, eps);                                                       \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mom_plain_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_slot_row<false, V>(x, y, st, slots, rows, cols, split, eps, blockIdx.x);                                        \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_momx_plain_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_slot_row<false, V>(x, y, st, slots, rows, cols, split, eps, blockIdx.x);                                        \
    }
MOM_KERNEL(4, 512, 2)
MOM_KERNEL(8, 256, 2)

// ---------------------------------------------------------------------------------------
// fused, rows split over clusters of 16 blocks with the last row shared (issue 16, version
// 20), for rows of 262144 floats. Version 12's block timelines put the slot form's loss at
// 8x262144 in its meetings: about 0.6 us each, a round trip through the L2 after the slowest
// row-mate, and the RMS-scaled form has two. Row-mates in one cluster meet in distributed
// shared memory across a cluster barrier instead. A cluster of 16 one-per-SM blocks holds a
// whole row in registers (16 values a thread), but only 7 such clusters are resident at once
// on the H200 (version 5's occupancy query), so 8 rows cannot each have one. Here the grid is
// rows - 1 clusters: cluster c holds row c, and the last row is shared by every block of the
// grid (at most one float4 a thread), whose pieces meet as the slot form's do, through tagged
// slots in global memory. Each block loads its piece of the shared row first and publishes
// that piece's partial before its own row has arrived, so that the shared row's meeting is
// complete, or nearly, by the time a block looks.
// PRE false looks only after the own row's stores are issued, one poll at a time. PRE true
// issues the first poll's loads from the last warp before the own row's cluster meetings and
// reads them after, so their round trip overlaps those meetings; its cluster barriers arrive
// relaxed (thread 0 fences its partials to the cluster first), so that no arrive waits for
// those loads, and the RMS-scaled form publishes the shared row's sum before its own stores.
// LD and ST are the loads' and stores' cache hints as in ld4 and st4: clshare and clsharep
// stream as the slot form does; clsharepw is clsharep with the L2-only loads and write-back
// stores that moved 32768x1024 and 4096x4096 in version 19.
// The shared row's meeting spans the grid, so every block must be resident at once: the host
// launches this form only where rows - 1 clusters fit (the occupancy query), and a poll that
// never completes traps instead of hanging.
// Slot words: partials of the first meeting at [0, B) and [B, 2B), of the RMS-scaled form's
// second at [2B, 3B), B <= 128 the grid's blocks; the tags work as in the slot form.

// Polls that find a meeting incomplete this many times end the kernel with a trap: the
// meeting's blocks were not all resident, and the launch fails instead of hanging.
#define CLSHARE_POLL_LIMIT (1u << 22)
#define CLSHARE_LOW (-3.402823466e38f)

// One pass over the first meeting's words as the polling warp loaded them (pa, pb: slot i =
// lane + 32 k): whether all are this launch's, and their merge in (qa, qb), which is
// (sum of squares, max) for the RMS-scaled form and the online (max, sum) for the plain one.
template <bool RMS>
__device__ __forceinline__ bool clshare_merge(const unsigned long long (&pa)[4], const unsigned long long (&pb)[4], int B, unsigned tag, float& qa, float& qb) {
    const int lane = threadIdx.x & 31;
    bool ok = true;
    qa = RMS ? 0.f : CLSHARE_LOW;
    qb = RMS ? NEG_INF : 0.f;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        if (lane + 32 * k < B) {
            ok = ok && slot_is(pa[k], tag) && slot_is(pb[k], tag);
            if (RMS) {
                qa += slot_value(pa[k]);
                qb = fmaxf(qb, slot_value(pb[k]));
            } else {
                online_merge(qa, qb, slot_value(pa[k]), slot_value(pb[k]), LOG2E);
            }
        }
    }
    return __all_sync(0xffffffffu, ok);
}

__device__ __forceinline__ void clshare_load(const unsigned long long* sa, const unsigned long long* sb, int B, unsigned long long (&pa)[4], unsigned long long (&pb)[4]) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        if (lane + 32 * k < B) {
            pa[k] = ld_slot(sa + lane + 32 * k);
            pb[k] = ld_slot(sb + lane + 32 * k);
        }
    }
}

// The polling warp's end of the first meeting: the merged statistics in row_stat, polling
// again until every word is this launch's (the first pass's words may have been loaded
// already, `loaded`).
template <bool RMS>
__device__ __forceinline__ void clshare_first(const unsigned long long* sa, const unsigned long long* sb, int B, unsigned tag, unsigned long long (&pa)[4],
                                              unsigned long long (&pb)[4], bool loaded, float* row_stat) {
    float qa, qb;
    if (!loaded) clshare_load(sa, sb, B, pa, pb);
    unsigned polls = 0;
    while (!clshare_merge<RMS>(pa, pb, B, tag, qa, qb)) {
        if (++polls > CLSHARE_POLL_LIMIT) __trap();
        clshare_load(sa, sb, B, pa, pb);
    }
    if (RMS) {
        qa = warp_sum(qa);
        qb = warp_max(qb);
    } else {
        warp_online(qa, qb, LOG2E);
    }
    if ((threadIdx.x & 31) == 0) { row_stat[0] = qa; row_stat[1] = qb; }
}

// The polling warp's end of the RMS-scaled form's second meeting: the shared row's sum.
__device__ __forceinline__ void clshare_second(const unsigned long long* sc, int B, unsigned tag2, float* row_stat) {
    const int lane = threadIdx.x & 31;
    float qs;
    unsigned polls = 0;
    for (;;) {
        qs = 0.f;
        bool ok = true;
        for (int i = lane; i < B; i += 32) {
            unsigned long long w = ld_slot(sc + i);
            ok = ok && slot_is(w, tag2);
            qs += slot_value(w);
        }
        if (__all_sync(0xffffffffu, ok)) break;
        if (++polls > CLSHARE_POLL_LIMIT) __trap();
    }
    qs = warp_sum(qs);
    if (lane == 0) row_stat[0] = qs;
}

template <bool RMS, bool PRE, int LD = 0, int ST = 0>
__device__ void fused_clshare_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots,
                                   int rows, int cols, float eps) {
    constexpr int CS = 16, T = 1024, V = 4;
    __shared__ float red[64];
    __shared__ float xch[4];
    __shared__ float row_stat[2];
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = (int)cluster.block_rank();
    const int row = blockIdx.x / CS, last = rows - 1;
    const int B = gridDim.x, blk = blockIdx.x;
    // The polling warp: the last, so that thread 0's fences never wait for its loads.
    const bool poller = threadIdx.x >= T - 32;
    const unsigned long long* sa = slots;
    const unsigned long long* sb = slots + B;
    unsigned long long* sc = slots + 2 * (size_t)B;
    unsigned tag = 0, tag2 = 0;
    // Every thread of the polling warp and thread 0 (which publishes) read the tags.
    if (poller || threadIdx.x == 0) {
        tag = (unsigned)(ld_slot(sa + blk) >> 32) + 1;
        if (RMS) tag2 = (unsigned)(ld_slot(sc + blk) >> 32) + 1;
    }
    // The shared row's float4s [lo, hi) are this block's, one a thread.
    const int n4 = cols / 4;
    const int lo = (int)((long long)n4 * blk / B), hi = (int)((long long)n4 * (blk + 1) / B);
    const bool has = (int)threadIdx.x < hi - lo;
    const size_t at = (size_t)last * n4 + lo + threadIdx.x;
    float4 h = make_float4(0.f, 0.f, 0.f, 0.f);
    if (has) h = ld4<LD>(reinterpret_cast<const float4*>(x) + at);
    const size_t piece = (size_t)cols / CS;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols + rank * piece);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols + rank * piece);
    float4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = ld4<LD>(xr + threadIdx.x + T * k);
    // The shared row's partial, published as soon as every thread's float4 of it has arrived.
    // A thread without one counts as CLSHARE_LOW with nothing summed, which merges as nothing.
    float hq = 0.f, hm = CLSHARE_LOW;
    if (has) {
        const float4 hv[1] = {h};
        if (RMS) {
            local_sq_max(hv, hq, hm);
        } else {
            hm = local_max(hv);
            hq = sum4(exp4(h, hm, LOG2E));
        }
    }
    if (RMS) {
        block_sum_max(hq, hm, red);
    } else {
        block_online(hm, hq, LOG2E, red);
    }
    if (threadIdx.x == 0) {
        st_slot(slots + blk, tag, RMS ? hq : hm);
        st_slot(slots + B + blk, tag, RMS ? hm : hq);
    }
    // The own row, its row-mates meeting in distributed shared memory (fused_cluster_row),
    // the polling warp's first loads issued in between.
    ClusterRow c;
    cluster_partials<RMS>(v, red, xch, c);
    unsigned long long pa[4], pb[4];
    if (PRE && poller) clshare_load(sa, sb, B, pa, pb);
    cluster_meetings<RMS, V, CS, PRE>(cluster, v, red, xch, cols, eps, c);
    // Every read of another block's partials is done: let the cluster go on, and wait for it
    // only at the end.
    cluster_arrive_relaxed();
    float hscale = 1.f, hmx, hs;
    float4 he = make_float4(0.f, 0.f, 0.f, 0.f);
    if (PRE && RMS) {
        // The shared row's statistics (its first meeting's words loaded before the cluster
        // meetings), its sum published, then the own row's stores.
        if (poller) clshare_first<RMS>(sa, sb, B, tag, pa, pb, true, row_stat);
        __syncthreads();
        hmx = row_stat[1];
        hscale = 1.f / sqrtf(row_stat[0] / cols + eps);
        if (has) he = exp4(h, hmx, hscale * LOG2E);
        hs = block_sum(has ? sum4(he) : 0.f, red);
        if (threadIdx.x == 0) st_slot(sc + blk, tag2, hs);
        store_scaled<V, ST>(yr, T, v, c.r);
        if (poller) clshare_second(sc, B, tag2, row_stat);
        __syncthreads();
        hs = row_stat[0];
    } else {
        store_scaled<V, ST>(yr, T, v, c.r);
        if (poller) clshare_first<RMS>(sa, sb, B, tag, pa, pb, PRE, row_stat);
        __syncthreads();
        if (RMS) {
            hmx = row_stat[1];
            hscale = 1.f / sqrtf(row_stat[0] / cols + eps);
            if (has) he = exp4(h, hmx, hscale * LOG2E);
            hs = block_sum(has ? sum4(he) : 0.f, red);
            if (threadIdx.x == 0) st_slot(sc + blk, tag2, hs);
            if (poller) clshare_second(sc, B, tag2, row_stat);
            __syncthreads();
            hs = row_stat[0];
        } else {
            hmx = row_stat[0];
            hs = row_stat[1];
            if (has) he = exp4(h, hmx, LOG2E);
        }
    }
    if (has) st4<ST>(reinterpret_cast<float4*>(y) + at, times4(he, 1.f / hs));
    if (stats && threadIdx.x == 0) {
        if (rank == 0) record_row_stats(stats, row, c.scale, c.mx, c.s);
        if (blk == 0) record_row_stats(stats, last, hscale, hmx, hs);
    }
    cluster_wait();
}

extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(1024, 1) fused_clshare_rms(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, float eps) {
    fused_clshare_rows<true, false>(x, y, st, slots, rows, cols, eps);
}
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(1024, 1) fused_clshare_plain(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, float eps) {
    fused_clshare_rows<false, false>(x, y, st, slots, rows, cols, eps);
}
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(1024, 1) fused_clsharep_rms(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, float eps) {
    fused_clshare_rows<true, true>(x, y, st, slots, rows, cols, eps);
}
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(1024, 1) fused_clsharep_plain(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, float eps) {
    fused_clshare_rows<false, true>(x, y, st, slots, rows, cols, eps);
}
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(1024, 1) fused_clsharepw_rms(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, float eps) {
    fused_clshare_rows<true, true, 3, 1>(x, y, st, slots, rows, cols, eps);
}
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(1024, 1) fused_clsharepw_plain(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, float eps) {
    fused_clshare_rows<false, true, 3, 1>(x, y, st, slots, rows, cols, eps);
}

// ---------------------------------------------------------------------------------------
// fused, the mixed form with its last rows split (issue 16, version 11), for cols == 32768.
// Nsight Compute put the mixed form's loss at 1024x32768 in idle SMs: 7.5 % of its cycles had
// no block on an SM, against 3.4 % for the copy, with the same DRAM bytes. A row is the unit
// of work, 256 KB of traffic, and 1024 rows do not divide evenly over 132 SMs of two blocks,
// so the last rows run while most SMs have nothing left. Here the first rows - tail rows are
// `mix` blocks (fused_mix_row, row = block index), and the last `tail` rows are split into
// pieces of PV float4s a thread that meet as the slot form's do (fused_slot_row), so the
// kernel ends on units a fraction of a row.
// A piece spins until its row-mates have published, so its row-mates must be running or
// about to run. The pieces therefore take their place from a ticket, in the order the blocks
// start, not from the block index: the lowest row with a piece waiting then has every piece
// started or next in line, and only the other blocks (whole rows, which never wait) can hold
// the SMs it needs. A row's pieces (at most 8) fit at once on any device that runs this. The
// ticket counter only grows, by tail * pieces a launch, so the remainder is the launch's own
// order as long as launches of one form do not overlap (they are timed one after another).
// Measured 1.8 us slower than mix at best (kernels/NOTES.md, version 11): the pieces of a row
// start one by one as slots free up, and each spins until the last has started.
template <bool RMS, int VR, int VS, int T, int PV>
__device__ void fused_tail_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots,
                                int rows, int tail, float eps) {
    constexpr int COLS = 4 * T * (VR + VS), PIECES = COLS / (4 * T * PV);
    const int whole = rows - tail;
    if ((int)blockIdx.x < whole) {
        fused_mix_row<RMS, VR, VS, T, 1>(x, y, stats, eps);
        return;
    }
    __shared__ unsigned ticket;
    if (threadIdx.x == 0) ticket = (unsigned)(atomicAdd(slots, 1ull) % (unsigned long long)(tail * PIECES));
    __syncthreads();
    const size_t skip = (size_t)whole * COLS;
    fused_slot_row<RMS, PV>(x + skip, y + skip, stats ? stats + 3 * whole : stats, slots + 1, tail, COLS, PIECES, eps, ticket);
}

// The kernels of a form that splits its last rows (NAME: tail or last, fused_NAME_rows).
#define SPLIT_TAIL_KERNELS(NAME, VR, VS, T, MINB, PV)                                                                          \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_##NAME##_rms_##VR##_##VS##_##T##_##PV(const float* x, float* y, float* st, unsigned long long* slots, int rows, int tail, float eps) { \
        fused_##NAME##_rows<true, VR, VS, T, PV>(x, y, st, slots, rows, tail, eps);                                           \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_##NAME##_plain_##VR##_##VS##_##T##_##PV(const float* x, float* y, float* st, unsigned long long* slots, int rows, int tail, float eps) { \
        fused_##NAME##_rows<false, VR, VS, T, PV>(x, y, st, slots, rows, tail, eps);                                          \
    }
#define TAIL_KERNEL(VR, VS, T, MINB, PV) SPLIT_TAIL_KERNELS(tail, VR, VS, T, MINB, PV)
TAIL_KERNEL(8, 8, 512, 2, 4)
TAIL_KERNEL(8, 8, 512, 2, 2)
TAIL_KERNEL(2, 6, 1024, 2, 2)
TAIL_KERNEL(2, 6, 1024, 2, 1)

// ---------------------------------------------------------------------------------------
// fused, the mixed form whose last rows are split into pieces that never wait (issue 16,
// version 13), for cols == 32768. The tail form above lost because a piece spun until its
// last row-mate had started. Here no piece waits: each piece loads its PV float4s a thread,
// reduces them to its partial (the plain softmax's online (max, sum), the RMS-scaled one's
// (sum of squares, max)), publishes it and counts itself on the row's counter. The piece that
// counts last finishes the row alone: it merges the partials and writes all of the row, its
// own piece from registers and the others' from the input again, which its row-mates have
// just brought into the L2. The others write nothing and end, so the kernel's last units are
// pieces of a row plus one block's reading of the rest of it from the L2, not whole rows from
// DRAM. Blocks below rows - tail are mix blocks (row = block index), and the pieces of a row
// are consecutive blocks after them, so they start close together and the longest units (the
// whole rows) start first.
// Slot words of a split row (the form's region, one row after another): a counter that only
// grows, by PIECES a launch, so the block whose increment leaves a multiple of PIECES is the
// last of its launch (the region starts at zero and launches of one form run one after
// another); then one word a piece, its partial's two floats.
// The finishing piece's second pass (RMS-scaled): the other pieces' exponentials are kept in
// its shared memory when they fit (VS float4s a thread), and recomputed from the input if not.
// Measured 4.5 us slower than its own control with no row split (which is level with mix) for
// the last 66 rows in four pieces, and slower the more rows are split (kernels/NOTES.md, version
// 13): a split row ends with one block reading three pieces again and storing the whole row,
// a step that starts only when the last piece is done, so the kernel's end grew longer.

// The other pieces of a `last` row read again from the L2 in batches of IN float4s a thread,
// so that a batch's loads are in flight together, each handed to `use` with its place j
// (`at(j)` its float4 in the row); the last reading marks its lines evict-first. A template
// rather than a generic lambda, which NVRTC 13.0 compiles as host code.
template <int IN, int OTHERS, class At, class Use>
__device__ __forceinline__ void read_again(const float4* __restrict__ xr, At at, bool last, Use use) {
#pragma unroll
    for (int j0 = 0; j0 < OTHERS; j0 += IN) {
        float4 h[IN];
#pragma unroll
        for (int i = 0; i < IN; ++i)
            if (j0 + i < OTHERS) h[i] = last ? __ldcs(xr + at(j0 + i)) : __ldcg(xr + at(j0 + i));
#pragma unroll
        for (int i = 0; i < IN; ++i)
            if (j0 + i < OTHERS) use(j0 + i, h[i]);
    }
}

template <bool RMS, int VR, int VS, int T, int PV>
__device__ __noinline__ void last_piece(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots,
                                        int whole, float eps) {
    constexpr int COLS = 4 * T * (VR + VS), PIECES = COLS / (4 * T * PV), PIECE = T * PV, OTHERS = (PIECES - 1) * PV;
    // KEEP: the other pieces fit in the block's shared memory. IN: float4s a thread in flight
    // when they do not (as many as the registers of a 512-thread block leave; 2 at 1024).
    constexpr bool KEEP = OTHERS <= VS;
    constexpr int IN = T <= 512 ? 8 : 2;
    extern __shared__ __align__(16) float4 rest[];
    __shared__ float red[64];
    __shared__ float row_stat[2];
    __shared__ int finishes;
    const int t = threadIdx.x;
    const int unit = blockIdx.x - whole, row = whole + unit / PIECES, piece = unit % PIECES;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * COLS);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * COLS);
    unsigned long long* words = slots + (size_t)(unit / PIECES) * (1 + PIECES);
    float4 v[PV];
#pragma unroll
    for (int k = 0; k < PV; ++k) v[k] = ld4<1>(xr + piece * PIECE + t + T * k);
    // The partial: (sum of squares, max) RMS-scaled; (max, sum of exp2((x - m0) log2 e)) plain,
    // with v exponentiated in place against the thread's own maximum m0.
    float pa, pb, m0 = 0.f;
    if (RMS) {
        local_sq_max(v, pa, pb);
        block_sum_max(pa, pb, red);
    } else {
        m0 = local_max(v);
        pb = exp_local(v, m0);
        pa = m0;
        block_online(pa, pb, LOG2E, red);
    }
    if (t == 0) {
        unsigned long long w = ((unsigned long long)__float_as_uint(pb) << 32) | __float_as_uint(pa);
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(words + 1 + piece), "l"(w) : "memory");
        unsigned long long old;
        asm volatile("atom.add.acq_rel.gpu.u64 %0, [%1], 1;" : "=l"(old) : "l"(words) : "memory");
        int last = (int)(old % PIECES) == PIECES - 1;
        if (last) {
            // Merged in piece order, the same in every launch.
            float a = RMS ? 0.f : NEG_INF, b = RMS ? NEG_INF : 0.f;
            for (int i = 0; i < PIECES; ++i) {
                unsigned long long u = ld_slot(words + 1 + i);
                float ua = __uint_as_float((unsigned)u), ub = __uint_as_float((unsigned)(u >> 32));
                if (RMS) {
                    a += ua;
                    b = fmaxf(b, ub);
                } else if (i == 0) {
                    a = ua;
                    b = ub;
                } else {
                    online_merge(a, b, ua, ub, LOG2E);
                }
            }
            row_stat[0] = a;
            row_stat[1] = b;
        }
        finishes = last;
    }
    __syncthreads();
    if (!finishes) return;
    TRACE_MARK(3);
    // The other pieces' float4s of this thread, j = 0 .. OTHERS - 1, in piece order after its own.
    auto at = [&](int j) { return ((piece + 1 + j / PV) % PIECES) * PIECE + t + T * (j % PV); };
    float scale = 1.f, mx, s;
    if (RMS) {
        scale = 1.f / sqrtf(row_stat[0] / COLS + eps);
        mx = row_stat[1];
    } else {
        mx = row_stat[0];
        s = row_stat[1];
    }
    const float k2 = scale * LOG2E;
    if (KEEP) {
        // Into shared memory by cp.async, which holds no registers in flight; each thread
        // reads back only its own slots, so no barrier is needed.
#pragma unroll
        for (int j = 0; j < OTHERS; ++j) cp_async16<1>(&rest[t + T * j], xr + at(j));
        cp_async_wait_all();
    }
    if (RMS) {
        s = exp_scaled(v, mx, k2);
        if (KEEP) {
            exp_rest<OTHERS, T>(rest, t, mx, k2, s);
        } else {
            read_again<IN, OTHERS>(xr, at, false, [&](int, float4 h) { s += sum4(exp4(h, mx, k2)); });
        }
        s = block_sum(s, red);
        store_scaled(yr + piece * PIECE, T, v, 1.f / s);
    } else {
        store_scaled(yr + piece * PIECE, T, v, exp2f((m0 - mx) * LOG2E) / s);
    }
    // The other pieces' outputs, from shared memory (RMS-scaled and kept: already
    // exponentiated) or from the input.
    const float r = 1.f / s;
    if (KEEP) {
#pragma unroll
        for (int j = 0; j < OTHERS; ++j) {
            const float4 h = rest[t + T * j];
            __stcs(yr + at(j), times4(RMS ? h : exp4(h, mx, k2), r));
        }
    } else {
        read_again<IN, OTHERS>(xr, at, true, [&](int j, float4 h) { __stcs(yr + at(j), times4(exp4(h, mx, k2), r)); });
    }
    if (stats && t == 0) {
        record_row_stats(stats, row, scale, mx, s);
    }
}

// The pieces' code is kept out of line so that the whole rows compile as the mixed form's own
// kernel does: inlined, its registers would be allocated together with the mixed form's.
template <bool RMS, int VR, int VS, int T, int PV>
__device__ void fused_last_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots,
                                int rows, int tail, float eps) {
    const int whole = rows - tail;
    if ((int)blockIdx.x < whole) {
        fused_mix_row<RMS, VR, VS, T, 1>(x, y, stats, eps);
    } else {
        last_piece<RMS, VR, VS, T, PV>(x, y, stats, slots, whole, eps);
    }
}

#define LAST_KERNEL(VR, VS, T, MINB, PV) SPLIT_TAIL_KERNELS(last, VR, VS, T, MINB, PV)
LAST_KERNEL(8, 8, 512, 2, 4)
LAST_KERNEL(2, 6, 1024, 2, 2)

// ---------------------------------------------------------------------------------------
// fused, the mixed form handing its last rows to a dependent cluster kernel (issue 16, version
// 11). The tail form above split its last rows into pieces of one launch, and its pieces
// started as SM slots freed, one after another, so each spun for its row-mates (its SMs'
// active cycles rose more than its idle ones fell). Here the mixed form takes every row but
// the last `tail`, and each of its blocks lets the next kernel in the stream start as soon as
// it has itself started (griddepcontrol.launch_dependents, programmatic dependent launch).
// Once every block has started, which happens during the last wave, the next kernel, a cluster
// of CS blocks a row for the last rows (fused_cl_*), is launched with programmatic stream
// serialization and so can take each SM slot that the mixed form's last rows leave. A
// cluster's blocks start together, so none waits for a block that is not running. The two
// kernels write disjoint rows, so the dependent kernel never waits on the first one's results.
__device__ __forceinline__ void let_dependents_start() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }

#define MIXH_KERNEL(VR, VS, T, MINB)                                                                                           \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mixh_rms_##VR##_##VS##_##T(const float* x, float* y, float* st, int cols, float eps) { \
        let_dependents_start();                                                                                               \
        fused_mix_row<true, VR, VS, T, 1>(x, y, st, eps);                                                                     \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_mixh_plain_##VR##_##VS##_##T(const float* x, float* y, float* st, int cols, float eps) { \
        let_dependents_start();                                                                                               \
        fused_mix_row<false, VR, VS, T, 1>(x, y, st, eps);                                                                    \
    }
MIXH_KERNEL(8, 8, 512, 2)
MIXH_KERNEL(2, 6, 1024, 2)

// ---------------------------------------------------------------------------------------
// fused, every block holding a piece of every row (issue 16, version 8, fourth call), for few
// long rows (8 x 262144). In the split forms a block holds one row's piece, and may write it
// only when the last piece of its row has been read; every row is read at once, so every row
// completes at the end of the read burst and all writes wait for all reads (the phased copy
// showed that the order itself costs nothing). Here block b holds columns [1024 b, 1024 b +
// 1024) of every row, loaded row after row, so the memory delivers row 0 first; a block
// reduces and publishes row r as soon as it has arrived, and stores row r - LAG once that row
// is complete, while later rows are still arriving.
// The 256 blocks of a row meet through the last arriver: each block stores its partial with
// the launch's tag (as `slot`) and counts itself on the row's counter with a relaxed add
// (no fence: a release would wait for the block's loads of the later rows); the block that
// counts last polls all partials until their tags are current, combines them and stores the
// row's result with the tag; the others poll that result. The counter grows by the grid size
// every launch, so its value modulo the grid says who is last and no reset is needed.
// Layout of the form's slot region: partial words [3][R][B] (words 0 and 1 of the first meeting,
// word 2 of the RMS form's second), result words [3][R], then counters [2][R] (low halves).

template <int R>
struct OrdMeet {
    unsigned long long* part;
    unsigned long long* res;
    unsigned* cnt;
    int B;
    // What a meeting combines: the plain softmax's online (max, sum), the RMS form's (sum of
    // squares, max), or a plain sum.
    enum Kind { Online, SumMax, Sum };

    // Thread 0: the block's partial of row r (words w0 and, unless w1 < 0, w1), then its count;
    // the count's old value comes back later, into `old`.
    __device__ __forceinline__ void publish(int round, int r, int w0, float a, int w1, float c, unsigned tag, unsigned& old) const {
        st_slot(part + ((size_t)w0 * R + r) * B + blockIdx.x, tag, a);
        if (w1 >= 0) st_slot(part + ((size_t)w1 * R + r) * B + blockIdx.x, tag, c);
        asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(cnt + round * R + r) : "memory");
    }

    // Warp 0: the row's combined pair (a, c) in every lane.
    template <Kind K>
    __device__ __forceinline__ void finish(int r, int w0, int w1, unsigned tag, unsigned old, float& a, float& c) const {
        const int lane = threadIdx.x & 31;
        const bool last = __shfl_sync(0xffffffffu, old % (unsigned)B == (unsigned)B - 1, 0);
        unsigned long long* r0 = res + (size_t)w0 * R + r;
        unsigned long long* r1 = res + (size_t)(w1 < 0 ? w0 : w1) * R + r;
        if (last) {
            const unsigned long long* p0 = part + ((size_t)w0 * R + r) * B;
            const unsigned long long* p1 = part + ((size_t)(w1 < 0 ? w0 : w1) * R + r) * B;
            for (;;) {
                bool ok = true;
                for (int i = lane; i < B; i += 32) {
                    unsigned long long x0 = ld_slot(p0 + i), x1 = K == Sum ? x0 : ld_slot(p1 + i);
                    ok = ok && slot_is(x0, tag) && slot_is(x1, tag);
                    float u = slot_value(x0), w = slot_value(x1);
                    if (i == lane) {
                        a = u;
                        c = w;
                    } else if (K == Online) {
                        online_merge(a, c, u, w, LOG2E);
                    } else {
                        a += u;
                        c = fmaxf(c, w);
                    }
                }
                if (__all_sync(0xffffffffu, ok)) break;
            }
            // B is a multiple of 32, so every lane holds a partial.
            if (K == Online) {
                warp_online(a, c, LOG2E);
            } else {
                a = warp_sum(a);
                c = warp_max(c);
            }
            if (lane == 0) {
                st_slot(r0, tag, a);
                if (K != Sum) st_slot(r1, tag, c);
            }
        } else {
            for (;;) {
                unsigned long long x0 = ld_slot(r0), x1 = K == Sum ? x0 : ld_slot(r1);
                if (slot_is(x0, tag) && slot_is(x1, tag)) {
                    a = slot_value(x0);
                    c = slot_value(x1);
                    break;
                }
            }
        }
    }
};

template <bool RMS, int LAG>
__device__ void fused_ord_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots, int cols, float eps) {
    constexpr int R = 8;
    using M = OrdMeet<R>;
    __shared__ float red[64];
    __shared__ float row_stat[R][2];
    const int B = gridDim.x, t = threadIdx.x;
    const M meet{slots, slots + 3 * R * B, reinterpret_cast<unsigned*>(slots + 3 * R * B + 3 * R), B};
    // The tags this launch writes, read before the rows so that their latency hides behind them.
    unsigned tag = 0, tag2 = 0;
    if (t < 32) {
        tag = (unsigned)(ld_slot(meet.part + blockIdx.x) >> 32) + 1;
        if (RMS) tag2 = (unsigned)(ld_slot(meet.part + (size_t)2 * R * B + blockIdx.x) >> 32) + 1;
    }
    const size_t c4 = cols / 4, at = (size_t)blockIdx.x * blockDim.x + t;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    float4 v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) v[r] = __ldcs(x4 + r * c4 + at);
    // Zeroed, although every element is written before it is read where it matters: thread 0
    // alone receives `old` (only its lane's test is broadcast), and NVRTC cannot see that the
    // lambdas below run after the loops that fill the others, so it warned of reads before set.
    unsigned old[R] = {}, old2[R] = {};
    float m0[R] = {}, scale[R] = {}, mx[R] = {};
    // Stores row q once its statistics are known: factor f for every value, and the row's
    // statistics recorded by block 0.
    auto store = [&](int q, float f, float sc, float m, float s) {
        float4 h = v[q];
        __stcs(y4 + q * c4 + at, make_float4(h.x * f, h.y * f, h.z * f, h.w * f));
        if (stats && blockIdx.x == 0 && t == 0) {
            record_row_stats(stats, q, sc, m, s);
        }
    };
    if (!RMS) {
        auto finish_store = [&](int q) {
            if (t < 32) {
                float a, c;
                meet.template finish<M::Online>(q, 0, 1, tag, old[q], a, c);
                if (t == 0) { row_stat[q][0] = a; row_stat[q][1] = c; }
            }
            __syncthreads();
            const float rm = row_stat[q][0], s = row_stat[q][1];
            store(q, exp2f((m0[q] - rm) * LOG2E) / s, 1.f, rm, s);
        };
#pragma unroll
        for (int r = 0; r < R; ++r) {
            float4 (&w)[1] = *reinterpret_cast<float4(*)[1]>(&v[r]);
            m0[r] = local_max(w);
            float s = exp_local(w, m0[r]), m = m0[r];
            block_online(m, s, LOG2E, red);
            if (t == 0) meet.publish(0, r, 0, m, 1, s, tag, old[r]);
            if (r >= LAG) finish_store(r - LAG);
        }
#pragma unroll
        for (int q = R - LAG; q < R; ++q) finish_store(q);
    } else {
#pragma unroll
        for (int r = 0; r < R; ++r) {
            float4 (&w)[1] = *reinterpret_cast<float4(*)[1]>(&v[r]);
            float sq, m;
            local_sq_max(w, sq, m);
            block_sum_max(sq, m, red);
            if (t == 0) meet.publish(0, r, 0, sq, 1, m, tag, old[r]);
        }
        auto finish_store = [&](int q) {
            if (t < 32) {
                float a, c;
                meet.template finish<M::Sum>(q, 2, -1, tag2, old2[q], a, c);
                if (t == 0) row_stat[q][0] = a;
            }
            __syncthreads();
            const float s = row_stat[q][0];
            store(q, 1.f / s, scale[q], mx[q], s);
        };
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (t < 32) {
                float a, c;
                meet.template finish<M::SumMax>(r, 0, 1, tag, old[r], a, c);
                if (t == 0) { row_stat[r][0] = a; row_stat[r][1] = c; }
            }
            __syncthreads();
            scale[r] = 1.f / sqrtf(row_stat[r][0] / cols + eps);
            mx[r] = row_stat[r][1];
            float4 (&w)[1] = *reinterpret_cast<float4(*)[1]>(&v[r]);
            float s = block_sum(exp_scaled(w, mx[r], scale[r] * LOG2E), red);
            if (t == 0) meet.publish(1, r, 2, s, -1, 0.f, tag2, old2[r]);
            if (r >= LAG) finish_store(r - LAG);
        }
#pragma unroll
        for (int q = R - LAG; q < R; ++q) finish_store(q);
    }
}

#define ORD_KERNEL(LAG)                                                                                                       \
    extern "C" __global__ void __launch_bounds__(256, 2) fused_ord_rms_##LAG(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_ord_rows<true, LAG>(x, y, st, slots, cols, eps);                                                                \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(256, 2) fused_ord_plain_##LAG(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_ord_rows<false, LAG>(x, y, st, slots, cols, eps);                                                               \
    }
ORD_KERNEL(1)
ORD_KERNEL(2)
ORD_KERNEL(4)

// ---------------------------------------------------------------------------------------
// fused, every block holding a piece of every row, meetings that never wait on one another
// (issue 16, version 9), for 8 rows of 262144. `ord` showed that the layout works but that
// meetings chained row after row cost 2.5-3 us each; `slot` showed that a meeting in which
// every block polls all of its row-mates' tagged partials costs about one round trip. Here
// block b holds V float4s a thread of every row (float4 k of thread t of row r at b T V + k T
// + t), loads them row after row, and publishes each row's partial as soon as that row has
// arrived, without waiting for anything. Only then does it wait, and it stores each row as
// soon as that row's meeting is complete: if the memory delivers the rows roughly in the
// order they were asked for, the early rows are complete by the time a block has its last
// row, and their stores overlap the other blocks' reads, as in the phased copy, instead of all
// 8 MB of stores waiting for the end of all reads.
// Inside a block no barrier is used after the start. Each warp reduces its part of a row and
// counts itself on a shared-memory counter; the warp that counts last merges the warps'
// partials and publishes the block's. Warp 0 polls: each pass loads the partials of the first
// G rows still pending (all loads issued before any is checked, so a pass costs one round
// trip), posts every complete row's statistics in shared memory, and then does its own share
// of the rows that are ready; the other warps spin on a shared flag per row.
// A partial is one 64-bit word, stored and loaded whole: the first statistic's bits in the
// high half and the second's in the low half, whose lowest bit is replaced by the launch's
// parity (a change of at most one unit in the last place of a sum, far inside the tolerance).
// Every launch writes every word of its region, so a word of the previous launch has the other
// parity; the parity is taken from the block's own first word when it starts.
// Layout of the form's slot region: words [2][R][B] (round 0, the first meeting; round 1, the
// RMS form's second).

__device__ __forceinline__ void st_slot_word(unsigned long long* p, unsigned long long w) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
}

__device__ __forceinline__ unsigned long long fan_word(float hi, float lo, unsigned parity) {
    return ((unsigned long long)__float_as_uint(hi) << 32) | ((__float_as_uint(lo) & ~1u) | parity);
}
__device__ __forceinline__ float fan_hi(unsigned long long w) { return __uint_as_float((unsigned)(w >> 32)); }
__device__ __forceinline__ float fan_lo(unsigned long long w) { return __uint_as_float((unsigned)w); }

template <bool RMS, int V, int T>
struct FanMeet {
    static constexpr int R = 8, W = T / 32;
    // Blocks, each holding T V float4s of every row of 65536 float4s.
    static constexpr int B = 65536 / (V * T);
    // Rows polled in one pass: at most 16 words a lane in flight.
    static constexpr int G = 512 / B;
    unsigned long long* words;
    float2* red;          // [2][R][W]: the warps' partials of each round and row
    unsigned* arrived;    // [2][R]: warps counted
    float2* result;       // [2][R]: the rows' statistics
    volatile int* ready;  // [2][R]: 1 once the result is in `result`

    // What each round merges: round 0 of the plain form (max, sum) online; round 0 of the RMS
    // form (sum of squares, max); round 1 (sum, -).
    __device__ __forceinline__ void merge_warp(int q, float& a, float& c, bool has) const {
        if (q == 0 && !RMS) {
            // An empty lane takes lane 0's maximum with a zero sum, which merges as nothing.
            const float m_first = __shfl_sync(0xffffffffu, a, 0);
            if (!has) { a = m_first; c = 0.f; }
            warp_online(a, c, LOG2E);
        } else {
            if (!has) { a = 0.f; c = NEG_INF; }
            a = warp_sum(a);
            c = warp_max(c);
        }
    }

    __device__ __forceinline__ void merge_pair(int q, float& a, float& c, float u, float v) const {
        if (q == 0 && !RMS) {
            online_merge(a, c, u, v, LOG2E);
        } else {
            a += u;
            c = fmaxf(c, v);
        }
    }

    // The word of a partial (a, c), and back: the sum goes in the low half.
    __device__ __forceinline__ unsigned long long pack(int q, float a, float c, unsigned parity) const {
        if (q == 1) return fan_word(a, 0.f, parity);
        return RMS ? fan_word(c, a, parity) : fan_word(a, c, parity);
    }
    __device__ __forceinline__ void unpack(int q, unsigned long long w, float& a, float& c) const {
        const bool swap = q == 0 && RMS;
        a = swap ? fan_lo(w) : fan_hi(w);
        c = swap ? fan_hi(w) : (q == 1 ? NEG_INF : fan_lo(w));
    }

    // Whole warp, after its own reduction: (a, c) is the warp's partial of row r in round q.
    // The warp that counts last merges the block's partial and publishes it.
    __device__ __forceinline__ void arrive(int q, int r, float a, float c, unsigned parity) const {
        const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        unsigned old = 0;
        if (lane == 0) {
            red[(q * R + r) * W + warp] = make_float2(a, c);
            __threadfence_block();
            old = atomicAdd(&arrived[q * R + r], 1u);
        }
        if (__shfl_sync(0xffffffffu, old, 0) != W - 1) return;
        __threadfence_block();
        const float2 p = red[(q * R + r) * W + (lane < W ? lane : 0)];
        a = p.x;
        c = p.y;
        merge_warp(q, a, c, lane < W);
        if (lane == 0) st_slot_word(words + ((size_t)q * R + r) * B + blockIdx.x, pack(q, a, c, parity));
    }

    // Warp 0: one poll of round q's rows lo .. lo + G - 1 that are not in `done`; returns
    // `done` with the rows found complete, whose statistics are now posted.
    __device__ __forceinline__ unsigned poll(int q, unsigned done, unsigned parity) const {
        const int lane = threadIdx.x & 31;
        const int lo = __ffs(~done) - 1;
        if (lo < 0 || lo >= R) return done;
        unsigned long long w[G][B / 32];
#pragma unroll
        for (int g = 0; g < G; ++g) {
            const int r = lo + g;
            if (r < R && !(done >> r & 1u)) {
                const unsigned long long* p = words + ((size_t)q * R + r) * B;
#pragma unroll
                for (int i = 0; i < B / 32; ++i) w[g][i] = ld_slot(p + lane + 32 * i);
            }
        }
#pragma unroll
        for (int g = 0; g < G; ++g) {
            const int r = lo + g;
            if (r >= R || (done >> r & 1u)) continue;
            bool ok = true;
            float a, c;
            unpack(q, w[g][0], a, c);
#pragma unroll
            for (int i = 0; i < B / 32; ++i) {
                ok = ok && ((unsigned)w[g][i] & 1u) == parity;
                if (i > 0) {
                    float u, v;
                    unpack(q, w[g][i], u, v);
                    merge_pair(q, a, c, u, v);
                }
            }
            if (!__all_sync(0xffffffffu, ok)) continue;
            merge_warp(q, a, c, true);
            if (lane == 0) {
                result[q * R + r] = make_float2(a, c);
                __threadfence_block();
                ready[q * R + r] = 1;
            }
            done |= 1u << r;
        }
        __syncwarp();
        return done;
    }

    // Any warp but the poller: waits until row r's statistics of round q are posted.
    __device__ __forceinline__ float2 wait(int q, int r) const {
        int now = 0;
        while (!__shfl_sync(0xffffffffu, now, 0)) {
            if ((threadIdx.x & 31) == 0) now = ready[q * R + r];
        }
        __threadfence_block();
        return result[q * R + r];
    }

    // Whole warp: whether row r's statistics of round q are posted (then readable by posted).
    __device__ __forceinline__ bool is_ready(int q, int r) const {
        int now = 0;
        if ((threadIdx.x & 31) == 0) now = ready[q * R + r];
        if (!__shfl_sync(0xffffffffu, now, 0)) return false;
        __threadfence_block();
        return true;
    }

    __device__ __forceinline__ float2 posted(int q, int r) const { return result[q * R + r]; }
};

template <bool RMS, int V, int T, int P>
__device__ void fused_fan_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, unsigned long long* __restrict__ slots, int cols, float eps) {
    using M = FanMeet<RMS, V, T>;
    constexpr int R = M::R, W = M::W, B = M::B, G = M::G;
    static_assert(P == 1 || P * G == R, "one poller, or one for each group of G rows");
    __shared__ float2 red[2 * R * W];
    __shared__ unsigned arrived[2 * R];
    __shared__ float2 result[2 * R];
    __shared__ int ready[2 * R];
    // The layout is compiled for 262144 columns; any other launch writes nothing, which the
    // validation reports as unwritten values.
    if (gridDim.x != B || cols != 4 * B * V * T) return;
    const int t = threadIdx.x, warp = t >> 5;
    const M meet{slots, red, arrived, result, ready};
    // This launch's parities, read before the rows so that their latency hides behind them.
    const unsigned parity = ((unsigned)ld_slot(slots + blockIdx.x) & 1u) ^ 1u;
    const unsigned parity2 = RMS ? ((unsigned)ld_slot(slots + (size_t)R * B + blockIdx.x) & 1u) ^ 1u : 0u;
    const size_t c4 = cols / 4, at = (size_t)blockIdx.x * T * V + t;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    float4 v[R][V];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int k = 0; k < V; ++k) v[r][k] = __ldcs(x4 + r * c4 + at + k * T);
    if (t < 2 * R) {
        arrived[t] = 0;
        ready[t] = 0;
    }
    // The only barrier: the counters and flags are zero before any warp uses them.
    __syncthreads();
    // Stores row q's values times f, and block 0 records the row's statistics.
    auto store = [&](int q, float f, float scale, float mx, float s) {
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const float4 h = v[q][k];
            __stcs(y4 + q * c4 + at + k * T, make_float4(h.x * f, h.y * f, h.z * f, h.w * f));
        }
        if (stats && blockIdx.x == 0 && t == 0) {
            record_row_stats(stats, q, scale, mx, s);
        }
    };
    if (!RMS) {
        float m0[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            m0[r] = local_max(v[r]);
            float s = exp_local(v[r], m0[r]), m = m0[r];
            warp_online(m, s, LOG2E);
            meet.arrive(0, r, m, s, parity);
        }
        auto finish = [&](int r, float2 st) { store(r, exp2f((m0[r] - st.x) * LOG2E) / st.y, 1.f, st.x, st.y); };
        if (warp < P) {
            // A poller's rows: every row (one poller), or its group of G (rows of other
            // groups count as done for its polls).
            unsigned done = P == 1 ? 0u : ~(((1u << G) - 1) << (warp * G));
            int next = 0;
            while (next < R) {
                done = meet.poll(0, done, parity);
#pragma unroll
                for (int r = 0; r < R; ++r)
                    if (r == next && meet.is_ready(0, r)) {
                        finish(r, meet.posted(0, r));
                        ++next;
                    }
            }
        } else {
#pragma unroll
            for (int r = 0; r < R; ++r) finish(r, meet.wait(0, r));
        }
    } else {
#pragma unroll
        for (int r = 0; r < R; ++r) {
            float sq, m;
            local_sq_max(v[r], sq, m);
            meet.arrive(0, r, warp_sum(sq), warp_max(m), parity);
        }
        float scale[R], mx[R];
        // Round 0's statistics known: the row's exponentials, and this warp's part of round 1.
        auto second = [&](int r, float2 st) {
            scale[r] = 1.f / sqrtf(st.x / cols + eps);
            mx[r] = st.y;
            meet.arrive(1, r, warp_sum(exp_scaled(v[r], mx[r], scale[r] * LOG2E)), NEG_INF, parity2);
        };
        auto finish = [&](int r, float s) { store(r, 1.f / s, scale[r], mx[r], s); };
        if (warp < P) {
            const unsigned others = P == 1 ? 0u : ~(((1u << G) - 1) << (warp * G));
            unsigned done0 = others, done1 = others;
            int next0 = 0, next1 = 0;
            while (next1 < R) {
                done0 = meet.poll(0, done0, parity);
#pragma unroll
                for (int r = 0; r < R; ++r)
                    if (r == next0 && meet.is_ready(0, r)) {
                        second(r, meet.posted(0, r));
                        ++next0;
                    }
                done1 = meet.poll(1, done1, parity2);
#pragma unroll
                for (int r = 0; r < R; ++r)
                    if (r == next1 && meet.is_ready(1, r)) {
                        finish(r, meet.posted(1, r).x);
                        ++next1;
                    }
            }
        } else {
#pragma unroll
            for (int r = 0; r < R; ++r) second(r, meet.wait(0, r));
#pragma unroll
            for (int r = 0; r < R; ++r) finish(r, meet.wait(1, r).x);
        }
    }
}

// NAME fan: one poller warp, each pass polling the first G pending rows; fanw: one poller warp
// for each group of G rows, so that a pass polls every pending row.
#define FAN_KERNEL(NAME, P, V, T, MINB)                                                                                       \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_##NAME##_rms_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_fan_rows<true, V, T, P>(x, y, st, slots, cols, eps);                                                            \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_##NAME##_plain_##V##_##T(const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps) { \
        fused_fan_rows<false, V, T, P>(x, y, st, slots, cols, eps);                                                           \
    }
FAN_KERNEL(fan, 1, 1, 512, 1)
FAN_KERNEL(fan, 1, 1, 256, 2)
FAN_KERNEL(fan, 1, 2, 256, 1)
FAN_KERNEL(fanw, 2, 1, 512, 1)
FAN_KERNEL(fanw, 4, 1, 256, 2)
FAN_KERNEL(fanw, 2, 2, 256, 1)

// ---------------------------------------------------------------------------------------
// fused, two rows per block, row-mates meeting through per-row counters (issue 16, version 6):
// block b holds V float4s a thread of row g and V of row g + rows / 2 (g = b / split), both
// loaded at once. Each row's waits for its row-mates then overlap the other row's work: the
// first row's partials are published and its wait runs while the second row's loads are still
// landing, and the second row's wait runs while the first row is stored. With one row a block,
// every block reads, waits, then writes, and the memory idles during each wait. `part` holds
// 4 rows split floats: a pair per block and row for each of two rounds.

// Publishes a block's partial pair (a, b) in slot `piece` of `p` and arrives on `cnt`; the
// wait is a separate step so that other work can run between them.
__device__ __forceinline__ void row_publish(float* pairs, int piece, float a, float b, unsigned* cnt, unsigned& target, unsigned split) {
    __syncthreads();
    if (threadIdx.x == 0) {
        pairs[2 * piece] = a;
        pairs[2 * piece + 1] = b;
        unsigned old;
        asm volatile("atom.add.release.gpu.u32 %0, [%1], 1;" : "=r"(old) : "l"(cnt) : "memory");
        target = (old / split + 1) * split;
    }
}

// Warp 0 waits until `cnt` reaches the target thread 0 took (only thread 0's `target` is
// meaningful; the others take it from lane 0), then combines the row's `split`
// pairs: an online (max, sum) merge when `online`, else (sum, max). The result lands in
// out[0], out[1] for the whole block after the barrier.
__device__ __forceinline__ void row_gather(const float* pairs, unsigned* cnt, unsigned target, unsigned split, bool online, float* out) {
    if (threadIdx.x < 32) {
        target = __shfl_sync(0xffffffffu, target, 0);
        unsigned cur;
        do {
            asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(cur) : "l"(cnt) : "memory");
        } while ((int)(cur - target) < 0);
        const int lane = threadIdx.x;
        if (online) {
            float bm = __ldcg(pairs), bs = 0.f;
            for (int i = lane; i < (int)split; i += 32) online_merge(bm, bs, __ldcg(pairs + 2 * i), __ldcg(pairs + 2 * i + 1), LOG2E);
            warp_online(bm, bs, LOG2E);
            if (lane == 0) { out[0] = bm; out[1] = bs; }
        } else {
            float a = 0.f, b = NEG_INF;
            for (int i = lane; i < (int)split; i += 32) { a += __ldcg(pairs + 2 * i); b = fmaxf(b, __ldcg(pairs + 2 * i + 1)); }
            a = warp_sum(a);
            b = warp_max(b);
            if (lane == 0) { out[0] = a; out[1] = b; }
        }
    }
    __syncthreads();
}

// Writes the validation statistics of a block's two rows (the two-row forms, piece 0 only).
__device__ __forceinline__ void two_row_stats(float* stats, const int (&row)[2], const float (&scale)[2], const float (&mx)[2], const float (&s)[2]) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        record_row_stats(stats, row[j], scale[j], mx[j], s[j]);
    }
}

template <bool RMS, int V>
__device__ void fused_pair_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, float* __restrict__ part,
                                unsigned* __restrict__ cnt, int rows, int cols, int split, float eps) {
    __shared__ float red[64];
    __shared__ float got[2][2];
    const int T = blockDim.x;
    const int g = blockIdx.x / split, piece = blockIdx.x % split;
    const int half_rows = rows / 2;
    const int row[2] = {g, g + half_rows};
    const size_t per = (size_t)4 * T * V;
    const size_t G = (size_t)rows * split;
    float4 v[2][V];
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row[j] * cols + piece * per);
#pragma unroll
        for (int k = 0; k < V; ++k) v[j][k] = __ldcs(xr + threadIdx.x + T * k);
    }
    unsigned target[2] = {0, 0};
    float scale[2] = {1.f, 1.f}, mx[2], s[2], r[2], m0[2];
    // Round one of both rows: published back to back, the first row's wait overlapping the
    // second row's loads and reduction.
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        float* pairs = part + 2 * (size_t)row[j] * split;
        if (RMS) {
            float sq;
            local_sq_max(v[j], sq, mx[j]);
            block_sum_max(sq, mx[j], red);
            row_publish(pairs, piece, sq, mx[j], cnt + row[j], target[j], split);
        } else {
            m0[j] = local_max(v[j]);
            s[j] = exp_local(v[j], m0[j]);
            mx[j] = m0[j];
            block_online(mx[j], s[j], LOG2E, red);
            row_publish(pairs, piece, mx[j], s[j], cnt + row[j], target[j], split);
        }
    }
    if (RMS) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            row_gather(part + 2 * (size_t)row[j] * split, cnt + row[j], target[j], split, false, got[j]);
            float sq = got[j][0];
            mx[j] = got[j][1];
            scale[j] = 1.f / sqrtf(sq / cols + eps);
            s[j] = block_sum(exp_scaled(v[j], mx[j], scale[j] * LOG2E), red);
            // Round two's partials have their own slots: row-mates may still read round one's.
            row_publish(part + 2 * G + 2 * (size_t)row[j] * split, piece, s[j], 0.f, cnt + row[j], target[j], split);
        }
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            // Round two's pairs are (s, 0): summed with the max of zeros, which is ignored.
            row_gather(part + 2 * G + 2 * (size_t)row[j] * split, cnt + row[j], target[j], split, false, got[j]);
            s[j] = got[j][0];
            r[j] = 1.f / s[j];
            float4* yr = reinterpret_cast<float4*>(y + (size_t)row[j] * cols + piece * per);
            store_scaled(yr, T, v[j], r[j]);
        }
    } else {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            row_gather(part + 2 * (size_t)row[j] * split, cnt + row[j], target[j], split, true, got[j]);
            mx[j] = got[j][0];
            s[j] = got[j][1];
            r[j] = exp2f((m0[j] - mx[j]) * LOG2E) / s[j];
            float4* yr = reinterpret_cast<float4*>(y + (size_t)row[j] * cols + piece * per);
            store_scaled(yr, T, v[j], r[j]);
        }
    }
    if (stats && piece == 0 && threadIdx.x == 0) two_row_stats(stats, row, scale, mx, s);
}

// The kernels of the two-row forms (`pair`, `stag`): fused_<kind>_rms_V_T and
// fused_<kind>_plain_V_T around the form's device function.
#define TWO_ROW_KERNEL(KIND, FN, V, T, MINB)                                                                                  \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_##KIND##_rms_##V##_##T(const float* x, float* y, float* st, float* part, unsigned* cnt, int rows, int cols, int split, float eps) { \
        FN<true, V>(x, y, st, part, cnt, rows, cols, split, eps);                                                             \
    }                                                                                                                         \
    extern "C" __global__ void __launch_bounds__(T, MINB) fused_##KIND##_plain_##V##_##T(const float* x, float* y, float* st, float* part, unsigned* cnt, int rows, int cols, int split, float eps) { \
        FN<false, V>(x, y, st, part, cnt, rows, cols, split, eps);                                                            \
    }
#define PAIR_KERNEL(V, T, MINB) TWO_ROW_KERNEL(pair, fused_pair_rows, V, T, MINB)
PAIR_KERNEL(2, 1024, 1)
PAIR_KERNEL(4, 512, 2)
PAIR_KERNEL(2, 512, 2)
PAIR_KERNEL(2, 256, 4)

// ---------------------------------------------------------------------------------------
// fused, two rows a block as `pair`, staggered (issue 16, version 7): `pair` loads both rows
// at once, so the second row's data lands with the first's and nothing is left to overlap the
// first row's wait. Here a block loads its piece of row g, publishes its partials, and only
// then issues the loads of its piece of row g + rows / 2: every block's first-row pieces
// arrive in half the read time, the first row's wait runs while the second row's loads are in
// flight, and the first row's stores while the second row is reduced and waited for. The
// loads are volatile so that the compiler cannot hoist the second row's above the publish.
template <bool RMS, int V>
__device__ void fused_stag_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ stats, float* __restrict__ part,
                                unsigned* __restrict__ cnt, int rows, int cols, int split, float eps) {
    __shared__ float red[64];
    __shared__ float got[2][2];
    const int T = blockDim.x;
    const int g = blockIdx.x / split, piece = blockIdx.x % split;
    const int row[2] = {g, g + rows / 2};
    const size_t per = (size_t)4 * T * V;
    const size_t G = (size_t)rows * split;
    float4 a[V], b[V];
    const float4* xa = reinterpret_cast<const float4*>(x + (size_t)row[0] * cols + piece * per);
    const float4* xb = reinterpret_cast<const float4*>(x + (size_t)row[1] * cols + piece * per);
    float4* ya = reinterpret_cast<float4*>(y + (size_t)row[0] * cols + piece * per);
    float4* yb = reinterpret_cast<float4*>(y + (size_t)row[1] * cols + piece * per);
    float* pa = part + 2 * (size_t)row[0] * split;
    float* pb = part + 2 * (size_t)row[1] * split;
    float* qa = part + 2 * G + 2 * (size_t)row[0] * split;
    float* qb = part + 2 * G + 2 * (size_t)row[1] * split;
    unsigned ta = 0, tb = 0;
    float scale[2] = {1.f, 1.f}, mx[2], s[2];
#pragma unroll
    for (int k = 0; k < V; ++k) a[k] = ldcs_ordered(xa + threadIdx.x + T * k);
    if (RMS) {
        float sq;
        local_sq_max(a, sq, mx[0]);
        block_sum_max(sq, mx[0], red);
        row_publish(pa, piece, sq, mx[0], cnt + row[0], ta, split);
#pragma unroll
        for (int k = 0; k < V; ++k) b[k] = ldcs_ordered(xb + threadIdx.x + T * k);
        row_gather(pa, cnt + row[0], ta, split, false, got[0]);
        mx[0] = got[0][1];
        scale[0] = 1.f / sqrtf(got[0][0] / cols + eps);
        s[0] = block_sum(exp_scaled(a, mx[0], scale[0] * LOG2E), red);
        row_publish(qa, piece, s[0], 0.f, cnt + row[0], ta, split);
        local_sq_max(b, sq, mx[1]);
        block_sum_max(sq, mx[1], red);
        row_publish(pb, piece, sq, mx[1], cnt + row[1], tb, split);
        // Round two's pairs are (s, 0): summed with the max of zeros, which is ignored.
        row_gather(qa, cnt + row[0], ta, split, false, got[0]);
        s[0] = got[0][0];
        store_scaled(ya, T, a, 1.f / s[0]);
        row_gather(pb, cnt + row[1], tb, split, false, got[1]);
        mx[1] = got[1][1];
        scale[1] = 1.f / sqrtf(got[1][0] / cols + eps);
        s[1] = block_sum(exp_scaled(b, mx[1], scale[1] * LOG2E), red);
        row_publish(qb, piece, s[1], 0.f, cnt + row[1], tb, split);
        row_gather(qb, cnt + row[1], tb, split, false, got[1]);
        s[1] = got[1][0];
        store_scaled(yb, T, b, 1.f / s[1]);
    } else {
        const float ma = local_max(a);
        s[0] = exp_local(a, ma);
        mx[0] = ma;
        block_online(mx[0], s[0], LOG2E, red);
        row_publish(pa, piece, mx[0], s[0], cnt + row[0], ta, split);
#pragma unroll
        for (int k = 0; k < V; ++k) b[k] = ldcs_ordered(xb + threadIdx.x + T * k);
        row_gather(pa, cnt + row[0], ta, split, true, got[0]);
        mx[0] = got[0][0];
        s[0] = got[0][1];
        store_scaled(ya, T, a, exp2f((ma - mx[0]) * LOG2E) / s[0]);
        const float mb = local_max(b);
        s[1] = exp_local(b, mb);
        mx[1] = mb;
        block_online(mx[1], s[1], LOG2E, red);
        row_publish(pb, piece, mx[1], s[1], cnt + row[1], tb, split);
        row_gather(pb, cnt + row[1], tb, split, true, got[1]);
        mx[1] = got[1][0];
        s[1] = got[1][1];
        store_scaled(yb, T, b, exp2f((mb - mx[1]) * LOG2E) / s[1]);
    }
    if (stats && piece == 0 && threadIdx.x == 0) two_row_stats(stats, row, scale, mx, s);
}

#define STAG_KERNEL(V, T, MINB) TWO_ROW_KERNEL(stag, fused_stag_rows, V, T, MINB)
STAG_KERNEL(4, 512, 2)
STAG_KERNEL(2, 512, 2)
STAG_KERNEL(2, 256, 4)
STAG_KERNEL(2, 1024, 1)

// ---------------------------------------------------------------------------------------
// The benchmark's second ceiling: a plain SM copy, one float4 per thread, streaming loads and
// stores. cuMemcpyDtoD may be served by a copy engine, which is slower than the SMs on small
// buffers; the report takes the faster of the two as the copy ceiling.
// A copy in the split forms' launch shape with its read and write apart (issue 16, version 8;
// a diagnostic, timed only with `phased` among the candidates): each block of 512 threads
// loads its 16 values a thread, meets at a block barrier, then stores them. Against copy_f4 it
// times what the split forms' order (every value of a piece read before any is written)
// costs without their wait for row-mates.
extern "C" __global__ void __launch_bounds__(512, 2) copy_phased_4_512(const float4* __restrict__ x, float4* __restrict__ y) {
    const size_t base = (size_t)blockIdx.x * 2048;
    float4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) v[k] = __ldcs(x + base + threadIdx.x + 512 * k);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 4; ++k) __stcs(y + base + threadIdx.x + 512 * k, v[k]);
}

// The same in `fan`'s layout (issue 16, version 9, a diagnostic timed with `phased` at 8 rows):
// 128 blocks of 512 threads, each thread one float4 of each of the 8 rows (at b 512 + t of
// every row), all read, a block barrier, then all written. Against copy_phased_4_512 it times
// what the layout costs by itself, without the meetings.
extern "C" __global__ void __launch_bounds__(512, 1) copy_phased_rows_8(const float4* __restrict__ x, float4* __restrict__ y, long long c4) {
    const size_t at = (size_t)blockIdx.x * 512 + threadIdx.x;
    float4 v[8];
#pragma unroll
    for (int r = 0; r < 8; ++r) v[r] = __ldcs(x + r * c4 + at);
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 8; ++r) __stcs(y + r * c4 + at, v[r]);
}

extern "C" __global__ void copy_f4(const float4* __restrict__ x, float4* __restrict__ y, long long n4) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n4) __stcs(y + i, __ldcs(x + i));
}

// copy_f4 with the hint pairings of the fused forms above (issue 16, version 15; copy_hint_0_0 is
// copy_f4 under another name, the control): a fused form that gains from a pairing is held to
// the copy that gains from it too.
#define COPY_HINT(LD, ST)                                                                                                      \
    extern "C" __global__ void copy_hint_##LD##_##ST(const float4* __restrict__ x, float4* __restrict__ y, long long n4) {     \
        long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;                                                        \
        if (i < n4) st4<ST>(y + i, ld4<LD>(x + i));                                                                           \
    }
#define COPY_HINT_PAIR(_, LD, ST) COPY_HINT(LD, ST)
HINT_PAIRS(COPY_HINT_PAIR, 0)
