#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;              // floats per 32 B block: reductions need a 32 B-aligned dst
constexpr uint32_t LANES = 64;            // floats per 256 B repeat; also the most rows per tile
constexpr uint32_t MAX_REP_STRIDE = 255;  // repeat strides are 8-bit, in 32 B blocks

// Per-row vectors of LANES floats in rowsBuf (index * LANES).
enum RowVec : uint32_t { TARGET_F, VALID, POS, OFFSET, PICKED, MASK, ROW_BYTE, SLOT_BYTE, LSE, LOSS_ACC, COUNT_ACC, STAT, ROW_VECS };

// F.cross_entropy(reduction="mean") in three stages, as the baseline: per-block sums and counts of
// the valid rows' loss = max + ln(sum(exp(x - max))) - x[target] (fp32), the partials through the
// workspace, SyncAll, block 0 divides. Here tileRows rows per tile: one multi-burst copy in for
// logits and targets, issued a tile ahead; Cast and Exp run once over the tile; the row max, the
// subtraction and the row sum treat rows as repeats (a few instructions per tile, not per row);
// and the picked logit, the row mask and the running sums stay on the vector unit, so for rows up
// to 2040 fp32 lanes the scalar unit only issues instructions and never waits for a vector result.
template <typename T>
class KernelCrossEntropyLoss {
 public:
  __aicore__ inline KernelCrossEntropyLoss() {}
  __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, uint32_t classes,
                              uint32_t formerNum, uint32_t formerRows, uint32_t tailRows, uint32_t tileRows, int32_t ignoreIndex) {
    block = GetBlockIdx();
    blocks = GetBlockNum();
    const uint32_t first = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->classes = classes;
    this->tileRows = tileRows < LANES ? tileRows : LANES;  // one per-row vector holds a tile
    this->ignoreIndex = ignoreIndex;
    rowPad = (classes + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));  // the 32 B-padded UB row
    rowBlocks = rowPad * sizeof(float) / 32;
    chunks = (classes + LANES - 1) / LANES;
    blocksPad = (blocks + SLOT - 1) / SLOT * SLOT;
    const uint32_t tilePad = (this->tileRows + SLOT - 1) / SLOT * SLOT;
    xGm.SetGlobalBuffer((__gm__ T*)logits + static_cast<uint64_t>(first) * classes, static_cast<uint64_t>(blockRows) * classes);
    targetGm.SetGlobalBuffer((__gm__ int32_t*)target + first, blockRows);
    lossGm.SetGlobalBuffer((__gm__ T*)loss, 1);
    partialGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), 2 * blocks);
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // the logits are read exactly once
    pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileRows * rowPad * sizeof(T));
    pipe.InitBuffer(inQueueTarget, BUFFER_NUM, tilePad * sizeof(int32_t));
    pipe.InitBuffer(inQueuePartial, 1, 2 * blocksPad * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 2 * SLOT * sizeof(float));
    // TPipe places buffers in InitBuffer order: accBuf and brcBuf follow xfBuf at a distance known in
    // 256 B units (8 of the 16 UB bank groups), which FoldRows and RowsAsRepeats use to keep the two
    // operands of an instruction in different bank groups. brcBuf holds two copies 256 B apart (mod 512 B).
    const uint32_t xfBytes = (this->tileRows * rowPad * sizeof(float) + 255) / 256 * 256;
    const uint32_t brcBytes = tilePad * SLOT * sizeof(float);
    const uint32_t brcSecond = (brcBytes + 511) / 512 * 512 + 256;
    pipe.InitBuffer(xfBuf, xfBytes);
    pipe.InitBuffer(accBuf, this->tileRows * 2 * LANES * sizeof(float));
    pipe.InitBuffer(brcBuf, brcSecond + brcBytes);
    const bool evenAt256 = xfBytes / 256 % 2 == 0;  // then offset 256 (mod 512) of acc and brc is 8 groups from even chunks
    evenHalf = evenAt256 ? LANES : 0;
    brcEven = evenAt256 ? brcSecond / sizeof(float) : 0;
    brcOdd = evenAt256 ? 0 : brcSecond / sizeof(float);
    pipe.InitBuffer(workBuf, (rowPad > blocksPad ? rowPad : blocksPad) * sizeof(float));
    pipe.InitBuffer(slotBuf, 2 * this->tileRows * SLOT * sizeof(float));  // row max, then row lse, one 32 B slot each
    pipe.InitBuffer(rowsBuf, ROW_VECS * LANES * sizeof(float));
    rows = rowsBuf.Get<float>();
    // Byte offsets of each row in the fp32 tile and of each 32 B slot, for Gather; running sums at 0.
    CreateVecIndex(Row(ROW_BYTE), 0.0f, LANES);
    Muls(Row(SLOT_BYTE), Row(ROW_BYTE), 32.0f, LANES);
    Cast(Row(SLOT_BYTE).template ReinterpretCast<int32_t>(), Row(SLOT_BYTE), RoundMode::CAST_RINT, LANES);
    Muls(Row(ROW_BYTE), Row(ROW_BYTE), static_cast<float>(rowPad * sizeof(float)), LANES);
    Duplicate(Row(LOSS_ACC), 0.0f, LANES);
    Duplicate(Row(COUNT_ACC), 0.0f, LANES);
  }
  __aicore__ inline void Process() {
    CopyIn(0, Rows(0));
    for (uint32_t done = 0; done < blockRows; done += tileRows) {
      if (done + tileRows < blockRows) CopyIn(done + tileRows, Rows(done + tileRows));  // overlaps this tile's compute
      Compute(Rows(done));
    }
    WritePartial();
    SyncAll();
    if (block == 0) Finish();
  }

 private:
  __aicore__ inline LocalTensor<float> Row(RowVec v) const { return rows[v * LANES]; }
  __aicore__ inline uint32_t Rows(uint32_t first) const { return blockRows - first < tileRows ? blockRows - first : tileRows; }
  __aicore__ inline void CopyIn(uint32_t first, uint32_t n) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    LocalTensor<int32_t> t = inQueueTarget.AllocTensor<int32_t>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(first) * classes],
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(classes * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(t, targetGm[first], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0},
                DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    inQueueX.EnQue(x);
    inQueueTarget.EnQue(t);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, n * rowPad);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, n * rowPad);  // padded lanes are computed too, never reduced nor picked
    }
    inQueueX.FreeTensor(x);
    LocalTensor<int32_t> t = inQueueTarget.DeQue<int32_t>();
    Pick(n, t);
    inQueueTarget.FreeTensor(t);
    if (rowBlocks <= MAX_REP_STRIDE) {
      RowsAsRepeats(n);
    } else {
      RowByRow(n);
    }
    Accumulate(n);
  }
  // logsumexp of every row to Row(LSE), one repeat per row: each instruction covers one 64-lane
  // chunk of all n rows (repeat stride = one UB row), so a stage costs ceil(C / 64) instructions.
  __aicore__ inline void RowsAsRepeats(uint32_t n) {
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> maxes = slotBuf.Get<float>();
    LocalTensor<float> brc = brcBuf.Get<float>();
    const uint8_t rs = static_cast<uint8_t>(rowBlocks);
    FoldRows<true>(maxes, n);
    // Each row's max fills a 32 B block, in two copies: each chunk subtracts the one 8 bank groups away.
    Brcb(brc[brcEven], maxes, static_cast<uint8_t>((n + SLOT - 1) / SLOT), {1, 8});
    if (chunks > 1) Brcb(brc[brcOdd], maxes, static_cast<uint8_t>((n + SLOT - 1) / SLOT), {1, 8});
    for (uint32_t j = 0; j < chunks; ++j)
      Sub(xf[j * LANES], xf[j * LANES], brc[j % 2 ? brcOdd : brcEven], ChunkMask(j), static_cast<uint8_t>(n), {1, 1, 0, rs, rs, 1});
    Exp(xf, xf, n * rowPad);
    FoldRows<false>(Row(LSE), n);
    Ln(Row(LSE), Row(LSE), n);
    Add(Row(LSE), Row(LSE), maxes, n);
  }
  // Row max (IS_MAX) or sum of every row to dst[r]: the row's chunks are folded lane-wise into one
  // 64-lane repeat, then each repeat is reduced to one value. Each acc row is two 256 B halves;
  // even chunks fold into the half 8 bank groups away from them, odd chunks into the other, so no
  // fold reads two operands from one bank group.
  template <bool IS_MAX>
  __aicore__ inline void FoldRows(const LocalTensor<float>& dst, uint32_t n) {
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> acc = accBuf.Get<float>();
    const uint8_t rs = static_cast<uint8_t>(rowBlocks);
    const uint8_t reps = static_cast<uint8_t>(n);
    LocalTensor<float> src = xf;
    uint8_t srcRs = rs;
    if (chunks > 1) {
      LocalTensor<float> even = acc[evenHalf], odd = acc[LANES - evenHalf];
      Adds(even, xf, 0.0f, LANES, reps, {1, 1, 16, rs});
      Adds(odd, xf[LANES], 0.0f, ChunkMask(1), reps, {1, 1, 16, rs});
      for (uint32_t j = 2; j < chunks; ++j) Fold<IS_MAX>(j % 2 ? odd : even, xf[j * LANES], ChunkMask(j), reps, rs);
      Fold<IS_MAX>(even, odd, ChunkMask(1), reps, 16);  // odd's lanes past a partial chunk 1 are not folded
      src = even;
      srcRs = 16;
    }
    if constexpr (IS_MAX) {
      WholeReduceMax(dst, src, ChunkMask(0), reps, 1, 1, srcRs, ReduceOrder::ORDER_ONLY_VALUE);
    } else {
      WholeReduceSum(dst, src, ChunkMask(0), reps, 1, 1, srcRs);
    }
  }
  // acc = max(acc, src) or acc + src lane-wise, one repeat per row.
  template <bool IS_MAX>
  __aicore__ inline void Fold(const LocalTensor<float>& acc, const LocalTensor<float>& src, uint64_t mask, uint8_t reps, uint8_t srcRs) {
    if constexpr (IS_MAX) {
      Max(acc, acc, src, mask, reps, {1, 1, 1, 16, 16, srcRs});
    } else {
      Add(acc, acc, src, mask, reps, {1, 1, 1, 16, 16, srcRs});
    }
  }
  __aicore__ inline uint64_t ChunkMask(uint32_t j) const { return j + 1 < chunks ? LANES : classes - j * LANES; }
  // Rows wider than a repeat stride can reach: one reduction per row into 32 B slots, the row max
  // read back once per tile for the shift, the slots gathered into Row(LSE).
  __aicore__ inline void RowByRow(uint32_t n) {
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> maxes = slotBuf.Get<float>();
    LocalTensor<float> sums = maxes[tileRows * SLOT];
    for (uint32_t r = 0; r < n; ++r) ReduceMax(maxes[r * SLOT], xf[r * rowPad], work, classes);
    for (uint32_t r = 0; r < n; ++r) rowMax[r] = maxes.GetValue(r * SLOT);
    for (uint32_t r = 0; r < n; ++r) Adds(xf[r * rowPad], xf[r * rowPad], -rowMax[r], classes);
    Exp(xf, xf, n * rowPad);
    for (uint32_t r = 0; r < n; ++r) ReduceSum(sums[r * SLOT], xf[r * rowPad], work, classes);
    Ln(sums, sums, n * SLOT);  // every row's sum in one pass (the slots' other lanes are never read)
    Add(sums, sums, maxes, n * SLOT);
    Gather(Row(LSE), sums, Row(SLOT_BYTE).template ReinterpretCast<uint32_t>(), 0, n);
  }
  // Row(VALID)[r] = 1 when row r's target is a class index other than ignoreIndex, else 0 (targets
  // compared in fp32: exact below 2^24); Row(PICKED)[r] = x[r, target], before the tile is shifted.
  __aicore__ inline void Pick(uint32_t n, const LocalTensor<int32_t>& t) {
    const uint32_t lanes = (n + SLOT - 1) / SLOT * SLOT;  // CompareScalar works on whole 32 B blocks
    LocalTensor<float> tf = Row(TARGET_F), valid = Row(VALID), pos = Row(POS), picked = Row(PICKED);
    LocalTensor<uint8_t> mask = Row(MASK).template ReinterpretCast<uint8_t>();
    LocalTensor<int32_t> offset = Row(OFFSET).template ReinterpretCast<int32_t>();
    Cast(tf, t, RoundMode::CAST_NONE, lanes);
    Duplicate(valid, 1.0f, lanes);
    CompareScalar(mask, tf, static_cast<float>(ignoreIndex), CMPMODE::NE, lanes);
    Select(valid, mask, valid, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, lanes);
    CompareScalar(mask, tf, 0.0f, CMPMODE::GE, lanes);
    Select(valid, mask, valid, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, lanes);
    CompareScalar(mask, tf, static_cast<float>(classes), CMPMODE::LT, lanes);
    Select(valid, mask, valid, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, lanes);
    // x[r, target] by byte offset into the tile; a row that does not count picks a clamped class.
    Maxs(pos, tf, 0.0f, lanes);
    Mins(pos, pos, static_cast<float>(classes - 1), lanes);
    Muls(pos, pos, static_cast<float>(sizeof(float)), lanes);
    Add(pos, pos, Row(ROW_BYTE), lanes);
    Cast(offset, pos, RoundMode::CAST_RINT, lanes);
    Gather(picked, xfBuf.Get<float>(), offset.template ReinterpretCast<uint32_t>(), 0, n);
  }
  // Adds (lse - x[target]) * valid and valid to the running sums, lane r for row r.
  __aicore__ inline void Accumulate(uint32_t n) {
    LocalTensor<float> valid = Row(VALID), picked = Row(PICKED);
    Sub(picked, Row(LSE), picked, n);
    Mul(picked, picked, valid, n);
    Add(Row(LOSS_ACC), Row(LOSS_ACC), picked, n);
    Add(Row(COUNT_ACC), Row(COUNT_ACC), valid, n);
  }
  // Sum and count go out in one two-burst copy; they must land before the barrier.
  __aicore__ inline void WritePartial() {
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> part = outQueue.AllocTensor<float>();
    ReduceSum(part, Row(LOSS_ACC), work, LANES);
    ReduceSum(part[SLOT], Row(COUNT_ACC), work, LANES);
    outQueue.EnQue(part);
    part = outQueue.DeQue<float>();
    DataCopyPad(partialGm[block], part, DataCopyExtParams{2, sizeof(float), 0, static_cast<uint32_t>((blocks - 1) * sizeof(float)), 0});
    outQueue.FreeTensor(part);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  // Block 0: both partial rows in one copy, two reductions and sum / count (0 / 0 = NaN).
  __aicore__ inline void Finish() {
    LocalTensor<float> parts = inQueuePartial.AllocTensor<float>();
    DataCopyPad(parts, partialGm, DataCopyExtParams{2, static_cast<uint32_t>(blocks * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQueuePartial.EnQue(parts);
    parts = inQueuePartial.DeQue<float>();
    LocalTensor<float> stat = Row(STAT);
    LocalTensor<float> work = workBuf.Get<float>();
    ReduceSum(stat, parts, work, blocks);
    ReduceSum(stat[SLOT], parts[blocksPad], work, blocks);
    Div(stat, stat, stat[SLOT], 1);
    inQueuePartial.FreeTensor(parts);
    LocalTensor<T> out = outQueue.AllocTensor<T>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(out.template ReinterpretCast<float>(), stat, 0.0f, 1);
    } else {
      Cast(out, stat, RoundMode::CAST_RINT, 1);
    }
    outQueue.EnQue(out);
    out = outQueue.DeQue<T>();
    DataCopyPad(lossGm, out, DataCopyExtParams{1, sizeof(T), 0, 0, 0});
    outQueue.FreeTensor(out);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueTarget;
  TQue<QuePosition::VECIN, 1> inQueuePartial;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> xfBuf, workBuf, slotBuf, brcBuf, accBuf, rowsBuf;
  LocalTensor<float> rows;
  GlobalTensor<T> xGm, lossGm;
  GlobalTensor<int32_t> targetGm;
  GlobalTensor<float> partialGm;
  float rowMax[LANES];
  uint32_t block, blocks, blockRows, classes, rowPad, blocksPad, tileRows;
  uint32_t rowBlocks, chunks;  // an fp32 UB row in 32 B blocks; 64-lane chunks per row
  uint32_t evenHalf;           // the acc half (0 or LANES) that even chunks fold into
  uint32_t brcEven, brcOdd;    // the brcBuf copy (float offset) that even / odd chunks subtract
  int32_t ignoreIndex;
};

extern "C" __global__ __aicore__ void cross_entropy_loss(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCrossEntropyLoss<DTYPE_LOSS> op;
  op.Init(logits, target, loss, workspace, tilingData.classes, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.tileRows, tilingData.ignoreIndex);
  op.Process();
}
