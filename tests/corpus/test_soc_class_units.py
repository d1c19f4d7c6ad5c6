"""An A2 tiling that constructs another SoC's tiling class under a run-time check, the class
declared in a header of its operator's arch35/ folder and defined in a source beside it, which
the repository's build globs into the one tiling library with the A2's (hicann ops-nn's
`file(GLOB_RECURSE ... op_tiling/*.cpp)`): the package takes that source into its tiling program,
as the linker takes it from the library (without it the class's virtual table is undefined and
the tiling library does not load), and leaves out the arch35 source nothing it builds needs. On
tests/corpus/ops_repo, a repository of our own, with the class added to offset_rows."""

from __future__ import annotations

import shutil
from pathlib import Path

from ascend_core.protocol import Status
from ascend_gym.corpus import registry, symbols
from tests.corpus.test_defining_units import _package, checked

HERE = Path(__file__).parent
OP = "math/offset_rows"
DEFINER = "op_host/arch35/offset_rows_tiling_advanced.cpp"
UNNEEDED = "op_host/arch35/offset_rows_regbase.cpp"
HEADER = (
    "#pragma once\n"
    '#include "register/op_impl_registry.h"\n'
    "namespace optiling {\n"
    "namespace offset_rows_advanced {\n"
    "class OffsetRowsTiling {\n"
    "public:\n"
    "  explicit OffsetRowsTiling(gert::TilingContext* context) : context_(context) {}\n"
    "  virtual ~OffsetRowsTiling() = default;\n"
    "  virtual ge::graphStatus DoTiling();\n"
    "\n"
    "protected:\n"
    "  gert::TilingContext* context_ = nullptr;\n"
    "};\n"
    "}  // namespace offset_rows_advanced\n"
    "}  // namespace optiling\n"
)
DEFINITION = (
    '#include "offset_rows_tiling_advanced.h"\n'
    "namespace optiling {\n"
    "namespace offset_rows_advanced {\n"
    "ge::graphStatus OffsetRowsTiling::DoTiling()\n"
    "{\n"
    "  return ge::GRAPH_FAILED;  // the other SoC's tiling: never reached on the A2\n"
    "}\n"
    "}  // namespace offset_rows_advanced\n"
    "}  // namespace optiling\n"
)
# Another SoC's class no A2 source names: its source stays out of the program.
UNNEEDED_TEXT = (
    "namespace optiling {\n"
    "class OffsetRowsRegBase {\n"
    "public:\n"
    "  int Split(int total);\n"
    "};\n"
    "int OffsetRowsRegBase::Split(int total)\n"
    "{\n"
    "  return total;\n"
    "}\n"
    "}  // namespace optiling\n"
)
# The A2 tiling hands a shape it does not take (none on the A2: a scalar input) to the class.
CHECK = (
    "  if (context->GetInputShape(0)->GetStorageShape().GetDimNum() == 0) {\n"
    "    return offset_rows_advanced::OffsetRowsTiling(context).DoTiling();\n"
    "  }\n"
)
BODY = "  OffsetRowsTilingData* tiling = context->GetTilingData<OffsetRowsTilingData>();\n"


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "ops_repo"
    shutil.copytree(HERE / "ops_repo", repo)
    host = repo / OP / "op_host"
    (host / "arch35").mkdir()
    (host / "arch35/offset_rows_tiling_advanced.h").write_text(HEADER)
    (host / DEFINER.removeprefix("op_host/")).write_text(DEFINITION)
    (host / UNNEEDED.removeprefix("op_host/")).write_text(UNNEEDED_TEXT)
    tiling = (host / "offset_rows_tiling.cpp").read_text()
    assert BODY in tiling
    tiling = tiling.replace(BODY, CHECK + BODY)
    (host / "offset_rows_tiling.cpp").write_text(
        '#include "arch35/offset_rows_tiling_advanced.h"\n' + tiling
    )
    # Every source under op_host/ into the tiling library, every SoC's, as ops-nn globs them.
    (repo / OP / "CMakeLists.txt").write_text(
        "add_modules_sources(OPTYPE offset_rows ACLNNTYPE aclnn)\n"
        "file(GLOB_RECURSE TILING_SRCS ${CMAKE_CURRENT_SOURCE_DIR}/op_host/*.cpp)\n"
        "target_sources(${OPHOST_NAME}_tiling_obj PRIVATE ${TILING_SRCS})\n"
    )
    registry.host_sources.cache_clear()
    registry.defining_class.cache_clear()
    return repo


def test_the_text_tells_which_class_the_program_needs_from_elsewhere():
    caller = "int Go(gert::TilingContext* c) { return optiling::offset_rows_advanced::OffsetRowsTiling(c).DoTiling(); }\n"
    assert symbols.unbuilt_classes([HEADER, caller]) == {"OffsetRowsTiling"}
    # Defined among the program's files, or only pointed to: nothing to find.
    assert symbols.unbuilt_classes([HEADER, caller, DEFINITION]) == set()
    pointer = "int Go(optiling::offset_rows_advanced::OffsetRowsTiling* t);\n"
    assert symbols.unbuilt_classes([HEADER, pointer]) == set()
    # A derived class constructed constructs its base: both are needed.
    derived = HEADER.replace(
        "class OffsetRowsTiling {",
        "class Base {\npublic:\n  void Init();\n};\nclass OffsetRowsTiling : public Base {",
    )
    assert symbols.unbuilt_classes([derived, caller]) == {"OffsetRowsTiling", "Base"}


def test_what_names_the_class_without_constructing_it_needs_nothing():
    """The forms hicann cann-ops' cube tiling headers showed: none constructs the class."""
    # Another namespace's class of the same name (`gert::Shape` beside a cube `Shape`).
    other = "int Go() { optiling::other_advanced::OffsetRowsTiling t(nullptr); return 0; }\n"
    assert symbols.unbuilt_classes([HEADER, other]) == set()
    # A function returning it by value, declared or defined: parameters, not arguments.
    returning = (
        "optiling::offset_rows_advanced::OffsetRowsTiling Make(gert::TilingContext* c);\n"
        "offset_rows_advanced::OffsetRowsTiling Copy(const OffsetRowsTiling& t);\n"
    )
    assert symbols.unbuilt_classes([HEADER, returning]) == set()
    # A member of a class nothing constructs, and a derived class's initializer of its base.
    holder = (
        "struct Cache {\n  Cache();\n  OffsetRowsTiling held_;\n};\n"
        "class Derived : public OffsetRowsTiling {\npublic:\n"
        "  explicit Derived(gert::TilingContext* c) : OffsetRowsTiling(c) {}\n};\n"
    )
    assert symbols.unbuilt_classes([HEADER, holder]) == set()
    # Constructed, the holder constructs what it holds, the derived class its base.
    assert symbols.unbuilt_classes([HEADER, holder, "Cache c;\n"]) == {"OffsetRowsTiling", "Cache"}
    built = "int Go(gert::TilingContext* c) { return Derived(c).DoTiling(); }\n"
    assert symbols.unbuilt_classes([HEADER, holder, built]) == {"OffsetRowsTiling"}


def test_the_arch35_source_defining_the_class_joins_the_tiling_program(tmp_path):
    pkg = _package(_repository(tmp_path))
    assert DEFINER in pkg.spec.host_sources, pkg.spec.host_sources
    assert UNNEEDED not in pkg.spec.host_sources, pkg.spec.host_sources


def test_it_links_and_passes_through_the_daemon(tmp_path, client):
    result = checked(_package(_repository(tmp_path)), client, "soc-class")
    assert result.status is Status.OK, result.message
