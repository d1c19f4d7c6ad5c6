// One fp16 tile C = A x B on one AIC in the cube's CCE intrinsics: A and B from GM into L1 as NZ,
// A's fractal rows into L0A, B's fractals transposed into L0B, one mad into L0C, C out in ND.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cce_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const uint32_t M = t.m, N = t.n, K = t.k;
  const uint32_t M1 = M / 16, N1 = N / 16, K1 = K / 16;
  __cbuf__ half* a1 = (__cbuf__ half*)(uintptr_t)0;
  __cbuf__ half* b1 = (__cbuf__ half*)(uintptr_t)(M * K * sizeof(half));
  __ca__ half* a2 = (__ca__ half*)(uintptr_t)0;
  __cb__ half* b2 = (__cb__ half*)(uintptr_t)0;
  __cc__ float* c0 = (__cc__ float*)(uintptr_t)0;
  copy_gm_to_cbuf_multi_nd2nz_b16(a1, (__gm__ half*)a, 0, 1, M, K, 0, K, M, 1, 0);
  copy_gm_to_cbuf_multi_nd2nz_b16(b1, (__gm__ half*)b, 0, 1, K, N, 0, N, K, 1, 0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  for (uint32_t i = 0; i < M1; ++i) load_cbuf_to_ca(a2 + i * K1 * 256, a1 + i * 256, 0, K1, M1, 0, 0, false, inc);
  for (uint32_t k = 0; k < K1; ++k) load_cbuf_to_cb(b2 + k * N1 * 256, b1 + k * 256, 0, N1, K1, 0, 0, true, inc);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad(c0, a2, b2, M, K, N, 0, false, false, true);
  set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  set_nd_para(1);
  copy_matrix_cc_to_gm((__gm__ float*)c, c0, 0, N, M, N, M, 0, NoQuant, 0, false, true);
}
