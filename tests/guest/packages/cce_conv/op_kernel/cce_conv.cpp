// A 3 x 3 convolution with bias on one AIC in the cube's CCE intrinsics (op.toml), the Mmad with the
// bias table through the API (the A2's mad with a bias operand is not among the intrinsics).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cce_conv(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR e, GM_ADDR y, GM_ADDR z,
                                               GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  __cbuf__ half* x1 = (__cbuf__ half*)(uintptr_t)0;
  __cbuf__ half* w1 = (__cbuf__ half*)(uintptr_t)2048;
  __cbuf__ half* bias1 = (__cbuf__ half*)(uintptr_t)8192;
  __cbuf__ half* z1 = (__cbuf__ half*)(uintptr_t)12288;
  __cbuf__ half* e1 = (__cbuf__ half*)(uintptr_t)16384;
  __ca__ half* a2 = (__ca__ half*)(uintptr_t)0;
  __cb__ half* b2 = (__cb__ half*)(uintptr_t)0;
  __cb__ half* e2 = (__cb__ half*)(uintptr_t)8192;
  __cc__ float* c0 = (__cc__ float*)(uintptr_t)0;
  copy_gm_to_cbuf(x1, (__gm__ void*)x, 0, 1, 36, 0, 0, PAD_NONE);
  copy_gm_to_cbuf_multi_nd2nz_b16(w1, (__gm__ half*)w, 0, 1, 16, 144, 0, 144, 16, 1, 0);
  copy_gm_to_cbuf(bias1, (__gm__ void*)bias, 0, 1, 2, 0, 0, PAD_MODE8);
  copy_gm_to_cbuf_multi_nd2nz_b16(e1, (__gm__ half*)e, 0, 1, 16, 16, 0, 16, 16, 1, 0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  copy_cbuf_to_bt(0, bias1, 1, 1, 1, 0, 0);
  set_fmatrix(6ull | 6ull << 16 | 0x01010101ull << 32);  // l1W, l1H, then the four pads of 1
  set_padding(0);
  set_l3d_rpt(1ull << 16);  // one repeat
  img2colv2_cbuf_to_ca(a2, x1, 144, 48, 0, 0, 1, 1, 3, 3, 1, 1, false, false, false, false, 16);
  load_cbuf_to_cb(b2, w1, 0, 9, 1, 0, 0, false, inc);
  load_cbuf_to_cb(e2, e1, 0, 1, 1, 0, 0, true, inc);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  MmadParams mp;
  mp.m = 36, mp.n = 16, mp.k = 144;
  Mmad(LocalTensor<float>(TPosition::CO1, 0, 48 * 16), LocalTensor<half>(TPosition::A2, 0, 48 * 144),
       LocalTensor<half>(TPosition::B2, 0, 144 * 16), LocalTensor<float>(TPosition::C2, 0, 16), mp);
  set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  set_nd_para(1);
  copy_matrix_cc_to_gm((__gm__ float*)y, c0, 0, 16, 36, 16, 48, 0, NoQuant, 0, false, true);
  copy_matrix_cc_to_cbuf(z1, c0, 0, 16, 36, 48, 48, 0, F322F16, 0, false, false);
  pipe_barrier(PIPE_ALL);
  load_cbuf_to_ca(a2, z1, 0, 3, 1, 0, 0, false, inc);
  pipe_barrier(PIPE_ALL);
  mad(c0, a2, e2, 36, 16, 16, 0, false, false, true);
  pipe_barrier(PIPE_ALL);
  copy_matrix_cc_to_gm((__gm__ float*)z, c0, 0, 16, 36, 16, 48, 0, NoQuant, 0, false, true);
}
