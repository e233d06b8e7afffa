#pragma once
// HSPARSE_HOST_DEVICE marks the small functions written once for the host
// and the device (CUDA's __host__ __device__ under nvcc, nothing elsewhere).
#if defined(__CUDACC__)
#define HSPARSE_HOST_DEVICE __host__ __device__
#else
#define HSPARSE_HOST_DEVICE
#endif
