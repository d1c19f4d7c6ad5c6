// Expert: flash-attention-style tiling with the cube and vector work pipelined across key blocks.
// The work items (rows query rows of one batch-head) go round robin to the groups of one AIC and two
// AIVs; an item's keys are taken kvBlock at a time (block n of the group's sequence uses workspace
// slot n % 2). The AIC computes the scores of block n, then p @ v of block n - 1, while the AIVs
// (each with half the rows) run the online softmax of block n: running row max m and sum l,
// p = exp(s - m_new) in fp16, alpha = exp(m_old - m_new), then fold the p @ v of block n - 1 into
// their fp32 accumulator (acc * alpha + o). At an item's end acc / l is cast to fp16 and written.
// Cross-core flags (mode 2) per slot: scores ready (AIC -> AIVs), p ready (AIVs -> AIC), p @ v
// ready (AIC -> AIVs), p @ v block read (AIVs -> AIC).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using HalfTrans = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr uint32_t SLOT = 8;        // floats per row result: ReduceMax / ReduceSum need a 32 B-aligned dst
constexpr uint32_t MAX_HALF = 128;  // rows per AIV (the host caps rows per item at 256)
constexpr uint16_t S_READY = 0, P_READY = 2, O_READY = 4, O_FREE = 6;  // + slot

struct Item {
  uint32_t h, r0, rows;
};

extern "C" __global__ __aicore__ void attention(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR mask, GM_ADDR out, GM_ADDR workspace,
                                                GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA(t, tiling);
  TPipe pipe;
  const uint32_t S = t.seq, L = t.kvSeq, D = t.dim, R = t.rows, B = t.kvBlock;
  const uint32_t groups = GetBlockNum(), qBlocks = (S + R - 1) / R, items = t.heads * qBlocks;
  auto ItemOf = [&](uint32_t item) {
    const uint32_t r0 = item % qBlocks * R;
    return Item{item / qBlocks, r0, S - r0 < R ? S - r0 : R};
  };
  const uint32_t group = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / GetTaskRation();
  GlobalTensor<half> gq, gk, gv, gmask, gout, gp;
  GlobalTensor<float> gs, go;
  gq.SetGlobalBuffer((__gm__ half*)q);
  gk.SetGlobalBuffer((__gm__ half*)k);
  gv.SetGlobalBuffer((__gm__ half*)v);
  gmask.SetGlobalBuffer((__gm__ half*)mask);
  gout.SetGlobalBuffer((__gm__ half*)out);
  // The group's workspace: two slots each of scores (fp32), p (fp16) and p @ v (fp32).
  GM_ADDR ws = GetUserWorkspace(workspace) + static_cast<uint64_t>(group) * 2 * (R * B * 6 + R * D * 4);
  gs.SetGlobalBuffer((__gm__ float*)ws);
  gp.SetGlobalBuffer((__gm__ half*)(ws + 2 * R * B * 4));
  go.SetGlobalBuffer((__gm__ float*)(ws + 2 * R * B * 6));

  if ASCEND_IS_AIC {
    Matmul<HalfND, HalfTrans, FloatND, FloatND, CFG_MDL> qk;
    Matmul<HalfND, HalfND, FloatND, FloatND, CFG_MDL> pv;
    qk.Init(&t.qk, &pipe);
    pv.Init(&t.pv, &pipe);
    uint32_t n = 0;
    Item prev{};
    uint32_t prevJ = 0;
    auto pvBlock = [&](const Item& it, uint32_t j, uint32_t m) {  // p @ v of block m
      const uint32_t s = m % 2;
      CrossCoreWaitFlag(P_READY + s);
      if (m >= 2) CrossCoreWaitFlag(O_FREE + s);  // the AIVs have read this slot's block m - 2
      pv.SetTensorA(gp[s * R * B]);
      pv.SetTensorB(gv[(static_cast<uint64_t>(it.h) * L + j) * D]);
      pv.SetTail(it.rows, D, B);
      pv.IterateAll(go[s * R * D]);
      CrossCoreSetFlag<2, PIPE_FIX>(O_READY + s);
    };
    for (uint32_t item = group; item < items; item += groups) {
      const Item it = ItemOf(item);
      for (uint32_t j = 0; j < L; j += B, ++n) {
        const uint32_t s = n % 2;  // block n - 2's p @ v (issued before) has read this slot's p
        qk.SetTensorA(gq[(static_cast<uint64_t>(it.h) * S + it.r0) * D]);
        qk.SetTensorB(gk[(static_cast<uint64_t>(it.h) * L + j) * D], true);
        qk.SetTail(it.rows, B, D);
        qk.IterateAll(gs[s * R * B]);
        CrossCoreSetFlag<2, PIPE_FIX>(S_READY + s);
        if (n > 0) pvBlock(prev, prevJ, n - 1);
        prev = it, prevJ = j;
      }
    }
    if (n > 0) pvBlock(prev, prevJ, n - 1);
    for (uint32_t m = n >= 2 ? n - 2 : 0; m < n; ++m) CrossCoreWaitFlag(O_FREE + m % 2);
    qk.End();
    pv.End();
    return;
  }

  // AIV: rows [lo, lo + my) of each item.
  const uint32_t sub = GetSubBlockIdx(), C = t.chunkRows;
  TQue<TPosition::VECIN, 1> qs, qm, qo;
  TQue<TPosition::VECOUT, 1> qp, qy;
  TBuf<TPosition::VECCALC> mfBuf, workBuf, redBuf, accBuf, exBuf;
  pipe.InitBuffer(qs, 1, C * B * sizeof(float));
  pipe.InitBuffer(qm, 1, C * B * sizeof(half));
  pipe.InitBuffer(qp, 1, C * B * sizeof(half));
  const uint32_t hRows = (R + 1) / 2;  // the most rows an AIV takes
  pipe.InitBuffer(qo, 1, hRows * D * sizeof(float));
  pipe.InitBuffer(qy, 1, hRows * D * sizeof(half));
  pipe.InitBuffer(mfBuf, C * B * sizeof(float));
  pipe.InitBuffer(workBuf, B * sizeof(float));
  pipe.InitBuffer(redBuf, C * SLOT * sizeof(float));
  pipe.InitBuffer(accBuf, hRows * D * sizeof(float));
  pipe.InitBuffer(exBuf, (C + 7) / 8 * 8 * sizeof(float));
  LocalTensor<float> mf = mfBuf.Get<float>(), work = workBuf.Get<float>(), red = redBuf.Get<float>();
  LocalTensor<float> acc = accBuf.Get<float>(), ex = exBuf.Get<float>();
  float mRow[MAX_HALF], lRow[MAX_HALF], alpha[2][MAX_HALF];  // per row: max, sum; per slot: exp(m_old - m_new)
  bool firstOfItem[2] = {true, true};  // per slot: the block starts its item (acc = o)

  // Fold p @ v of block m (slot m % 2) into acc; at the item's end write acc / l.
  auto consume = [&](const Item& it, uint32_t m, bool last) {
    const uint32_t s = m % 2, lo = sub == 0 ? 0 : (it.rows + 1) / 2, my = sub == 0 ? (it.rows + 1) / 2 : it.rows / 2;
    CrossCoreWaitFlag(O_READY + s);
    if (my > 0) {
      LocalTensor<float> o = qo.AllocTensor<float>();
      DataCopy(o, go[s * R * D + lo * D], my * D);
      qo.EnQue(o);
      o = qo.DeQue<float>();
      if (firstOfItem[s]) {
        Adds(acc, o, 0.0f, my * D);
      } else {
        for (uint32_t r = 0; r < my; ++r) Muls(acc[r * D], acc[r * D], alpha[s][r], D);
        Add(acc, acc, o, my * D);
      }
      qo.FreeTensor(o);
    }
    CrossCoreSetFlag<2, PIPE_MTE2>(O_FREE + s);
    if (last && my > 0) {
      for (uint32_t r = 0; r < my; ++r) Muls(acc[r * D], acc[r * D], 1.0f / lRow[r], D);
      LocalTensor<half> y = qy.AllocTensor<half>();
      Cast(y, acc, RoundMode::CAST_RINT, my * D);
      qy.EnQue(y);
      y = qy.DeQue<half>();
      DataCopy(gout[(static_cast<uint64_t>(it.h) * S + it.r0 + lo) * D], y, my * D);
      qy.FreeTensor(y);
    }
  };

  uint32_t n = 0;
  Item prev{};
  for (uint32_t item = group; item < items; item += groups) {
    const Item it = ItemOf(item);
    const uint32_t lo = sub == 0 ? 0 : (it.rows + 1) / 2, my = sub == 0 ? (it.rows + 1) / 2 : it.rows / 2;
    for (uint32_t j = 0; j < L; j += B, ++n) {
      const uint32_t s = n % 2;
      if (n > 0 && j == 0) consume(prev, n - 1, true);  // the previous item's last block
      firstOfItem[s] = j == 0;
      CrossCoreWaitFlag(S_READY + s);
      for (uint32_t c = 0; c < my; c += C) {
        const uint32_t rn = my - c < C ? my - c : C;
        LocalTensor<float> sc = qs.AllocTensor<float>();
        DataCopy(sc, gs[s * R * B + (lo + c) * B], rn * B);
        qs.EnQue(sc);
        LocalTensor<half> mk = qm.AllocTensor<half>();
        DataCopy(mk, gmask[static_cast<uint64_t>(it.r0 + lo + c) * L + j],
                 DataCopyParams{static_cast<uint16_t>(rn), static_cast<uint16_t>(B / 16), static_cast<uint16_t>((L - B) / 16), 0});
        qm.EnQue(mk);
        sc = qs.DeQue<float>();
        mk = qm.DeQue<half>();
        Cast(mf, mk, RoundMode::CAST_NONE, rn * B);
        qm.FreeTensor(mk);
        Muls(sc, sc, t.scale, rn * B);
        Add(sc, sc, mf, rn * B);
        for (uint32_t r = 0; r < rn; ++r) ReduceMax(red[r * SLOT], sc[r * B], work, B);
        for (uint32_t r = 0; r < rn; ++r) {
          const float mx = red.GetValue(r * SLOT), mOld = j == 0 ? mx : mRow[c + r];
          const float mNew = mx > mOld ? mx : mOld;
          ex.SetValue(r, mOld - mNew);
          mRow[c + r] = mNew;
          Adds(sc[r * B], sc[r * B], -mNew, B);
        }
        Exp(sc, sc, rn * B);
        for (uint32_t r = 0; r < rn; ++r) ReduceSum(red[r * SLOT], sc[r * B], work, B);
        if (j != 0) Exp(ex, ex, rn);
        LocalTensor<half> p = qp.AllocTensor<half>();
        Cast(p, sc, RoundMode::CAST_RINT, rn * B);
        qp.EnQue(p);
        qs.FreeTensor(sc);
        p = qp.DeQue<half>();
        DataCopy(gp[s * R * B + (lo + c) * B], p, rn * B);
        qp.FreeTensor(p);
        for (uint32_t r = 0; r < rn; ++r) {
          const float blockSum = red.GetValue(r * SLOT);
          alpha[s][c + r] = j == 0 ? 1.0f : ex.GetValue(r);
          lRow[c + r] = j == 0 ? blockSum : lRow[c + r] * alpha[s][c + r] + blockSum;
        }
      }
      CrossCoreSetFlag<2, PIPE_MTE3>(P_READY + s);
      if (j > 0) consume(it, n - 1, false);
      prev = it;
    }
  }
  if (n > 0) consume(prev, n - 1, true);
}
