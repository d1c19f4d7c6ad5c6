"""A ninth red team of the guest engine (issue 50, docs/trust_boundary.md, "A ninth red team"):
new families, each asserting the honest outcome against a real `sim-guest` daemon. Here: a
package directory's links on the `ascend-gym eval` path.

Safe if containment fails: the outside file is one the test writes itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascend_gym.client import DaemonClient
from ascend_gym.commands.common import UsageError, load_operator

from . import test_guest_boundary as boundary
from .conftest import ADD_DIR, small_request

guest = boundary.guest  # a sim-guest daemon of this module's own

SECRET = "outside_secret_token"  # a compile error quotes it whole


# ---- `ascend-gym eval DIR`: a package directory's links ------------------------------------------
@pytest.mark.parametrize("how", ["absolute link", "relative link"])
def test_a_package_directorys_links_put_no_outside_file_into_the_package(
    guest: DaemonClient, tmp_path: Path, how: str
):
    # `ascend-gym eval DIR` (load_operator, load_package) read every file of the directory through
    # links wherever they led: an agent that writes its package directory links op_kernel/leak.h
    # to a file its user can read, includes it, and the compile quotes the file back in the
    # outcome's message. The eighth round closed this for the corpus runner and cann-bench
    # submissions, not for a package directory. Now a file whose real path leaves the directory
    # is refused before anything is sent.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.h").write_text(f"{SECRET}\n")
    root = tmp_path / "pkg"
    shutil.copytree(ADD_DIR, root, ignore=shutil.ignore_patterns("expert", "__pycache__"))
    kernel = root / "op_kernel" / "add.cpp"
    target = outside / "secret.h" if how == "absolute link" else Path("../../outside/secret.h")
    (root / "op_kernel" / "leak.h").symlink_to(target)
    kernel.write_text(f'#include "leak.h"\n{kernel.read_text()}')
    try:
        pkg = load_operator(str(root))
    except UsageError as e:
        assert "outside the package" in str(e), str(e)
        return
    result = guest.evaluate(small_request(pkg, run_id=f"links-{how}"))
    pytest.fail(f"the outside file went to the daemon: {result.status}: {result.message[:300]}")
