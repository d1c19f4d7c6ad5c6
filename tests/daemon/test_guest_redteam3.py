"""A third red team of the guest engine (issue 50, docs/trust_boundary.md, "A third red team of
the guest engine"): families the first two rounds' tests do not hold, each run against a real
`sim-guest` daemon and asserting what an honest run of the same work gets. Here: host work the
kernel's module makes the engine do outside the fuel it burns, and what a build leaves behind it.

Safe if containment fails: the kernels touch only their own memory (64 MiB at most once fixed,
1 GiB before) and the launch's buffers; the largest artefact a build writes is 40 MiB, twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_core.protocol import Status, Timeouts
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.common import build

from . import test_guest_boundary as boundary
from .conftest import sandbox_uids, uid_processes, wait_until
from .test_guest_boundary import kernel_with, timed
from .test_guest_redteam2 import with_tiling, with_tiling_of

guest = boundary.guest  # a sim-guest daemon of this module's own
unchecked_guest = boundary.unchecked_guest  # and one without the acceptance check


def with_timeouts(kernel: str, run_id: str, build_s: float = 120, run_s: float = 120):
    request = timed(kernel, run_id=run_id)
    return request.model_copy(update={"timeouts": Timeouts(build_s=build_s, run_s=run_s)})


# ---- host work outside the fuel ------------------------------------------------------------------
def test_growing_the_guests_memory_a_page_at_a_time_costs_the_host_little(guest):
    # `memory.grow` is one unit of fuel. A memory past its 16 MiB mapping moved on growth, copied
    # whole into a larger one: a page at a time up to 1 GiB copied about 32 GiB, 29 s of the
    # harness's CPU per block for 16,000 instructions (58.2 us simulated against 50.9 us). Every
    # block of every case doing it ran past any run timeout: an evaluation's worth of the daemon
    # for a loop the model charges nothing.
    grower = kernel_with(
        body="  for (int i = 0; i < 16000; ++i)\n"
        "    if (__builtin_wasm_memory_grow(0, 1) == -1) break;\n"
    )
    result = guest.evaluate(with_timeouts(grower, "grow", run_s=20))
    assert result.status is Status.OK, (result.status, result.message)
    assert result.cost.worker_s < 20, result.cost


# ---- what a build leaves behind ------------------------------------------------------------------
def artefacts() -> dict[Path, int]:
    objects = build.cache_root() / "objects"  # the daemon's, as it inherits ASCEND_GYM_CACHE
    return {p: p.stat().st_size for p in objects.iterdir()} if objects.exists() else {}


def test_a_kernel_of_large_static_data_leaves_nothing_in_the_object_cache(guest):
    # The object cache outlives evaluations and no quota counts it: one line of source (a static
    # array of 100 MiB) left 117 MB there per evaluation, two dtypes' modules, while the
    # evaluation itself failed (its disk quota) as a charged RUNTIME_ERROR; 40 MiB evaluated OK.
    # A few hundred such evaluations fill the disk every evaluation of every run needs.
    before = artefacts()
    bulky = kernel_with(
        "static volatile char bulk[40 << 20] = {1};\n",
        "  if (bulk[GetBlockIdx() * 4096] == 7) return;\n",
    )
    result = guest.evaluate(timed(bulky, run_id="bulk"))
    assert result.status is Status.COMPILE_ERROR and result.charged, (result.status, result.message)
    assert "past the 8 MiB" in result.message
    grown = {p: n for p, n in artefacts().items() if p not in before}
    assert all(n <= build.MAX_ARTEFACT_BYTES for n in grown.values()), grown


def held_bytes() -> int:
    return sum(n for p, n in artefacts().items() if p.suffix == ".so")


@pytest.mark.alone  # its count holds no other daemon's artefacts
def test_the_object_cache_stops_growing_at_its_bound(tmp_path, monkeypatch):
    # Artefacts under 8 MiB are kept, each evaluation's kernels (one a dtype) and tiling: a few
    # thousand evaluations of a 5 MiB static still filled the disk. Past its bound the cache keeps
    # nothing more; the candidate's artefacts live in its evaluation's directory and it runs.
    bound_mb = (held_bytes() >> 20) + 6
    monkeypatch.setenv("ASCEND_GYM_SIM_OBJECT_CACHE_MB", str(bound_mb))
    with LocalDaemon(backend="sim-guest", workers=1, state_dir=tmp_path) as d:
        client = DaemonClient(d.address, heartbeat_s=1.0)
        for n in (1, 2):
            bulky = kernel_with(
                f"static volatile char bulk[5 << 20] = {{{n}}};\n",
                "  if (bulk[GetBlockIdx() * 4096] == 7) return;\n",
            )
            result = client.evaluate(timed(bulky, run_id=f"bound{n}"))
            assert result.status is Status.OK, (result.status, result.message)
        client.close()
    assert held_bytes() <= bound_mb << 20


# ---- the compiler as the candidate's CPU ---------------------------------------------------------
# 800 constant evaluations of 250,000 steps each, every one under clang's per-evaluation limit:
# minutes of clang's CPU from six lines of source.
BOMB = r"""#include <utility>
constexpr unsigned Burn(unsigned k) {
  for (unsigned i = 0; i < 250000; ++i) k = k * 1664525u + 1013904223u;
  return k;
}
template <unsigned K> constexpr unsigned kBurnt = Burn(K);
template <unsigned B, unsigned... K>
constexpr unsigned All(std::integer_sequence<unsigned, K...>) { return (kBurnt<B + K> ^ ...); }
#define BURN(b) All<b * 40>(std::make_integer_sequence<unsigned, 40>{})
static volatile unsigned burnt = BURN(0) ^ BURN(1) ^ BURN(2) ^ BURN(3) ^ BURN(4) ^ BURN(5) ^ BURN(6) ^
    BURN(7) ^ BURN(8) ^ BURN(9) ^ BURN(10) ^ BURN(11) ^ BURN(12) ^ BURN(13) ^ BURN(14) ^ BURN(15) ^
    BURN(16) ^ BURN(17) ^ BURN(18) ^ BURN(19);
"""


def test_a_compile_that_outruns_its_budget_is_a_charged_timeout_and_leaves_no_compiler(guest):
    # Held (no test covered the family): clang's constant evaluator is metered by nothing but the
    # request's build timeout, which stops it and charges the evaluation.
    bomb = kernel_with(BOMB, "  if (burnt == 7) return;\n")
    result = guest.evaluate(with_timeouts(bomb, "bomb", build_s=5))
    assert result.status is Status.BUILD_TIMEOUT and result.charged, (result.status, result.message)
    assert result.cost.worker_s < 30, result.cost
    uids = sandbox_uids(guest)
    wait_until(lambda: not uid_processes(uids), timeout_s=10)


# ---- the native tiling's confinement -------------------------------------------------------------
# Past the token gate (`pread64` and `lseek64` were not on its list; the link gate refuses them): the
# tiling counts the descriptors it holds that answer a read of a byte, and launches that many
# blocks more than one.
READABLE = r"""
#include <unistd.h>
namespace {
uint32_t Readable() {
  uint32_t n = 0;
  for (int fd = 0; fd < 256; ++fd) {
    unsigned char byte = 0;
    if (lseek64(fd, 0, SEEK_END) >= 0 && pread64(fd, &byte, 1, 0) == 1) ++n;
  }
  return n;
}
}  // namespace
"""


def test_the_tiling_holds_no_descriptor_it_can_read(unchecked_guest):
    guest = unchecked_guest  # lseek64 and pread64 are off the link gate's list
    # Held (no test covered the family): the tiling process is forked before the launch opens its
    # inputs, and its descriptors are /dev/null, write-only files and the channel.
    tiling = with_tiling("namespace optiling {", READABLE + "namespace optiling {")
    tiling = tiling.replace("  if (blockDim == 0) blockDim = 1;", "  blockDim = 1 + Readable();", 1)
    result = guest.evaluate(with_tiling_of(tiling, "descriptors"))
    assert result.status is Status.OK, (result.status, result.message)
    assert result.profile.block_dim == 1
