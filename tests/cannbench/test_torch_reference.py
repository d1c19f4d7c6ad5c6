"""A PyTorch golden (cann-bench's golden.py) judges a candidate from the daemon's sandbox, as a
client's numpy reference does: CPU tensors of the case's dtypes in, its outputs checked; one that
writes, connects, allocates or spins past its budget is a charged REJECTED, and the daemon keeps
serving. Every golden here is safe if containment failed: it writes one probe file under /tmp,
connects to loopback, reserves address space without touching it, or spins for 5 s of budget."""

from __future__ import annotations

import select
import shutil
import socket
import time
import uuid
from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_gym.client import DaemonClient
from npu_daemon import references

from .conftest import ADD_DIR

GOLDEN = "import torch\n\n\ndef add(x, y):\n{check}    return torch.add(x, y)\n"


def torch_operator(tmp: Path, golden: str) -> Path:
    """level1/add as a client's operator judged by a torch golden (golden.py, not reference.py)."""
    name = f"tadd_{uuid.uuid4().hex[:8]}"  # a fresh operator: no cached case data
    root = tmp / name
    shutil.copytree(ADD_DIR, root, ignore=shutil.ignore_patterns("expert", "__pycache__"))
    (root / "reference.py").unlink()
    toml = (root / "op.toml").read_text()
    toml = toml.replace('name = "add"', f'name = "{name}"\nop_type = "Add"\nkernel = "add"', 1)
    toml = toml.replace(
        'reference = "reference:add"', 'reference = "golden:add"\nreference_kind = "torch"'
    )
    (root / "op.toml").write_text(toml)
    (root / "golden.py").write_text(golden)
    return root


def request(root: Path, run_id: str, run_s: float = 20.0) -> EvalRequest:
    return EvalRequest(
        run_id=run_id,
        package=load_package(root),
        stages=[Stage.COMPILE, Stage.CHECK],
        cases=["aligned_fp16"],
        timeouts=Timeouts(build_s=60, run_s=run_s),
    )


@pytest.fixture()
def client(daemon: str) -> DaemonClient:
    c = DaemonClient(daemon, heartbeat_s=1.0, timeout_s=180)
    yield c
    c.close()


def test_a_torch_golden_judges_with_tensors_of_the_case_dtype(tmp_path, client):
    check = "    assert x.dtype == torch.float16 and y.shape == (4096,), (x.dtype, y.shape)\n"
    root = torch_operator(tmp_path, GOLDEN.format(check=check))
    assert not references.in_process(load_package(root))  # never in the worker itself
    result = client.evaluate(request(root, "torch-ok"))
    assert result.status is Status.OK, result.message
    wrong = torch_operator(tmp_path, GOLDEN.format(check="").replace("torch.add(x, y)", "x - y"))
    result = client.evaluate(request(wrong, "torch-ok"))
    assert result.status is Status.WRONG_ANSWER, result.message  # the golden is what judges


def test_a_golden_that_writes_is_rejected(tmp_path, client):
    probe = Path("/tmp", f"npu_daemon_probe_{uuid.uuid4().hex}")
    check = f"    open({str(probe)!r}, 'w')\n"
    root = torch_operator(tmp_path, GOLDEN.format(check=check))
    try:
        result = client.evaluate(request(root, "torch-write"))
        assert result.status is Status.REJECTED, result.message
        assert "Read-only file system" in result.message
        assert not probe.exists()
    finally:
        probe.unlink(missing_ok=True)


def test_a_golden_cannot_connect_even_to_loopback(tmp_path, client):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        check = f"    import socket\n    socket.socket().connect(('127.0.0.1', {port}))\n"
        root = torch_operator(tmp_path, GOLDEN.format(check=check))
        result = client.evaluate(request(root, "torch-net"))
        assert result.status is Status.REJECTED, result.message
        assert select.select([server], [], [], 0)[0] == []  # nobody knocked
        assert "Network is unreachable" in result.message


def test_a_golden_past_its_memory_budget_is_rejected(tmp_path, client):
    check = "    torch.empty(20 << 30, dtype=torch.uint8)  # reserved, never touched\n"
    root = torch_operator(tmp_path, GOLDEN.format(check=check))
    result = client.evaluate(request(root, "torch-memory"))
    assert result.status is Status.REJECTED, result.message
    assert "allocate" in result.message


def test_a_runaway_golden_is_a_charged_rejection_and_the_daemon_serves_on(tmp_path, client):
    root = torch_operator(tmp_path, GOLDEN.format(check="    while True:\n        pass\n"))
    start = time.monotonic()
    result = client.evaluate(request(root, "torch-spin", run_s=5.0))
    assert result.status is Status.REJECTED, result.message
    assert "timed out" in result.message and time.monotonic() - start < 90
    assert client.ledger("torch-spin").by_status == {"REJECTED": 1}
    fine = torch_operator(tmp_path, GOLDEN.format(check=""))
    assert client.evaluate(request(fine, "torch-after")).status is Status.OK


def test_a_golden_prepares_the_inputs_both_sides_see(tmp_path, client):
    """cann-bench's get_input replaces the drawn inputs for the golden and the candidate alike:
    here y becomes zeros, so the add kernel (x + y) matches a golden that insists on them only
    when the candidate was given the prepared y too. One of the wrong shape is REJECTED."""
    hook = "\n\ndef get_input(x, y, **attrs):\n    return [x, torch.zeros_like(y)]\n"
    check = "    assert bool((y == 0).all())\n"
    root = torch_operator(tmp_path, GOLDEN.format(check=check) + hook)
    result = client.evaluate(request(root, "torch-prepared"))
    assert result.status is Status.OK, result.message
    bad = torch_operator(
        tmp_path, GOLDEN.format(check="") + hook.replace("torch.zeros_like(y)", "y[:7]")
    )
    result = client.evaluate(request(bad, "torch-prepared"))
    assert result.status is Status.REJECTED and "get_input gave y shape [7]" in result.message


def test_get_input_answers_the_goldens_tensor_parameters_in_the_goldens_order(tmp_path, client):
    """As cann-bench's evaluator reads it: the answer fills the golden's tensor-annotated
    parameters by position (here only y, which the golden lists first); x keeps its drawn values."""
    golden = (
        "import torch\n\n\ndef add(y: torch.Tensor, x: torch.Tensor):\n"
        "    assert bool((y == 0).all()) and not bool((x == 0).all())\n"
        "    return torch.add(x, y)\n\n\n"
        "def get_input(x, y, **attrs):\n    return [torch.zeros_like(y)]\n"
    )
    result = client.evaluate(request(torch_operator(tmp_path, golden), "torch-order"))
    assert result.status is Status.OK, result.message
    extra = golden.replace("[torch.zeros_like(y)]", "[torch.zeros_like(y), x, x]")
    result = client.evaluate(request(torch_operator(tmp_path, extra), "torch-order"))
    assert result.status is Status.REJECTED and "get_input returned 3 tensors" in result.message


def test_get_input_may_echo_attributes_after_its_tensors(tmp_path, client):
    """kernel_bench's scatter_pa_kv_cache answers its tensors and then its `cache_mode`: what
    follows the golden's tensor parameters is not read (a tensor there still is refused)."""
    golden = (
        "import torch\n\n\ndef add(x: torch.Tensor, y: torch.Tensor, mode='x'):\n"
        "    assert bool((y == 0).all())\n"
        "    return torch.add(x, y)\n\n\n"
        "def get_input(x, y, mode='x', **attrs):\n    return (x, torch.zeros_like(y), mode)\n"
    )
    result = client.evaluate(request(torch_operator(tmp_path, golden), "torch-echo"))
    assert result.status is Status.OK, result.message


def test_an_input_drawn_at_one_shape_reaches_the_kernel_as_get_input_answers(tmp_path, client):
    """cann-bench's int4 cases draw x at its declared shape and its get_input packs it to
    another, which the kernel and the golden both get (`Case.drawn`, the declared shape; `shapes`,
    what get_input answers). Here y is drawn at [8192] and folded to the [4096] the add kernel
    takes, whose sum the golden checks; a drawn shape without a get_input is REJECTED."""
    hook = "\n\ndef get_input(x, y, **attrs):\n    return [x, y[:4096] + y[4096:]]\n"
    check = "    assert y.shape == (4096,) and bool((y.abs() > 1).any())\n"  # a fold of two draws
    root = torch_operator(tmp_path, GOLDEN.format(check=check) + hook)
    toml = (root / "op.toml").read_text()
    drawn = "shapes = { x = [4096], y = [4096] }\ndrawn = { y = [8192] }\n"
    (root / "op.toml").write_text(toml.replace("shapes = { x = [4096], y = [4096] }\n", drawn, 1))
    result = client.evaluate(request(root, "torch-drawn"))
    assert result.status is Status.OK, result.message
    (root / "golden.py").write_text(GOLDEN.format(check=""))
    result = client.evaluate(request(root, "torch-drawn"))
    assert result.status is Status.REJECTED, result.message
    assert "no get_input to make y of case aligned_fp16" in result.message
