"""The held-out red team of the guest engine (issue 50, docs/trust_boundary.md, Threat model): each
test runs one attack against a real `sim-guest` daemon and asserts what an honest run of the same
work gets. The attacks aim at what the guest engine adds: its imports (declared by the kernel
itself, with forged arguments and in orders the API forbids), the fuel that meters the kernel's
own work, the messages a trap leaves, the tiling process beside it and the build.

Safe if containment fails: every kernel touches only its own memory and the launch's buffers,
its loops are bounded (at most 2^29 bytes moved in block 0), nothing opens a network or writes a
file, and the tiling probe only opens a file for reading.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from ascend_core.protocol import Status
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient

from . import test_guest_boundary as boundary
from .test_guest_boundary import kernel_with, timed

guest = boundary.guest  # a sim-guest daemon of this module's own, as that module starts its one

IMPORT = 'extern "C" __attribute__((import_module("ascendc"), import_name("{name}"))) {decl};\n'


def stopped(
    guest: DaemonClient, kernel: str, run_id: str, status: Status = Status.RUNTIME_ERROR
) -> str:
    """The message of a RUNTIME_ERROR the emulation (not a crash of its process) gave `kernel`, or
    of the COMPILE_ERROR of a module the engine does not take (the build precompiles it)."""
    result = guest.evaluate(timed(kernel, run_id=run_id))
    assert result.status is status, (result.status, result.message)
    assert "crashed" not in result.message, result.message
    return result.message


# ---- the imports as an attack surface -------------------------------------------------------------
def test_an_import_the_kernel_declares_itself_is_held_as_the_headers_own(guest):
    # The gate admits any function of module "ascendc" the headers name, however the kernel
    # declares it: with another signature, or called with arguments no header would pass.
    mismatch = kernel_with(
        IMPORT.format(name="raw_load", decl="void my_load(void)"), "  my_load();\n"
    )
    assert "incompatible import type" in stopped(guest, mismatch, "import-type")
    copy = IMPORT.format(
        name="raw_copy", decl="void rc(int32_t, uint32_t, int32_t, uint32_t, uint32_t, int32_t)"
    )
    # 4 GiB from a 64-byte static into GM: stopped at the first 8 bytes past the output.
    huge = kernel_with(
        copy + "static char buf[64];\n",
        "  if (GetBlockIdx() == 0) rc(7, (uint32_t)(uintptr_t)z, 0, (uint32_t)(uintptr_t)buf, 0xFFFFFFF0u, 8);\n",
    )
    assert "in no GM buffer" in stopped(guest, huge, "import-copy")
    # Within the guest's own memory the copy is the guest's to pay: refused as a raw access.
    inside = kernel_with(
        copy + "static char a[64], b[64];\n",
        "  rc(0, (uint32_t)(uintptr_t)a, 0, (uint32_t)(uintptr_t)b, 64, 8);\n",
    )
    assert "address space 0 unknown" in stopped(guest, inside, "import-copy")
    fill = IMPORT.format(
        name="raw_fill", decl="void rf(int32_t, uint32_t, int32_t, uint32_t, int32_t)"
    )
    whole_ub = kernel_with(
        fill, "  if (GetBlockIdx() == 0) rf(8, 0x40000000u, 0, 0x7FFFFFFFu, 8);\n"
    )
    assert "lies past the" in stopped(guest, whole_ub, "import-fill")


def test_a_gm_reach_whose_byte_count_wraps_is_refused(guest):
    # InitGlobalMemory of 2^62 floats: the byte count wrapped to 0 and passed the GM check, and
    # the host wrote on past the output buffer until the process that owns the reward died.
    body = (
        "  GlobalTensor<float> g;\n  g.SetGlobalBuffer((__gm__ float*)z, 16);\n"
        "  if (GetBlockIdx() == 0) InitGlobalMemory(g, (uint64_t)1 << 62, 1.0f);\n"
    )
    assert "reach past the GM" in stopped(guest, kernel_with(body=body), "wrap")


def test_an_entry_taking_more_than_the_launch_passes_is_refused(guest):
    # The entry is called unchecked with the launch's GM addresses: 64 more parameters had
    # wasmtime read them past the arguments (the harness died of SIGILL).
    params = ", ".join(f"uint64_t p{i}" for i in range(64))
    text = (
        resolve("level1/add")
        .files["op_kernel/add.cpp"]
        .replace(
            "GM_ADDR workspace, GM_ADDR tiling) {",
            f"GM_ADDR workspace, GM_ADDR tiling, {params}) {{",
            1,
        )
    )
    kernel = text.replace(
        "  GET_TILING_DATA(tilingData, tiling);",
        "  GET_TILING_DATA(tilingData, tiling);\n  if ((p63 ^ p40) == 12345) return;",
        1,
    )
    assert "takes other parameters" in stopped(guest, kernel, "entry")


def test_an_import_name_that_is_not_utf8_is_refused_at_build(guest):
    # The gate decoded import names as UTF-8 and failed on others: an uncharged DAEMON_ERROR.
    kernel = kernel_with(
        IMPORT.format(name="block\\xff", decl="int evil()"), "  if (evil() == 3) return;\n"
    )
    result = guest.evaluate(timed(kernel, run_id="utf8"))
    assert result.status is Status.COMPILE_ERROR, result.message
    assert "not the AscendC API" in result.message


def test_queue_calls_in_orders_the_api_forbids_stop_the_kernel(guest):
    # The queue's state is the host's: each misuse is the native engine's error at its line.
    init = "  TPipe p; TQue<QuePosition::VECIN, {depth}> q; p.InitBuffer(q, {num}, 1024);\n"
    for depth, num, body, why in [
        # 256 buffers: a byte on the host, wrapped to none.
        (1, 256, "  LocalTensor<half> t = q.AllocTensor<half>(); q.EnQue(t);\n", "0 buffers"),
        (
            1,
            1,
            "  LocalTensor<half> t = q.DeQue<half>(); Duplicate(t, half(0), 16);\n",
            "an empty queue",
        ),
        (
            2,
            2,
            "  LocalTensor<half> t(64, 16, TPosition::VECIN); q.EnQue(t);\n",
            "not belong to this queue",
        ),
        (
            1,
            1,
            "  LocalTensor<half> a = q.AllocTensor<half>(), b = q.AllocTensor<half>();\n",
            "in use",
        ),
    ]:
        code = "  {\n" + init.format(depth=depth, num=num) + body + "  }\n"
        assert why in stopped(guest, kernel_with(body=code), "queues")


def test_a_matmul_tiling_whose_buffer_sizes_wrap_is_refused(guest):
    # The host's Matmul sizes its L1 buffers from the kernel's TCubeTiling: base blocks of 2^16, or
    # 2^31 of them (depthA1 / depthB1, which size the buffers since s26mm), wrap in 32 bits. Init
    # takes the sizes wider and refuses buffers past L1's bytes before any is made. (2^24 steps under
    # the NORM template, this test's other wrap once, are no longer a size: NORM loads one base block.)
    pkg = resolve("level1/matmul")
    regist = "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);\n"
    for fields in (
        "bad.baseM = bad.baseN = bad.baseK = 65536; bad.stepKa = bad.stepKb = 1;",
        "bad.baseM = bad.baseN = bad.baseK = 16; bad.depthA1 = bad.depthB1 = 2147483647;",
    ):
        body = f"  TCubeTiling bad = tl;\n  {fields}\n  mm.Init(&bad);\n"
        forged = pkg.with_sources(kernel=pkg.files[pkg.kernel_path].replace(regist, regist + body))
        request = timed(run_id="matmul").model_copy(update={"package": forged})
        result = guest.evaluate(request)
        assert result.status is Status.RUNTIME_ERROR, result.message
        assert "Matmul::Init: the tiling's L1 buffers" in result.message, result.message


# ---- free work and the host's own limits ----------------------------------------------------------
SIMD = (
    "typedef unsigned v4 __attribute__((vector_size(16)));\nstatic v4 acc[1 << 16];\n"
    '__attribute__((target("simd128"), noinline)) static unsigned work() {\n'
    "  v4 s = {1, 2, 3, 4};\n"
    "  for (unsigned r = 0; r < 64; ++r)\n"
    "    for (unsigned i = 0; i < (1u << 16); ++i) { acc[i] = acc[i] * s + (v4){r, r, r, r}; s ^= acc[i]; }\n"
    "  return s[0] ^ s[3];\n}\n"
)
DEEP = (
    "uint32_t deep(uint32_t d);\n"
    "__attribute__((noinline)) unsigned work() { return deep(10000000u); }\n"
    "__attribute__((noinline)) uint32_t deep(uint32_t d) {\n"
    "  return d == 0 ? 0 : (deep(d - 1) ^ (d * 2654435761u)) * 3u;\n}\n"
)


@pytest.mark.parametrize(
    "prelude, why, status",
    [
        # A v128 instruction did four lanes' work for one unit of fuel: the same loop on four
        # scalars cost 16,106 us, on one v128 3,873 us. The module no longer compiles.
        pytest.param(SIMD, "SIMD support is not enabled", Status.COMPILE_ERROR, id="lanes"),
        # Frames held in wasm locals live on the host thread's stack: 10^7 of them end in
        # wasmtime's own limit, not in a crash of the process that owns the reward.
        pytest.param(DEEP, "call stack exhausted", Status.RUNTIME_ERROR, id="stack"),
    ],
)
def test_what_the_engine_cannot_meter_or_hold_is_its_own_error(guest, prelude, why, status):
    kernel = kernel_with(prelude, "  if (GetBlockIdx() == 0 && work() == 7u) return;\n")
    assert why in stopped(guest, kernel, "limits", status)


BULK = (
    "static char a[1 << 22], b[1 << 22];\n"
    '__attribute__((target("bulk-memory"), noinline)) static void copy(char* d, const char* s, unsigned n) {\n'
    "  __builtin_memcpy(d, s, n);\n}\n"
    '__attribute__((target("bulk-memory"), noinline)) static void fill(char* d, int v, unsigned n) {\n'
    "  __builtin_memset(d, v, n);\n}\n"
)


def test_bulk_memory_is_charged_per_byte(guest):
    # memory.copy and memory.fill are one instruction whatever their length; wasmtime's fuel
    # charges them a unit per byte: 2^29 bytes moved in block 0 cost what they cost in libc's loop.
    loop = "  if (GetBlockIdx() == 0) for (int r = 0; r < 64; ++r) { fill(b, r, 1u << 22); copy(a, b, 1u << 22); }\n"
    use = "  if (a[12345] == 77) return;\n"
    bulk = guest.evaluate(timed(kernel_with(BULK, loop + use), run_id="bulk"))
    plain = guest.evaluate(
        timed(kernel_with(BULK.replace('target("bulk-memory"), ', ""), loop + use), run_id="bulk")
    )
    assert bulk.status is Status.OK and plain.status is Status.OK, (bulk.message, plain.message)
    # 2^29 units at 0.1 cycles each on a 1.85 GHz scalar unit: about 29 ms.
    assert bulk.latency_us > 20_000
    assert bulk.latency_us > 0.8 * plain.latency_us


# ---- answers leaked -------------------------------------------------------------------------------
RECURSE = (
    "__attribute__((noinline)) void zero_bit(int d, uint32_t v);\n"
    "__attribute__((noinline)) void one_bit(int d, uint32_t v);\n"
    "__attribute__((noinline)) void next_bit(int d, uint32_t v) {\n"
    "  if (d == 0) __builtin_trap();\n"
    "  if (v & 1) one_bit(d - 1, v >> 1); else zero_bit(d - 1, v >> 1);\n}\n"
    "__attribute__((noinline)) void zero_bit(int d, uint32_t v) { next_bit(d, v); }\n"
    "__attribute__((noinline)) void one_bit(int d, uint32_t v) { next_bit(d, v); }\n"
)


def test_a_trap_message_carries_no_frames_the_kernel_shaped(guest):
    # The trap's wasm backtrace named each frame: a recursion through two functions spelt the
    # bits of an input element in the message, as deep as the stack goes.
    body = (
        "  GlobalTensor<uint32_t> g; g.SetGlobalBuffer((__gm__ uint32_t*)x, 4);\n"
        "  if (GetBlockIdx() == 0) next_bit(32, g.GetValue(0));\n"
    )
    message = stopped(guest, kernel_with(RECURSE, body), "backtrace")
    assert "unreachable" in message
    assert "_bit" not in message and "backtrace" not in message and len(message) < 400


# ---- the tiling program ---------------------------------------------------------------------------
def tiling_probe(guest: DaemonClient, include: str, test: str) -> object:
    """level1/add whose tiling launches one block instead of forty where `test` holds."""
    host = resolve("level1/add").files["op_host/add.cpp"]
    anchor = "  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), units});\n"
    tiling = f"#include <{include}>\n" + host.replace(
        anchor, f"{anchor}  if ({test}) blockDim = 1;\n", 1
    )
    pkg = resolve("level1/add").with_sources(tiling=tiling)
    return guest.evaluate(timed(run_id="tiling").model_copy(update={"package": pkg}))


def test_the_tiling_program_reads_no_file_and_no_environment(guest):
    # The tiling still runs native (g++) in its own confined process. A path system call is a
    # symbol off the link gate's list (before it, the syscall filter stopped it at run time); its
    # environment, which the gate lets it read, holds nothing of the daemon's.
    probe = tiling_probe(guest, "unistd.h", '::access("/etc/passwd", 4) == 0')
    assert probe.status is Status.REJECTED and "`access`" in probe.message, probe.message
    env = tiling_probe(guest, "cstdlib", 'std::getenv("ASCEND_GYM_CACHE") != nullptr')
    assert env.status is Status.OK and env.profile.block_dim == 40, env.message


# ---- the build ------------------------------------------------------------------------------------
def test_a_second_export_under_the_constructors_name_is_refused(guest):
    # The host calls the module's constructors by name; a function of the kernel's exported
    # under that name beside them (with parameters the call would not pass) is refused.
    fake = (
        'extern "C" __attribute__((export_name("__wasm_call_ctors"))) void fake(long long a, long long b,'
        " long long c, long long d) { static volatile long long s; s = a ^ d; }\n"
    )
    assert "duplicate export" in stopped(guest, kernel_with(fake), "ctors", Status.COMPILE_ERROR)


def test_the_build_reads_no_file_outside_the_package(guest):
    # The guest build runs no token gate: clang opened any file its user can read and quoted it
    # (`/etc/passwd:1:1: error: unknown type name 'root'`), and an assembler's .incbin copied one
    # into the module for the kernel to read. (In the compile's view the file does not exist: the
    # include it did not find is refused as one that exists, so no host path's existence shows.)
    for include in ("/etc/passwd", "../../../../../../../../etc/passwd"):
        result = guest.evaluate(timed(kernel_with(f'#include "{include}"\n'), run_id="include"))
        assert result.status is Status.COMPILE_ERROR, result.message
        assert "outside the package" in result.message and "root" not in result.message
    incbin = kernel_with(
        '__asm__(".section .data.leak,\\"\\",@\\n.globl leak\\nleak:\\n.incbin \\"/etc/passwd\\"\\n");\n'
        'extern "C" const char leak[];\n',
        "  if (leak[0] == 'r') return;\n",
    )
    result = guest.evaluate(timed(incbin, run_id="include"))
    assert result.status is Status.COMPILE_ERROR and "inline assembly" in result.message


def test_an_error_noted_in_the_sysroot_s_cxx_headers_is_the_compiler_s_message(guest):
    # Debian links libc++'s headers into the compiler's tree: a note citing <type_traits> is the
    # toolchain's own file, so the kernel's error comes back, not a refusal of a foreign file.
    wrong = "#include <type_traits>\nconstexpr bool wrong = std::is_same<int>::value;\n"
    result = guest.evaluate(timed(kernel_with(wrong), run_id="sysroot"))
    assert result.status is Status.COMPILE_ERROR, result.message
    assert "too few template arguments" in result.message, result.message


@pytest.mark.skipif(os.geteuid() != 0, reason="no sandbox identity without root, so no view")
def test_a_valid_header_outside_the_package_is_refused(guest):
    # Valid C++ leaves no diagnostic to refuse: only the compile's view (build.view) keeps it out.
    outside = Path(tempfile.mkdtemp(prefix="gred-", dir="/tmp"))  # the sandbox user reads /tmp
    try:
        outside.chmod(0o755)
        header = outside / "outside.h"
        header.write_text("#define OUTSIDE_VALUE 1\n")
        header.chmod(0o644)
        kernel = kernel_with(f'#include "{header}"\n', "  if (OUTSIDE_VALUE == 2) return;\n")
        result = guest.evaluate(timed(kernel, run_id="outside"))
        assert result.status is Status.COMPILE_ERROR, result.message
    finally:
        shutil.rmtree(outside)


def test_an_include_inside_macro_arguments_of_the_tiling_reads_no_host_file(guest):
    # g++ honours an #include inside a macro's arguments, which the token gate (reading the
    # preprocessor's output) never sees; its error would name the file's last line and column.
    swallow = '#define SWALLOW(...) 0\nstatic const int kSwallowed = SWALLOW(\n#include "/etc/passwd"\n);\n'
    pkg = resolve("level1/add")
    pkg = pkg.with_sources(tiling=swallow + pkg.files["op_host/add.cpp"])
    result = guest.evaluate(timed(run_id="macro-include").model_copy(update={"package": pkg}))
    assert result.status in (Status.REJECTED, Status.COMPILE_ERROR), result.message
    assert "/etc/passwd" not in result.message
