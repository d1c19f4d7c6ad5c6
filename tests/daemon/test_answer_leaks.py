"""No answer leaks (issue 50): what the daemon says about a failing candidate must not hand the
next candidate its answer. Each test failed on main 66da4b1; each kernel touches only its own
tensors, so every one is safe if containment failed.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon import checker, references
from npu_daemon.backends.sim import case_data
from npu_daemon.service import workers

from .conftest import add_variant, small_request

# What a WRONG_ANSWER may say: where and by how much, never a value of the case.
FAILURE = re.compile(
    r"case \w+, output \w+: \d+ of \d+ elements \([\d.]+%\) outside atol=\S+ rtol=\S+; "
    r"first at flat index \d+; max abs error \S+, max rel error \S+"
)


def _writes_zeros(tmp_path: Path, name: str) -> OperatorPackage:
    """add whose kernel stores 0.0 in each of aligned_fp16's 4096 outputs and computes nothing:
    its error at each element is the reference's magnitude there."""
    add_variant(tmp_path / name, comment=name)
    kernel = tmp_path / name / "add" / "op_kernel" / "add.cpp"
    zeros = (
        "  if (GetBlockIdx() == 0) {\n"
        "    GlobalTensor<uint16_t> out;\n    out.SetGlobalBuffer((__gm__ uint16_t*)z, 4096);\n"
        "    for (uint32_t i = 0; i < 4096; ++i) out.SetValue(i, 0);\n  }\n"
    )
    kernel.write_text(kernel.read_text().replace("  op.Process();\n}", f"{zeros}}}"))
    return load_package(tmp_path / name / "add")


def test_a_wrong_answer_gives_positions_and_error_sizes_never_values(tmp_path, client):
    """The old message quoted the expected value at full precision ("got np.float16(0.0),
    expected np.float16(0.6543)"): one charged failure of a kernel with a single output, then a
    kernel that writes that value. Now the count, the first bad index and the largest errors."""
    result = client.evaluate(small_request(_writes_zeros(tmp_path, "zeros"), run_id="leak-msg"))
    assert result.status is Status.WRONG_ANSWER
    assert FAILURE.fullmatch(result.message), result.message
    assert "expected" not in result.message and "np." not in result.message
    (check,) = result.cases
    assert check.max_abs_error > 0 and not check.passed


def test_each_candidate_draws_its_own_small_cases(tmp_path):
    """One daemon drew the same secret inputs for the same public seed in every evaluation, so
    what one failure revealed held for the next. A small case is now drawn for each candidate:
    two kernels that both store zeros (their errors: the reference's magnitudes) see other inputs
    under one seed, and a researcher holding the reported secret draws each one's again."""
    secret = bytes(range(16, 32))
    packages = [_writes_zeros(tmp_path, name) for name in ("first", "second")]
    with LocalDaemon(
        workers=1, state_dir=tmp_path / "state", extra_args=["--case-secret", secret.hex()]
    ) as d:
        client = DaemonClient(d.address, heartbeat_s=1.0)
        errors = [
            client.evaluate(small_request(p, run_id="fresh", seed=7)).cases[0].max_abs_error
            for p in packages
        ]
        client.close()
    assert errors[0] != errors[1]
    for pkg, error in zip(packages, errors):  # the researcher's re-draw
        trusted = references.trusted_package(pkg)
        case = trusted.spec.case("aligned_fp16")
        seed = case_data.candidate_seed(workers.case_seed(secret, 7), trusted)
        (ref,) = checker.reference_outputs(trusted, case, checker.make_inputs(trusted, case, seed))
        assert float(np.abs(ref.astype(np.float64)).max()) == error


def _prints(tmp_path: Path) -> OperatorPackage:
    """add that prints a line in block 0 and computes nothing (its outputs keep their fill)."""
    add_variant(tmp_path / "printer", comment="printer")
    kernel = tmp_path / "printer" / "add" / "op_kernel" / "add.cpp"
    code = '  if (GetBlockIdx() == 0) printf("KERNEL-SAYS %d\\n", 7);\n'
    kernel.write_text(kernel.read_text().replace("  op.Process();\n}", f"{code}}}"))
    return load_package(tmp_path / "printer" / "add")


def test_a_kernel_prints_nothing_back_from_a_case_kept_across_evaluations(tmp_path, native_client):
    """A failing kernel's stdout came back in the log, with whatever it printed of the inputs.
    The bench case's inputs are kept across evaluations (too large to draw for each candidate):
    what the kernel prints there is held back, one line of ours says so. On a case drawn for this
    candidate alone its output still comes back, bounded (nothing there holds for the next)."""
    # Native engine: only its kernel's printf reaches stdout (the guest's prints nothing:
    # tests/guest/test_data.py::test_a_kernels_own_output_carries_no_case_data).
    client = native_client
    pkg = _prints(tmp_path)
    kept = client.evaluate(
        EvalRequest(
            run_id="leak-log",
            package=pkg,
            stages=[Stage.COMPILE, Stage.CHECK],
            cases=["bench_fp16"],
            timeouts=Timeouts(build_s=60, run_s=120),
        )
    )
    assert kept.status is Status.WRONG_ANSWER, kept.message
    assert "KERNEL-SAYS" not in kept.log_tail and "not returned" in kept.log_tail
    own = client.evaluate(small_request(pkg, run_id="leak-log"))
    assert own.status is Status.WRONG_ANSWER and "KERNEL-SAYS 7" in own.log_tail
    assert len(own.log_tail) <= case_data.LOG_CHARS
