"""The MDL template with stepKa != stepKb (issue 52; cann-ops mat_mul_v3's bench tiling has stepKa 8,
stepKb 4), on both engines: asc-devkit's MDL K loop steps K by the smaller of the two and loads A's
chunk every stepKa / min steps, B's every stepKb / min. level1/matmul under MDL with one of its
tiling's two steps halved in the kernel: its cases take K in one to five base blocks (tails, a
transposed B), so a chunk of one operand spans several of the other's, ends at K's tail, or is one
base block against two."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage
from tests.guest.test_matmul_policy import with_matmul
from tests.guest.test_matmul_user_copy import REGIST


def with_halved(step: str) -> OperatorPackage:
    """level1/matmul under MDL with the tiling's `step` (stepKa or stepKb) halved (1 stays 1)."""
    halved = (
        "  TCubeTiling steps = tl;\n"
        f"  steps.{step} = steps.{step} > 1 ? steps.{step} / 2 : 1;\n"
        "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &steps);\n"
    )
    return with_matmul("Matmul<AType, AType, CType, BiasType, CFG_MDL>", (REGIST, halved))


@pytest.mark.parametrize("step", ["stepKb", "stepKa"])
def test_unequal_k_steps_give_the_product_on_both_engines(engines, step):
    # OK on both engines, every case passed, the same latency (engines.same); before, a B chunk in
    # A's K length overran its L1 slot (a RUNTIME_ERROR) or B lagged A's chunk.
    assert engines.same(with_halved(step)).cases
