"""Arange on the guest engine (ascendc_guest/adv_arange.h): a kernel of ours gets the native
engine's verdict, vector time and latency, and the sequence ArithProgression writes."""

from __future__ import annotations

from .test_adv import SIGMOID_COMPUTE, adv_sigmoid, same_charge

# level1/sigmoid's kernel, then Arange and ArithProgression of 2 + 0.5 i over 128 elements: their
# difference, 0 where Arange is right, is added to the output.
ARANGE_COMPUTE = f"""{SIGMOID_COMPUTE}
    LocalTensor<T> w = workBuf.Get<T>();
    const uint32_t m = n < 128 ? n : 128;
    Arange(w, static_cast<T>(2.0f), static_cast<T>(0.5f), 128);
    ArithProgression(w[128], static_cast<T>(2.0f), static_cast<T>(0.5f), 128);
    PipeBarrier<PIPE_V>();
    Sub(w, w, w[128], 128);
    Add(y, y, w, m);"""


def test_arange_matches_the_native_engine_with_its_values(engines):
    same_charge(engines, adv_sigmoid(ARANGE_COMPUTE), 0.05)
