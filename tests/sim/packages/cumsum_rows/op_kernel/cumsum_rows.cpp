#include "kernel_operator.h"
using namespace AscendC;

class KernelCumsumRows {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumsumRowsTilingData& tiling)
  {
    t = tiling;
    rowBegin = GetBlockIdx() * t.rowsPerCore;
    rowEnd = rowBegin + t.rowsPerCore < t.rows ? rowBegin + t.rowsPerCore : t.rows;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y);
    pipe.InitBuffer(inQ, 2, t.colsPad * sizeof(DTYPE_X));
    pipe.InitBuffer(outQ, 2, t.colsPad * sizeof(DTYPE_Y));
    pipe.InitBuffer(tmpBuf, t.tmpBytes);
  }
  __aicore__ inline void Process()
  {
    for (uint32_t r = rowBegin; r < rowEnd; ++r) {
      LocalTensor<DTYPE_X> xLocal = inQ.AllocTensor<DTYPE_X>();
      DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * t.cols], DataCopyExtParams{1, static_cast<uint32_t>(t.cols * sizeof(DTYPE_X)), 0, 0, 0},
                  DataCopyPadExtParams<DTYPE_X>{true, 0, static_cast<uint8_t>(t.colsPad - t.cols), 0});
      inQ.EnQue(xLocal);
      xLocal = inQ.DeQue<DTYPE_X>();
      LocalTensor<DTYPE_Y> yLocal = outQ.AllocTensor<DTYPE_Y>();

      static constexpr CumSumConfig cfg{true, false, false};
      CumSum<DTYPE_X, cfg>(yLocal, yLocal, xLocal, tmpBuf.Get<uint8_t>(), CumSumInfo{1, t.colsPad});
      outQ.EnQue(yLocal);
      inQ.FreeTensor(xLocal);
      yLocal = outQ.DeQue<DTYPE_Y>();
      DataCopyPad(yGm[static_cast<uint64_t>(r) * (t.cols)], yLocal, DataCopyExtParams{1, static_cast<uint32_t>((t.cols) * sizeof(DTYPE_Y)), 0, 0, 0});
      outQ.FreeTensor(yLocal);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQ;
  TQue<QuePosition::VECOUT, 2> outQ;
  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y> yGm;
  CumsumRowsTilingData t;
  uint32_t rowBegin = 0, rowEnd = 0;
  TBuf<> tmpBuf;
};

extern "C" __global__ __aicore__ void cumsum_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(tilingData, tiling);
  KernelCumsumRows op;
  op.Init(x, y, tilingData);
  op.Process();
}
