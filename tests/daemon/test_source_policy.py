"""The acceptance check, through a real daemon: the constructs a lexical check missed are refused
(each one passed the check before it read the preprocessed tokens), the ones real operators use
are accepted, and a candidate's global constructor runs only once the syscall filter is tight."""

from __future__ import annotations

import subprocess

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import Status
from ascend_gym.client import DaemonClient

from .conftest import add_variant, small_request


@pytest.fixture(scope="module")
def daemon(native_daemon):
    """Native engine: the token gate is its acceptance check (the guest engine's gate is the
    module's imports: test_guest_boundary.py, test_guest_redteam.py)."""
    return native_daemon


BYPASSES = [
    # (name, kernel body, lines before the kernel, rule named in the answer)
    # A function reached by any spelling is the link gate's (test_link_gate.py): named there.
    ("splice", "    sys\\\ncall(39);", "#include <unistd.h>\n", "`syscall`"),
    (
        "digraph pasting",
        "    P(sys, call)(39);",
        "#include <unistd.h>\n#define P(a, b) a %:%: b\n",
        "`syscall`",
    ),
    ("include macro", "", "#define H <sys/io.h>\n#include H\n", "a header of inline port I/O"),
    (
        "alias cast",
        "    using F = void (*)(); auto f = reinterpret_cast<F>(0x1234); f();",
        "",
        "function pointer",
    ),
    (
        "alias C cast",
        "    F f = (F)(uintptr_t)0x1234; f();",
        "typedef void (*F)(void);\n",
        "function pointer",
    ),
    (
        "our alias cast",
        "    auto f = (ops::TilingFunc)(uintptr_t)0x1234; (void)f;",
        "",
        "function pointer",
    ),
    ("builtin setjmp", "    void* b[5]; if (__builtin_setjmp(b)) return;", "", "non-local jumps"),
    ("fopen64", '    fopen64("x", "r");', "#include <cstdio>\n", "`fopen64`"),
    ("line directive", "", '#line 1 "/usr/include/stdio.h"\n', "line directive"),
    (
        "weakref",
        '    g_open("x", 0);',
        'static int g_open(const char*, int) __attribute__((weakref("open")));\n',
        "binding a name",
    ),
    (
        "redefine_extname",
        "",
        "#pragma redefine_extname my_open open\n",
        "a pragma",
    ),
    (
        "pasted internals",
        "    Q(ascendc, _sim)::SetTilingKey(0);",
        "#define Q(a, b) a##b\n",
        "internals",
    ),
    (
        "the scalar count's counter",
        "    ascendc_sim_scalar_instrs = 0;",
        'extern "C" unsigned long ascendc_sim_scalar_instrs;\n',
        "internals",
    ),
]


@pytest.mark.parametrize(
    ("body", "before", "rule"), [b[1:] for b in BYPASSES], ids=[b[0] for b in BYPASSES]
)
def test_bypasses_of_a_lexical_check_are_rejected(tmp_path, client, body, before, rule):
    result = client.evaluate(small_request(add_variant(tmp_path, body, before), run_id="gate"))
    assert result.status is Status.REJECTED, result.message
    assert rule in result.message and "op_kernel/add.cpp:" in result.message, result.message
    assert result.cost.compile_s == 0 and result.cost.run_s == 0


def _with_file(pkg: OperatorPackage, path: str, text: str) -> OperatorPackage:
    return pkg.model_copy(update={"files": {**pkg.files, path: text}})


def test_every_file_of_the_package_is_read_whatever_its_suffix(tmp_path, client):
    pkg = add_variant(tmp_path, "    Probe();", '#include "probe.inl"\n')
    probe = "#include <unistd.h>\ninline void Probe() { syscall(39); }\n"
    pkg = _with_file(pkg, "op_kernel/probe.inl", probe)
    result = client.evaluate(small_request(pkg, run_id="gate"))
    assert result.status is Status.REJECTED
    assert result.message.startswith("op_kernel/probe.inl:2: `syscall`"), result.message


def test_a_data_file_may_have_line_like_comments_but_is_never_cpp(tmp_path, client):
    """reference.py is Python: `# 1...` is a comment there, not a line directive; a unit that
    includes it (where such a line would rename the file) is refused."""
    pkg = add_variant(tmp_path, "", "")
    reference = '# 1 "/usr/include/stdio.h"\n' + pkg.files["reference.py"]
    pkg = _with_file(pkg, "reference.py", reference)
    assert client.evaluate(small_request(pkg, run_id="gate")).status is Status.OK
    included = _with_file(
        add_variant(tmp_path, "", '#include "../reference.py"\n'), "reference.py", reference
    )
    result = client.evaluate(small_request(included, run_id="gate"))
    assert result.status is Status.REJECTED
    assert "data file included as C++" in result.message, result.message


def test_an_include_leaving_the_package_is_rejected(tmp_path, client):
    result = client.evaluate(
        small_request(add_variant(tmp_path, "", '#include "/etc/hostname"\n'), run_id="gate")
    )
    assert result.status is Status.REJECTED
    assert "including a file outside the package" in result.message, result.message


def test_what_real_operators_do_is_accepted(tmp_path, client):
    """CANN's logging macros paste `##__VA_ARGS__`, kernels include op_host's headers by a
    relative path (the repository layouts: tests/corpus), and the macros of our headers expand
    to the emulation's names, which are ours."""
    before = (
        '#include <cstdio>\n#include "../op_host/add_tiling.h"\n#include "../op_host/helper.h"\n'
        '#define OP_LOGD(name, fmt, ...) std::printf("%s " fmt, name, ##__VA_ARGS__)\n'
    )
    body = '    OP_LOGD("add", "blocks %d", (int)Twice(1)); OP_LOGD("add", "no args");'
    pkg = add_variant(tmp_path, body, before)
    pkg = _with_file(
        pkg, "op_host/helper.h", "#pragma once\ninline int Twice(int x) { return 2 * x; }\n"
    )
    result = client.evaluate(small_request(pkg, run_id="gate"))
    assert result.status is Status.OK, result.message


def test_a_cast_through_the_builds_macros_is_a_pointer_cast(tmp_path, client):
    """`(__gm__ DTYPE_Z*)(z)`: `__gm__` (our header's, empty) and `DTYPE_Z` (the build's -D) are
    not the candidate's tokens, so the old check read `( * ) (` and REJECTED an honest kernel as
    a function-pointer cast (charged). Tokens of our macros expanded at a package line now stand
    in the sequence the rules read, never themselves a violation."""
    body = "    GlobalTensor<DTYPE_Z> zt;\n    zt.SetGlobalBuffer((__gm__ DTYPE_Z*)(z), 16);"
    result = client.evaluate(small_request(add_variant(tmp_path, body), run_id="gate"))
    assert result.status is Status.OK, result.message


# ---- constructors ------------------------------------------------------------------------------
CTOR = """#include <cstdio>
static int g_opened = -1;
static struct EarlyProbe {
  EarlyProbe() {
    FILE* f = std::fopen("/etc/hostname", "r");  // read-only: allowed while libraries load
    g_opened = f != nullptr;
    std::fprintf(stderr, "PROBE constructor open %s\\n", f ? "granted" : "refused");
  }
} g_early;
"""


def test_a_global_constructor_runs_after_the_filter_tightens(tmp_path, unchecked_native):
    """On the old build, dlopen ran it at the loading stage and the open was granted; now the
    candidate process runs it after the filter reached the running stage (and before the
    kernel, so its effect is there when the kernel looks). The acceptance check is off on that
    daemon, so a constructor that opens a file reaches the native harness."""
    body = '    std::fprintf(stderr, "PROBE kernel sees %d\\n", g_opened); abort();'
    client = DaemonClient(unchecked_native.address)
    result = client.evaluate(small_request(add_variant(tmp_path, body, CTOR), run_id="ctor"))
    client.close()
    assert "PROBE constructor open granted" not in result.log_tail, result.log_tail
    assert "PROBE constructor open refused" in result.log_tail, result.log_tail
    assert "PROBE kernel sees 0" in result.log_tail, result.log_tail


def test_a_system_macro_the_package_invokes_is_read_in_its_expansion(tmp_path, monkeypatch):
    """A system header's macro expands to tokens spelled in that header; invoked from the
    package, its names count as the package's (the macro's own name is gone after -E). The
    system header is one of ours, in a directory made a system root for the test."""
    from npu_daemon import source_policy

    system, pkg = tmp_path / "system", tmp_path / "pkg"
    monkeypatch.setattr(source_policy, "SYSTEM_ROOTS", (*source_policy.SYSTEM_ROOTS, system))
    system.mkdir()
    pkg.mkdir()
    (system / "sneaky.h").write_text("#define JUMP(b) __builtin_setjmp(b)\n#define QUIET(b) (b)\n")
    (pkg / "k.cpp").write_text("#include <sneaky.h>\nint f(void** b) { return QUIET(1); }\n")
    cmd = ["g++", "-E", "-fdebug-cpp", f"-isystem{system}", "k.cpp", "-o", "k.ii"]
    subprocess.run(cmd, cwd=pkg, check=True)
    source_policy.check_preprocessed((pkg / "k.ii").read_text(), pkg, pkg)  # accepted
    (pkg / "k.cpp").write_text("#include <sneaky.h>\nint f(void** b) { return JUMP(b); }\n")
    subprocess.run(cmd, cwd=pkg, check=True)
    with pytest.raises(source_policy.Violation, match=r"k.cpp:2: `__builtin_setjmp`"):
        source_policy.check_preprocessed((pkg / "k.ii").read_text(), pkg, pkg)


def _preprocessed(tmp_path, code: str) -> str:
    """`code` as the build hands it to the check: real `g++ -E -fdebug-cpp` output."""
    (tmp_path / "k.cpp").write_text(code)
    cmd = ["g++", "-E", "-fdebug-cpp", "k.cpp", "-o", "k.ii"]
    subprocess.run(cmd, cwd=tmp_path, check=True)
    return (tmp_path / "k.ii").read_text()


FINE = {
    "member initializer named pipe": "struct P {}; struct K { P* pipe; int n;\n"
    "  K(P* p, int m) : n(m), pipe(p) {} };",
    "static_cast to a member's type": "struct K { int mode_; void Set(long v) {\n"
    "  mode_ = static_cast<decltype(mode_)>(v); } };",
    "a declared method named write": "struct K { void write(int) {} };",
    "a table of handlers": "int A(int x) { return x; }\nint (*table[])(int) = {A};",
}
REFUSED = {
    "reinterpret_cast through decltype": "void g();\n"
    "void f(long p) { reinterpret_cast<decltype(&g)>(p)(); }",
    "C-style cast to a function pointer": "void f(long p) { ((void (*)())p)(); }",
}


@pytest.mark.parametrize("code", FINE.values(), ids=FINE.keys())
def test_precise_accepts(tmp_path, code):
    from npu_daemon import source_policy

    source_policy.check_preprocessed(_preprocessed(tmp_path, code), tmp_path, tmp_path)


@pytest.mark.parametrize("code", REFUSED.values(), ids=REFUSED.keys())
def test_precise_refuses(tmp_path, code):
    from npu_daemon import source_policy

    with pytest.raises(source_policy.Violation):
        source_policy.check_preprocessed(_preprocessed(tmp_path, code), tmp_path, tmp_path)
