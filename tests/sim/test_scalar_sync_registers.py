"""DataSyncBarrier (a barrier of the scalar pipe) and get_max_min_cnt (the CCE intrinsic reading the
max/min register a ReduceMax leaves: the extreme's bits low, its element index high), as
production norm kernels call them before reading a reduction's result as a scalar."""

import numpy as np
from conftest import UB_HELPERS


def test_get_max_min_cnt_reads_the_reduce_max_register_after_a_data_sync_barrier(kernel):
    x = np.random.default_rng(41).uniform(-50, 50, 128).astype(np.float32)
    body = """Ub ub;
  LocalTensor<float> a = ub.In<float>(xx, 128), w = ub.Alloc<float>(128), d = ub.Alloc<float>(8); SYNC();
  ReduceMax(w, a, w, 128, true);
  SetFlag<HardEvent::V_S>(EVENT_ID0);
  WaitFlag<HardEvent::V_S>(EVENT_ID0);
  DataSyncBarrier<MemDsbT::UB>();
  const int64_t reg = get_max_min_cnt();
  const uint32_t bits = static_cast<uint32_t>(reg);
  float value;
  memcpy(&value, &bits, sizeof(value));
  d.SetValue(0, value);
  d.SetValue(1, static_cast<float>(static_cast<uint64_t>(reg) >> 32));
  DataSyncBarrier<MemDsbT::ALL>();
  SYNC(); ub.Out(z, d, 8);"""
    r = kernel(body, {"xx": x}, {"z": ("float32", (8,))}, prelude=UB_HELPERS).ok()
    z = r.outputs["z"]
    assert z[0] == x.max()
    assert z[1] == np.argmax(x)
