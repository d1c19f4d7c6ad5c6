// Anchor A2: read a half matrix GM -> UB with one DataCopyPad per [tileRows, tileCols] tile and
// nothing else, so the copies alone set the time. Streaming tiles land in one UB buffer back to
// back (same pipe, in order); `queued` passes each tile through a one-slot queue instead, so each
// copy's GM latency is exposed. Block b writes the first 16 elements of its first tile to y[b],
// which lets the reference check that the right data was read.
#include "kernel_operator.h"

using namespace AscendC;

class A2Read {
 public:
  __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, const A2ReadTilingData& t) {
    const uint32_t blocks = GetBlockNum(), b = GetBlockIdx();
    const uint32_t bandRows = t.shared ? t.rows : t.rows / blocks;
    const uint32_t firstRow = t.shared ? 0 : b * bandRows;
    const uint32_t colTiles = (t.cols + t.tileCols - 1) / t.tileCols;
    const uint32_t tiles = (bandRows + t.tileRows - 1) / t.tileRows * colTiles;
    const uint32_t startTile = t.staggered ? b * tiles / blocks : 0;
    xGm_.SetGlobalBuffer((__gm__ half*)x, static_cast<uint64_t>(t.rows) * t.cols);
    yGm_.SetGlobalBuffer((__gm__ half*)y, blocks * 16);
    const uint32_t rowBytes = (t.tileCols * sizeof(half) + 31) / 32 * 32;
    pipe_.InitBuffer(head_, 32);
    if (t.queued) pipe_.InitBuffer(queue_, 1, t.tileRows * rowBytes);
    else pipe_.InitBuffer(stream_, t.tileRows * rowBytes);
    LocalTensor<half> head = head_.Get<half>();
    for (uint32_t k = 0; k < tiles; ++k) {
      const uint32_t tile = (startTile + k) % tiles;
      const uint32_t r0 = firstRow + tile / colTiles * t.tileRows, c0 = tile % colTiles * t.tileCols;
      const uint32_t rows = bandRows - (r0 - firstRow) < t.tileRows ? bandRows - (r0 - firstRow) : t.tileRows;
      const uint32_t cols = t.cols - c0 < t.tileCols ? t.cols - c0 : t.tileCols;
      const DataCopyExtParams p{static_cast<uint16_t>(rows), cols * static_cast<uint32_t>(sizeof(half)),
                                (t.cols - cols) * static_cast<uint32_t>(sizeof(half)), 0, 0};
      const uint64_t at = static_cast<uint64_t>(r0) * t.cols + c0;
      if (k == 0) DataCopyPad(head, xGm_[at], DataCopyExtParams{1, 32, 0, 0, 0}, DataCopyPadExtParams<half>{false, 0, 0, 0});
      if (t.queued) {
        LocalTensor<half> buf = queue_.AllocTensor<half>();
        DataCopyPad(buf, xGm_[at], p, DataCopyPadExtParams<half>{false, 0, 0, 0});
        queue_.EnQue(buf);
        buf = queue_.DeQue<half>();
        queue_.FreeTensor(buf);
      } else {
        LocalTensor<half> buf = stream_.Get<half>();
        DataCopyPad(buf, xGm_[at], p, DataCopyPadExtParams<half>{false, 0, 0, 0});
      }
    }
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopyPad(yGm_[b * 16], head, DataCopyExtParams{1, 32, 0, 0, 0});
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> head_, stream_;
  TQue<QuePosition::VECIN, 1> queue_;
  GlobalTensor<half> xGm_, yGm_;
};

extern "C" __global__ __aicore__ void a2_read(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  A2Read op;
  op.Run(x, y, t);
}
