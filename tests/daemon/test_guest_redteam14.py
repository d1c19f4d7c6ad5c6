"""A fourteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A fourteenth red
team"): what a client's reference can reach in the process it runs in, the constructor sections
of an object past the ELF's 16-bit section count, a source lent with isReuseSource beyond the
element-wise math family, and a tiling's text on a case kept across evaluations, each asserting
the honest outcome against a real daemon or on the object the build makes.

Safe if containment fails: the client references run in the daemon's reference sandbox (the
worker's unprivileged user, no network, a read-only filesystem) and read only their own process;
the objects are assembled in a temporary directory; the kernels are level1/add with one more call.
"""

from __future__ import annotations

import hashlib
import re
import subprocess

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Status
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.sim import case_data

from . import test_guest_boundary as boundary
from .conftest import client_operator, small_request
from .test_guest_redteam12 import checked

guest = boundary.guest  # the session's sim-guest daemon


def unspelled(text: str) -> bytes:
    """Bytes from their spelling in letters (two a byte, a to p), as the references write them."""
    return bytes(((ord(a) - 97) << 4) | (ord(b) - 97) for a, b in zip(text[::2], text[1::2]))


def with_reference(reference: str, run_id: str) -> EvalRequest:
    """level1/add carrying a reference of its own (so the client's operator, the reference run
    sandboxed), its first case checked."""
    add = resolve("level1/add")
    own = add.model_copy(update={"files": {**add.files, "reference.py": reference}, "uri": ""})
    return checked(add.kernel_source, run_id).model_copy(
        update={"package": own, "cases": [add.spec.cases[0].name]}
    )


# ---- a client's reference and the memory of the process it runs in ------------------------------
# Walks the frames of its own process, the stack that called it, for the daemon's case secret.
SECRET_REFERENCE = """import sys


def add(x, y):
    frame = sys._getframe()
    while frame is not None:
        secret = frame.f_locals.get("case_secret")
        if isinstance(secret, bytes):
            raise ValueError("secret " + "".join(chr(97 + (b >> 4)) + chr(97 + (b & 15)) for b in secret))
        frame = frame.f_back
    raise ValueError("secret none")
"""


def test_a_clients_reference_never_holds_the_daemons_case_secret(guest):
    # A client's reference ran in a fork of the daemon's worker: the child had the worker's whole
    # memory, the frames that called it among it, and `worker_main`'s `case_secret` there, the
    # key of every case a candidate is judged on (`case_seed`). With it and the public seed a
    # client draws every kept input offline, for the daemon's life. Its failure's last line came
    # back as the REJECTED message. The reference now runs in a child of a process that never held
    # the secret (nor any case's data): it finds nothing.
    result = guest.evaluate(with_reference(SECRET_REFERENCE, "secret-reference"))
    assert result.status is Status.REJECTED, (result.status, result.message)
    found = re.search(r"secret ([a-p]+)", result.message)
    leaked = found is not None and (
        hashlib.sha256(b"case-secret-id" + unspelled(found.group(1))).hexdigest()[:16]
        == result.case_secret_id
    )
    assert not leaked, result.message
    assert "secret none" in result.message, result.message  # the reference ran, and found nothing


# ---- the constructor sections of an object of 65,280 sections or more ----------------------------
def test_an_object_past_the_short_section_count_keeps_no_constructor_section(tmp_path):
    # ELF counts sections in 16 bits; an object of 65,280 or more keeps its count and its name
    # table's index in section 0 (extended numbering), which g++ writes for a tiling of some
    # 34,000 explicit template instantiations (a section and a group each). ctors.defer read the
    # 16-bit fields: no section, nothing renamed, so the object's `.init_array` stayed and its
    # constructor ran at dlopen, at the loading stage of the tiling process's filter, which the
    # deferral exists to keep candidate code out of. Both fields are now read where ELF puts them.
    from npu_daemon.backends.common import ctors

    sections = "".join(f'.section .t{i},"ax",@progbits\n.byte {i % 256}\n' for i in range(65300))
    (tmp_path / "many.s").write_text(
        sections + '.section .init_array,"aw",@init_array\n.quad 0\n'
        '.section .fini_array,"aw",@fini_array\n.quad 0\n'
    )
    subprocess.run(["as", "many.s", "-o", "many.o"], cwd=tmp_path, check=True)
    assert ctors.defer(tmp_path / "many.o") == 2
    table = subprocess.run(
        ["readelf", "-SW", "many.o"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    names = set(re.findall(r"^\s+\[\s*\d+\]\s+(\S+)", table.stdout, re.M))
    assert table.stderr == "" and len(names) > 65300, table.stderr
    assert not names & {".init_array", ".fini_array"}, sorted(names & {".init_array"})
    assert {"cand_init", "cand_fini"} <= names


# ---- a client's reference and the processes it can see -------------------------------------------
# Reads every process's command line (world-readable in /proc) for the daemon's `--case-secret`.
CMDLINE_REFERENCE = """import os


def add(x, y):
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                words = f.read().split(b"\\0")
        except OSError:
            continue
        if b"--case-secret" in words[:-1]:
            raise ValueError("cmdline " + words[words.index(b"--case-secret") + 1].decode())
    raise ValueError("cmdline none")
"""


def test_a_clients_reference_never_reads_the_secret_a_researcher_passes(tmp_path_factory):
    # `--case-secret` is how a researcher draws a daemon's inputs again (docs/daemon.md), and a
    # command line is world-readable in /proc. The reference sandbox shares the host's /proc: a
    # client's reference read the daemon's command line and returned its secret as the REJECTED
    # message. A confined child now sees a /proc of its own user's processes only.
    secret = bytes(range(16))
    state = tmp_path_factory.mktemp("secret")
    extra = ["--case-secret", secret.hex()]
    with LocalDaemon(backend="sim-guest", workers=1, state_dir=state, extra_args=extra) as d:
        client = DaemonClient(d.address)
        try:
            result = client.evaluate(with_reference(CMDLINE_REFERENCE, "cmdline-reference"))
        finally:
            client.close()
    assert result.status is Status.REJECTED, (result.status, result.message)
    assert secret.hex() not in result.message, result.message
    assert "cmdline none" in result.message, result.message


# ---- isReuseSource beyond the element-wise math family --------------------------------------------
ALIGNED = "(len + alignElems - 1) / alignElems * alignElems"


@pytest.mark.parametrize(
    "lend",
    [
        pytest.param(f"Exp<DTYPE_X, 0, true>(zLocal, xLocal, {ALIGNED});", id="Exp"),
        pytest.param(f"Swish<DTYPE_X, true>(zLocal, xLocal, {ALIGNED}, (DTYPE_X)1);", id="Swish"),
        pytest.param(
            f"ClampMax<DTYPE_X, true>(zLocal, xLocal, (DTYPE_X)0, {ALIGNED});", id="ClampMax"
        ),
        pytest.param(f"Power<DTYPE_X, true>(zLocal, xLocal, (DTYPE_X)2, {ALIGNED});", id="Power"),
    ],
)
def test_a_source_lent_to_the_other_math_apis_is_not_the_kernels_after_the_call(guest, lend):
    # The thirteenth round left a float source lent with isReuseSource as the library leaves it
    # (0xFF bytes) for the element-wise family only. Exp, Swish, the clamps and Power's scalar
    # forms take the same flag, "whether the source operand may be modified", but the guest did
    # not pass it to the host and the host ignored it: a kernel that lent x to one of them and
    # then added x to y was right only here (OK). The flag now crosses for every function of the
    # import, and the host leaves the source so whichever function it lent it to.
    kernel = resolve("level1/add").files["op_kernel/add.cpp"]
    call = f"    Add(zLocal, xLocal, yLocal, {ALIGNED});\n"
    assert call in kernel
    result = guest.evaluate(checked(kernel.replace(call, f"    {lend}\n" + call), "reuse-more"))
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)
    assert "fp32" in result.message, result.message


# ---- a tiling's own text on a case kept across evaluations ---------------------------------------
SPELLING_TILING = (
    "  const gert::Tensor* seen = context->GetInputTensor(0);\n"
    "  if (seen != nullptr && seen->GetData<uint8_t>() != nullptr) {\n"
    '    std::string kept = "kept ";\n'
    "    for (int i = 0; i < 16; ++i) {\n"
    "      const uint8_t b = seen->GetData<uint8_t>()[i];\n"
    "      kept += static_cast<char>('a' + (b >> 4));\n"
    "      kept += static_cast<char>('a' + (b & 15));\n"
    "    }\n"
    "    throw std::runtime_error(kept);\n"
    "  }\n"
)


def test_a_tiling_never_spells_a_kept_input_in_its_text(tmp_path, guest):
    # A kept case's text has its numbers withheld, but the tiling reads the values of the inputs
    # the spec marks value_depend, and its text (an exception's, a warning record it writes
    # itself) is its own words: it spelled x's first 16 bytes in letters, which came back in the
    # RUNTIME_ERROR on a case whose inputs hold across evaluations (here a client's own operator;
    # a suite with such an input would have given away the inputs its candidates are judged on).
    # Where the tiling reads a kept case's inputs, no text of the run comes back, only its status.
    root = client_operator(tmp_path, "spelling", "def add(x, y):\n    return x + y\n")
    toml = (root / "op.toml").read_text()
    toml = toml.replace('{ name = "x", ', '{ name = "x", value_depend = true, ', 1)
    toml += '\n[[cases]]\nname = "kept_fp16"\ndtype = "float16"\nshapes = { x = [512, 1024], y = [512, 1024] }\n'
    (root / "op.toml").write_text(toml)
    host = root / "op_host" / "add.cpp"
    entry = "static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n"
    source = host.read_text()
    assert entry in source
    source = "#include <stdexcept>\n#include <string>\n" + source.replace(
        entry, entry + SPELLING_TILING
    )
    host.write_text(source.replace('this->Input("x")', 'this->Input("x").ValueDepend(REQUIRED)'))
    pkg = load_package(root)
    kept = next(c for c in pkg.spec.cases if c.name == "kept_fp16")
    assert not case_data.drawn_fresh(pkg, kept)
    result = guest.evaluate(
        small_request(pkg, run_id="spelling").model_copy(update={"cases": ["kept_fp16"]})
    )
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert not re.search("kept [a-p]{32}", result.message), result.message
    assert "not returned" in result.message, result.message
