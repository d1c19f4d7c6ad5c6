"""A tiling that derives from a class of another operator's directory (its header included, its
members defined in the .cpp beside it) links only with that source: the repository builds every
operator's tiling into one library. The source comes into the tiling program where the build
files compile it into the tiling's own target, and not where they compile it into another one
or where no build file names it. On a repository of our own written here."""

from pathlib import Path

from ascend_gym.corpus import _built_with, tree_files

CMAKE = {
    "CMakeLists.txt": "add_library(optiling SHARED)\nadd_library(opapi SHARED)\nadd_subdirectory(ops)\n",
    "ops/CMakeLists.txt": "add_subdirectory(base)\nadd_subdirectory(user)\n",
    "ops/base/CMakeLists.txt": (
        "target_sources(optiling PRIVATE op_host/base_tiling.cpp op_host/base_util.cpp)\n"
        "target_sources(opapi PRIVATE op_host/base_api.cpp)\n"
    ),
    "ops/user/CMakeLists.txt": "target_sources(optiling PRIVATE op_host/user_tiling.cpp)\n",
}
BASE = {
    "ops/base/op_host/base_tiling.h": "struct BaseTiling { virtual ~BaseTiling(); };\n",
    "ops/base/op_host/base_tiling.cpp": '#include "base_tiling.h"\n#include "base_util.h"\n',
    "ops/base/op_host/base_util.h": "int Util();\n",
    "ops/base/op_host/base_util.cpp": '#include "base_util.h"\nint Util() { return 1; }\n',
    "ops/base/op_host/base_api.h": "int Api();\n",
    "ops/base/op_host/base_api.cpp": '#include "base_api.h"\nint Api() { return 2; }\n',
    "ops/base/op_host/loose.h": "int Loose();\n",
    "ops/base/op_host/loose.cpp": "int Loose() { return 3; }\n",
}
OWN = {
    "op_host/user_tiling.cpp": (
        '#include "../../base/op_host/base_tiling.h"\n#include "../../base/op_host/base_api.h"\n'
        '#include "../../base/op_host/loose.h"\n'
    ),
    "op_kernel/user.cpp": "int x;\n",
}


def _written(tmp_path: Path, files: dict[str, str]) -> Path:
    """A repository of `files` (path -> text) under tmp_path, by its real path."""
    repo = tmp_path / "repo"
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    return repo.resolve()


def _repo(tmp_path: Path) -> Path:
    return _written(tmp_path, {**CMAKE, **BASE, **{f"ops/user/{p}": t for p, t in OWN.items()}})


def test_the_source_beside_an_included_header_joins_the_tiling_where_its_target_builds_it(
    tmp_path,
):
    repo = _repo(tmp_path)
    companion = lambda unit, guarded: _built_with(repo, {"optiling"}, unit, guarded)  # noqa: E731
    tree = tree_files(repo / "ops/user", OWN, repo, (), companion)
    # base_util.cpp through base_tiling.cpp's own include; base_api.cpp is the aclnn library's,
    # loose.cpp no target's: their headers come, their sources do not.
    assert tree.sources == [
        "tree/base/op_host/base_tiling.cpp",
        "tree/base/op_host/base_util.cpp",
    ]
    assert "tree/base/op_host/base_api.h" in tree.files
    assert "tree/base/op_host/base_api.cpp" not in tree.files
    assert "tree/base/op_host/loose.cpp" not in tree.files


def test_without_a_target_for_the_tiling_no_source_joins(tmp_path):
    repo = _repo(tmp_path)
    companion = lambda unit, guarded: _built_with(repo, set(), unit, guarded)  # noqa: E731
    tree = tree_files(repo / "ops/user", OWN, repo, (), companion)
    assert tree.sources == []
    assert not any(p.endswith(".cpp") for p in tree.files)


# A repository whose operators each glob a shared folder's .cc sources into the tiling library
# (cann-ops' `file(GLOB_RECURSE ... "../../common/op_host/op_tiling/*.cc")`): no build file of
# the shared folder names them, the operator's own does.
SHARED = {
    "CMakeLists.txt": "add_library(optiling SHARED)\nadd_subdirectory(ops)\n",
    "ops/CMakeLists.txt": "add_subdirectory(user)\n",
    "ops/user/CMakeLists.txt": (
        'file(GLOB_RECURSE EXTRA "../common/op_tiling/*.cc")\n'
        "target_sources(optiling PRIVATE op_host/user_tiling.cpp ${EXTRA})\n"
    ),
    "ops/common/op_tiling/gen.h": "bool Gen(int);\n",
    "ops/common/op_tiling/gen.cc": '#include "gen.h"\nbool Gen(int) { return true; }\n',
    "ops/common/op_tiling/other.h": "int Other();\n",
    "ops/common/op_tiling/other.cpp": "int Other() { return 1; }\n",
}
SHARED_OWN = {
    "op_host/user_tiling.cpp": (
        '#include "../../common/op_tiling/gen.h"\n#include "../../common/op_tiling/other.h"\n'
    ),
    "op_kernel/user.cpp": "int x;\n",
}


def test_a_shared_cc_source_the_operators_build_globs_into_the_tiling_joins(tmp_path):
    from ascend_gym.corpus import cmake

    repo = _written(tmp_path, {**SHARED, **{f"ops/user/{p}": t for p, t in SHARED_OWN.items()}})
    own = cmake.evaluate(repo, repo / "ops/user").usage
    companion = lambda unit, guarded: _built_with(repo, {"optiling"}, unit, guarded, own=own)  # noqa: E731
    tree = tree_files(repo / "ops/user", SHARED_OWN, repo, (), companion)
    # gen.cc by the glob; other.cpp is no target's (the glob takes *.cc only).
    assert tree.sources == ["tree/common/op_tiling/gen.cc"]
    assert "tree/common/op_tiling/other.cpp" not in tree.files


# One library of every SoC's sources: an A2 tiling naming another SoC's class under a run-time
# check includes its header unconditionally; a shared header includes another under its #if.
SOC_CMAKE = {
    "CMakeLists.txt": "add_library(optiling SHARED)\nadd_subdirectory(ops)\n",
    "ops/CMakeLists.txt": "add_subdirectory(base)\nadd_subdirectory(user)\n",
    "ops/base/CMakeLists.txt": (
        "target_sources(optiling PRIVATE op_host/base_tiling.cpp op_host/arch35/advanced.cpp "
        "op_host/arch35/guarded.cpp)\n"
    ),
    "ops/user/CMakeLists.txt": "target_sources(optiling PRIVATE op_host/user_tiling.cpp)\n",
}
SOC_BASE = {
    "ops/base/op_host/base_tiling.h": (
        "#ifndef BASE_TILING_H\n#define BASE_TILING_H\n"
        '#include "arch35/advanced.h"\n'
        '#if defined(SOC_ARCH35)\n#include "arch35/guarded.h"\n#endif\n'
        "struct BaseTiling { virtual ~BaseTiling(); };\n#endif\n"
    ),
    "ops/base/op_host/base_tiling.cpp": '#include "base_tiling.h"\n',
    "ops/base/op_host/arch35/advanced.h": "struct Advanced { virtual ~Advanced(); };\n",
    "ops/base/op_host/arch35/advanced.cpp": '#include "advanced.h"\nAdvanced::~Advanced() {}\n',
    "ops/base/op_host/arch35/guarded.h": "struct Guarded { virtual ~Guarded(); };\n",
    "ops/base/op_host/arch35/guarded.cpp": '#include "guarded.h"\nGuarded::~Guarded() {}\n',
}
SOC_OWN = {"op_host/user_tiling.cpp": '#include "../../base/op_host/base_tiling.h"\n'}


def test_another_socs_source_joins_only_where_its_header_is_included_unconditionally(tmp_path):
    repo = _written(
        tmp_path, {**SOC_CMAKE, **SOC_BASE, **{f"ops/user/{p}": t for p, t in SOC_OWN.items()}}
    )
    companion = lambda unit, guarded: _built_with(repo, {"optiling"}, unit, guarded)  # noqa: E731
    tree = tree_files(repo / "ops/user", SOC_OWN, repo, (), companion)
    # The base header's own include guard is no condition; its `#if defined(SOC_ARCH35)` is.
    assert tree.sources == [
        "tree/base/op_host/arch35/advanced.cpp",
        "tree/base/op_host/base_tiling.cpp",
    ]
    assert "tree/base/op_host/arch35/guarded.h" in tree.files
    assert "tree/base/op_host/arch35/guarded.cpp" not in tree.files
