"""The race checker's same-value rule on both engines (docs/simulator.md): block 0 of level1/add
first copies lane 0 of eight 32 B blocks of its x tile out to z with DataCopyPad, then rewrites the
tile in place with a Gather, nothing ordering the two (add_rms_norm's CopyOutRstd and ComputeY).
A Gather that stores each block's lane 0 back into it changes the other lanes only, so the copy
reads the same bytes whichever runs first: a warning, and the add passes. One that stores lane 1
there races. The bytes are compared in the engine's own local memory, after the Gather wrote
them, never values the kernel reports."""

from __future__ import annotations

from ascend_core.protocol import Status
from ascend_core.suite import resolve

ADD = resolve("level1/add")
KERNEL = ADD.files["op_kernel/add.cpp"]
LOOP = "    for (uint32_t done = 0; done < blockLength; done += tileLength) {"


def head(lane: int) -> str:
    return f"""\
    constexpr uint32_t LANES = 32 / sizeof(DTYPE_Z), N = 8 * LANES;
    if (GetBlockIdx() == 0 && blockLength >= N && tileLength >= N) {{
      LocalTensor<DTYPE_Z> t = outQueueZ.AllocTensor<DTYPE_Z>();
      LocalTensor<DTYPE_Y> held = inQueueY.AllocTensor<DTYPE_Y>();
      LocalTensor<uint32_t> off = held.template ReinterpretCast<uint32_t>();
      for (uint32_t i = 0; i < N; ++i) off.SetValue(i, (i / LANES) * 32 + {lane} * sizeof(DTYPE_Z));
      DataCopy(t.template ReinterpretCast<DTYPE_X>(), xGm, N);
      PipeBarrier<PIPE_ALL>();
      DataCopyPad(zGm, t, DataCopyParams{{8, static_cast<uint16_t>(sizeof(DTYPE_Z)), 0, 0}});
      Gather(t, t, off, 0, N);
      PipeBarrier<PIPE_ALL>();
      outQueueZ.FreeTensor(t);
      inQueueY.FreeTensor(held);
    }}
{LOOP}"""


def package(lane: int):
    assert LOOP in KERNEL
    return ADD.with_sources(kernel=KERNEL.replace(LOOP, head(lane), 1))


def test_a_gather_of_the_same_bytes_the_copy_reads_passes_on_both_engines(engines):
    for result in engines.both(package(0)):
        assert result.status is Status.OK, result.message
        assert "leaves every byte the other touches" in result.message, result.message


def test_a_gather_of_other_values_into_those_bytes_races_on_both_engines(engines):
    for result in engines.both(package(1)):
        assert result.status is Status.RACE_DETECTED, result.message
        assert "Gather on PIPE_V writes UB" in result.message, result.message
