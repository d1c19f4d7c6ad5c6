"""A tiling that declares a function in its own header and calls it, defined by another operator's
tiling source that the repository's build compiles into the same tiling library (an operator
whose tiling hands one shape to another's): the package takes that source into its tiling
program, as the linker takes it from the library. On tests/corpus/ops_repo, a repository of our
own, copied with a second operator that defines the function."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.corpus import build_package, find_ops, registry, symbols

HERE = Path(__file__).parent
OP = "math/offset_rows"
DEFINER = "tree/math/split_rows/op_host/split_rows_tiling.cpp"
# offset_rows' tiling takes its per-core count from a function its header declares.
DECLARATION = "#include <cstdint>\nuint32_t SplitRowsPerCore(uint32_t total, uint32_t cores);\n"
CALL = "tiling->perCore = SplitRowsPerCore(total, cores);"
# The other operator's tiling source defines it (and a helper of its own no one else sees).
DEFINITION = (
    "#include <cstdint>\n"
    "static uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }\n"
    "uint32_t SplitRowsPerCore(uint32_t total, uint32_t cores)\n"
    "{\n"
    "  return Ceil(Ceil(total, cores), 8) * 8;\n"
    "}\n"
)
TILING_TARGET = "target_sources(${OPHOST_NAME}_tiling_obj PRIVATE op_host/%s)\n"


def _repository(tmp_path: Path, definition: str = DEFINITION, target: str = "tiling") -> Path:
    repo = tmp_path / "ops_repo"
    shutil.copytree(HERE / "ops_repo", repo)
    host = repo / OP / "op_host"
    (host / "offset_rows_split.h").write_text(DECLARATION)
    tiling = (host / "offset_rows_tiling.cpp").read_text()
    assert "tiling->perCore = DemoSplitPerCore(total, cores);" in tiling
    tiling = tiling.replace("tiling->perCore = DemoSplitPerCore(total, cores);", CALL)
    (host / "offset_rows_tiling.cpp").write_text('#include "offset_rows_split.h"\n' + tiling)
    (repo / OP / "CMakeLists.txt").write_text(
        "add_modules_sources(OPTYPE offset_rows ACLNNTYPE aclnn)\n"
        + TILING_TARGET % "offset_rows_tiling.cpp op_host/offset_rows_def.cpp"
    )
    other = repo / "math/split_rows"
    (other / "op_host").mkdir(parents=True)
    (other / "op_host/split_rows_tiling.cpp").write_text(definition)
    (other / "CMakeLists.txt").write_text(
        "add_modules_sources(OPTYPE split_rows)\n"
        f"target_sources(${{OPHOST_NAME}}_{target}_obj PRIVATE op_host/split_rows_tiling.cpp)\n"
    )
    registry.host_sources.cache_clear()
    registry.defining.cache_clear()
    return repo


def _package(repo: Path):
    spec = tomllib.loads((HERE / "layout_specs.toml").read_text())["offset_rows"]
    source = next(s for s in find_ops(repo) if s.rel == OP)
    return build_package(source, OperatorSpec.model_validate(spec))


def test_the_text_tells_what_the_program_needs_from_elsewhere():
    caller = DECLARATION + "uint32_t Use(uint32_t t) { return SplitRowsPerCore(t, 40); }\n"
    assert symbols.unresolved([caller]) == {"SplitRowsPerCore"}
    # Declared and never called, or defined beside the call: nothing to find.
    assert symbols.unresolved([DECLARATION]) == set()
    assert symbols.unresolved([caller, DEFINITION]) == set()
    # A member function's declaration, defined out of its class, is no free function.
    member = "struct S { int Run(int x); };\nint S::Run(int x)\n{ return Run(x); }\n"
    assert symbols.unresolved([member]) == set()
    # Nor one declared in its class and called there or through an object.
    in_class = "struct C {\n  void Init(int x);\n  void Run() { Init(1); }\n};\nvoid Go(C* c) { c->Init(2); }\n"
    assert symbols.unresolved([in_class]) == set()
    # A function of an anonymous namespace is its unit's own.
    assert (
        symbols.defined("namespace {\nint Split(int t)\n{ return t; }\n}\n", external=True) == set()
    )
    # Only a definition another unit can call counts as one to link.
    assert symbols.defined(DEFINITION, external=True) == {"SplitRowsPerCore"}
    assert symbols.defined(DEFINITION) == {"Ceil", "SplitRowsPerCore"}


def test_the_defining_source_joins_the_tiling_program(tmp_path):
    pkg = _package(_repository(tmp_path))
    assert DEFINER in pkg.spec.host_sources, pkg.spec.host_sources
    assert DEFINER in pkg.files


def test_a_source_built_into_another_library_is_not_taken(tmp_path):
    pkg = _package(_repository(tmp_path, target="opapi"))
    assert DEFINER not in pkg.spec.host_sources


def test_a_source_that_loads_a_library_is_not_taken(tmp_path):
    """The sandbox refuses dlopen: taking it would turn a missing function into a rejection."""
    loading = DEFINITION + '#include <dlfcn.h>\nvoid* Legacy() { return dlopen("x.so", 0); }\n'
    pkg = _package(_repository(tmp_path, definition=loading))
    assert DEFINER not in pkg.spec.host_sources


def test_two_sources_as_near_defining_it_decide_nothing(tmp_path):
    repo = _repository(tmp_path)
    twin = repo / "math/split_rows_twin"
    shutil.copytree(repo / "math/split_rows", twin)
    (twin / "op_host/split_rows_tiling.cpp").rename(twin / "op_host/split_rows_twin_tiling.cpp")
    (twin / "CMakeLists.txt").write_text(TILING_TARGET % "split_rows_twin_tiling.cpp")
    registry.host_sources.cache_clear()
    registry.defining.cache_clear()
    pkg = _package(repo)
    assert not any("split_rows" in s for s in pkg.spec.host_sources)


def checked(pkg: OperatorPackage, client, run_id: str):
    """The daemon's compile and check of an offset_rows package, with the fixtures' reference."""
    reference = (HERE / "tree_reference.py").read_text()
    pkg = pkg.model_copy(update={"files": {**pkg.files, "reference.py": reference}})
    return client.evaluate(
        EvalRequest(run_id=run_id, package=pkg, stages=[Stage.COMPILE, Stage.CHECK])
    )


def test_it_compiles_and_passes_through_the_daemon(tmp_path, client):
    result = checked(_package(_repository(tmp_path)), client, "defining")
    assert result.status is Status.OK, result.message
