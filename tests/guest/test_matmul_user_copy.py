"""The Matmul's user copies of A and B into L1 (MatmulCallBackFunc's CopyA1 / CopyB1, asc-devkit page
MatmulCallBackFunc), on both engines: the library calls the kernel's function for each tile it
loads, with the tile's L1 buffer, the operand's GM address, the tile's position and extent and the
SetUserDefInfo / SetSelfDefineData values; a function that copies each tile as the library does
(ND to NZ, rows padded to 16) gives the product. A function that copies nothing leaves L1 as it
was, so the product is wrong (the callback is what fills L1, not a copy of the library's own)."""

from __future__ import annotations

from ascend_core.protocol import Status
from tests.guest.test_matmul_policy import with_matmul

# The tile at (row, col) of `useRows` x `useCols` elements of the operand as laid out in GM (A
# [M, K], B [K, N]): tiles are base blocks under NORM, stepM x stepKa / stepKb x stepN of them under
# MDL (the kernel's MDL flag in dataPtr's bit 1). A transposed operand (dataPtr bit 0, B only here)
# sits in GM as [N, K]: its NZ rows are N.
USER_COPIES = """
struct TileCopy {
  uint32_t rowStep, colStep, pitch;
};
__aicore__ inline void CopyTile(const LocalTensor<int8_t>& l1, const __gm__ void* gm, uint32_t row, uint32_t col,
                                uint32_t useRows, uint32_t useCols, const TileCopy& c, bool trans) {
  GlobalTensor<half> src;
  src.SetGlobalBuffer((__gm__ half*)gm);
  LocalTensor<half> dst = l1.ReinterpretCast<half>();
  const uint32_t r0 = row * c.rowStep, c0 = col * c.colStep;
  if (!trans) {
    DataCopy(dst, src[static_cast<uint64_t>(r0) * c.pitch + c0],
             Nd2NzParams(1, useRows, useCols, 0, c.pitch, (useRows + 15) / 16 * 16, 1, 0));
  } else {
    DataCopy(dst, src[static_cast<uint64_t>(c0) * c.pitch + r0],
             Nd2NzParams(1, useCols, useRows, 0, c.pitch, (useCols + 15) / 16 * 16, 1, 0));
  }
}
__aicore__ inline void UserCopyA(const LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col, int useM,
                                 int useK, const uint64_t tilingPtr, const uint64_t dataPtr) {
  const TCubeTiling& tl = *reinterpret_cast<const TCubeTiling*>(tilingPtr);
  const bool mdl = (dataPtr & 2) != 0;
  const TileCopy c{static_cast<uint32_t>(tl.baseM * (mdl ? tl.stepM : 1)),
                   static_cast<uint32_t>(tl.baseK * (mdl ? tl.stepKa : 1)), static_cast<uint32_t>(tl.Ka)};
  CopyTile(l1, gm, row, col, useM, useK, c, false);
}
__aicore__ inline void UserCopyB(const LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col, int useK,
                                 int useN, const uint64_t tilingPtr, const uint64_t dataPtr) {
  const TCubeTiling& tl = *reinterpret_cast<const TCubeTiling*>(tilingPtr);
  const bool mdl = (dataPtr & 2) != 0, trans = (dataPtr & 1) != 0;
  const TileCopy c{static_cast<uint32_t>(tl.baseK * (mdl ? tl.stepKb : 1)),
                   static_cast<uint32_t>(tl.baseN * (mdl ? tl.stepN : 1)),
                   static_cast<uint32_t>(trans ? tl.Kb : tl.N)};
  CopyTile(l1, gm, row, col, useK, useN, c, trans);
}
__aicore__ inline void CopyNothing(const LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int, const uint64_t,
                                   const uint64_t) {}
"""
USING = "using namespace AscendC;\n"
REGIST = "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);\n"


def user_copied(callbacks: str, mdl: bool):
    """level1/matmul with a Matmul whose A / B copies are the kernel's `callbacks`."""
    cfg = "CFG_MDL" if mdl else "CFG_NORM"
    declared = f"Matmul<AType, AType, CType, BiasType, {cfg}, MatmulCallBackFunc<{callbacks}>>"
    data = f"static_cast<uint64_t>(t.transB != 0) | {2 if mdl else 0}"
    pkg = with_matmul(
        declared,
        (
            REGIST,
            REGIST + "  mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&tl));\n"
            f"  mm.SetSelfDefineData({data});\n",
        ),
    )
    kernel = pkg.files[pkg.kernel_path]
    return pkg.with_sources(kernel=kernel.replace(USING, USING + USER_COPIES, 1))


def test_user_copies_of_a_and_b_give_the_product_on_both_engines(engines):
    engines.same(user_copied("nullptr, UserCopyA, UserCopyB", mdl=False))


def test_user_copies_of_mdl_tiles_give_the_product_on_both_engines(engines):
    engines.same(user_copied("nullptr, UserCopyA, UserCopyB", mdl=True))


def test_a_user_copy_that_copies_nothing_is_what_l1_holds(engines):
    for result in engines.both(user_copied("nullptr, nullptr, CopyNothing", mdl=False)):
        assert result.status is Status.WRONG_ANSWER, result.message


# A user copy that calls a Matmul from inside the Matmul's step (here another object's End, the
# object handed to it through SetSelfDefineData), which the library never does: on the guest engine
# the call would re-enter the host's Matmul mid-iteration, so it is refused.
REENTER = """
using Plain = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                     MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
                     CFG_NORM>;
__aicore__ inline void Reenter(const LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int, const uint64_t,
                               const uint64_t dataPtr) {
  reinterpret_cast<Plain*>(dataPtr)->End();
}
"""


def test_a_user_copy_that_calls_a_matmul_is_refused_on_the_guest_engine(engines):
    pkg = with_matmul(
        "Matmul<AType, AType, CType, BiasType, CFG_NORM, MatmulCallBackFunc<nullptr, Reenter, nullptr>>",
        (
            REGIST,
            REGIST
            + "  Plain other;\n  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), other, &tl);\n"
            "  mm.SetSelfDefineData(reinterpret_cast<uint64_t>(&other));\n",
        ),
    )
    kernel = pkg.files[pkg.kernel_path]
    pkg = pkg.with_sources(kernel=kernel.replace(USING, USING + REENTER, 1))
    result = engines.guest_only(pkg)
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "called from a user copy" in result.message, result.message
