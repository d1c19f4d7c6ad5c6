"""A host tiling program that crashes (ops-math pad_v2 reads element 0 of an empty std::vector for
a 1-D x) is the tiling's failure on both engines, named with its signal: the tiling runs on the CPU
in a process of its own, so the crash is never reported as the kernel's."""

from __future__ import annotations

from ascend_core.protocol import Status
from ascend_core.suite import resolve

ANCHOR = "  AddTilingData tiling;\n"
# What pad_v2's tiling does for a 1-D x: the first element of an empty vector, a null pointer.
EMPTY_FRONT = (
    "  std::vector<int> none;\n  volatile const int* front = none.data();\n  (void)*front;\n"
)


def test_a_crashing_tiling_is_a_tiling_error_on_both_engines(engines):
    pkg = resolve("level1/add")
    host = pkg.tiling_source
    assert ANCHOR in host
    crashing = pkg.with_sources(
        tiling="#include <vector>\n" + host.replace(ANCHOR, ANCHOR + EMPTY_FRONT, 1)
    )
    for result in engines.both(crashing, run_id="tiling-crash"):
        assert result.status is Status.TILING_ERROR, result.message
        assert "host tiling program crashed" in result.message, result.message
        assert "signal 11" in result.message, result.message
