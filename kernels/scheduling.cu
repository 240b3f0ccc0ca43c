// A tiled stable softmax in three phases, scheduled four ways. Every variant runs the same
// task functions on the same global intermediates:
//   A(t)  one task per 1024-element tile: tile max m_t and z_t = sum exp(x - m_t);
//   B(r)  one task per row: m = max m_t, z = sum z_t exp(m_t - m) over the row's tiles;
//   C(t)  one task per tile: y = exp(x - m) / z with its row's m and z.
// Rows are stored one after another and every row length is a multiple of 1024, so tile t
// covers elements [1024 t, 1024 t + 1024) and belongs to row tile_row[t]; row r owns tiles
// [row_tile_start[r], row_tile_start[r + 1]).
//
// Variants:
//   sched_a, sched_b, sched_c   three kernels, one block per task (stream, or one graph).
//   sched_phase                 one cooperative persistent kernel: all A, grid sync, all B,
//                               grid sync, all C.
//   sched_queue                 one persistent kernel whose workers pop task ids from a global
//                               counter in dependency order (all A, then all B, then all C) and
//                               wait on per-row counters: B(r) for its row's A tiles, C(t) for
//                               B(row). A task is popped only by a running worker, and its
//                               dependencies have smaller ids, so they were popped earlier by
//                               running workers: the queue cannot deadlock.
// Persistent kernels run one 256-thread block per SM; a dynamic shared-memory reservation
// made by the host keeps a second block off each SM.
//
// Tracing: when `trace` is not null, thread 0 of the worker records for global task id g
// (A: t, B: n_tiles + r, C: n_tiles + n_rows + t) its start and end %globaltimer, its worker
// block and SM, and counts how often the slot was written. Timing runs pass null.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define NEG_INF __int_as_float(0xff800000)
#define LOG2E 1.4426950408889634f
#define TILE 1024

struct TraceSlot {
    unsigned long long start, end;
    unsigned int worker, sm, writes, pad;
};

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned int sm_id() {
    unsigned int s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// The block's max, then its sum of exp(v - max), over one value per thread... per element
// group; `red` holds 16 floats. Blocks are 256 threads (8 warps).
__device__ __forceinline__ float block_max256(float m, float* red) {
    m = warp_max(m);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = m;
    __syncthreads();
    float v = red[threadIdx.x & 7];
    return warp_max(v);
}

__device__ __forceinline__ float block_sum256(float s, float* red) {
    s = warp_sum(s);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) red[8 + (threadIdx.x >> 5)] = s;
    __syncthreads();
    float v = red[8 + (threadIdx.x & 7)];
    // Lanes 8..31 duplicate lanes 0..7; summing 8 distinct values needs a 3-step reduction.
    for (int o = 4; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ void task_a(int t, const float* __restrict__ x, float* tile_m, float* tile_z, float* red) {
    float4 v = __ldcs(reinterpret_cast<const float4*>(x + (size_t)t * TILE) + threadIdx.x);
    float m = block_max256(fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)), red);
    float s = exp2f((v.x - m) * LOG2E) + exp2f((v.y - m) * LOG2E) + exp2f((v.z - m) * LOG2E) + exp2f((v.w - m) * LOG2E);
    s = block_sum256(s, red);
    if (threadIdx.x == 0) {
        tile_m[t] = m;
        tile_z[t] = s;
    }
}

// Intermediates written by other blocks during the same kernel are read with __ldcg, which
// bypasses the (non-coherent) L1.
__device__ void task_b(int r, const int* row_tile_start, const float* tile_m, const float* tile_z, float* row_m, float* row_z, float* red) {
    int t0 = row_tile_start[r], t1 = row_tile_start[r + 1];
    float m = NEG_INF;
    for (int t = t0 + threadIdx.x; t < t1; t += blockDim.x) m = fmaxf(m, __ldcg(tile_m + t));
    m = block_max256(m, red);
    float z = 0.f;
    for (int t = t0 + threadIdx.x; t < t1; t += blockDim.x) z += __ldcg(tile_z + t) * exp2f((__ldcg(tile_m + t) - m) * LOG2E);
    z = block_sum256(z, red);
    if (threadIdx.x == 0) {
        row_m[r] = m;
        row_z[r] = z;
    }
}

__device__ void task_c(int t, const int* tile_row, const float* __restrict__ x, const float* row_m, const float* row_z, float* __restrict__ y) {
    int r = tile_row[t];
    float m = __ldcg(row_m + r), inv = 1.f / __ldcg(row_z + r);
    float4 v = __ldcs(reinterpret_cast<const float4*>(x + (size_t)t * TILE) + threadIdx.x);
    float4 o = make_float4(exp2f((v.x - m) * LOG2E) * inv, exp2f((v.y - m) * LOG2E) * inv, exp2f((v.z - m) * LOG2E) * inv,
                           exp2f((v.w - m) * LOG2E) * inv);
    __stcs(reinterpret_cast<float4*>(y + (size_t)t * TILE) + threadIdx.x, o);
}

__device__ __forceinline__ void trace_begin(TraceSlot* trace, int g, unsigned long long& start) {
    if (trace && threadIdx.x == 0) start = global_ns();
}

__device__ __forceinline__ void trace_end(TraceSlot* trace, int g, unsigned long long start) {
    if (trace && threadIdx.x == 0) {
        TraceSlot* s = trace + g;
        s->start = start;
        s->end = global_ns();
        s->worker = blockIdx.x;
        s->sm = sm_id();
        atomicAdd(&s->writes, 1u);
    }
}

// ---------------------------------------------------------------------------------------
// Three kernels, one block per task.

extern "C" __global__ void __launch_bounds__(256) sched_a(const float* x, float* tile_m, float* tile_z, TraceSlot* trace) {
    __shared__ float red[16];
    unsigned long long start = 0;
    trace_begin(trace, blockIdx.x, start);
    task_a(blockIdx.x, x, tile_m, tile_z, red);
    trace_end(trace, blockIdx.x, start);
}

extern "C" __global__ void __launch_bounds__(256) sched_b(const int* row_tile_start, const float* tile_m, const float* tile_z, float* row_m,
                                                          float* row_z, int n_tiles, TraceSlot* trace) {
    __shared__ float red[16];
    unsigned long long start = 0;
    trace_begin(trace, n_tiles + blockIdx.x, start);
    task_b(blockIdx.x, row_tile_start, tile_m, tile_z, row_m, row_z, red);
    trace_end(trace, n_tiles + blockIdx.x, start);
}

extern "C" __global__ void __launch_bounds__(256) sched_c(const int* tile_row, const float* x, const float* row_m, const float* row_z, float* y,
                                                          int n_tiles, int n_rows, TraceSlot* trace) {
    unsigned long long start = 0;
    trace_begin(trace, n_tiles + n_rows + blockIdx.x, start);
    task_c(blockIdx.x, tile_row, x, row_m, row_z, y);
    trace_end(trace, n_tiles + n_rows + blockIdx.x, start);
}

// ---------------------------------------------------------------------------------------
// Phase-fused: cooperative persistent kernel, a grid-wide sync between phases.

extern "C" __global__ void __launch_bounds__(256, 1) sched_phase(const float* x, float* y, const int* row_tile_start, const int* tile_row,
                                                                 float* tile_m, float* tile_z, float* row_m, float* row_z, int n_tiles,
                                                                 int n_rows, TraceSlot* trace) {
    __shared__ float red[16];
    cg::grid_group grid = cg::this_grid();
    unsigned long long start = 0;
    for (int t = blockIdx.x; t < n_tiles; t += gridDim.x) {
        trace_begin(trace, t, start);
        task_a(t, x, tile_m, tile_z, red);
        trace_end(trace, t, start);
    }
    grid.sync();
    for (int r = blockIdx.x; r < n_rows; r += gridDim.x) {
        trace_begin(trace, n_tiles + r, start);
        task_b(r, row_tile_start, tile_m, tile_z, row_m, row_z, red);
        trace_end(trace, n_tiles + r, start);
    }
    grid.sync();
    for (int t = blockIdx.x; t < n_tiles; t += gridDim.x) {
        trace_begin(trace, n_tiles + n_rows + t, start);
        task_c(t, tile_row, x, row_m, row_z, y);
        trace_end(trace, n_tiles + n_rows + t, start);
    }
}

// ---------------------------------------------------------------------------------------
// Queue: counters[0] is the next task id, counters[1 + r] counts finished A tiles of row r,
// counters[1 + n_rows + r] is 1 once B(r) has finished. The host zeroes them before every
// invocation (a memset in the same stream, or a memset node in the graph).

__device__ __forceinline__ unsigned int load_acquire(const unsigned int* p) {
    unsigned int v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void add_release(unsigned int* p, unsigned int v) {
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

extern "C" __global__ void __launch_bounds__(256, 1) sched_queue(const float* x, float* y, const int* row_tile_start, const int* tile_row,
                                                                 float* tile_m, float* tile_z, float* row_m, float* row_z, int n_tiles,
                                                                 int n_rows, unsigned int* counters, TraceSlot* trace) {
    __shared__ float red[16];
    __shared__ int next;
    unsigned int* a_done = counters + 1;
    unsigned int* b_done = counters + 1 + n_rows;
    const int total = 2 * n_tiles + n_rows;
    unsigned long long start = 0;
    for (;;) {
        if (threadIdx.x == 0) next = (int)atomicAdd(counters, 1u);
        __syncthreads();
        int g = next;
        // Every thread has read `next` before thread 0 may overwrite it on the next turn.
        __syncthreads();
        if (g >= total) break;
        if (g < n_tiles) {
            trace_begin(trace, g, start);
            task_a(g, x, tile_m, tile_z, red);
            __syncthreads();
            if (threadIdx.x == 0) {
                __threadfence();
                add_release(a_done + tile_row[g], 1u);
            }
            trace_end(trace, g, start);
        } else if (g < n_tiles + n_rows) {
            int r = g - n_tiles;
            if (threadIdx.x == 0) {
                unsigned int need = (unsigned int)(row_tile_start[r + 1] - row_tile_start[r]);
                while (load_acquire(a_done + r) < need) __nanosleep(64);
            }
            __syncthreads();
            trace_begin(trace, g, start);
            task_b(r, row_tile_start, tile_m, tile_z, row_m, row_z, red);
            __syncthreads();
            if (threadIdx.x == 0) {
                __threadfence();
                add_release(b_done + r, 1u);
            }
            trace_end(trace, g, start);
        } else {
            int t = g - n_tiles - n_rows;
            if (threadIdx.x == 0) {
                while (load_acquire(b_done + tile_row[t]) == 0u) __nanosleep(64);
            }
            __syncthreads();
            trace_begin(trace, g, start);
            task_c(t, tile_row, x, row_m, row_z, y);
            trace_end(trace, g, start);
        }
    }
}
