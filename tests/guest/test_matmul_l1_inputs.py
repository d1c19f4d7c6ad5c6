"""A and B the kernel holds in L1 (asc-devkit SetTensorA / SetTensorB with a LocalTensor, and the
guide's "TSCM input" page), on both engines: the kernel copies its single-core matrix into an A1 / B1
queue's buffer as NZ (ND2NZ, rows padded to 16) and hands the LocalTensor to the Matmul, which reads
it there and copies nothing of it from GM. The MatmulTypes say ND, as ops-nn mat_mul_v3's TSCM type
does (the format of the GM source; an L1 operand is NZ whatever it says). The product is the kernel's L1 contents: a kernel that
copies nothing into L1 gets a wrong C. A LocalTensor in the UB is refused, as not modelled."""

from __future__ import annotations

from ascend_core.package import OperatorPackage
from ascend_core.protocol import Status
from tests.guest.test_matmul_policy import with_matmul
from tests.guest.test_matmul_user_copy import REGIST

SET_A = "  mm.SetTensorA(ga[mi * tl.singleCoreM * tl.Ka]);\n"
SET_B = "  mm.SetTensorB(t.transB ? gb[ni * tl.singleCoreN * tl.Kb] : gb[ni * tl.singleCoreN], t.transB != 0);\n"
SET_TAIL = "  mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);\n"
ITERATE_ALL = "  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n"
# The core's block in pieces of at most 64 x 64 (so a piece's A [pm, K] and B [K, pn] fit L1 whole,
# as the TSCM input requires), each with its single-core shape set and its operands given: A_SET /
# B_SET below, from GM or copied into L1 as NZ (rows padded to 16).
PIECES = """\
  const int32_t sm = tailM < tl.singleCoreM ? tailM : tl.singleCoreM;
  const int32_t sn = tailN < tl.singleCoreN ? tailN : tl.singleCoreN;
  const uint16_t k = tl.Ka, k16 = (k + 15) / 16 * 16;
  TQue<TPosition::A1, 1> qa;
  TQue<TPosition::B1, 1> qb;
  QUEUES
  for (int32_t r = 0; r < sm; r += 64) {
    for (int32_t c = 0; c < sn; c += 64) {
      const uint16_t pm = sm - r < 64 ? sm - r : 64, pn = sn - c < 64 ? sn - c : 64;
      const uint16_t m16 = (pm + 15) / 16 * 16, n16 = (pn + 15) / 16 * 16;
      const int32_t row = mi * tl.singleCoreM + r, col = ni * tl.singleCoreN + c;
      mm.SetTail(pm, pn);
A_SET B_SET      mm.IterateAll(gc[row * tl.N + col]);
FREE    }
  }
"""
A_GM = "      mm.SetTensorA(ga[row * tl.Ka]);\n"
B_GM = "      mm.SetTensorB(t.transB ? gb[col * tl.Kb] : gb[col], t.transB != 0);\n"
A_L1 = """\
      LocalTensor<half> la = qa.AllocTensor<half>();
      DataCopy(la, ga[row * tl.Ka], Nd2NzParams(1, pm, k, 0, tl.Ka, m16, 1, 0));
      qa.EnQue(la);
      la = qa.DeQue<half>();
      mm.SetTensorA(la);
"""
B_L1 = """\
      LocalTensor<half> lb = qb.AllocTensor<half>();
      if (t.transB)
        DataCopy(lb, gb[col * tl.Kb], Nd2NzParams(1, pn, k, 0, tl.Kb, n16, 1, 0));
      else
        DataCopy(lb, gb[col], Nd2NzParams(1, k, pn, 0, tl.N, k16, 1, 0));
      qb.EnQue(lb);
      lb = qb.DeQue<half>();
      mm.SetTensorB(lb, t.transB != 0);
"""
A_TSCM = (
    "Matmul<MatmulType<TPosition::TSCM, CubeFormat::ND, half>, AType, CType, BiasType, CFG_NORM>"
)
B_TSCM = (
    "Matmul<AType, MatmulType<TPosition::TSCM, CubeFormat::ND, half>, CType, BiasType, CFG_NORM>"
)


def in_l1(declared: str, a: bool, b: bool, mdl: bool = False, fill_a: bool = True):
    """level1/matmul in pieces with A and / or B copied into L1 by the kernel (`fill_a` False: A's
    buffer handed over without the copy into it)."""
    if mdl:
        declared = declared.replace("CFG_NORM", "CFG_MDL")
    pkg = with_matmul(declared)
    kernel = pkg.files[pkg.kernel_path]
    queues = ("  pipe.InitBuffer(qa, 1, 64 * k16 * sizeof(half));\n" if a else "") + (
        "  pipe.InitBuffer(qb, 1, 64 * k16 * sizeof(half));\n" if b else ""
    )
    a_set = A_L1 if a else A_GM
    if not fill_a:
        a_set = a_set.replace(
            "      DataCopy(la, ga[row * tl.Ka], Nd2NzParams(1, pm, k, 0, tl.Ka, m16, 1, 0));\n", ""
        )
    free = ("      qa.FreeTensor(la);\n" if a else "") + ("      qb.FreeTensor(lb);\n" if b else "")
    body = (
        PIECES.replace("  QUEUES\n", queues)
        .replace("A_SET B_SET", a_set + (B_L1 if b else B_GM))
        .replace("FREE", free)
    )
    for old in (SET_A, SET_B, SET_TAIL, ITERATE_ALL):
        assert old in kernel
    kernel = (
        kernel.replace(SET_A, "")
        .replace(SET_B, "")
        .replace(SET_TAIL, "")
        .replace(ITERATE_ALL, body)
    )
    return pkg.with_sources(kernel=kernel)


# A second object, all in GM, computing the same piece into C between the kernel's copy of A into its
# A1 queue and the first object's IterateAll (round 19's red team, docs/trust_boundary.md).
SECOND_OBJECT_PIECE = (
    "      mm.SetTensorA(la);\n",
    "      other.SetTensorA(ga[row * tl.Ka]);\n"
    "      other.SetTensorB(t.transB ? gb[col * tl.Kb] : gb[col], t.transB != 0);\n"
    "      other.SetTail(pm, pn);\n"
    "      other.IterateAll(gc[row * tl.N + col]);\n"
    "      mm.SetTensorA(la);\n",
)


def with_a_second_object() -> OperatorPackage:
    """in_l1 with A in L1 and a second object (SECOND_OBJECT_PIECE) registered after the first."""
    pkg = in_l1(A_TSCM, a=True, b=False)
    kernel = pkg.files[pkg.kernel_path]
    other = (
        "  Matmul<AType, AType, CType, BiasType, CFG_NORM> other;\n"
        "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), other, &tl);\n"
    )
    assert REGIST in kernel and SECOND_OBJECT_PIECE[0] in kernel
    kernel = kernel.replace(REGIST, REGIST + other, 1).replace(*SECOND_OBJECT_PIECE)
    return pkg.with_sources(kernel=kernel)


def test_a_in_l1_gives_the_product_on_both_engines(engines):
    engines.same(in_l1(A_TSCM, a=True, b=False))


def test_b_in_l1_gives_the_product_on_both_engines(engines):
    engines.same(in_l1(B_TSCM, a=False, b=True))


def test_a_and_b_in_l1_under_mdl_give_the_product_on_both_engines(engines):
    both = "Matmul<MatmulType<TPosition::A1, CubeFormat::ND, half>, MatmulType<TPosition::B1, CubeFormat::ND, half>,"
    engines.same(in_l1(both + " CType, BiasType, CFG_NORM>", a=True, b=True, mdl=True))


def test_an_l1_operand_the_kernel_never_filled_gives_a_wrong_c(engines):
    for result in engines.both(in_l1(A_TSCM, a=True, b=False, fill_a=False)):
        assert result.status is Status.WRONG_ANSWER, result.message


def test_an_operand_in_the_ub_is_refused_at_compile_time(engines):
    vecout = "Matmul<MatmulType<TPosition::VECOUT, CubeFormat::ND, half>, AType, CType, BiasType, CFG_NORM>"
    for result in engines.both(with_matmul(vecout)):
        assert result.status is Status.COMPILE_ERROR, result.message
        assert "in the UB (VECOUT) they are not modelled" in result.message, result.message


def test_a_second_objects_l1_buffers_leave_the_kernels_l1_operand_alone_on_both_engines(engines):
    # Each object's L1 buffers are taken from the TPipe at its Init (REGIST_MATMUL_OBJ here), and the
    # kernel's A1 queue, initialised later, after them: the second object's copies of its A into its
    # own buffers leave the kernel's A where the first object reads it.
    engines.same(with_a_second_object())
