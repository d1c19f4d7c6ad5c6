"""Cores that meet by flags in GM (issue 52): a core polls a GM word until another core writes it.

The polling core yields to the others until the bytes change; a poll that observes another core's
write orders what that core did before it against what the poller does after (the cross-core race
check's acquire); a core that reads the flag before the writer's write is ordered before it sees the
older bytes first, so a poll observes the write whichever core ran first. A kernel that forgets
the flag (or reads it once without looping) races; a poll no one ends is a deadlock, bounded."""

import numpy as np
import pytest
from conftest import UB_HELPERS

X = np.arange(64, dtype=np.float32)
ZEROS = np.zeros(16, dtype=np.int32)

# The producer stores x into z and then raises a flag (a 32 B block of the workspace); the other
# block waits for the flag (WAIT), reads z back and stores z + 1.
MEET = """Ub ub; const int b = GetBlockIdx();
  GlobalTensor<int32_t> flag; flag.SetGlobalBuffer((__gm__ int32_t*)GetUserWorkspace(workspace), 8);
  LocalTensor<int32_t> f = ub.Alloc<int32_t>(8);
  if (b == PRODUCER) {
    LocalTensor<float> a = ub.In<float>(x, 64);
    SYNC(); ub.Out(z, a, 64);
    Duplicate(f, 1, 8); SYNC();
    RAISE
  } else {
    WAIT
    LocalTensor<float> zl = ub.In<float>(z, 64), w = ub.Alloc<float>(64);
    SYNC(); Adds(w, zl, 1.0f, 64); SYNC();
    ub.Out(z, w, 64);
  }"""
RAISE = "DataCopy(flag, f, 8);"
POLL = "do { DataCopy(f, flag, 8); SYNC(); } while (f.GetValue(0) != 1);"


def meet(kernel, producer: int, wait: str = POLL, raise_: str = RAISE, blocks: int = 2):
    body = MEET.replace("PRODUCER", str(producer)).replace("WAIT", wait).replace("RAISE", raise_)
    return kernel(
        body,
        {"x": X},
        {"z": ("float32", (64,))},
        block_dim=blocks,
        workspace=1024,
        prelude=UB_HELPERS,
        strict=False,
    )


@pytest.mark.parametrize("producer", [0, 1])
def test_two_cores_meet_by_a_flag_in_gm(kernel, producer):
    # Producer 1: block 0 runs first and polls (it yields until block 1 writes the flag). Producer 0:
    # block 0 has ended when block 1 reads the flag, and sees it unraised first (it came early).
    r = meet(kernel, producer).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + 1)


@pytest.mark.parametrize("producer", [0, 1])
def test_a_flag_stored_through_a_raw_pointer(kernel, producer):
    # The store runs before it is recorded: the bytes it changed are kept all the same.
    raw = "PipeBarrier<PIPE_ALL>(); *(__gm__ int32_t*)GetUserWorkspace(workspace) = 1;"
    r = meet(kernel, producer, raise_=raw).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + 1)


@pytest.mark.parametrize("producer", [0, 1])
def test_a_poll_through_a_raw_pointer(kernel, producer):
    # Scalar loads through a __gm__ pointer (charged as the data cache's), polled the same way.
    raw = "while (*(volatile __gm__ int32_t*)GetUserWorkspace(workspace) != 1) {}"
    r = meet(kernel, producer, wait=raw).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + 1)


def test_a_poll_pays_its_copies_in_the_trace(kernel):
    # Block 0 polls: 8 reads of the unraised flag, then it yields; block 1 runs and raises it; the
    # 8th read, resumed, sees it unraised (the copy was issued before the write), the 9th observes
    # it. Each read is a 32 B copy in block 0's trace, then z's 256 B.
    r = meet(kernel, 1).ok()
    reads = {b["block"]: b["gm_read_bytes"] for b in r.result["profile"]["blocks"]}
    assert reads == {0: 256 + 9 * 32, 1: 256}


def test_the_poller_waits_for_the_producer_in_the_model(kernel):
    # Block 1 works long before it raises the flag: block 0, which polls, ends after it (its trace
    # waits for the flag's copy), not when its own few copies would have.
    work = "for (int i = 0; i < 200; ++i) { Adds(a, a, 0.0f, 64); SYNC(); }\n    " + RAISE
    r = meet(kernel, 1, raise_=work).ok()
    cycles = {b["block"]: b["aiv_total_cycles"] for b in r.result["profile"]["blocks"]}
    assert cycles[0] > cycles[1] > 200 * 20, cycles


@pytest.mark.parametrize("producer", [0, 1])
def test_a_consumer_that_forgets_the_flag_races(kernel, producer):
    r = meet(kernel, producer, wait="")
    assert r.status == "RACE_DETECTED", r.message


def test_a_flag_read_once_without_a_loop_races(kernel):
    # The flag is read once: the consumer came before the producer's write (a timing the device
    # may take), goes on without it, and its reads of z are not ordered after the producer's writes.
    once = "DataCopy(f, flag, 8); SYNC(); if (f.GetValue(0) != 1) { }"
    r = meet(kernel, 0, wait=once)
    assert r.status == "RACE_DETECTED", r.message


@pytest.mark.parametrize("blocks", [1, 2])
def test_a_poll_no_one_ends_is_a_deadlock_naming_its_line(kernel, blocks):
    # No block raises the flag: the poller yields, then reads on alone until the bound.
    r = meet(kernel, 1, raise_="", blocks=blocks)
    assert r.status == "RUNTIME_ERROR", r.message
    assert "deadlock" in r.message and "polling GM workspace" in r.message, r.message
    assert "unchanged through 16384 reads" in r.message, r.message


# IBSet / IBWait, a round trip: block 0 stores x into z and sets its flag; block 1 waits for it,
# adds 1 and sets its own; block 0 waits for that and adds 1 again. The flags' GM starts zeroed, as
# the API asks: an input of zeros.
IB = """Ub ub; const int b = GetBlockIdx();
  GlobalTensor<int32_t> ws; ws.SetGlobalBuffer((__gm__ int32_t*)w, 16);
  LocalTensor<int32_t> f = ub.Alloc<int32_t>(8);
  LocalTensor<float> sum = ub.Alloc<float>(64);
  auto addOne = [&] {
    LocalTensor<float> zl = ub.In<float>(z, 64);
    SYNC(); Adds(sum, zl, 1.0f, 64); SYNC();
    ub.Out(z, sum, 64); SYNC();
  };
  if (b == 0) {
    LocalTensor<float> a = ub.In<float>(x, 64);
    SYNC(); ub.Out(z, a, 64);
    IBSet(ws, f, 0, 0);
    IBWait(ws, f, 1, 0);
    addOne();
  } else {
    IBWait(ws, f, 0, 0);
    addOne();
    IBSet(ws, f, 1, 0);
  }"""


def round_trip(kernel, body: str = IB):
    return kernel(
        body,
        {"x": X, "w": ZEROS},
        {"z": ("float32", (64,))},
        block_dim=2,
        prelude=UB_HELPERS,
        strict=False,
    )


def test_ibset_and_ibwait_order_a_round_trip(kernel):
    r = round_trip(kernel).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + 2)


def test_ibwait_without_its_ibset_is_a_deadlock(kernel):
    r = round_trip(kernel, IB.replace("    IBSet(ws, f, 1, 0);\n", ""))
    assert r.status == "RUNTIME_ERROR" and "deadlock" in r.message, r.message


# Every block adds its row into a shared sum atomically, raises its byte in a flag array and polls
# the array until every byte is raised (the all-core barrier of ops-nn index_fill, written by hand):
# then each block copies the sum into a shared scratch (the same bytes from every block) and reads
# it back into its row of z.
BARRIER = """Ub ub; const int b = GetBlockIdx(), n = GetBlockNum();
  GlobalTensor<float> sum; sum.SetGlobalBuffer((__gm__ float*)w, 8);
  GlobalTensor<uint8_t> flags; flags.SetGlobalBuffer((__gm__ uint8_t*)w + 32, 32);
  GlobalTensor<float> scratch; scratch.SetGlobalBuffer((__gm__ float*)w + 16, 8);
  LocalTensor<float> row = ub.In<float>(x + b * 8 * sizeof(float), 8);
  LocalTensor<uint8_t> f = ub.Alloc<uint8_t>(32);
  SYNC(); SetAtomicAdd<float>(); DataCopy(sum, row, 8); SetAtomicNone(); SYNC();
  f.SetValue(0, 1); SYNC();
  DataCopyPad(flags[b], f, DataCopyExtParams{1, 1, 0, 0, 0}); SYNC();
  for (bool all = false; !all;) {
    DataCopyPad(f, flags, DataCopyExtParams{1, static_cast<uint32_t>(n), 0, 0, 0},
                DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
    SYNC();
    all = true;
    for (int i = 0; i < n; ++i) all = all && f.GetValue(i) == 1;
  }
  LocalTensor<float> s = ub.Alloc<float>(8), back = ub.Alloc<float>(8);
  DataCopy(s, sum, 8);
  SYNC(); DataCopy(scratch, s, 8); SYNC();
  DataCopy(back, scratch, 8);
  SYNC(); ub.Out(z + b * 8 * sizeof(float), back, 8);"""


@pytest.mark.parametrize("blocks", [2, 5])
def test_every_block_meets_at_a_barrier_of_flags(kernel, blocks):
    x = np.arange(blocks * 8, dtype=np.float32)
    r = kernel(
        BARRIER,
        {"x": x, "w": np.zeros(32, np.float32)},
        {"z": ("float32", (blocks, 8))},
        block_dim=blocks,
        prelude=UB_HELPERS,
        strict=False,
    ).ok()
    np.testing.assert_array_equal(r.outputs["z"], np.tile(x.reshape(blocks, 8).sum(0), (blocks, 1)))
