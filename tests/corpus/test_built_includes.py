"""What an operator's built sources reach: a header they include is built with them even in
another SoC's directory (its own includes are then looked up in the build's include roots), and a
file of the operator's directory outside op_host/ and op_kernel/ that they include (its op_graph/
prototype) enters the package. On a tree of our own written here."""

from pathlib import Path

from ascend_gym.corpus import tree_files


def _write(top: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(text)


def _tree(tmp_path: Path):
    repo = tmp_path / "repo"
    own = {
        "op_host/foo_tiling.cpp": '#include "../op_graph/foo_proto.h"\n#include "arch35/foo_regbase.h"\n',
        "op_host/arch35/foo_regbase.h": '#include "common/shared.h"\n',
        "op_host/arch35/foo_other.cpp": '#include "common/only_regbase.h"\n',
        "op_kernel/foo.cpp": "int x;\n",
    }
    _write(repo / "ops/foo", own)
    _write(
        repo,
        {
            "ops/foo/op_graph/foo_proto.h": '#include "graph/operator_reg.h"\n',
            "inc/common/shared.h": "int shared;\n",
            "inc/common/only_regbase.h": "int regbase;\n",
        },
    )
    return tree_files(repo / "ops/foo", own, repo.resolve(), (repo / "inc",))


def test_a_header_a_built_source_includes_is_built_wherever_it_sits(tmp_path):
    tree = _tree(tmp_path)
    # shared.h is reached through the include root only from the arch35/ header the A2 tiling
    # includes; only_regbase.h only from a source of the other SoC, which the A2 does not build.
    assert sorted(tree.files) == ["tree/inc/common/shared.h"]
    assert tree.include_dirs == ["inc"]
    assert tree.tree_path == "ops/foo"


def test_a_prototype_of_the_operator_directory_enters_the_package(tmp_path):
    tree = _tree(tmp_path)
    assert tree.own == {"op_graph/foo_proto.h": '#include "graph/operator_reg.h"\n'}
    assert tree.missing == ()  # graph/operator_reg.h is the toolkit's
