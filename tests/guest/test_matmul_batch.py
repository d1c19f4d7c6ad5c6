"""The Matmul's batch form (asc-devkit pages SetBatchNum and IterateBatch, NORMAL layout: one [M, K] x
[K, N] after the other), on both engines: level2/batch_matmul with each cube core computing a run of
whole batches by one IterateBatch gives the product, with the documented default strides or the
kernel's own; the counts must divide, and the unmodelled modes are refused by name."""

from __future__ import annotations

from ascend_core.package import OperatorPackage
from ascend_core.protocol import Status
from ascend_core.suite import resolve

LOOP_START = "  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;\n"
LOOP_END = "  mm.End();\n"
# The batches [start, start + count) of this core: A, B and C at their first, one IterateBatch.
BATCHED = """  const uint32_t per = (t.batch + GetBlockNum() - 1) / GetBlockNum(), start = GetBlockIdx() * per;
  const uint32_t count = start < t.batch ? (t.batch - start < per ? t.batch - start : per) : 0;
  if (count > 0) {
    mm.SetTensorA(ga[static_cast<uint64_t>(start) * tl.M * tl.Ka]);
    mm.SetTensorB(gb[static_cast<uint64_t>(start) * tl.Kb * tl.N]);
    mm.SetBatchNum(BATCH_A, BATCH_B);
    mm.IterateBatch(gc[static_cast<uint64_t>(start) * tl.M * tl.N], ARGS);
  }
"""


def batched(
    batch_a: str = "count", batch_b: str = "count", args: str = "false, 0, false"
) -> OperatorPackage:
    """level2/batch_matmul (one whole matrix per Matmul) with each core's batches as one IterateBatch."""
    pkg = resolve("level2/batch_matmul")
    kernel = pkg.files[pkg.kernel_path]
    start, end = kernel.index(LOOP_START), kernel.index(LOOP_END)
    body = BATCHED.replace("BATCH_A", batch_a).replace("BATCH_B", batch_b).replace("ARGS", args)
    return pkg.with_sources(kernel=kernel[:start] + body + kernel[end:])


def test_iterate_batch_gives_every_product_on_both_engines(engines):
    engines.same(batched())


def test_iterate_batch_takes_the_kernels_strides_on_both_engines(engines):
    engines.same(batched(args="0, 0, 0, tl.M * tl.Ka, tl.Kb * tl.N"))


def test_a_strided_past_its_matrices_gives_a_wrong_c(engines):
    """The strides are the ones used: twice A's size reads other batches' A (or past them)."""
    for result in engines.both(batched(args="false, 0, false, 2 * tl.M * tl.Ka")):
        assert result.status in (Status.WRONG_ANSWER, Status.RUNTIME_ERROR), result.message


def test_batch_counts_that_do_not_divide_and_unmodelled_modes_are_refused(engines):
    refused = {
        "one a multiple of the other": batched(batch_a="2", batch_b="3"),
        "enSequentialWrite / enPartialSum are not modelled": batched(args="false, 0, true"),
    }
    for needle, pkg in refused.items():
        for result in engines.both(pkg):
            assert result.status is Status.RUNTIME_ERROR, result.message
            assert needle in result.message, result.message
