"""An eighteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "An eighteenth
red team"): the host-wide uid claims a user of the host could keep every root daemon from
making, the sharedTmpBuffer maxima the seventeenth left open, and the Matmul's user-copied tiles
(last session's surface), each asserting the honest outcome.

Safe if containment fails: the unprivileged probe is a forked child that only tries to make a
directory of a name no daemon uses beside the claims place and removes it; claims are made in
directories of the test's own under /run (the module's places patched, never the host's claims
directories), at uids no daemon of this host uses; kernels run on the session's sim-guest daemon
as its unprivileged user.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from npu_daemon.service import workers
from tests.guest.test_matmul_user_copy import REGIST, user_copied

from . import test_guest_boundary as boundary
from .test_guest_redteam12 import add_calling, checked
from .test_guest_redteam15 import MULTIPLY_BY_KEPT

guest = boundary.guest  # the session's sim-guest daemon

NOBODY = 65534
BASE_UID = 92_000  # no daemon's block: the host's start at 64000, earlier rounds' at 90000-91000

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only a root daemon claims sandbox uids")


def _made_as(uid: int, path: Path) -> bool:
    """Whether user `uid` can create the directory `path` (tried in a forked child, removed)."""
    pid = os.fork()
    if pid == 0:  # the child: a user of the host, nothing more
        code = 1
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.mkdir(path, 0o700)
            os.rmdir(path)
            code = 0
        except OSError:
            pass
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


@as_root
def test_a_user_of_the_host_cannot_make_the_claims_name_first():
    # The claims lived at /tmp/npu_daemon-uids, a name in a directory where every user may make
    # one. A user who made it first (a directory or link of theirs) kept every root daemon of the
    # host from starting: the daemon refuses a claims directory that is not its own alone. Any
    # name beside the claims place is one such a user could take the same way.
    probe = workers.UID_LOCKS.parent / f"npu_daemon-uids-probe-{os.getpid()}"
    assert not _made_as(NOBODY, probe), (
        f"user {NOBODY} made {probe}: a name in the claims place's directory is theirs to take"
    )


@pytest.fixture
def places(monkeypatch) -> Iterator[tuple[Path, Path]]:
    """The claims place and the earlier trees' place, in a root-only directory of the test's."""
    root = Path(tempfile.mkdtemp(dir="/run", prefix="npu_daemon-test-"))
    try:
        claims, legacy = root / "claims", root / "legacy"
        monkeypatch.setattr(workers, "UID_LOCKS", claims)
        monkeypatch.setattr(workers, "LEGACY_UID_LOCKS", legacy)
        yield claims, legacy
    finally:
        shutil.rmtree(root)


@as_root
def test_a_block_an_earlier_trees_daemon_holds_is_not_claimed(places):
    # A host replaces its daemons one at a time: one of an earlier tree holds its block in the
    # earlier place, and a daemon claiming only in the new one would take the same uids.
    _, legacy = places
    legacy.mkdir(mode=0o700)
    held = workers._lock(legacy / f"{BASE_UID}.lock")
    assert held is not None
    try:
        users = workers._claim_block(BASE_UID, 64, [])
        try:
            assert users.first_uid == BASE_UID + 64
        finally:
            users.release()
    finally:
        held.close()


@as_root
def test_a_planted_earlier_place_stops_no_daemon(places):
    # The earlier place is still in /tmp, where a user can make it first: that stops the earlier
    # trees' daemons only; a daemon of this tree claims in its own place and passes it over.
    claims, legacy = places
    legacy.mkdir(mode=0o777)
    os.chown(legacy, NOBODY, NOBODY)
    users = workers._claim_block(BASE_UID, 64, [])
    try:
        assert users.first_uid == BASE_UID and users.legacy_lock is None
        assert Path(users.lock.name).parent == claims
    finally:
        users.release()


def test_the_claims_refuse_a_place_others_can_add_names_to(tmp_path, monkeypatch):
    # The general rule behind the default: not only /tmp; any place below a directory others may
    # write (here a sticky one of the test's) is refused before a name is made in it.
    public = tmp_path / "tmp"
    public.mkdir()
    public.chmod(0o1777)
    monkeypatch.setattr(workers, "UID_LOCKS", public / "npu_daemon-uids")
    with pytest.raises(PermissionError, match="lets other users add names"):
        workers._claim_block(BASE_UID, 64, [])
    assert not (public / "npu_daemon-uids").exists()


# ---- the sharedTmpBuffer past the maxima round 17 left open --------------------------------------
# Each call on level1/add's norm buffer of 512 floats set to 1: its operands in the first 128, its
# buffer the last 1,024 bytes (or 1,536: SelectWithBytesMask's and CumSum's maxima pass 896), a
# 1.0 at norm[480] that the kernel multiplies its sums by after the call.
TAIL = "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[1024];\n"
WIDE_TAIL = "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[512];\n"


@pytest.mark.parametrize(
    ("setup", "call"),
    [
        # GetAscendQuantMaxMinTmpSize of 32 floats: 512 bytes.
        pytest.param(
            TAIL,
            "AscendQuant<float>(norm[64].ReinterpretCast<int8_t>(), norm[0], tmp, 1.0f, 0.0f, 32);",
            id="AscendQuant",
        ),
        # GetAscendDequantMaxMinTmpSize of [1, 8]: 352 bytes.
        pytest.param(
            TAIL,
            "AscendDequant<float, float>(norm[64], norm[0].ReinterpretCast<int32_t>(), 1.0f, tmp,"
            " DequantParams{1, 8, 8});",
            id="AscendDequant",
        ),
        # GetAscendAntiQuantMaxTmpSize to half: none.
        pytest.param(
            TAIL
            + "    LocalTensor<int8_t> q = norm.ReinterpretCast<int8_t>();\n    q.SetSize(64);\n"
            "    LocalTensor<half> h = norm[64].ReinterpretCast<half>();\n    h.SetSize(64);\n",
            "AscendAntiQuant<int8_t, half, false>(h, q, static_cast<half>(0.0f), static_cast<half>(1.0f),"
            " tmp, 4);",
            id="AscendAntiQuant",
        ),
        # GetReduceMaxMaxMinTmpSize of an AR [1, 16] float: 32 bytes.
        pytest.param(
            TAIL + "    const uint32_t shape[2] = {1, 16};\n",
            "ReduceMax<float, Pattern::Reduce::AR>(norm[64], norm[0], tmp, shape, true);",
            id="ReduceMax",
        ),
        # GetReduceSumMaxMinTmpSize of an AR [1, 16]: none.
        pytest.param(
            TAIL + "    const uint32_t shape[2] = {1, 16};\n",
            "ReduceSum<float, Pattern::Reduce::AR>(norm[64], norm[0], tmp, shape, true);",
            id="ReduceSum",
        ),
        # GetSelectWithBytesMaskMaxTmpSize of 8 floats, a mask row of 32 bytes: 1,056 bytes.
        pytest.param(
            WIDE_TAIL,
            "SelectWithBytesMask(norm[0], norm[32], 1.0f, norm[64].ReinterpretCast<uint8_t>(), tmp,"
            " SelectWithBytesMaskShapeInfo{1, 8, 32});",
            id="SelectWithBytesMask",
        ),
        # GetCumSumMaxMinTmpSize of [1, 8] floats along the last axis: 1,024 bytes.
        pytest.param(
            WIDE_TAIL,
            "CumSum<float>(norm[32], norm[64], norm[0], tmp, CumSumInfo{1, 8});",
            id="CumSum",
        ),
    ],
)
def test_a_buffer_keeps_its_tail_past_the_apis_maximum(guest, setup, call):
    # Round 17 left them open: quant and dequant, the pattern reductions, SelectWithBytesMask and
    # CumSum took their whole sharedTmpBuffer as written, while their host helpers give the most a
    # call uses ("space past it is not used by the API"). An honest kernel that keeps a 1.0 at
    # norm[480], past the maximum, and multiplies its sums by it after the call was charged
    # WRONG_ANSWER (every element NaN). The kernel side now takes each helper's number
    # (math_tmp_sizes.h, reduce_tmp_sizes.h), on both engines.
    kernel = add_calling(setup + f"    {call}\n" + MULTIPLY_BY_KEPT.format(kept=480))
    result = guest.evaluate(checked(kernel, "tmp-tail-18"))
    assert result.status is Status.OK, (result.status, result.message)


# ---- the Matmul's user copies: one L1 place for every object of a core ----------------------------
# level1/matmul with user copies of A and B, and a second object of the same kind that computes
# B x B into C between two of the first object's IterateAll: on the device each object's tiles have
# an L1 place of their own, so the first object's second pass (its tile of A held, not copied
# again) computes A x B. The emulation laid every object's tiles at one place.
SECOND_OBJECT = (
    "  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n",
    "  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n"
    "  other.SetTensorA(gb);\n"
    "  other.SetTensorB(t.transB ? gb[ni * tl.singleCoreN * tl.Kb] : gb[ni * tl.singleCoreN], t.transB != 0);\n"
    "  other.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM,"
    " tailN < tl.singleCoreN ? tailN : tl.singleCoreN);\n"
    "  other.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n"
    "  other.End();\n"
    "  mm.SetTensorB(t.transB ? gb[ni * tl.singleCoreN * tl.Kb] : gb[ni * tl.singleCoreN], t.transB != 0);\n"
    "  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n",
)


def two_objects():
    pkg = user_copied("nullptr, UserCopyA, UserCopyB", mdl=False)
    kernel = pkg.files[pkg.kernel_path]
    declared = "Matmul<AType, AType, CType, BiasType, CFG_NORM, MatmulCallBackFunc<nullptr, UserCopyA, UserCopyB>>"
    other = (
        f"  {declared} other;\n"
        "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), other, &tl);\n"
        "  other.SetUserDefInfo(reinterpret_cast<uint64_t>(&tl));\n"
        "  other.SetSelfDefineData(static_cast<uint64_t>(t.transB != 0));\n"
    )
    assert REGIST in kernel and SECOND_OBJECT[0] in kernel
    kernel = kernel.replace(REGIST, REGIST + other, 1).replace(*SECOND_OBJECT)
    return pkg.with_sources(kernel=kernel)


def test_a_matmuls_held_tile_is_its_own_whatever_another_object_copies(guest):
    # On main 56a4aa69 an honest kernel got WRONG_ANSWER: the first object's second pass found its
    # tile of A "held" and computed from the second object's tile of B in its place (the tiny case,
    # one tile a core). The other way round, a second object whose copy of a tile does nothing got
    # the first one's tile, so a kernel could skip a copy the device needs. Each object now takes
    # the place back with its own tiles as its copies left them, or cleared before its first copy.
    result = guest.evaluate(
        EvalRequest(
            run_id="matmul-two-objects",
            package=two_objects(),
            stages=[Stage.COMPILE, Stage.CHECK],
            timeouts=Timeouts(build_s=300, run_s=120),
        )
    )
    assert result.status is Status.OK, (result.status, result.message)


# ---- the softmax family's buffer under its minimum -----------------------------------------------
def test_a_softmax_buffer_under_the_helpers_minimum_is_refused(guest):
    # SoftMax on a row of 64 floats with a 32-byte sharedTmpBuffer, under the 320 bytes the tree's
    # GetSoftMaxMinTmpSize gives for it with a lent source (576 without; asc-devkit's A2 helper:
    # 544): the device's library works past the buffer, over whatever the kernel keeps there, and
    # the UB it needs is not the kernel's to save. On main 56a4aa69 it was OK (the emulation
    # computed from its own copies).
    kernel = add_calling(
        "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[1024];\n    tmp.SetSize(32);\n"
        "    SoftMaxTiling st{};\n"
        "    SoftMax<float>(norm[0], norm[64], norm[72], norm[128], tmp, st,"
        " SoftMaxShapeInfo{1, 64, 1, 64});\n"
    )
    result = guest.evaluate(checked(kernel, "softmax-tmp-min"))
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert "under the minimum" in result.message, result.message
