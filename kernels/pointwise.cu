// Pointwise warm-up: y = (x * a + b)^2 as three dependent kernels, and the same three fused.
//
// Every operation uses an explicit round-to-nearest intrinsic (__fmul_rn, __fadd_rn), so that
// the compiler cannot contract a multiply and an add into one FMA in the fused kernel: fused
// and unfused results are then bit-identical, and any difference is a bug.
//
// Each thread handles one float4; n is a multiple of 4 and the grid covers n / 4 exactly.
// Logical bytes: three-kernel 24 n (each kernel reads and writes 4 n), fused 8 n.

extern "C" __global__ void pw_scale(const float4* __restrict__ x, float4* __restrict__ t1, float a, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = x[i];
    t1[i] = make_float4(__fmul_rn(v.x, a), __fmul_rn(v.y, a), __fmul_rn(v.z, a), __fmul_rn(v.w, a));
}

extern "C" __global__ void pw_shift(const float4* __restrict__ t1, float4* __restrict__ t2, float b, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = t1[i];
    t2[i] = make_float4(__fadd_rn(v.x, b), __fadd_rn(v.y, b), __fadd_rn(v.z, b), __fadd_rn(v.w, b));
}

extern "C" __global__ void pw_square(const float4* __restrict__ t2, float4* __restrict__ y, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = t2[i];
    y[i] = make_float4(__fmul_rn(v.x, v.x), __fmul_rn(v.y, v.y), __fmul_rn(v.z, v.z), __fmul_rn(v.w, v.w));
}

__device__ __forceinline__ float pw_one(float v, float a, float b) {
    float t = __fadd_rn(__fmul_rn(v, a), b);
    return __fmul_rn(t, t);
}

extern "C" __global__ void pw_fused(const float4* __restrict__ x, float4* __restrict__ y, float a, float b, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = x[i];
    y[i] = make_float4(pw_one(v.x, a, b), pw_one(v.y, a, b), pw_one(v.z, a, b), pw_one(v.w, a, b));
}
