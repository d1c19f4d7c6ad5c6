"""A submission project's files are its own: a link that leads out of the project is refused
before anything is packaged (its text would reach the daemon, whose messages may quote it)."""

from __future__ import annotations

import pytest

from ascend_gym.cannbench import NotASubmission, direct_launch, submission
from ascend_gym.commands.common import load_operator

from .conftest import aclnn_project, direct_project


@pytest.mark.parametrize("layout", ["aclnn", "direct"])
def test_a_link_out_of_the_project_is_refused(tmp_path, layout):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("not the project's\n")
    make = aclnn_project if layout == "aclnn" else direct_project
    op_dir = make(tmp_path / "project")
    task = load_operator("level1/add")
    read = submission.package if layout == "aclnn" else direct_launch.package
    assert "not the project's" not in str(read(op_dir, task).files)  # the project as it is
    (op_dir / "op_kernel" / "leak.h").symlink_to(secret)
    with pytest.raises(NotASubmission, match="outside the submission"):
        read(op_dir, task)


def test_a_link_inside_the_project_is_read(tmp_path):
    op_dir = aclnn_project(tmp_path / "project")
    (op_dir / "op_kernel" / "shared.h").write_text("#pragma once\n")
    (op_dir / "op_kernel" / "alias.h").symlink_to(op_dir / "op_kernel" / "shared.h")
    files = submission.package(op_dir, load_operator("level1/add")).files
    assert files["op_kernel/alias.h"] == "#pragma once\n"
