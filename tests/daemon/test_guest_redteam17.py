"""A seventeenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A seventeenth
red team"): the surfaces added last session (the daemon's work roots and the host-wide claims on
sandbox uids) and the softmax family's sharedTmpBuffer, each asserting the honest outcome.

Safe if containment fails: the uid claims are made in directories of the test's own (the module's
claims path patched, never the host's /tmp/npu_daemon-uids), at uids no daemon of this host uses;
the kernels are level1/add with one change, run by the session's sim-guest daemon as its
unprivileged user.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ascend_core.protocol import Status
from npu_daemon.service import workers

from . import test_guest_boundary as boundary
from .test_guest_redteam12 import add_calling, checked
from .test_guest_redteam15 import MULTIPLY_BY_KEPT

guest = boundary.guest  # the session's sim-guest daemon

NOBODY = 65534
BASE_UID = 91_000  # no daemon's block: the host's start at 64000, test_work_root's at 90000


def _claim_or_refusal(monkeypatch, claims: Path) -> workers.SandboxUsers | PermissionError:
    monkeypatch.setattr(workers, "UID_LOCKS", claims)
    try:
        return workers._claim_block(BASE_UID, 64, [])
    except PermissionError as e:
        return e


def test_a_user_of_the_host_cannot_give_two_daemons_one_uid_block(tmp_path, monkeypatch):
    # The claims live at a fixed path in /tmp, a sticky directory every user may add names to. A
    # user who makes that name a link to a directory anyone may write (/dev/shm, /var/tmp; here
    # the test's `shared`), before the first daemon of the host starts, had the root daemon follow
    # it (this machine's fs.protected_symlinks is 0): the check read the target's owner, root, and
    # the lock files were made in that directory. There the user owns the lock file they made
    # first, so they can unlink it under a live daemon's lock, and the next daemon claims the same
    # block: the two share sandbox uids, each one's "kill everything of the uid" killing the
    # other's compilers and kernels, their candidates one user to each other.
    public = tmp_path / "tmp"  # the host's /tmp: sticky, writable by all
    shared = tmp_path / "shm"  # a world-writable directory of root's
    for d in (public, shared):
        d.mkdir()
        d.chmod(0o1777)
    claims = public / "npu_daemon-uids"
    claims.symlink_to(shared)
    planted = shared / f"{BASE_UID}.lock"
    planted.touch()
    os.chown(planted, NOBODY, NOBODY)
    planted.chmod(0o666)

    first = _claim_or_refusal(monkeypatch, claims)
    if isinstance(first, PermissionError):  # the link, or (round 18) the sticky place it is in
        assert str(claims) in str(first)
        assert not (shared / f"{BASE_UID + 64}.lock").exists()
        return
    try:
        # The planting user removes the lock file the live daemon holds, as theirs to remove in a
        # sticky directory (done here as root: the test's directories are not the user's to reach).
        planted.unlink()
        second = _claim_or_refusal(monkeypatch, claims)
        if isinstance(second, workers.SandboxUsers):
            second.release()
            assert second.first_uid != first.first_uid, (
                f"two daemons claimed the block of uid {first.first_uid}"
            )
    finally:
        first.release()


@pytest.mark.parametrize("mode", [0o1777, 0o770], ids=["sticky-1777", "group-770"])
def test_the_uid_claims_refuse_a_directory_others_can_write(tmp_path, monkeypatch, mode):
    # The same through a directory of root's that is not ours alone: the check read its owner only.
    claims = tmp_path / "npu_daemon-uids"
    claims.mkdir()
    claims.chmod(mode)
    got = _claim_or_refusal(monkeypatch, claims)
    if isinstance(got, workers.SandboxUsers):
        got.release()
    assert isinstance(got, PermissionError), f"claimed uid {got} in a directory of mode {mode:o}"


# ---- the softmax family's sharedTmpBuffer past its maximum ---------------------------------------
# Each call on 1 row of 8 floats (the norm buffer's 1.0s as source, gradient and statistics), with
# a 1,024-byte buffer whose byte 896 (norm[480]) holds a 1.0 the kernel multiplies its sums by.
@pytest.mark.parametrize(
    "call",
    [
        # GetSoftMaxMaxTmpSize, which asc-devkit's SimpleSoftMax page sizes its buffer by: 576 bytes.
        pytest.param(
            "SimpleSoftMax<float>(norm[0], norm[64], norm[72], norm[128], tmp, st,"
            " SoftMaxShapeInfo{1, 8, 1, 8});",
            id="SimpleSoftMax",
        ),
        # asc-devkit's A2 GetSoftMaxGradMaxTmpSize of a float row, not front: 352 bytes.
        pytest.param(
            "SoftmaxGrad<float>(norm[0], norm[128], norm[192], tmp, st, false,"
            " SoftMaxShapeInfo{1, 8, 1, 8});",
            id="SoftmaxGrad",
        ),
        # asc-devkit's A2 GetSoftMaxFlashMaxTmpSize of a float row, without update: 320 bytes.
        pytest.param(
            "SoftmaxFlash<float>(norm[0], norm[64], norm[72], norm[128], norm[200], norm[88],"
            " norm[96], tmp, st, false, SoftMaxShapeInfo{1, 8, 1, 8});",
            id="SoftmaxFlash",
        ),
        # asc-devkit's A2 GetSoftMaxFlashV2MaxTmpSize of a float row: 288 bytes.
        pytest.param(
            "SoftmaxFlashV2<float>(norm[0], norm[64], norm[72], norm[128], norm[200], norm[88],"
            " norm[96], tmp, st, SoftMaxShapeInfo{1, 8, 1, 8});",
            id="SoftmaxFlashV2",
        ),
    ],
)
def test_a_softmax_buffer_keeps_its_tail_past_the_maximum(guest, call):
    # Round 16 left them open: SimpleSoftMax, SoftmaxGrad and the flash forms took their whole
    # sharedTmpBuffer as written, while their host helpers give the most a call uses. An honest
    # kernel that keeps a 1.0 at byte 896 of a 1,024-byte buffer and multiplies its sums by it
    # after the call was charged WRONG_ANSWER (every element NaN). The kernel side now takes each
    # helper's number (math_tmp_sizes.h).
    kernel = add_calling(
        "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[1024];\n"
        "    SoftMaxTiling st{};\n"
        f"    {call}\n" + MULTIPLY_BY_KEPT.format(kept=480)
    )
    result = guest.evaluate(checked(kernel, "softmax-tmp-tail"))
    assert result.status is Status.OK, (result.status, result.message)
