"""An operator whose op_host holds only its OpDef, its type's tiling registered in another
operator's tiling source (`IMPL_OP_OPTILING(<its type>)` beside the other's registration): the
repository builds every tiling into one library, so that source is its tiling, with the sources
beside it that the build compiles into the same target. On tests/corpus/ops_repo, a repository of
our own, copied with a second operator added that shares offset_rows' tiling."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from ascend_core.package import OperatorSpec
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.corpus import build_package, find_ops, layout, registry

HERE = Path(__file__).parent
ALIAS = "math/offset_rows_alias"
# Its tiling is offset_rows' function under a second registration, and a helper of offset_rows'
# defined in a source beside its tiling, which the build compiles into the same library.
REGISTRATION = (
    "\nnamespace optiling {\n"
    "IMPL_OP_OPTILING(OffsetRowsAlias).Tiling(OffsetRowsTiling)"
    ".TilingParse<OffsetRowsCompileInfo>(OffsetRowsParse);\n}\n"
)
HELPER_DECL = "uint32_t OffsetRowsCores(uint32_t cores);\n"
HELPER = "#include <cstdint>\nuint32_t OffsetRowsCores(uint32_t cores) { return cores; }\n"
# A source beside it for another library (the aclnn layer's), and the other operator's OpDef.
API = "int OffsetRowsApi() { return 1; }\n"


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "ops_repo"
    shutil.copytree(HERE / "ops_repo", repo)
    host = repo / "math/offset_rows/op_host"
    tiling = (host / "offset_rows_tiling.cpp").read_text()
    tiling = tiling.replace(
        "namespace optiling {", f"#include <cstdint>\n{HELPER_DECL}namespace optiling {{", 1
    ).replace("GetCoreNumAiv()", "GetCoreNumAiv(); (void)OffsetRowsCores(cores)", 1)
    (host / "offset_rows_tiling.cpp").write_text(tiling + REGISTRATION)
    (host / "offset_rows_cores.cpp").write_text(HELPER)
    (host / "offset_rows_api.cpp").write_text(API)
    (repo / "math/offset_rows/CMakeLists.txt").write_text(
        "add_modules_sources(OPTYPE offset_rows ACLNNTYPE aclnn)\n"
        "target_sources(${OPHOST_NAME}_tiling_obj PRIVATE op_host/offset_rows_tiling.cpp"
        " op_host/offset_rows_cores.cpp op_host/offset_rows_def.cpp)\n"
        "target_sources(${OPHOST_NAME}_opapi_obj PRIVATE op_host/offset_rows_api.cpp)\n"
    )
    alias = repo / ALIAS
    (alias / "op_host").mkdir(parents=True)
    (alias / "op_kernel").mkdir()
    # Its OpDef is offset_rows' under its own type.
    opdef = (host / "offset_rows_def.cpp").read_text().replace("OffsetRows", "OffsetRowsAlias")
    (alias / "op_host/offset_rows_alias_def.cpp").write_text(opdef)
    (alias / "CMakeLists.txt").write_text("add_modules_sources(OPTYPE offset_rows_alias)\n")
    kernel = (repo / "math/offset_rows/op_kernel/offset_rows.cpp").read_text()
    kernel = kernel.replace(
        '"offset_rows_tiling_data.h"', '"../offset_rows/offset_rows_tiling_data.h"'
    )
    kernel = kernel.replace("void offset_rows(", "void offset_rows_alias(")
    (alias / "op_kernel/offset_rows_alias.cpp").write_text(kernel)
    return repo


def _spec() -> OperatorSpec:
    spec = tomllib.loads((HERE / "layout_specs.toml").read_text())["offset_rows"]
    return OperatorSpec.model_validate({**spec, "name": "offset_rows_alias"})


def test_the_operator_is_found_and_takes_the_registering_source(tmp_path):
    repo = _repository(tmp_path)
    found = {s.rel: s for s in find_ops(repo)}
    assert ALIAS in found and "math/offset_rows" in found
    pkg = build_package(found[ALIAS], _spec())
    assert pkg.spec.op_type == "OffsetRowsAlias"
    assert pkg.spec.host_file == "tree/math/offset_rows/op_host/offset_rows_tiling.cpp"
    # Its own OpDef, and the helper the build compiles into the tiling's library; not the other
    # library's source, nor the other operator's OpDef.
    assert pkg.spec.host_sources == [
        "op_host/offset_rows_alias_def.cpp",
        "tree/math/offset_rows/op_host/offset_rows_cores.cpp",
    ]
    assert pkg.spec.tiling_header == "tree/math/offset_rows/op_kernel/offset_rows_tiling_data.h"


def test_an_opdef_without_a_registration_anywhere_is_not_an_operator(tmp_path):
    repo = _repository(tmp_path)
    tiling = repo / "math/offset_rows/op_host/offset_rows_tiling.cpp"
    tiling.write_text(tiling.read_text().replace(REGISTRATION, ""))
    assert ALIAS not in {s.rel for s in find_ops(repo)}


def test_it_compiles_and_passes_through_the_daemon(tmp_path, client):
    repo = _repository(tmp_path)
    source = next(s for s in find_ops(repo) if s.rel == ALIAS)
    pkg = build_package(source, _spec())
    reference = (HERE / "tree_reference.py").read_text()
    pkg = pkg.model_copy(update={"files": {**pkg.files, "reference.py": reference}})
    request = EvalRequest(run_id="elsewhere", package=pkg, stages=[Stage.COMPILE, Stage.CHECK])
    result = client.evaluate(request)
    assert result.status is Status.OK, result.message


def test_another_implementation_of_the_same_type_lends_no_tiling(tmp_path):
    """A directory whose own OpDef adds the same type (an experimental/ copy of the operator) is
    another implementation: its tiling is its own, not one the repository shares."""
    repo = tmp_path / "repo"
    files = {
        "ops/cos/op_host/cos_def.cpp": "OP_ADD(Cos);\n",
        "ops/cos/op_kernel/cos.cpp": 'extern "C" __global__ __aicore__ void cos(GM_ADDR x) {}\n',
        "experimental/cos/op_host/cos_def.cpp": "OP_ADD(Cos);\n",
        "experimental/cos/op_host/cos_tiling.cpp": "IMPL_OP_OPTILING(Cos).Tiling(T);\n",
        "experimental/cos/op_kernel/cos.cpp": 'extern "C" __global__ __aicore__ void cos() {}\n',
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    assert layout(repo / "ops/cos", "cos", repo) is None
    # The same source registering the type for an operator whose OpDef adds another is shared.
    (repo / "experimental/cos/op_host/cos_def.cpp").write_text("OP_ADD(CosOwner);\n")
    registry.registrations.cache_clear()
    found = layout(repo / "ops/cos", "cos", repo)
    assert found is not None
    assert found["host_file"] == "../../experimental/cos/op_host/cos_tiling.cpp"
