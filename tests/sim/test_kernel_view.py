"""The kernel-source view the sim build generates: per-key TilingData binding is a pure text rewrite."""

from npu_daemon.backends.common.kernel_view import bind_keyed_tiling

SOURCE = """extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
  GET_TILING_DATA(d, tiling);                       // default struct, outside any key branch
  if (TILING_KEY_IS(1)) {
    GET_TILING_DATA(a, tiling);
    if (a.n > 0) { const char* s = "}{"; /* } */ }  // braces in strings and comments
    // }
  } else if (TILING_KEY_IS(2) || TILING_KEY_IS(3)) {
    GET_TILING_DATA(b, tiling);
  } else if (TILING_KEY_IS(4)) {
    GET_TILING_DATA(c, tiling);
  } else if (TILING_KEY_IS(5) || TILING_KEY_IS(6)) {
    GET_TILING_DATA(e, tiling);
  }
}
"""


def test_each_key_branch_reads_its_registered_struct():
    out = bind_keyed_tiling(SOURCE, {1: "A", 2: "B", 3: "B", 5: "C"})
    lines = out.splitlines()
    assert len(lines) == len(SOURCE.splitlines())  # line numbers of errors and traces stay right
    assert lines[1].strip().startswith("GET_TILING_DATA(d, tiling);")
    assert "GET_TILING_DATA_WITH_STRUCT(A, a, tiling);" in lines[3]
    assert 'const char* s = "}{";' in lines[4]
    assert (
        "GET_TILING_DATA_WITH_STRUCT(B, b, tiling);" in lines[7]
    )  # both keys of the branch map to B
    assert lines[9].strip() == "GET_TILING_DATA(c, tiling);"  # key 4 has no struct of its own
    assert lines[11].strip() == "GET_TILING_DATA(e, tiling);"  # keys 5 and 6 disagree: left alone


def test_no_registration_leaves_the_source_alone():
    assert bind_keyed_tiling(SOURCE, {}) == SOURCE
