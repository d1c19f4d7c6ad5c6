"""Reward integrity, second round (issue 34): inputs the candidate cannot know, content identity,
budgets and service. One adversarial test per family, each failing on the code before it.

Every kernel here is safe if containment failed: it reads and writes only its own tensors.
"""

from __future__ import annotations

from ascend_core import identity
from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import Status
from npu_daemon.backends.common import build

from .conftest import ADD_DIR, small_request


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
