"""Which files a build read (build._real_path): a dependency inside the emulation's or the system's
headers is taken as spelled; any other, or one whose spelling climbs out with `..`, is resolved, so
a package file reached through such a spelling is still keyed by its text."""

from __future__ import annotations

import os

from npu_daemon import source_policy
from npu_daemon.backends.common import build


def test_fixed_trees_are_taken_as_spelled_and_everything_else_resolved(tmp_path):
    ours = f"{source_policy.BACKENDS}/sim/include/kernel_operator.h"
    assert build._real_path(ours, tmp_path) == ours
    assert build._real_path("/usr/include/stdio.h", tmp_path) == "/usr/include/stdio.h"

    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_kernel" / "k.h").write_text("int k;\n")
    os.symlink(tmp_path / "op_kernel" / "k.h", tmp_path / "link.h")
    real = os.path.realpath(tmp_path / "op_kernel" / "k.h")
    assert build._real_path("link.h", tmp_path) == real
    climbing = (
        f"{source_policy.BACKENDS}/{os.path.relpath(tmp_path / 'link.h', source_policy.BACKENDS)}"
    )
    assert "/.." in climbing
    assert build._real_path(climbing, tmp_path) == real
    assert build._real_path(f"/usr/..{tmp_path}/link.h", tmp_path) == real
