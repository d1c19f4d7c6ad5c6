// Attention block, mixed kernel (one AIC, two AIVs per group). Each AIV takes work items of `rows`
// query rows of one batch-head round robin, and per item: the scores q @ k^T for every key on its
// group's AIC into its fp32 workspace; the softmax of scores * scale + mask in UB, chunkRows rows
// per tile (row max, exp, row sum, normalise), the probabilities cast to fp16 into the workspace;
// then p @ v on the AIC straight into out.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using HalfTrans = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr uint32_t SLOT = 8;  // floats per row result: ReduceMax / ReduceSum need a 32 B-aligned dst

extern "C" __global__ __aicore__ void attention(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR mask, GM_ADDR out, GM_ADDR workspace,
                                                GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA(t, tiling);
  TPipe pipe;
  Matmul<HalfND, HalfTrans, FloatND, FloatND, CFG_NORM> qk;
  Matmul<HalfND, HalfND, HalfND, FloatND, CFG_NORM> pv;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), qk, &t.qk, pv, &t.pv);
  const uint32_t S = t.seq, L = t.kvSeq, D = t.dim, R = t.rows, C = t.chunkRows;
  const uint32_t aiv = GetBlockIdx(), aivs = GetBlockNum() * GetTaskRation();
  GlobalTensor<half> gq, gk, gv, gmask, gout, gp;
  GlobalTensor<float> gs;
  gq.SetGlobalBuffer((__gm__ half*)q);
  gk.SetGlobalBuffer((__gm__ half*)k);
  gv.SetGlobalBuffer((__gm__ half*)v);
  gmask.SetGlobalBuffer((__gm__ half*)mask);
  gout.SetGlobalBuffer((__gm__ half*)out);
  GM_ADDR ws = GetUserWorkspace(workspace) + static_cast<uint64_t>(aiv) * (R * L * 6 + R * D * 4);
  gs.SetGlobalBuffer((__gm__ float*)ws);
  gp.SetGlobalBuffer((__gm__ half*)(ws + R * L * 4));
  TQue<TPosition::VECIN, 1> qs, qm;
  TQue<TPosition::VECOUT, 1> qp;
  TBuf<TPosition::VECCALC> mfBuf, workBuf, redBuf;
  pipe.InitBuffer(qs, 1, C * L * sizeof(float));
  pipe.InitBuffer(qm, 1, C * L * sizeof(half));
  pipe.InitBuffer(qp, 1, C * L * sizeof(half));
  pipe.InitBuffer(mfBuf, C * L * sizeof(float));
  pipe.InitBuffer(workBuf, L * sizeof(float));
  pipe.InitBuffer(redBuf, C * SLOT * sizeof(float));
  LocalTensor<float> mf = mfBuf.Get<float>(), work = workBuf.Get<float>(), red = redBuf.Get<float>();
  const uint32_t blocks = (S + R - 1) / R;
  for (uint32_t item = aiv; item < t.heads * blocks; item += aivs) {
    const uint32_t h = item / blocks, r0 = item % blocks * R, rows = S - r0 < R ? S - r0 : R;
    qk.SetTensorA(gq[(static_cast<uint64_t>(h) * S + r0) * D]);
    qk.SetTensorB(gk[static_cast<uint64_t>(h) * L * D], true);
    qk.SetTail(rows, L, D);
    qk.IterateAll(gs);
    for (uint32_t c = 0; c < rows; c += C) {
      const uint32_t n = rows - c < C ? rows - c : C;
      LocalTensor<float> s = qs.AllocTensor<float>();
      DataCopy(s, gs[c * L], n * L);
      qs.EnQue(s);
      LocalTensor<half> m = qm.AllocTensor<half>();
      DataCopy(m, gmask[static_cast<uint64_t>(r0 + c) * L], n * L);
      qm.EnQue(m);
      s = qs.DeQue<float>();
      m = qm.DeQue<half>();
      Cast(mf, m, RoundMode::CAST_NONE, n * L);
      qm.FreeTensor(m);
      Muls(s, s, t.scale, n * L);
      Add(s, s, mf, n * L);
      for (uint32_t r = 0; r < n; ++r) ReduceMax(red[r * SLOT], s[r * L], work, L);
      for (uint32_t r = 0; r < n; ++r) Adds(s[r * L], s[r * L], -red.GetValue(r * SLOT), L);
      Exp(s, s, n * L);
      for (uint32_t r = 0; r < n; ++r) ReduceSum(red[r * SLOT], s[r * L], work, L);
      for (uint32_t r = 0; r < n; ++r) Muls(s[r * L], s[r * L], 1.0f / red.GetValue(r * SLOT), L);
      LocalTensor<half> p = qp.AllocTensor<half>();
      Cast(p, s, RoundMode::CAST_RINT, n * L);
      qp.EnQue(p);
      qs.FreeTensor(s);
      p = qp.DeQue<half>();
      DataCopy(gp[c * L], p, n * L);
      qp.FreeTensor(p);
    }
    PipeBarrier<PIPE_ALL>();  // p is in GM before the cube reads it
    pv.SetTensorA(gp);
    pv.SetTensorB(gv[static_cast<uint64_t>(h) * L * D]);
    pv.SetTail(rows, D, L);
    pv.IterateAll(gout[(static_cast<uint64_t>(h) * S + r0) * D]);
  }
  qk.End();
  pv.End();
}
