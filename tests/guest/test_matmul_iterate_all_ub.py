"""IterateAll into a LocalTensor (asc-devkit page IterateAll, its ubCmatrix form, C at VECIN), on both
engines: level1/matmul as a mixed kernel whose AIVs take C in pieces of at most 64 x 64, each piece's
whole C into the UB by one IterateAll, at its place in a [singleCoreM, singleCoreN] ND C (rows
singleCoreN apart), then to GM with DataCopyPad. A cube-only launch has no UB to take it: refused."""

from __future__ import annotations

from ascend_core.protocol import Status
from ascend_core.suite import resolve
from tests.guest.test_cube import MIXED_UB
from tests.guest.test_matmul_l1_inputs import ITERATE_ALL, SET_A, SET_B, SET_TAIL

PIECES = """\
  const int32_t sm = tailM < tl.singleCoreM ? tailM : tl.singleCoreM;
  const int32_t sn = tailN < tl.singleCoreN ? tailN : tl.singleCoreN;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 64 * 64 * sizeof(half));
  for (int32_t r = 0; r < sm; r += 64) {
    for (int32_t c = 0; c < sn; c += 64) {
      const int32_t pm = sm - r < 64 ? sm - r : 64, pn = sn - c < 64 ? sn - c : 64;
      const int32_t row = mi * tl.singleCoreM + r, col = ni * tl.singleCoreN + c;
      mm.SetTensorA(ga[row * tl.Ka]);
      mm.SetTensorB(t.transB ? gb[col * tl.Kb] : gb[col], t.transB != 0);
      mm.SetTail(pm, pn);
      if (pn % 16 != 0) {  // rows of whole 32-byte blocks in the UB only: this piece straight to GM
        mm.IterateAll(gc[row * tl.N + col]);
        continue;
      }
      LocalTensor<half> ub = q.AllocTensor<half>();
      mm.IterateAll(ub);
      q.EnQue(ub);
      ub = q.DeQue<half>();
      DataCopyPad(gc[row * tl.N + col], ub, DataCopyExtParams(pm, pn * sizeof(half), 0, (tl.N - pn) * sizeof(half), 0));
      q.FreeTensor(ub);
    }
  }
"""


def iterate_all_into_the_ub(mixed: bool = True):
    """level1/matmul with C taken into the UB by IterateAll, piece by piece (a piece whose rows are
    not whole 32-byte blocks, a tail of N, by IterateAll into GM)."""
    pkg = resolve("level1/matmul")
    kernel = pkg.files[pkg.kernel_path]
    edits = dict(list(MIXED_UB.items())[:4]) if mixed else {}
    edits.update({SET_A: "", SET_B: "", SET_TAIL: "", ITERATE_ALL: PIECES})
    for old, new in edits.items():
        assert old in kernel
        kernel = kernel.replace(old, new, 1)
    return pkg.with_sources(kernel=kernel)


def test_iterate_all_into_a_local_tensor_gives_the_product_on_both_engines(engines):
    engines.same(iterate_all_into_the_ub())


def test_iterate_all_into_a_local_tensor_needs_an_aiv(engines):
    for result in engines.both(iterate_all_into_the_ub(mixed=False)):
        assert result.status is Status.RUNTIME_ERROR, result.message
        assert "IterateAll into a local tensor runs on an AIV" in result.message, result.message
