"""The graph runtime's headers a tiling source spells beside tiling_context.h (ops-nn
swi_glu_grad's regbase tiling includes exe_graph/runtime/kernel_run_context.h, which CANN's
tiling_context.h reaches itself): the include resolves to the emulation's contexts, and a tiling
written against them compiles."""

import subprocess

from npu_daemon.backends.common import build

TILING = """
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/kernel_run_context.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus Tiling(gert::TilingContext* context) {
  const gert::StorageShape* x = context->GetInputShape(0);
  context->SetBlockDim(x->GetStorageShape().GetDimNum());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
"""


def test_kernel_run_context_include_gives_the_tiling_context(tmp_path):
    (tmp_path / "t.cpp").write_text(TILING)
    cmd = [build.CXX, *build.CANDIDATE_CXXFLAGS, f"-I{build.HOST_INCLUDE_DIR}", "-fsyntax-only"]
    done = subprocess.run([*cmd, "t.cpp"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
