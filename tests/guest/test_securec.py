"""The secure C library's functions as a tiling reaches them: through the graph runtime's
tiling_context.h alone (CANN's includes securec.h by way of continuous_vector.h; cann-ops' cube
tilings call memset_s having included nothing else), with the library's documented results (EOK,
the destination's own EINVAL / ERANGE, the _AND_RESET codes with the destination reset), the same
on both engines. Each check fails the tiling where it does not hold, so OK means every one held."""

from __future__ import annotations

from ascend_core.protocol import Status
from ascend_core.suite import resolve

ANCHOR = "  AddTilingData tiling;\n"
CHECKS = """  {
    char b[8];
    unsigned char m[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int bad = 0;
    bad |= memset_s(m, sizeof m, 9, 4) != EOK || m[3] != 9 || m[4] != 5;
    bad |= memset_s(m, 4, 7, 8) != ERANGE_AND_RESET || m[3] != 7 || m[4] != 5;  // 4 filled
    bad |= memset_s(nullptr, 4, 0, 1) != EINVAL || memset_s(m, 0, 0, 1) != ERANGE;
    bad |= memcpy_s(m, sizeof m, "abcdefgh", 3) != EOK || m[2] != 'c';
    bad |= memcpy_s(m, 2, "abc", 3) != ERANGE_AND_RESET || m[0] != 0 || m[1] != 0 || m[2] != 'c';
    bad |= memcpy_s(m, sizeof m, nullptr, 1) != EINVAL_AND_RESET;
    bad |= memcpy_s(m + 1, 7, m, 4) != EOVERLAP_AND_RESET || m[1] != 0;
    m[0] = 1; m[1] = 2; m[2] = 3;
    bad |= memmove_s(m + 1, 7, m, 2) != EOK || m[1] != 1 || m[2] != 2;  // overlap allowed
    bad |= strcpy_s(b, sizeof b, "abc") != EOK || strcat_s(b, sizeof b, "defg") != EOK;
    bad |= strcmp(b, "abcdefg") != 0;
    bad |= strcat_s(b, sizeof b, "h") != ERANGE_AND_RESET || b[0] != '\\0';  // 8 with the end
    bad |= strncpy_s(b, sizeof b, "xyzw", 2) != EOK || strcmp(b, "xy") != 0;
    bad |= strcpy_s(b, 3, "long") != ERANGE_AND_RESET || b[0] != '\\0';
    bad |= strcpy_s(b, sizeof b, nullptr) != EINVAL_AND_RESET;
    bad |= sprintf_s(b, sizeof b, "%d-%d", 12, 34) != 5 || strcmp(b, "12-34") != 0;
    bad |= sprintf_s(b, 4, "%d", 12345) != -1 || b[0] != '\\0';  // does not fit: emptied
    bad |= snprintf_s(b, sizeof b, 3, "%d", 12345) != -1 || strcmp(b, "123") != 0;  // cut
    if (bad) return ge::GRAPH_FAILED;
  }
"""


def _tiling(checks: str):
    pkg = resolve("level1/add")
    host = pkg.tiling_source
    assert ANCHOR in host and "securec" not in host
    source = '#include "exe_graph/runtime/tiling_context.h"\n' + host.replace(
        ANCHOR, ANCHOR + checks, 1
    )
    return pkg.with_sources(tiling=source)


def test_the_secure_functions_answer_as_documented_on_both_engines(engines):
    for result in engines.both(_tiling(CHECKS), run_id="securec"):
        assert result.status is Status.OK, result.message


def test_a_check_that_does_not_hold_fails_the_tiling(engines):
    """The checks are live: one expecting success where the library fails fails the tiling."""
    wrong = '  { char b[2]; if (strcpy_s(b, sizeof b, "long") != EOK) return ge::GRAPH_FAILED; }\n'
    for result in engines.both(_tiling(wrong), run_id="securec"):
        assert result.status is Status.TILING_ERROR, result.message
