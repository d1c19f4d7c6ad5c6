"""A second red team of the guest engine (issue 50, docs/trust_boundary.md, "A second red team of
the guest engine"): families the first round's tests do not hold, each run against a real
`sim-guest` daemon and asserting what an honest run of the same work gets. Here: the launcher's
result as a bound the daemon reads and the build's IR pass (each an uncharged DAEMON_ERROR at
will), the harness's text about a case whose inputs the daemon keeps across evaluations (the
kernel's numbers in it), and the inputs the checker compares against.

Safe if containment fails: the kernels touch only their own UB and the launch's buffers; the
tiling writes at most 6 MiB to its own descriptors 3 to 8 (the launcher's channel among them) and
opens nothing.
"""

from __future__ import annotations

import re
import time
import tomllib
from pathlib import Path

from ascend_core.cpp import device_branch
from ascend_core.package import OperatorSpec
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve
from ascend_gym.corpus import build_package, find_ops
from npu_daemon import source_policy

from . import test_guest_boundary as boundary
from .test_guest_boundary import kernel_with, timed

guest = boundary.guest  # a sim-guest daemon of this module's own
unchecked_guest = boundary.unchecked_guest  # and one without the acceptance check

IMPORT = 'extern "C" __attribute__((import_module("ascendc"), import_name("{name}"))) {decl};\n'
ADD_BLOCK_DIM = "uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), units});"
BENCH = "tilingData.totalLength > 1000000"  # level1/add's bench case: its inputs are kept
# 32 bits of the bench case's input x, read as the API reads it (charged).
SECRET = (
    "    GlobalTensor<uint32_t> xs;\n    xs.SetGlobalBuffer((__gm__ uint32_t*)x, 16);\n"
    "    const uint32_t secret = xs.GetValue(0) ^ {mask}u;\n"
)


def with_tiling(old: str, new: str) -> str:
    text = resolve("level1/add").files["op_host/add.cpp"]
    assert old in text
    return text.replace(old, new, 1)


def numbers(message: str) -> list[str]:
    """The numbers a message states, but for the case's name."""
    return re.findall(r"\b\d+\b", re.sub(r"^case \w+: ", "", message))


# ---- the launcher's result: a bound the daemon reads ----------------------------------------------
def test_a_launch_of_thousands_of_blocks_is_timed_not_a_daemon_fault(guest):
    # The profile listed every block (about 350 bytes each): past about 3,000 blocks the result
    # outgrew the 1 MiB the daemon reads, its JSON was cut, and an honest kernel got an uncharged
    # DAEMON_ERROR. The launch's cores may number 65,535.
    tiling = with_tiling(ADD_BLOCK_DIM, "uint32_t blockDim = std::min(4000u, units);")
    result = guest.evaluate(with_tiling_of(tiling, "blocks"))
    assert result.status is Status.OK, (result.status, result.message)
    assert result.profile.block_dim == 4000
    profile = result.profile.model_dump()
    assert len(profile["blocks"]) == 512 and profile["blocks_unlisted"] == 4000 - 512


FORGE = r"""
#include <cstdint>
#include <cstdio>
#include <cstring>
namespace {
// `count` records of `kind` (4 an error, 5 a warning), each of `bytes` bytes `fill`, on each
// descriptor that may be the launcher's channel.
void Forge(uint32_t kind, uint32_t status, int count, uint64_t bytes, char fill) {
  static char payload[65537];
  std::memset(payload, fill, bytes);
  payload[bytes] = 0;
  for (int fd = 3; fd <= 8; ++fd)
    for (int k = 0; k < count; ++k) {
      unsigned char h[16];
      std::memcpy(h, &kind, 4);
      std::memcpy(h + 4, &status, 4);
      std::memcpy(h + 8, &bytes, 8);
      for (unsigned char c : h) dprintf(fd, "%c", c);
      if (dprintf(fd, "%s", payload) < 0) break;
    }
}
}  // namespace
"""


def forging(call: str) -> str:
    """level1/add's tiling, which writes records of its own to the channel it inherits before
    it tiles (dprintf passed the token gate; the link gate refuses it, so these run unchecked)."""
    tiling = with_tiling("namespace optiling {", FORGE + "namespace optiling {")
    return tiling.replace("  AddTilingData tiling;", f"  AddTilingData tiling;\n  {call};", 1)


def with_tiling_of(tiling: str, run_id: str):
    request = timed(run_id=run_id)
    return request.model_copy(update={"package": request.package.with_sources(tiling=tiling)})


def test_records_the_tiling_writes_past_the_bound_are_its_charged_failure(unchecked_guest):
    guest = unchecked_guest  # dprintf is off the link gate's list
    # Sixteen warnings of 64 KiB of control bytes (six bytes each once escaped in JSON) made a
    # result of 6 MiB, cut at 1 MiB: an uncharged DAEMON_ERROR at will.
    flood = forging("Forge(5, 0, 16, 65536, 1)")
    result = guest.evaluate(with_tiling_of(flood, "flood"))
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert result.charged and "malformed tiling record (warning record)" in result.message


def test_bytes_that_are_not_utf8_in_a_record_reach_the_daemon_as_text(unchecked_guest):
    guest = unchecked_guest  # dprintf is off the link gate's list
    # The launcher copied a record's bytes into its JSON result as they came: four bytes that are
    # not UTF-8 made the daemon's parse fail, an uncharged DAEMON_ERROR at will.
    warned = guest.evaluate(with_tiling_of(forging("Forge(5, 0, 1, 4, '\\xff')"), "utf8-w"))
    assert warned.status is Status.OK, (warned.status, warned.message)
    assert "warning: \xff\xff\xff\xff" in warned.message
    failed = guest.evaluate(with_tiling_of(forging("Forge(4, 2, 1, 4, '\\xff')"), "utf8-e"))
    assert failed.status is Status.RUNTIME_ERROR and failed.charged, failed.message


# ---- the build: the IR pass reads the candidate's IR -----------------------------------------------
def test_a_quoted_name_in_the_ir_is_read_not_a_daemon_fault(guest):
    # An asm label names a global `w(` (quoted in IR, `@"w("`), whose address a store through a
    # __gm__ pointer takes: the IR pass split the store's operands at brackets inside the quotes,
    # found one, and raised IndexError: an uncharged DAEMON_ERROR at will. (The native build's
    # gate refuses `__asm__`; the guest build compiles what clang accepts.)
    kernel = kernel_with(
        'int weird __asm__("w(") = 5;\n',
        "  if (tilingData.totalLength == 12345) *(__gm__ uint32_t*)z = (uint32_t)(uintptr_t)&weird;\n",
    )
    result = guest.evaluate(timed(kernel, run_id="quoted"))
    assert result.status is Status.OK, (result.status, result.message)


def scale_tpl(key_from: str, key_to: str) -> EvalRequest:
    """tests/corpus's scale_tpl (a template tiling key, the hicann/ops-math layout) with its key
    header edited."""
    ops_math = Path(__file__).parents[1] / "corpus" / "ops_math"
    spec = OperatorSpec.model_validate(tomllib.loads((ops_math / "scale_tpl.toml").read_text()))
    (source,) = find_ops(ops_math)
    pkg = build_package(source, spec)
    key = "op_kernel/scale_tpl_tiling_key.h"
    assert key_from in pkg.files[key]
    files = {**pkg.files, "reference.py": (ops_math / "reference.py").read_text()}
    files[key] = files[key].replace(key_from, key_to, 1)
    return EvalRequest(
        run_id="tpl",
        package=pkg.model_copy(update={"files": files}),
        soc="Ascend910B4",
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=120, run_s=120),
    )


def test_a_tiling_key_header_the_generator_cannot_read_is_a_charged_compile_error(guest):
    # The template key's generator reads the candidate's key header in the daemon's worker: a
    # value `7 / 0` (ZeroDivisionError), a UI_RANGE without its count (IndexError), a sum of
    # 20,000 terms (RecursionError) each made an uncharged DAEMON_ERROR at will, and the worker
    # built whatever a value or a range asked in its own memory (`1 << (1 << 40)`, a range of
    # 10^12 values: here, safe without the bounds, `1 << 100000` and 10^5 values).
    mix = "ASCENDC_TPL_UI_MIX, 1, 1, 2, 7)"
    for key_from, key_to, why in [
        (mix, "ASCENDC_TPL_UI_MIX, 1, 1, 2, 7 / 0)", "not an integer constant"),
        (mix, "ASCENDC_TPL_UI_MIX, 1, 1, 2, 1 << 100000)", "shifts by"),
        (mix, "ASCENDC_TPL_UI_MIX, 1, 1, 100000, 7)", "more than 65536 values"),
        ("ASCENDC_TPL_UI_RANGE, 1, 2, 2)", "ASCENDC_TPL_UI_RANGE)", "without its count"),
    ]:
        result = guest.evaluate(scale_tpl(key_from, key_to))
        assert result.status is Status.COMPILE_ERROR and result.charged, result.message
        assert why in result.message, result.message


def test_the_workers_read_of_a_kernels_conditionals_is_linear():
    # Every kernel build reads the kernel source's conditionals in the worker (key_header's
    # device_branch), which scanned the whole stack of open ones per line: 40,000 nested `#if 1`
    # (520 KB) took about 25 s of the worker's CPU, 4 MB about half an hour, against the
    # request's deadline (then an uncharged DAEMON_ERROR). Linear, it is milliseconds.
    n = 40000
    start = time.process_time()
    kept = device_branch("#if 1\n" * n + "int x;\n" + "#endif\n" * n)
    assert time.process_time() - start < 2.0
    assert kept.count("int x;") == 1


def test_the_workers_read_of_a_packages_raw_files_is_linear():
    # Every evaluation blanks the comments and literals of the candidate's raw files in the
    # worker (source_policy.check_package, looking for `#line`): its regex rescanned the rest of
    # the file for each unterminated raw string, so 40,000 `R"x(` (160 KB) took about 8 s of the
    # worker's CPU, a few MB hours (then an uncharged DAEMON_ERROR at the request's deadline).
    pkg = resolve("level1/add")
    pkg = pkg.with_sources(kernel='R"x(' * 40000 + "\n" + pkg.files["op_kernel/add.cpp"])
    start = time.process_time()
    source_policy.check_package(pkg)
    assert time.process_time() - start < 2.0


def test_a_long_refusal_in_a_large_unit_is_a_charged_rejection(guest):
    # A unit past 4 MiB (here 65,536 tokens of the tiling's own macros, with -fdebug-cpp's marks)
    # is read in a child, whose report of the refused construct was cut at 32 KiB: a `#pragma
    # weak` of 40,000 characters made it JSON the daemon could not parse, a DAEMON_ERROR at will.
    macros = [
        "#define X1 " + ",".join(["1"] * 16),
        *(f"#define X{k} " + ",".join([f"X{k - 1}"] * 16) for k in (2, 3, 4)),
        "static const int kBig[] = {X4};",
        "#pragma weak " + "W" * 40000,
    ]
    tiling = "\n".join(macros) + "\n" + resolve("level1/add").files["op_host/add.cpp"]
    result = guest.evaluate(with_tiling_of(tiling, "pragma"))
    assert result.status is Status.REJECTED and result.charged, (result.status, result.message)
    assert "#pragma weak WWW" in result.message and len(result.message) < 1000


def test_a_symbol_pragma_on_a_files_first_line_is_refused(guest):
    # g++ -E prints a location before the `#` of a file's first line (`{P:...}#pragma weak x`), so
    # the gate read `#pragma weak` there as plain tokens and passed it (the same pragma on any
    # other line is refused): a weak alias calls a function by another name past the gate.
    tiling = "#pragma weak ascend_red_alias\n" + resolve("level1/add").files["op_host/add.cpp"]
    result = guest.evaluate(with_tiling_of(tiling, "first-line-pragma"))
    assert result.status is Status.REJECTED, (result.status, result.message)
    assert "op_host/add.cpp:1: `#pragma weak ascend_red_alias`" in result.message


# ---- the harness's text about a case whose inputs are kept ----------------------------------------
def leaky(mask: int, leak: str, prelude: str = "") -> str:
    """level1/add, whose block 0 puts 32 bits of the bench case's input into the harness's text."""
    body = f"  if ({BENCH} && GetBlockIdx() == 0) {{\n{SECRET.format(mask=mask)}{leak}  }}\n"
    return kernel_with(prelude, body)


def test_a_kept_cases_warnings_carry_no_number_the_kernel_chose(guest):
    # An out-of-range UB read is device-tolerated: the case passes with a warning quoting the
    # index and the line, both the kernel's (op_kernel:14867: ... index 47808: the input's bits,
    # the same in every evaluation, since the bench case's inputs are kept).
    leak = (
        "    TPipe p;\n    TBuf<TPosition::VECCALC> b;\n    p.InitBuffer(b, 64);\n"
        "    LocalTensor<uint32_t> t = b.Get<uint32_t>();\n"
        "    volatile uint32_t v = t.GetValue(16u + (secret & 0xFFFF), (int)(secret >> 16));\n"
    )
    messages = set()
    for mask in (0, 0x10001):
        result = guest.evaluate(timed(leaky(mask, leak), run_id=f"warn-{mask}"))
        assert result.status is Status.OK, (result.status, result.message)
        assert "out of range" in result.message and "numbers withheld" in result.message
        assert not numbers(result.message), result.message
        messages.add(result.message)
    assert len(messages) == 1  # what the kernel read of its input changes nothing returned


def test_a_kept_cases_failure_carries_no_number_the_kernel_chose(guest):
    # The emulation quotes the numbers of a forged call (a fault code here): 32 bits of the bench
    # input each failure. A case drawn afresh for the candidate keeps them (they say where).
    decl = IMPORT.format(name="api_fail", decl="void af(int32_t, int32_t)")
    result = guest.evaluate(timed(leaky(0, "    af((int32_t)secret, 7);\n", decl), run_id="fault"))
    assert result.status is Status.RUNTIME_ERROR and "bench" in result.message, result.message
    assert "fault code" in result.message and not numbers(result.message), result.message
    fresh = kernel_with(decl, "  af(123456789, 7);\n")  # fails on the first case, drawn afresh
    result = guest.evaluate(timed(fresh, run_id="fault-fresh"))
    assert result.status is Status.RUNTIME_ERROR and "123456789" in result.message, result.message


# ---- the checker: what it compares against ------------------------------------------------------
def test_a_kernel_that_overwrites_its_inputs_is_checked_against_the_inputs_it_was_given(guest):
    # Held (a family no test covered): every block zeroes its x and y in GM, then adds them. The
    # launcher maps the case files privately and the reference reads the files, so z = 0 is wrong.
    text = resolve("level1/add").files["op_kernel/add.cpp"]
    zero = (
        "  __aicore__ inline void Zero() {\n"
        "    InitGlobalMemory(xGm, blockLength, (DTYPE_X)0);\n"
        "    InitGlobalMemory(yGm, blockLength, (DTYPE_Y)0);\n"
        "    PipeBarrier<PIPE_ALL>();\n  }\n\n private:"
    )
    kernel = text.replace("  op.Process();", "  op.Zero();\n  op.Process();", 1)
    result = guest.evaluate(timed(kernel.replace(" private:", zero, 1), run_id="zero-inputs"))
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)
