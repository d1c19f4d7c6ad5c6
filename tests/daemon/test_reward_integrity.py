"""Reward integrity, second round (issue 34): inputs the candidate cannot know, content identity,
budgets and service. One adversarial test per family, each failing on the code before it.

Every kernel here is safe if containment failed: it reads and writes only its own tensors.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from ascend_core import identity, suite
from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import SAMPLED_PAST_BYTES, EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon import checker, main
from npu_daemon.backends.common import build
from npu_daemon.service import workers

from .conftest import ADD_DIR, add_variant, client_operator, daemon_args, small_request


# ---- content identity ----------------------------------------------------------------------------
def _one_file_twin(victim: OperatorPackage) -> OperatorPackage:
    """Every file of `victim` packed into its first file, joined as the old hash joined them: path
    and text separated by NUL, no lengths. The old encoding read both packages alike."""
    paths = sorted(victim.files)
    packed = victim.files[paths[0]] + "".join(f"\0{p}\0{victim.files[p]}" for p in paths[1:])
    return victim.model_copy(update={"files": {paths[0]: packed}})


def test_two_packages_never_share_a_hash_and_the_victim_is_served_its_own_result(tmp_path, client):
    """A package that does not compile, crafted so that the NUL-joined hash equals the suite
    baseline's: evaluated first, it must not answer the victim's unmodified baseline from the
    cache (the old code answered COMPILE_ERROR and charged it)."""
    victim = load_package(ADD_DIR)
    attacker = _one_file_twin(victim)
    assert attacker.content_hash() != victim.content_hash()
    bad = client.evaluate(small_request(attacker, run_id="identity-attacker"))
    assert bad.status is not Status.OK
    good = client.evaluate(small_request(victim, run_id="identity-victim"))
    assert good.status is Status.OK, good.message
    assert good.cost.cache_source == "none" and good.candidate_hash == victim.content_hash()


def test_object_cache_keys_are_length_prefixed():
    """The object cache's keys: sources moved across a file boundary, or a list's items moved into
    the next part, give another key."""
    pkg = load_package(ADD_DIR)
    assert build.package_sources(pkg, "op_host")  # (path, text) pairs, not joined strings
    a = build.digest("kernel", [["op_kernel/a.h", "x\0op_kernel/b.h\0y"]], "h")
    b = build.digest("kernel", [["op_kernel/a.h", "x"], ["op_kernel/b.h", "y"]], "h")
    c = build.digest("kernel", [["op_kernel/a.h", "x"]], [["op_kernel/b.h", "y"]], "h")
    assert len({a, b, c}) == 3
    # The tag is part of the identity: a kernel key never equals a tiling key of the same parts.
    assert build.digest("kernel", "p") != build.digest("tiling", "p")
    assert identity.encode("t", "ab") != identity.encode("t", "a", "b")
    assert identity.encode("t", b"1") != identity.encode("t", "1") != identity.encode("t", 1)
    assert identity.digest("t", 2**64) != identity.digest("t", 2**63)  # any size of integer


# ---- budgets and service -------------------------------------------------------------------------
def test_non_finite_outputs_pass_only_where_the_reference_has_them(tmp_path, client):
    """Two NaN/inf outputs in a 4096-element fp16 case sit inside the 0.1 % outlier allowance:
    the old checker passed them. A NaN or infinity where the reference is finite fails."""
    add_variant(tmp_path, comment="nan")
    kernel = tmp_path / "add" / "op_kernel" / "add.cpp"
    tail = (
        "  if (GetBlockIdx() == 0) {\n    PipeBarrier<PIPE_ALL>();\n"
        "    GlobalTensor<DTYPE_Z> out;\n    out.SetGlobalBuffer((__gm__ DTYPE_Z*)z, 2);\n"
        "    const float zero = GetBlockIdx();\n"
        "    out.SetValue(0, (DTYPE_Z)(zero / zero));\n    out.SetValue(1, (DTYPE_Z)(1.0f / zero));\n  }"
    )
    source = kernel.read_text()
    kernel.write_text(source.replace("  op.Process();\n}", f"  op.Process();\n{tail}\n}}"))
    result = client.evaluate(small_request(load_package(tmp_path / "add"), run_id="nan"))
    assert result.status is Status.WRONG_ANSWER, result.message
    assert "NaN or infinite where the reference is finite" in result.message


def test_a_sleeping_client_reference_is_a_charged_rejection(tmp_path, daemon):
    """A client's reference that sleeps used to get 300 s, past the worker's deadline: an
    uncharged DAEMON_ERROR, repeatable at will. It now gets the request's run timeout inside
    the deadline: a charged REJECTED, answered in seconds."""
    sleepy = "import time\n\n\ndef add(x, y):\n    time.sleep(3600)\n    return x + y\n"
    root = client_operator(tmp_path, "sleepy", f"# fresh: {uuid.uuid4()}\n{sleepy}")
    client = DaemonClient(daemon.address, heartbeat_s=1.0, timeout_s=120)
    start = time.monotonic()
    result = client.evaluate(small_request(load_package(root), run_id="sleepy", run_s=5.0))
    assert result.status is Status.REJECTED, result.message
    assert "timed out" in result.message and time.monotonic() - start < 90
    assert client.ledger("sleepy").by_status == {"REJECTED": 1}
    client.close()


def test_a_full_state_disk_is_a_daemon_error_and_the_daemon_keeps_serving(tmp_path):
    """The state file on a 4 MiB tmpfs, filled up: the ledger's COMMIT fails. The old daemon died
    of it; now the answer is an uncharged DAEMON_ERROR, and once the disk has room again the same
    daemon evaluates and charges normally."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    disk = Path(tempfile.mkdtemp(prefix="npu_daemon-state-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], check=True)
    try:
        with LocalDaemon(workers=1, state_dir=disk / "state") as d:
            client = DaemonClient(d.address, heartbeat_s=1.0)
            filler = disk / "filler"
            with contextlib.suppress(OSError), filler.open("wb") as f:
                while True:  # stops at the tmpfs's 4 MiB
                    f.write(b"\0" * 4096)
                    f.flush()
            pkg = add_variant(tmp_path / "k", comment=f"state disk {uuid.uuid4()}")
            full = client.evaluate(small_request(pkg, run_id="state-full"))
            assert full.status is Status.DAEMON_ERROR, full.message
            assert "state file" in full.message
            assert d.process.poll() is None and client.health().ok
            filler.unlink()
            again = client.evaluate(small_request(pkg, run_id="state-full"))
            assert again.status is Status.OK, again.message
            assert client.ledger("state-full").evaluations == 1
            client.close()
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
        disk.rmdir()


def test_the_queue_bound_counts_memory_held_not_wire_bytes(tmp_path):
    """One astral character makes Python hold a source at 4 bytes a character: a 1 MB request
    holds over 4 MB. Against a 3 MB bound the old daemon (counting 1 MB of wire bytes) queued
    it; now it is answered BUSY at once, and a small request is still served."""
    with LocalDaemon(
        workers=1, state_dir=tmp_path / "state", extra_args=["--max-queue-bytes", "3000000"]
    ) as d:
        client = DaemonClient(d.address, heartbeat_s=1.0)
        wide = add_variant(tmp_path / "wide", comment="\U0001f600 " + "x" * 1_000_000)
        request = small_request(wide, run_id="memory")
        assert len(request.model_dump_json().encode()) < 1_100_000
        refused = client.evaluate(request)
        assert refused.status is Status.BUSY and "holds" in refused.message, refused.message
        small = client.evaluate(small_request(add_variant(tmp_path / "s"), run_id="memory"))
        assert small.status is Status.OK, small.message
        client.close()


def test_a_root_daemon_refuses_to_run_candidates_as_root(tmp_path):
    """A cache the sandbox users cannot traverse (the usual /root/.cache in a container): the old
    daemon logged "candidates run as root" and ran them so. Now it refuses to start, in one line,
    before building anything; `--sandbox-uid 0` asks for root on purpose."""
    if os.geteuid() != 0:
        pytest.skip("only a root daemon switches users")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    env = {**os.environ, "ASCEND_GYM_CACHE": str(private / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "npu_daemon", "--bind", "tcp://127.0.0.1:0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "READY" not in done.stdout
    (line,) = [x for x in done.stderr.splitlines() if x.strip()]
    assert line.startswith("refusing to start: candidates would run as root"), line
    assert str(private) in line
    assert not (private / "cache" / "sim" / "objects").exists()  # nothing built or opened


def test_remote_clients_need_run_tokens():
    """Throw-away run ids dodged the budget (5 evaluations for a ledger of 1): a daemon reachable
    beyond loopback serves only opened runs with their token, whatever its flags (and a loopback
    one too unless told otherwise: test_service_bounds.py)."""
    remote = ["--bind", "tcp://0.0.0.0:5555", "--keys", "k"]
    assert main.tokens_required(daemon_args(remote))
    assert main.tokens_required(daemon_args([*remote, "--allow-unopened-runs"]))
    assert main.tokens_required(daemon_args(["--require-run-tokens", "--allow-unopened-runs"]))


# ---- inputs the candidate cannot know ------------------------------------------------------------
def _answer_table(seed: int) -> list[int]:
    """add's aligned_fp16 outputs for case inputs drawn from `seed`, as fp16 bits: what a candidate
    computes offline with our own code when it knows the seed."""
    pkg = load_package(ADD_DIR)
    case = pkg.spec.case("aligned_fp16")
    (out,) = checker.reference_outputs(pkg, case, checker.make_inputs(pkg, case, seed))
    return out.view("uint16").ravel().tolist()


def _offline_kernel(tmp_path: Path, seed: int) -> OperatorPackage:
    """add, whose kernel ignores its inputs and stores the outputs computed offline for `seed`."""
    table = ",".join(map(str, _answer_table(seed)))
    add_variant(tmp_path, comment=f"offline {seed}")
    kernel = tmp_path / "add" / "op_kernel" / "add.cpp"
    stored = (
        f"  static const uint16_t answer[] = {{{table}}};\n"
        "  if (GetBlockIdx() == 0) {\n"
        "    GlobalTensor<uint16_t> out;\n    out.SetGlobalBuffer((__gm__ uint16_t*)z, 4096);\n"
        "    for (uint32_t i = 0; i < 4096; ++i) out.SetValue(i, answer[i]);\n  }\n"
    )
    kernel.write_text(kernel.read_text().replace("  op.Process();\n}", f"{stored}}}"))
    return load_package(tmp_path / "add")


def test_an_answer_computed_offline_from_the_public_seed_fails(tmp_path, client):
    """The kernel ignores its inputs and stores the outputs computed offline for seed 0: with the
    old fixed public seed it passed. The daemon now draws the inputs with its own secret: a wrong
    answer, and the result names the secret's public id."""
    result = client.evaluate(small_request(_offline_kernel(tmp_path, 0), run_id="offline"))
    assert result.status is Status.WRONG_ANSWER, result.message
    assert len(result.case_secret_id) == 16


def test_the_reported_secret_reproduces_a_run(tmp_path):
    """A stopped daemon reports its secret, which a result names by its public id; a researcher
    draws the same inputs from it (test_answer_leaks.py::test_each_candidate_draws_its_own_small_cases
    re-draws a run's cases and finds its reported errors)."""
    secret = bytes(range(16))
    with LocalDaemon(
        workers=1, state_dir=tmp_path / "state", extra_args=["--case-secret", secret.hex()]
    ) as d:
        client = DaemonClient(d.address, heartbeat_s=1.0)
        ok = client.evaluate(small_request(load_package(ADD_DIR), run_id="reproduce", seed=7))
        assert ok.status is Status.OK, ok.message
        assert ok.case_secret_id == workers.secret_id(secret)
        client.close()
    (line,) = (tmp_path / "state" / "case_secrets.jsonl").read_text().splitlines()
    assert json.loads(line)["secret"] == secret.hex()


def _entry_replaced(tmp_path: Path, name: str, code: str) -> OperatorPackage:
    """add whose kernel entry runs `code` in place of `op.Process();`."""
    add_variant(tmp_path / name, comment=name)
    kernel = tmp_path / name / "add" / "op_kernel" / "add.cpp"
    kernel.write_text(kernel.read_text().replace("  op.Process();\n}", f"{code}\n}}"))
    return load_package(tmp_path / name / "add")


def _bench(pkg: OperatorPackage, run_id: str, timing: str) -> EvalRequest:
    return EvalRequest(
        run_id=run_id, package=pkg, stages=[Stage.COMPILE, Stage.TIME], timing=timing
    )


def test_a_timed_bench_case_is_checked(tmp_path, client):
    """A timing-only request (no check stage) timed a kernel that skips its work: the old daemon
    answered OK with a fast latency. The bench case is now checked whenever it is timed whole."""
    idle = _entry_replaced(tmp_path, "idle", "  (void)op;")
    result = client.evaluate(_bench(idle, "idle", "full"))
    assert result.status is Status.WRONG_ANSWER, result.message
    assert "bench_fp16" in result.message


def test_outputs_start_alike_in_every_mode(tmp_path, client):
    """A kernel that reads the padding past its output's end (which nobody writes) and works only
    when it is not zero: a sampled run used to leave outputs zeroed (a checked one: 0xFF), so it
    skipped its work exactly when only timed. Outputs now start as 0xFF in every mode."""
    probe = (
        "  GlobalTensor<uint16_t> pad;\n"
        "  pad.SetGlobalBuffer((__gm__ uint16_t*)z + tilingData.totalLength, 1);\n"
        "  if (pad.GetValue(0) != 0) op.Process();"
    )
    base = client.evaluate(_bench(load_package(ADD_DIR), "fill", "sampled"))
    telling = client.evaluate(_bench(_entry_replaced(tmp_path, "tell", probe), "fill", "sampled"))
    assert base.status is Status.OK and telling.status is Status.OK, telling.message
    assert telling.profile.timing == "sampled"
    assert telling.latency_us > 0.9 * base.latency_us


def _kernel_edited(tmp_path: Path, name: str, *edits: tuple[str, str]) -> OperatorPackage:
    """add with textual `edits` (old, new) to its kernel."""
    add_variant(tmp_path / name, comment=name)
    kernel = tmp_path / name / "add" / "op_kernel" / "add.cpp"
    text = kernel.read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    kernel.write_text(text)
    return load_package(tmp_path / name / "add")


def test_a_sampled_bench_case_is_checked(tmp_path, client):
    """A kernel that computes x + x instead of x + y in the bench case alone: a sampled run
    checked no bench output, so the old daemon answered OK. The simulated blocks' outputs are
    now compared with the reference."""
    wrong = _kernel_edited(
        tmp_path,
        "wrong",
        ("op.Init(x, y, z,", "op.Init(x, tilingData.totalLength > (1u << 20) ? x : y, z,"),
    )
    result = client.evaluate(_bench(wrong, "sampled-wrong", "sampled"))
    assert result.status is Status.WRONG_ANSWER, result.message
    assert "bench_fp16" in result.message


def test_work_hidden_in_a_block_the_sampler_skips_is_timed(tmp_path, client):
    """Block 13, which the old sampler's probes (0, 1, the middle, the last two, bisection) never
    ran, also computes the last block's slice, which the last block leaves: the old sampled run
    derived block 13 from its neighbours and timed the launch at about half its full time. Now a
    random probe runs it, or the outputs are not wholly stored by the derived picture and the case
    runs whole: either way, the full time."""
    rebind = """  __aicore__ inline void Rebind(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t offset, uint32_t len) {
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, len);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, len);
    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, len);
    blockLength = len;
  }

 private:"""
    entry = """  const uint32_t last = GetBlockNum() - 1, hider = GetBlockNum() > 14 ? 13 : 0;
  if (GetBlockIdx() != last) op.Process();
  if (GetBlockIdx() == hider) {
    const auto& t = tilingData;
    const uint32_t at = last < t.formerNum ? last * t.formerLength
                                           : t.formerNum * t.formerLength + (last - t.formerNum) * t.tailLength;
    op.Rebind(x, y, z, at, t.totalLength - at);
    op.Process();
  }
}"""
    hidden = _kernel_edited(
        tmp_path, "hidden", ("\n private:", "\n" + rebind), ("  op.Process();\n}", entry)
    )
    full = client.evaluate(_bench(hidden, "hidden-full", "full"))
    sampled = client.evaluate(_bench(hidden, "hidden-sampled", "sampled"))
    assert full.status is Status.OK and sampled.status is Status.OK, sampled.message
    assert sampled.latency_us == full.latency_us
    plain = client.evaluate(_bench(load_package(ADD_DIR), "hidden-plain", "full"))
    assert full.latency_us > 1.2 * plain.latency_us  # the hidden work is real work


# ---- large cases on every path -------------------------------------------------------------------
def test_timing_is_chosen_past_the_stated_size():
    """The clients' default, "auto", resolves to sampled exactly when the bench case's outputs
    exceed 256 MiB and the operator is not element-wise (an element-wise one is run whole and
    checked as a stream at any size); an explicit timing stands."""
    for op, past in (("level1/add", "full"), ("level2/reduce_sum_last", "sampled")):
        pkg = suite.resolve(op)
        assert EvalRequest(package=pkg, timing="auto").bench_timing() == "full"
        bench = pkg.spec.bench_case
        outputs = pkg.spec.output_bytes(bench)
        rows = bench.shapes["x"][0] * SAMPLED_PAST_BYTES // outputs  # the most that fit
        for n, timing in ((rows, "full"), (rows + 1, past)):
            shapes = {k: [n, *v[1:]] for k, v in bench.shapes.items()}
            big = bench.model_copy(update={"shapes": shapes})
            cases = [big if c.bench else c for c in pkg.spec.cases]
            sized = pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": cases})})
            assert EvalRequest(package=sized, timing="auto").bench_timing() == timing, (op, n)
            assert EvalRequest(package=sized, timing="full").bench_timing() == "full"


def test_eval_sends_the_timing_it_is_given(daemon):
    """`ascend-gym eval --timing sampled` sends sampled timing (no client sent it before)."""
    done = subprocess.run(
        [sys.executable, "-m", "ascend_gym.cli", "eval", "level1/add", "--timing", "sampled"]
        + ["--json", "--daemon", daemon.address],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["profile"]["timing"] == "sampled" and result["profile"]["blocks_simulated"] > 0


# ---- the tiling sees only value-dependent inputs -------------------------------------------------
def _tiling_probe(tmp_path: Path, declared: bool, spec_marks: bool = False) -> OperatorPackage:
    """add whose tiling fails when it can read x's values: its OpDef declares x ValueDepend or not;
    with `spec_marks`, the client's own operator whose spec marks x value_depend."""
    name = f"probe_{int(declared)}{int(spec_marks)}"
    if spec_marks:
        root = client_operator(tmp_path, name, "def add(x, y):\n    return x + y\n")
        toml = (
            (root / "op.toml")
            .read_text()
            .replace('{ name = "x", ', '{ name = "x", value_depend = true, ', 1)
        )
        (root / "op.toml").write_text(toml)
    else:
        add_variant(tmp_path / name, comment=f"tiling {name}")
        root = tmp_path / name / "add"
    host = root / "op_host" / "add.cpp"
    entry = "static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n"
    probe = (
        "  const gert::Tensor* x = context->GetInputTensor(0);\n"
        "  if (x != nullptr && x->GetData<uint16_t>() != nullptr) return ge::GRAPH_FAILED;\n"
    )
    source = host.read_text()
    assert entry in source and 'this->Input("x")' in source
    source = source.replace(entry, entry + probe)
    if declared:
        source = source.replace('this->Input("x")', 'this->Input("x").ValueDepend(REQUIRED)')
    host.write_text(source)
    return load_package(root)


def test_the_tiling_sees_only_value_dependent_inputs(tmp_path, client):
    """Every input up to 1 MiB reached the tiling, which could compute the operator there (8.5x);
    then every input the candidate's OpDef declared ValueDepend did (the same 8.5x, by declaring
    it). Only an input the operator's spec marks value_depend reaches it now: a candidate that
    declares more gets nothing more."""
    hidden = client.evaluate(small_request(_tiling_probe(tmp_path, False), run_id="tiling"))
    assert hidden.status is Status.OK, hidden.message
    declared = client.evaluate(small_request(_tiling_probe(tmp_path, True), run_id="tiling"))
    assert declared.status is Status.OK, declared.message
    marked = _tiling_probe(tmp_path, True, spec_marks=True)
    shown = client.evaluate(small_request(marked, run_id="tiling"))
    assert shown.status is Status.TILING_ERROR, shown.message
