"""The system g++ over the emulation headers (backends/common/host: the host side both backends
build a tiling program against; backends/sim/include and backends/sim/runtime: the simulator).

Both backends build here; each artefact is cached by content hash so only what changed is rebuilt:
- the runtime (libascendc_sim.so, the launch harness, the precompiled kernel_operator.h and the
  precompiled host framework headers), built once per version of the headers and runtime sources;
- tiling.so from the host tiling program (a kernel-only change does not rebuild it): the sim
  backend runs it in the harness, the cann backend in its tiling runner;
- kernel.so per dtype combination: the sim backend's alone (backends/sim/kernel_build.py).
Each compile has its own working directory, so the backends can run them concurrently.
A precompiled header is only ever used with the exact flags it was built with (g++ 12 accepts a
mismatched -O level and may then crash).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from ascend_core import identity
from ascend_core.cache import cache_dir
from ascend_core.package import OperatorPackage
from npu_daemon import sandbox, source_policy
from npu_daemon.backends.common import ctors, kernel_view

COMMON_DIR = Path(__file__).resolve().parent
HOST_DIR = COMMON_DIR / "host"
HOST_INCLUDE_DIR = (
    HOST_DIR / "include"
)  # register/, tiling/, graph/, platform/: what op_host includes
SIM_DIR = COMMON_DIR.parent / "sim"
INCLUDE_DIR = (
    SIM_DIR / "include"
)  # kernel_operator.h and the kernel API (includes host headers too)
RUNTIME_DIR = SIM_DIR / "runtime"
GUEST_INCLUDE = SIM_DIR / "guest" / "include"  # the API as the guest engine's kernel sees it
# Every header a kernel or the runtime may include.
INCLUDE_FLAGS = [f"-I{INCLUDE_DIR}", f"-I{HOST_INCLUDE_DIR}"]
CXX = os.environ.get("CXX", "g++")


def _f16c() -> list[str]:
    """half <-> float in one instruction instead of a libgcc call (same IEEE rounding), where the CPU has it."""
    try:
        return ["-mf16c"] if " f16c" in Path("/proc/cpuinfo").read_text() else []
    except OSError:
        return []


# ASCEND_GYM_SIM_SANITIZE=1, a debugging switch for the runtime and the emulation headers: every
# build (runtime, harness, tiling, kernels) adds UBSan and ASan, and undefined behaviour stops the
# run (a RUNTIME_ERROR whose log holds the report). The flags enter the digests, so sanitized builds
# are cached apart from the others (docs/simulator.md, Sanitizers).
SANITIZE = os.environ.get("ASCEND_GYM_SIM_SANITIZE") == "1"
# A compiled kernel, module or tiling in the object cache (the 524 of a working cache on this
# machine, the suites' and more, are below 72 KB).
MAX_ARTEFACT_BYTES = 8 << 20
SANITIZE_FLAGS = (
    ["-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g"]
    if SANITIZE
    else []
)
# The runtime library and the harness are built once and run every case: -O3 makes the model's
# per-granule loops cheaper (docs/performance_model.md, Model overhead); no fast-math, so the
# same results as -O2.
CXXFLAGS = ["-std=c++17", "-O3", "-fPIC", "-w", *_f16c(), *SANITIZE_FLAGS]
# A candidate's tiling and kernel are compiled per candidate: at -O1 kernels compile 7-45 % faster
# and run at most ~20 % slower than at -O2 (docs/simulator.md, Speed). Same IEEE arithmetic as -O2
# (no fast-math, no FMA contraction), so the same numbers.
CANDIDATE_CXXFLAGS = ["-std=c++17", "-O1", "-fPIC", "-w", *_f16c(), *SANITIZE_FLAGS]
# A kernel is compiled to assembly with a call at the start of each basic block and line tables,
# which backends/sim/scalar_count.py turns into counts of its own scalar instructions. The kernel
# precompiled header is built with the same flags (a PCH without line tables would be refused).
KERNEL_CXXFLAGS = [*CANDIDATE_CXXFLAGS, "-g1", "-fsanitize-coverage=trace-pc"]
# Framework headers a host tiling program includes, precompiled together and force-included.
HOST_PCH_HEADERS = [
    "register/op_def_registry.h",
    "register/tilingdata_base.h",
    "tiling/platform/platform_ascendc.h",
    "graph/utils/type_utils.h",
    "tiling/tiling_api.h",
]
HOST_PCH = "ascendc_sim_host.h"
# Standard headers a host tiling program gets in place of libstdc++'s and glibc's: std::thread run
# deferred, sleeps that return, prctl on the thread's name (ascendc_sim/tiling_threads.h). The
# tiling's compile and its precompiled header alone: the emulation's scheduler runs real threads.
TILING_STD_FLAG = f"-I{HOST_INCLUDE_DIR / 'tiling_std'}"
# Precompiled after kernel_operator.h: what every kernel prelude includes (the tiling header's
# dependencies, and the host declarations kernel_enums.h protects from its macros). Parsed in each
# kernel compile they cost about a quarter of it.
KERNEL_PCH_EXTRAS = [*kernel_view.tiling_header_includes(), '#include "ascendc_sim/host_context.h"']
# First lines of both precompiled headers. g++ instantiates the templates that inline functions of
# the standard headers use at the end of every translation unit, called or not; what no AscendC
# code calls is left out of the parse: C++17's special math functions (std::beta,
# std::cyl_bessel_j, ...: about 89 M instructions, a tenth of a tiling compile) and the wide-string
# conversions (std::stoi(std::wstring), std::to_wstring, std::wcstoll: 17 M of an empty tiling compile).
PCH_PREAMBLE = [
    "#include <bits/c++config.h>",
    "#undef _GLIBCXX_USE_STD_SPEC_FUNCS",
    "#undef _GLIBCXX_USE_C99_WCHAR",
]
# A kernel also goes without the string-to-number conversions (std::stoi, std::stod, ...) and
# <cstdlib>'s C99 additions (std::strtoll, std::llabs, ...): the device has no C library to parse
# with (with the wide ones, 30 M of the 210 M an empty kernel compile executes in cc1plus).
KERNEL_PCH_PREAMBLE = [*PCH_PREAMBLE, "#undef _GLIBCXX_USE_C99_STDLIB"]
# gold links a candidate's shared object in about a third of the instructions of the default
# ld.bfd (the same symbols; no candidate links more than one object).
CANDIDATE_LDFLAGS = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []
# A candidate's tiling.so and kernel.so link against libascendc_sim.so and libgcc's helpers only:
# the C and C++ runtimes come loaded with the program that opens them (the harness, the cann tiling
# runner: RTLD_NOW, so a symbol nothing defines still fails there). Scanning them cost gold 31 M of
# its 40 M instructions per link. Sanitized builds keep the driver's libraries (their runtimes are
# among them).
CANDIDATE_LIBS = [] if SANITIZE else ["-nodefaultlibs", "-lgcc"]


class BuildError(Exception):
    """The candidate did not compile; `log` holds the compiler's message."""

    def __init__(self, what: str, log: str, timed_out: bool = False):
        super().__init__(f"{what} failed to compile")
        self.what = what
        self.log = log
        self.timed_out = timed_out


def cache_root() -> Path:
    root = cache_dir() / "sim"
    root.mkdir(parents=True, exist_ok=True)
    return root


def digest(tag: str, *parts: identity.Part) -> str:
    """An object cache key: the canonical digest (ascend_core/identity.py), shortened."""
    return identity.digest(tag, *parts)[:24]


@functools.cache
def compiler_version() -> str:
    return subprocess.run(
        [CXX, "--version"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[0]


# The runtime sources' (path, size, mtime) signature, their content digest and their stamp.
_sources_seen: tuple[tuple[tuple[str, int, int], ...], str, str] | None = None
# Evaluations that hold the signature taken as they began (`sources_pinned`): an evaluation asks
# for the digest several times, and each look stats every source (1,567 files: 5 to 20 ms).
_pinned = 0
_pinned_lock = threading.Lock()


def wasmtime_library() -> Path:
    """The WebAssembly runtime the harness links for the guest engine: the C library the
    `wasmtime` wheel (a base dependency) ships."""
    spec = importlib.util.find_spec("wasmtime")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the simulator needs the wasmtime package: pip install wasmtime")
    return Path(spec.submodule_search_locations[0]) / "linux-x86_64" / "_libwasmtime.so"


# The directories the runtime's sources are found in, with their suffixes, and single files.
_SOURCE_TREES = (
    (INCLUDE_DIR, (".h",)),
    (HOST_DIR, (".h", ".cpp")),
    (RUNTIME_DIR, (".cpp", ".h")),
    (SIM_DIR / "guest", (".h",)),
)
_SOURCE_FILES = (
    Path(__file__),
    COMMON_DIR / "kernel_view.py",
    COMMON_DIR / "ctors.py",
    COMMON_DIR / "template_key.py",
    SIM_DIR / "kernel_build.py",
    SIM_DIR / "scalar_count.py",
)
# The last walk: every directory of the trees with its mtime, and the files found.
_listing: tuple[tuple[str, ...], tuple[int, ...], list[Path]] | None = None


def _runtime_sources() -> list[Path]:
    """The runtime's source files, sorted. The trees are walked again only when one of their
    directories changes (a file added, removed or renamed), not at every evaluation's ask."""
    global _listing
    if _listing is not None and _listing[1] == tuple(os.stat(d).st_mtime_ns for d in _listing[0]):
        return _listing[2]
    dirs, files = [], list(_SOURCE_FILES)
    for root, suffixes in _SOURCE_TREES:
        for here, _, names in os.walk(root):
            dirs.append(here)
            files += [Path(here, n) for n in names if n.endswith(suffixes)]
    _listing = (tuple(dirs), tuple(os.stat(d).st_mtime_ns for d in dirs), sorted(files))
    return _listing[2]


@contextlib.contextmanager
def sources_pinned() -> Iterator[None]:
    """One look at the runtime's sources for the span of an evaluation: an edit is seen by every
    evaluation that begins after it, and costs the rest of this one no further look."""
    global _pinned
    runtime_sources_digest()
    with _pinned_lock:
        _pinned += 1
    try:
        yield
    finally:
        with _pinned_lock:
            _pinned -= 1


def runtime_sources_stamp() -> str:
    """Digest of the runtime sources' paths and mtimes. clang knows a `#pragma once` header by its
    mtime too, so a precompiled header serves only the files it was built from: a checkout whose
    headers carry other mtimes (a fresh clone at the same path) would fail on redefinitions."""
    runtime_sources_digest()  # takes the signature, and with it the stamp, anew
    assert _sources_seen is not None
    return _sources_seen[2]


def runtime_sources_digest() -> str:
    """Digest of everything the runtime is built from. Every evaluation asks (more than once);
    the files are read again only when one of them is added, removed or touched (reading them
    all costs milliseconds, walking the trees too), and not looked at while an evaluation holds
    the look it began with (`sources_pinned`)."""
    global _sources_seen
    if _sources_seen is not None and _pinned:
        return _sources_seen[1]
    files = _runtime_sources()
    signature = tuple((str(f), st.st_size, st.st_mtime_ns) for f in files for st in [os.stat(f)])
    if _sources_seen is None or _sources_seen[0] != signature:
        _sources_seen = (
            signature,
            digest(
                "runtime",
                compiler_version(),
                # The precompiled headers hold the include directories' absolute paths, which the
                # acceptance check reads: two checkouts sharing one cache build their own runtime.
                str(SIM_DIR.parent),
                str(wasmtime_library()),
                # A precompiled guest module runs on the wasmtime that compiled it only.
                importlib.metadata.version("wasmtime"),
                [
                    *CXXFLAGS,
                    *CANDIDATE_CXXFLAGS,
                    *KERNEL_CXXFLAGS,
                    *CANDIDATE_LDFLAGS,
                    *CANDIDATE_LIBS,
                ],
                [[f.relative_to(SIM_DIR.parent).as_posix(), f.read_bytes()] for f in files],
            ),
            digest("stamp", [f"{f}:{mtime}" for f, _, mtime in signature]),
        )
    return _sources_seen[1]


@dataclass(frozen=True)
class Runtime:
    root: Path
    digest: str

    @property
    def lib(self) -> Path:
        return self.root / "libascendc_sim.so"

    @property
    def harness(self) -> Path:
        return self.root / "ascendc_sim_harness"

    @property
    def pch_dir(self) -> Path:
        return self.root / "pch"

    @property
    def host_pch_dir(self) -> Path:
        return self.root / "pch-host"

    def link_flags(self) -> list[str]:
        return [*CANDIDATE_LDFLAGS, f"-L{self.root}", "-lascendc_sim", f"-Wl,-rpath,{self.root}"]


class RuntimeBuildError(RuntimeError):
    """The simulator runtime did not build from our own sources: the daemon's fault, said with the
    unit and the compiler's last words (no candidate text is among them)."""


# A step of ours that fails is run again, this many times at most: its sources are ours and were
# built before, so a failure is the machine's (a compiler killed by the OOM killer or a stray
# `kill`, a temporary file gone) until the same diagnostics come twice from a compiler that was
# not killed (an error in the sources, reported then). The g++ driver reports a killed cc1plus as
# "Killed signal terminated program cc1plus".
STEP_ATTEMPTS = 3


def _killed(done: subprocess.CompletedProcess[str]) -> bool:
    return done.returncode < 0 or "signal terminated program" in done.stderr


def build_step(cmd: list[str], cwd: Path, what: str) -> None:
    """One step of a build of ours (the runtime, the guest's precompiled header), run again while
    it fails otherwise than alike twice."""
    said: str | None = None
    attempts = 0
    while attempts < STEP_ATTEMPTS:
        attempts += 1
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        if done.returncode == 0:
            return
        if done.stderr == said and not _killed(done):
            break
        said = done.stderr
    cause = "its compiler killed" if _killed(done) else f"exit status {done.returncode}"
    raise RuntimeBuildError(
        f"building the simulator {what} failed {attempts} times ({cause}):\n{done.stderr[-4000:]}"
    )


def _build_runtime(tmp: Path, root: Path, wasmtime: Path) -> None:
    """The runtime library, the harness, the constructor runner and the two precompiled headers, in
    `tmp` (to be moved to `root`). Every unit compiles on its own g++, on every core at once (the
    build is the first evaluation's wait: one g++ for all units took 136 s of one core), then the
    library and the harness link."""
    # The performance model is runtime/model.cpp plus its units under runtime/model/.
    library = [
        RUNTIME_DIR / "core.cpp",
        RUNTIME_DIR / "race_checker.cpp",
        RUNTIME_DIR / "raw_access.cpp",
        RUNTIME_DIR / "scheduler.cpp",
        RUNTIME_DIR / "cross_core.cpp",
        RUNTIME_DIR / "state.cpp",
        HOST_DIR / "registry.cpp",
        RUNTIME_DIR / "cube.cpp",
        RUNTIME_DIR / "issue.cpp",
        RUNTIME_DIR / "instances.cpp",
        RUNTIME_DIR / "model.cpp",
        *sorted((RUNTIME_DIR / "model").glob("*.cpp")),
    ]
    harness = [
        RUNTIME_DIR / "launcher.cpp",
        RUNTIME_DIR / "tiling.cpp",
        RUNTIME_DIR / "candidate.cpp",
        RUNTIME_DIR / "confine.cpp",
        *sorted((RUNTIME_DIR / "guest").glob("*.cpp")),
    ]
    (tmp / "obj").mkdir()
    objects = {
        src: tmp / "obj" / f"{i:02d}-{src.stem}.o" for i, src in enumerate(library + harness)
    }
    unit = [CXX, *CXXFLAGS, *INCLUDE_FLAGS, f"-I{RUNTIME_DIR}", "-c"]
    # The PCH sits beside a copy of its header so `#include "kernel_operator.h"` resolves to it.
    (tmp / "pch" / "kernel_operator.h").write_text(
        "\n".join(
            [
                *KERNEL_PCH_PREAMBLE,
                (INCLUDE_DIR / "kernel_operator.h").read_text(),
                *KERNEL_PCH_EXTRAS,
                "",
            ]
        )
    )
    (tmp / "pch-host" / HOST_PCH).write_text(
        "\n".join(
            [
                *PCH_PREAMBLE,
                *(f'#include "{h}"' for h in HOST_PCH_HEADERS if (HOST_INCLUDE_DIR / h).is_file()),
                "",
            ]
        )
    )
    compiles = [([*unit, str(src), "-o", str(obj)], src.name) for src, obj in objects.items()]
    compiles += [
        (
            [CXX, *CANDIDATE_CXXFLAGS, "-c", str(ctors.RUNNER_SOURCE), "-o", ctors.RUNNER_OBJECT],
            "candidate constructor runner",
        ),
        (
            [CXX, *KERNEL_CXXFLAGS, "-DASCENDC_SIM_KERNEL", "-x", "c++-header", *INCLUDE_FLAGS]
            + ["pch/kernel_operator.h", "-o", "pch/kernel_operator.h.gch"],
            "precompiled header",
        ),
        (
            [CXX, *CANDIDATE_CXXFLAGS, "-x", "c++-header", TILING_STD_FLAG, f"-I{HOST_INCLUDE_DIR}"]
            + [f"pch-host/{HOST_PCH}", "-o", f"pch-host/{HOST_PCH}.gch"],
            "host precompiled header",
        ),
    ]
    with futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for done in [pool.submit(build_step, cmd, tmp, what) for cmd, what in compiles]:
            done.result()
    library_objects = [str(objects[src]) for src in library]
    build_step(
        [CXX, *CXXFLAGS, "-shared", *library_objects, "-o", str(tmp / "libascendc_sim.so")],
        tmp,
        "runtime library",
    )
    build_step(
        [
            CXX,
            *CXXFLAGS,
            *(str(objects[src]) for src in harness),
            f"-L{tmp}",
            "-lascendc_sim",
            f"-Wl,-rpath,{root}",
            # The guest engine's WebAssembly runtime: the wasmtime wheel's C library, copied
            # beside the harness, where the sandbox users read (a venv may not be theirs to
            # read); named without its path, found by the run path.
            f"-l:{wasmtime.name}",
            "-ldl",
            "-o",
            str(tmp / "ascendc_sim_harness"),
        ],
        tmp,
        "harness",
    )
    shutil.rmtree(tmp / "obj")


_runtime: Runtime | None = None


def ensure_runtime() -> Runtime:
    """Build the runtime for the current sources once (file-locked across processes)."""
    global _runtime
    digest = runtime_sources_digest()
    if _runtime is not None and _runtime.digest == digest:
        return _runtime
    rt = Runtime(cache_root() / f"runtime-{digest}", digest)
    wasmtime = wasmtime_library()
    if not (rt.root / "ready").exists():
        lock_path = cache_root() / f"runtime-{digest}.lock"
        with lock_path.open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (rt.root / "ready").exists():
                tmp = rt.root.with_name(rt.root.name + f".tmp{os.getpid()}")
                shutil.rmtree(tmp, ignore_errors=True)
                (tmp / "pch").mkdir(parents=True)
                (tmp / "pch-host").mkdir()
                shutil.copy2(wasmtime, tmp / wasmtime.name)
                try:
                    _build_runtime(tmp, rt.root, wasmtime)
                except BaseException:  # no half-built directory outlives a failed build
                    shutil.rmtree(tmp, ignore_errors=True)
                    raise
                (tmp / "ready").write_text(digest)
                shutil.rmtree(rt.root, ignore_errors=True)
                os.replace(tmp, rt.root)
    _runtime = rt
    return rt


_CITED = re.compile(r"^(?:In file included from )?([^<\s:][^:\n]*):\d+:", re.MULTILINE)
# An include the compiler did not find: `FILE:L:C: fatal error: NAME: No such file or directory`
# (g++), `FILE:L:C: fatal error: 'NAME' file not found` (clang).
_MISSING = re.compile(
    r"^([^<\s:][^:\n]*):(\d+):\d+: fatal error: (?:'([^'\n]+)' file not found|(.+?): No such file or directory)$",
    re.MULTILINE,
)


def missing_includes(log: str) -> list[tuple[str, int, str]]:
    """(including file, its line, name) of each include the compiler did not find."""
    return [(f, int(line), a or b) for f, line, a, b in _MISSING.findall(log)]


def foreign_file(log: str, cwd: Path, roots: list[Path]) -> str | None:
    """A file a compiler's log cites (a diagnostic quotes its lines, line and column) outside
    `roots`, the emulation's headers and the system's: without a view (no sandbox identity) the
    compiler opens any file its user can read, and an `#include` swallowed by a macro's arguments
    reaches one past the token gate, which reads the preprocessor's output. Or an include it did
    not find whose name, taken from the including file's directory, lies outside them: in a
    view no such file exists, and it is refused as if it did (no host path's existence shows)."""
    allowed = [r.resolve() for r in (*roots, HOST_INCLUDE_DIR, source_policy.BACKENDS)]
    allowed += source_policy.SYSTEM_ROOTS
    found = [(cited, cwd / cited) for cited in _CITED.findall(log)]
    found += [(name, (cwd / f).parent / name) for f, _, name in missing_includes(log)]
    for cited, path in found:
        if not any(path.resolve().is_relative_to(r) for r in allowed):
            return cited
    return None


def view(top: Path, *reads: Path) -> list[Path]:
    """All a compile of candidate code sees (sandbox.run's `view`) beside the toolchain and its
    own directory: our header directories, the cache entries it `reads` (precompiled headers,
    the runtime a link needs) and the package as written for the build (`top`, the evaluation's
    own files). Not the rest of the build cache (the case data: secret inputs and references),
    another evaluation's directory, nor any other file of the host."""
    return [INCLUDE_DIR, HOST_INCLUDE_DIR, GUEST_INCLUDE, *reads, top]


# The files the compiles of the artefact `cached` is building have read (their real paths), as
# the compilers' own dependency lists name them; None outside `cached`.
_reads: ContextVar[list[str] | None] = ContextVar("reads", default=None)
_TRANSLATES = ("-c", "-S", "-E")
# Trees no build writes or links into (the emulation's headers, the system's): a dependency spelled
# inside one (no `..` out of it: an include's spelling is the candidate's) is never a package file,
# so it needs no resolving (a guest kernel's list holds 400 such paths, and `realpath` walks each
# one's components: 20-35 ms a kernel).
_FIXED_ROOTS = (f"{source_policy.BACKENDS}/", "/usr/")


def _real_path(dep: str, cwd: Path) -> str:
    """A dependency's real path, as far as matching it with the package's files needs."""
    if dep.startswith(_FIXED_ROOTS) and "/.." not in dep:
        return dep
    return os.path.realpath(cwd / dep)


def _dependencies(depfile: Path) -> list[str]:
    """The prerequisites of a compiler's make-style dependency file (`-MD -MF`)."""
    try:
        text = depfile.read_text(errors="surrogateescape").replace("\\\n", " ")
    except FileNotFoundError:  # no C or C++ input (an assembly or IR unit): nothing included
        return []
    rule = text.split(": ", 1)[1] if ": " in text else ""
    words = re.findall(r"(?:\\.|[^\s\\])+", rule)
    return [re.sub(r"\\(.)", r"\1", w).replace("$$", "$") for w in words]


# A compile's address space (each of its processes: the driver, cc1plus, the assembler, the linker),
# within a daemon's memory share where it is smaller (sandbox.cap_memory).
COMPILE_MB = 4096


def compile_candidate(
    cmd: list[str], cwd: Path, out: Path, what: str, timeout_s: float, sees: list[Path]
) -> None:
    """Run one compile of candidate code, seeing `sees` (`view`) alone, into `out` in `cwd`.
    Inside `cached`, a preprocessing compiler lists the files it read (`_reads`)."""
    reads = _reads.get()
    depfile = cwd / f"{out.name}.deps"
    # Whatever has the output's name is removed first: a package file of that name is linked into
    # the build directory (build_dir), and a command that did not write through the link (a
    # read-only view) left the candidate's bytes as its output (a `kernel.cwasm` at the package's
    # top became the machine code wasmtime loads, trusted).
    out.unlink(missing_ok=True)
    if reads is not None and any(flag in cmd for flag in _TRANSLATES):
        depfile.unlink(missing_ok=True)
        cmd = [*cmd, "-MD", "-MF", depfile.name]
    done = sandbox.run(
        cmd,
        cwd,
        timeout_s,
        sandbox.Limits(cpu_s=int(timeout_s) + 1, address_space_mb=COMPILE_MB),
        view=sees,
    )
    if done.timed_out:
        raise BuildError(what, f"compilation exceeded {timeout_s:.0f} s", timed_out=True)
    if done.returncode != 0 or out.is_symlink() or not out.is_file() or out.stat().st_size == 0:
        # An empty artefact (a compiler killed as it wrote) must never enter the object cache.
        raise BuildError(
            what, done.stderr.strip() or f"compiler exited with {done.returncode} and no output"
        )
    if reads is not None and "-MF" in cmd:
        reads += [_real_path(dep, cwd) for dep in _dependencies(depfile)]


@dataclass(frozen=True)
class Compile:
    """One candidate shared object: the preprocessor's flags, the translation units, the link,
    run in `cwd`."""

    what: str
    cwd: Path
    flags: list[str]
    sources: list[str]
    link: list[str]
    top: Path  # the package as written for the build: where the candidate's own files are
    own: frozenset[Path] = frozenset()  # files under `top` the build generated itself
    # A pass over each unit's assembly before it is assembled (the kernel's scalar count).
    assembly: Callable[[str], str] | None = None
    reads: tuple[Path, ...] = ()  # the cache entries it reads (`view`)

    @property
    def sees(self) -> list[Path]:
        return view(self.top, *self.reads)


def accept(c: Compile, timeout_s: float) -> None:
    """The acceptance check of each unit: its tokens as the preprocessor gives them, with the
    compile's own flags (source_policy.check_preprocessed); raises source_policy.Violation, or
    BuildError when it does not preprocess."""
    for k, source in enumerate(c.sources):
        unit = c.cwd / f"tu{k}.ii"
        cmd = [CXX, *c.flags, "-E", "-fpch-preprocess", "-fdebug-cpp", *CPP_UNIT, source]
        cmd += ["-o", unit.name]
        trusted = c.reads  # the cache entries it reads: the precompiled headers
        try:
            compile_candidate(cmd, c.cwd, unit, c.what, timeout_s, c.sees)
        except BuildError as e:
            if foreign := foreign_file(e.log, c.cwd, [c.top, *trusted]):
                # Where the package includes it if it was not found; never a line or column of
                # the file itself, or its name, which would tell what it holds.
                at = next(
                    ((f, n) for f, n, name in missing_includes(e.log) if name == foreign), None
                )
                raise source_policy.Violation(
                    *(at or (source, 0)), "#include", "including a file outside the package"
                ) from None
            raise
        source_policy.check_unit(unit, source, c.cwd, c.top, c.own, trusted, timeout_s)


def build_candidate(c: Compile, out: Path, timeout_s: float) -> None:
    """Accept the units, compile each, move the objects' constructors out of `.init_array`
    (ctors.py), and link the objects with the runner the candidate process calls once its
    syscall filter is tight. The acceptance check runs beside the compiles (each sandboxed in
    its view, neither runs the candidate's code): nothing is linked before it passes, and its
    refusal is the verdict whatever the compiles said. The link gate then reads what the linked
    object needs from outside it (source_policy.check_linked) before it is cached or run."""
    with futures.ThreadPoolExecutor(1) as pool:
        check = pool.submit(accept, c, timeout_s) if source_policy.enforced() else None
        try:
            objects = [compile_unit(c, k, source, timeout_s) for k, source in enumerate(c.sources)]
        finally:
            if check is not None:
                check.result()  # a refusal is the verdict, whether the compiles failed or not
    # Linked in its own directory (the object cache is not in its view), then copied into place.
    rt = ensure_runtime()
    runner = rt.root / ctors.RUNNER_OBJECT
    linked = c.cwd / "linked.so"
    link = [CXX, *CANDIDATE_CXXFLAGS, "-shared", *objects, str(runner), *c.link, "-o", linked.name]
    compile_candidate(link, c.cwd, linked, c.what, timeout_s, c.sees)
    if source_policy.enforced():  # the link gate: what the linked object needs from outside it
        top = c.top.resolve()
        units = [
            (c.cwd / o, (c.cwd / s).resolve().relative_to(top).as_posix())
            for o, s in zip(objects, c.sources, strict=True)
        ]
        source_policy.check_linked(linked, units, top, rt.lib, runner, rt.harness)
    shutil.copyfile(linked, out)


# A unit is C++ whatever its name: g++ makes a `.h` a precompiled header, which the assembly pass
# then read as text (a daemon fault, uncharged, after the compile).
CPP_UNIT = ("-x", "c++")


def compile_unit(c: Compile, k: int, source: str, timeout_s: float) -> str:
    """Unit `k` of `c` compiled (through its assembly pass, if any) to an object whose
    constructors are deferred: its name in `c.cwd`."""
    obj = c.cwd / f"tu{k}.o"
    if c.assembly is None:
        compile_candidate(
            [CXX, *c.flags, "-c", *CPP_UNIT, source, "-o", obj.name],
            c.cwd,
            obj,
            c.what,
            timeout_s,
            c.sees,
        )
    else:
        asm, counted = c.cwd / f"tu{k}.s", c.cwd / f"tu{k}.counted.s"
        cmd = [CXX, *c.flags, "-S", *CPP_UNIT, source, "-o", asm.name]
        compile_candidate(cmd, c.cwd, asm, c.what, timeout_s, c.sees)
        counted.write_text(c.assembly(asm.read_text()))
        cmd = [CXX, "-c", counted.name, "-o", obj.name]
        compile_candidate(cmd, c.cwd, obj, c.what, timeout_s, c.sees)
    ctors.defer(obj)
    return obj.name


def package_top(pkg: OperatorPackage, root: Path) -> Path:
    """The directory the package was written to (`root` is its operator directory)."""
    return root.parents[len(Path(pkg.spec.tree_path).parts) - 1] if pkg.spec.tree_path else root


def object_cache_bytes() -> int:
    """What the object cache may hold in all (ASCEND_GYM_SIM_OBJECT_CACHE_MB, 2 GiB by default)."""
    return int(os.environ.get("ASCEND_GYM_SIM_OBJECT_CACHE_MB", 2048)) << 20


# The object cache's bytes are kept in a ledger beside it (`held`: bytes, and when they were last
# summed), under a lock every worker process takes: summing stats every file (8 ms for 2,269 of
# them) at each build would cost a fresh candidate 16 ms. The sum is redone every HELD_RESCAN_S,
# which forgets files deleted by hand; artefacts still being built are what the bound may miss.
HELD_RESCAN_S = 60.0


def _admit(objects: Path, size: int) -> bool:
    """Whether an artefact of `size` bytes fits within `object_cache_bytes`; if so, counted."""
    ledger = objects / "held"
    with (objects / "held.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            held, summed = (float(v) for v in ledger.read_text().split())
        except (FileNotFoundError, ValueError):
            held, summed = 0.0, 0.0
        if time.time() - summed > HELD_RESCAN_S:
            held = sum(p.stat().st_size for p in objects.iterdir() if p.suffix == ".so")
            summed = time.time()
        fits = held + size <= object_cache_bytes()
        ledger.write_text(f"{int(held + size * fits)} {summed}")
        return fits


def _written(pkg: OperatorPackage, workdir: Path) -> dict[str, str]:
    """Each package file by the real path it was written to (Package.write_tree)."""
    top = package_top(pkg, workdir)
    where = {}
    for p in sorted(pkg.files, key=lambda p: not p.startswith("tree/")):  # own files win
        disk = (
            top / p.removeprefix("tree/")
            if pkg.spec.tree_path and p.startswith("tree/")
            else workdir / p
        )
        where[os.path.realpath(disk)] = p
    return where


# Package paths a dependency list spells as they are (no space, colon, `#`, `$` or backslash).
_PLAIN_PATH = re.compile(r"[\w./+=,@%-]+")


def _package_reads(pkg: OperatorPackage, workdir: Path, reads: list[str]) -> list[str]:
    """The package files among the real paths a build's compilers read: every file, where a
    package path is one a dependency list could not spell plainly."""
    if not all(_PLAIN_PATH.fullmatch(p) for p in pkg.files):
        return sorted(pkg.files)
    where = _written(pkg, workdir)
    return sorted({where[r] for r in reads if r in where})


def _read_key(key: str, pkg: OperatorPackage, read: list[str]) -> str:
    """The artefact's own key: `key`, which files the package holds (`__has_include` sees them
    without reading them) and the text of those its build read. A file the last build under
    `key` read that this package lacks is keyed by its path alone (it was None, which no digest
    encodes: every later package lacking it was an uncharged daemon fault, never built)."""
    texts = [[p, pkg.files[p]] if p in pkg.files else [p] for p in read]
    return digest("read", key, sorted(pkg.files), texts)


def _manifest(path: Path) -> list[str] | None:
    try:
        read = json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        return None
    return read if isinstance(read, list) and all(isinstance(p, str) for p in read) else None


def cached(
    kind: str, key: str, build: Callable[[Path], None], workdir: Path, pkg: OperatorPackage
) -> tuple[Path, bool]:
    """Return the cached artefact for key, building it into place atomically if absent.

    `key` holds what the caller knows the build depends on; a compile sees the whole package,
    so the artefact is also keyed by the package files its compilers read (their dependency
    lists: an include through a macro, a header a header includes). The last build under `key`
    leaves that list beside it (`<kind>-<key>.reads`): a package whose listed files hold the same
    text reads the same files, so builds the same artefact. An artefact keyed by `key` alone was
    served to a package whose unkeyed header changed (an `#error` in it: OK, not COMPILE_ERROR).

    The object cache outlives evaluations and no quota counts it, so it is bounded twice: an
    artefact past MAX_ARTEFACT_BYTES is the candidate's COMPILE_ERROR (a static array of 100 MiB,
    one line of source, left 117 MB in the cache per evaluation, a failing one included), and
    one that would take the cache past `object_cache_bytes` is built for this evaluation alone,
    in its `workdir` (its quota counts it; nothing is evicted, so no evaluation loses a path)."""
    objects = cache_root() / "objects"
    manifest = objects / f"{kind}-{key}.reads"
    if (read := _manifest(manifest)) is not None:
        target = objects / f"{kind}-{_read_key(key, pkg, read)}.so"
        if target.exists():
            return target, True
    objects.mkdir(parents=True, exist_ok=True)
    suffix = f".tmp{os.getpid()}-{threading.get_ident()}"
    tmp = objects / f"{kind}-{key}{suffix}"
    try:
        token = _reads.set([])
        try:
            build(tmp)
            read = _package_reads(pkg, workdir, _reads.get() or [])
        finally:
            _reads.reset(token)
        target = objects / f"{kind}-{_read_key(key, pkg, read)}.so"
        if (size := tmp.stat().st_size) > MAX_ARTEFACT_BYTES:
            raise BuildError(
                kind,
                f"error: the compiled artefact is {size / 2**20:.1f} MiB, past the "
                f"{MAX_ARTEFACT_BYTES >> 20} MiB of code and static data an artefact may hold",
            )
        if not _admit(target.parent, size):
            own = workdir / target.name
            shutil.copyfile(tmp, own)
            return own, False
        os.replace(tmp, target)
        listed = manifest.with_name(manifest.name + suffix)
        listed.write_text(json.dumps(read))
        os.replace(listed, manifest)
    finally:
        tmp.unlink(missing_ok=True)
    return target, False


def package_sources(pkg: OperatorPackage, folder: str) -> list[list[str]]:
    """(path, text) of the package's files under `folder`, as digest parts."""
    return [[p, pkg.files[p]] for p in sorted(pkg.files) if p.startswith(folder + "/")]


def kernel_side_sources(pkg: OperatorPackage) -> list[list[str]]:
    """(path, text) digest parts of what a kernel compile can read: op_kernel/ and what the runner
    brought beside it, the repository's shared kernel headers (inc/), other operators' kernel
    headers (<op>/) and other directories (tree/)."""
    return [
        [p, text]
        for p, text in sorted(pkg.files.items())
        if "/" in p and not p.startswith("op_host/")
    ]


# The build's own directories beside the package's files: no package path may lie in one
# (evaluation.unbuildable), or the build would work in the candidate's directory.
BUILD_DIR_PREFIX = ".build-"


def build_dir(pkg: OperatorPackage, workdir: Path, name: str) -> Path:
    """A compile's own working directory (the sandbox keeps its logs there, and compiles run
    concurrently) that sees the package through links, so diagnostics name the same paths."""
    cwd = workdir / f"{BUILD_DIR_PREFIX}{name}"
    cwd.mkdir(exist_ok=True)
    # (tree/ files are written around the operator's directory, not in it: Package.write_tree)
    for top in {p.split("/")[0] for p in pkg.files} - ({"tree"} if pkg.spec.tree_path else set()):
        if not (cwd / top).is_symlink():
            (cwd / top).symlink_to(Path("..") / top)
    return cwd


_ROOTED_INCLUDE = re.compile(r'#\s*include\s*"((?:[A-Za-z_][\w-]*/)+?)(op_host|op_kernel)/([^"]+)"')


def repo_root_prefixes(pkg: OperatorPackage) -> list[str]:
    """The repository-root spellings of the package's own files that its text names (ops-math:
    `#include "experimental/math/gcd/op_kernel/gcd_tiling_data.h"`), in any file: a compile
    need not read the file that names one to see it (`repo_root_flags`)."""
    return sorted(
        {
            m[1].rstrip("/")
            for t in pkg.files.values()
            for m in _ROOTED_INCLUDE.finditer(t)
            if f"{m[2]}/{m[3]}" in pkg.files
        }
    )


def repo_root_flags(pkg: OperatorPackage, cwd: Path) -> list[str]:
    """An include path under which the package's own files are reachable as the operator
    repository's build spells them, from its root (`repo_root_prefixes`): links in the compile's
    directory to the package root."""
    prefixes = repo_root_prefixes(pkg)
    for prefix in prefixes:
        link = cwd / ".repo" / prefix
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.is_symlink():
            link.symlink_to(cwd.parent.resolve())
    return ["-I.repo"] if prefixes else []


def include_root_flags(pkg: OperatorPackage, root: Path) -> list[str]:
    """-I of the repository build's include roots the package carries (spec.include_dirs), in
    the build's order, after the package's own and the simulator's directories: a header the
    simulator emulates stays the simulator's."""
    top = package_top(pkg, root).resolve()
    return [f"-I{top / d}" for d in pkg.spec.include_dirs]


# The spec's fields that say how an operator is judged or labelled, which no build reads.
_JUDGING = {"level", "category", "description", "reference", "reference_kind", "tolerance", "cases"}


def derived_key(pkg: OperatorPackage) -> list[str | list[str]]:
    """What a build takes from the package besides the text of the files its compilers read (the
    compilers' reads key that: `cached`), as a digest part: the rest of the spec (which files are
    compiled, the include roots, the definitions, the entry, the arguments' dtypes) and the
    repository-root spellings that become include links (`repo_root_flags`). Two packages
    differing only there built differently under one key (a `-D` of host_defines, an
    `#error` in the kernel_file the spec names, a `__has_include` of a spelling in a comment)."""
    return [pkg.spec.model_dump_json(exclude=_JUDGING), repo_root_prefixes(pkg)]


def build_tiling(
    pkg: OperatorPackage, workdir: Path, rt: Runtime, timeout_s: float
) -> tuple[Path, bool]:
    """tiling.so from op_host/: returns (path, cache hit)."""
    # Which host files are compiled is part of the key: the same sources may build another set.
    # The op_kernel headers the host includes key it through `cached` (the compiler's reads).
    key = digest(
        "tiling",
        rt.digest,
        source_policy.fingerprint(),
        package_sources(pkg, "op_host"),
        package_sources(pkg, "tree"),
        derived_key(pkg),
    )

    return cached(
        "tiling",
        key,
        lambda out: build_candidate(tiling_unit(pkg, workdir, rt), out, timeout_s),
        workdir,
        pkg,
    )


def tiling_unit(pkg: OperatorPackage, workdir: Path, rt: Runtime) -> Compile:
    """How tiling.so is compiled: op_host's sources against the host headers."""
    cwd = build_dir(pkg, workdir, "tiling")
    flags = [
        *CANDIDATE_CXXFLAGS,
        f"-I{rt.host_pch_dir}",
        TILING_STD_FLAG,
        f"-I{HOST_INCLUDE_DIR}",
        "-Iop_host",
        # ops-nn's tiling include path names its common/inc/op_host too, so its tilings
        # include those helpers by their bare names ("tiling_util.h").
        f"-I{HOST_INCLUDE_DIR / 'op_host'}",
        *repo_root_flags(pkg, cwd),
        *include_root_flags(pkg, workdir),
        *(f"-D{d}" for d in pkg.spec.host_defines),
        "-include",
        HOST_PCH,
    ]
    link = [
        # A project builds its tiling source and its OpDef source into separate libraries
        # (optiling, opsproto), each with its own copy of a function a shared header defines.
        *(["-Wl,--allow-multiple-definition"] if pkg.spec.host_sources else []),
        *rt.link_flags(),
        *CANDIDATE_LIBS,
    ]
    top = package_top(pkg, workdir)
    # A tree/ source (another operator's, which the repository builds into the same tiling
    # library) is at its place around the operator's directory (Package.write_tree).
    sources = [
        os.path.relpath(top / s.removeprefix("tree/"), cwd) if s.startswith("tree/") else s
        for s in [pkg.host_path, *pkg.spec.host_sources]
    ]
    return Compile("host tiling program", cwd, flags, sources, link, top, reads=(rt.root,))
