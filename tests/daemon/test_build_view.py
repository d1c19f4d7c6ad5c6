"""Every compile of candidate code sees a filesystem view of its own (sandbox.run's `view`,
build.view; docs/trust_boundary.md): the toolchain, our headers, the cache entries it reads and
its package. A path of the host outside it does not exist for the guest kernel's clang, the
native kernel's g++ or the tiling's g++, not even to `__has_include`, and a file of the case
cache (secret inputs and references) stays out of reach when a source names its exact path.

Safe if containment fails: the probes ask whether a file exists (an `#error` if it does) and
include a case file read-only; nothing is written outside the build's own directory.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient
from ascend_gym.corpus import build_package, find_ops
from npu_daemon.backends.common import template_key
from npu_daemon.backends.sim import case_data

from . import test_guest_boundary as boundary
from .test_guest_boundary import kernel_with, timed

guest = boundary.guest  # a sim-guest daemon of this module's own

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="no sandbox identity without root, so no view"
)
OPS_MATH = Path(__file__).parents[1] / "corpus" / "ops_math"
PROBE = '#if __has_include("{path}")\n#error "a host file is visible"\n#endif\n'


def with_tiling(prelude: str, run_id: str) -> EvalRequest:
    request = timed(run_id=run_id)
    pkg = request.package
    pkg = pkg.with_sources(tiling=prelude + pkg.files["op_host/add.cpp"])
    return request.model_copy(update={"package": pkg})


def scale_tpl() -> OperatorPackage:
    """tests/corpus/ops_math's operator, whose kernel entry is a template (tiling key header)."""
    (source,) = find_ops(OPS_MATH)
    spec = OperatorSpec.model_validate(tomllib.loads((OPS_MATH / "scale_tpl.toml").read_text()))
    return build_package(source, spec)


def case_file(guest: DaemonClient) -> Path:
    """A file of the case cache the daemons read their inputs and references from."""
    assert guest.evaluate(timed(run_id="view")).status is Status.OK
    found = [p for p in case_data.root().glob("*/*") if p.name != "manifest.json"]
    assert found, "an evaluation leaves its case data in the cache"
    return found[0]


def test_a_host_path_exists_for_no_compile(guest, native_client):
    # Outside a view, /etc/passwd and the case file exist for the sandbox user (the first is
    # world-readable, the case cache traversable): each build would stop at its #error.
    secret = case_file(guest)
    probe = PROBE.format(path="/etc/passwd") + PROBE.format(path=secret)
    assert Path("/etc/passwd").exists() and secret.exists()
    for daemon in (guest, native_client):
        kernel = daemon.evaluate(timed(kernel_with(probe), run_id="view"))
        assert kernel.status is Status.OK, kernel.message
        tiling = daemon.evaluate(with_tiling(probe, "view"))
        assert tiling.status is Status.OK, tiling.message


def test_a_case_file_named_by_its_exact_path_is_refused_as_a_missing_one(guest, native_client):
    # clang (no token gate) and the native acceptance check are told the exact path of a secret
    # input: it does not exist for them, and is refused as a path that exists nowhere is.
    secret = case_file(guest)
    for daemon, status in ((guest, Status.COMPILE_ERROR), (native_client, Status.REJECTED)):
        results = [
            daemon.evaluate(timed(kernel_with(f'#include "{path}"\n'), run_id="view"))
            for path in (secret, secret.with_name("absent"))
        ]
        assert [r.status for r in results] == [status, status], [r.message for r in results]
        assert "outside the package" in results[0].message
        assert results[0].message.replace(secret.name, "absent") == results[1].message


def test_a_template_key_header_sees_no_host_file(guest, native_client):
    # The key header is preprocessed for the dispatcher (kernel_build.with_dispatcher) before
    # the acceptance check; in its view the host file does not exist either.
    pkg = scale_tpl()
    header = template_key.key_header(pkg)
    pkg.files[header] = PROBE.format(path="/etc/passwd") + pkg.files[header]
    request = EvalRequest(run_id="view", package=pkg, soc="Ascend910B4", stages=[Stage.COMPILE])
    for daemon in (guest, native_client):
        result = daemon.evaluate(request)
        assert result.status is Status.OK, result.message
