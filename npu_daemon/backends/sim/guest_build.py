"""The guest engine's kernel build (docs/trust_boundary.md): the kernel source compiled by clang
to LLVM IR against the guest API headers (guest/include), its raw __gm__ / __ubuf__ accesses made
charged imports (guest_ir.py), then compiled to a wasm32 module linked with the WASI libc and
libc++ that run inside the module, metered like the kernel's own code. The module's imports are
then verified: each must be a function of the API (module "ascendc", declared in the guest
headers); anything else (WASI I/O through printf, a clock) is refused before it runs.
"""

from __future__ import annotations

import fcntl
import functools
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from ascend_core.package import OperatorPackage
from npu_daemon import sandbox, zygote
from npu_daemon.backends.common import build, kernel_view, template_key
from npu_daemon.backends.sim import guest_ir, guest_lp64, kernel_build

GUEST_INCLUDE = build.GUEST_INCLUDE
CLANG = "clang++"
# Debian's wasm32-wasi sysroot (packages wasi-libc and libc++-dev-wasm32) is /usr itself.
SYSROOT = "/usr"
FLAGS = [
    "--target=wasm32-wasi",
    f"--sysroot={SYSROOT}",
    "-O2",
    "-std=c++17",
    "-fno-exceptions",
    "-w",
    # wasm32 libc++ is built without the filesystem library, yet its <filesystem> exists (and stops
    # the compile): nlohmann/json, which host tiling headers include, would include it on finding it.
    # Its documented switches leave std::filesystem out; a kernel has no files to reach anyway.
    "-DJSON_HAS_FILESYSTEM=0",
    "-DJSON_HAS_EXPERIMENTAL_FILESYSTEM=0",
]
INCLUDES = ["-DASCENDC_SIM_KERNEL", f"-I{GUEST_INCLUDE}", f"-I{build.HOST_INCLUDE_DIR}"]
# The header's own template instantiations done once in the precompiled header: otherwise every
# kernel's compile performs them again at its end (about 100 ms of a 180 ms compile).
PCH_FLAGS = ["-fpch-instantiate-templates"]
# The guest's linear memory at most: the harness reserves this much for it up front, so growing
# it never moves it (runtime/guest/guest.cpp; a memory that moved was copied whole).
GUEST_MEMORY_BYTES = 64 << 20
# No start files (the harness calls the entry); the stack the kernel gets, in its linear memory;
# the memory's declared maximum; the image of the kernel's `__gm__` globals, which the host maps
# into the launch's GM (guest_ir.gm_data).
LINK = [
    "--no-entry",
    "--export=__wasm_call_ctors",
    f"--export-if-defined={guest_ir.GM_DATA}",
    "-z",
    "stack-size=1048576",
    f"--max-memory={GUEST_MEMORY_BYTES}",
]


class GuestToolchainMissing(RuntimeError):
    """clang or the wasm32 sysroot is not installed (the daemon's operator must install them)."""


@functools.cache
def toolchain_version() -> str:
    """clang's version line; the toolchain's absence is the operator's to fix, said in one line."""
    if shutil.which(CLANG) is None or not Path(SYSROOT, "lib", "wasm32-wasi", "libc.a").exists():
        raise GuestToolchainMissing(
            "the guest engine needs clang, lld and the wasm32 sysroot: "
            "apt-get install clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32"
        )
    out = subprocess.run([CLANG, "--version"], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()[0]


@functools.cache
def linker() -> tuple[list[str], list[str]]:
    """wasm-ld and the libraries clang's driver links a wasm32-wasi C++ program with (libc++,
    libc, the compiler's builtins): called directly, the link costs a third of the driver's."""

    def ask(flag: str) -> str:
        out = subprocess.run([CLANG, *FLAGS[:2], flag], capture_output=True, text=True, check=True)
        return out.stdout.strip()

    lib = Path(SYSROOT, "lib", "wasm32-wasi")
    program = [ask("-print-prog-name=wasm-ld"), "-m", "wasm32", f"-L{lib}"]
    return program, ["-lc++", "-lc++abi", "-lc", ask("-print-libgcc-file-name")]


@functools.cache
def api_imports() -> frozenset[str]:
    """The import names of the API, as the guest headers declare them."""
    text = "".join(h.read_text() for h in sorted(GUEST_INCLUDE.rglob("*.h")))
    return frozenset(re.findall(r"ASCENDC_GUEST_IMPORT\((\w+)\)", text)) - {"name"}


def headers_digest() -> str:
    """clang's version and the runtime's sources, which hold the guest API headers and the host
    headers a tiling view includes (read again only when one of them changes)."""
    return build.digest("guest-headers", toolchain_version(), build.runtime_sources_digest())


def ensure_pch() -> Path:
    """The API header and every tiling view's fixed includes, precompiled once per header digest
    (by the daemon, from our headers alone; the candidates' compiles only read it)."""
    key = build.digest(
        "guest-pch", headers_digest(), build.runtime_sources_stamp(), *FLAGS, *PCH_FLAGS
    )
    root = build.cache_root() / f"guest-pch-{key[:24]}"
    pch = root / "guest.pch"
    if pch.exists():
        return pch
    root.parent.mkdir(parents=True, exist_ok=True)
    with (root.parent / f"{root.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not pch.exists():
            root.mkdir(mode=0o755, exist_ok=True)
            header = root / "guest_pch.h"
            lines = ['#include "kernel_operator.h"', *kernel_view.tiling_header_includes(), ""]
            header.write_text("\n".join(lines))
            tmp = root / f"guest.pch.tmp{os.getpid()}"
            cmd = [CLANG, *FLAGS, *INCLUDES, *PCH_FLAGS, "-x", "c++-header", str(header)]
            build.build_step([*cmd, "-o", str(tmp)], root, "guest precompiled header")
            os.replace(tmp, pch)
    return pch


@functools.cache
def _ir_pass_digest() -> str:
    passes = (guest_ir, guest_lp64)
    return build.digest("guest-ir", *(Path(p.__file__).read_text() for p in passes))


def lp64_sources(pkg: OperatorPackage) -> list[str]:
    """The package's files a kernel compile may read: all but the host's own sources."""
    return [
        t for p, t in pkg.files.items() if not (p.startswith("op_host/") and p.endswith(".cpp"))
    ]


def _own(pch_dir: Path, path: str) -> bool:
    """Whether a file the preprocessor names is the kernel's: not the API's headers (ours, written
    for this data model), the precompiled header's or clang's own (`<built-in>`)."""
    ours = (GUEST_INCLUDE, build.HOST_INCLUDE_DIR, pch_dir)
    return not path.startswith("<") and not any(path.startswith(f"{d}/") for d in ours)


def kernel_key(pkg: OperatorPackage, macros: dict[str, str]) -> str:
    return build.digest(
        "guest-kernel",
        headers_digest(),
        FLAGS,
        _ir_pass_digest(),
        LINK,
        build.kernel_side_sources(pkg),
        build.derived_key(pkg),
        kernel_view.view_sources(pkg),
        sorted([k, v] for k, v in {"ASCENDC_SIM_OP_TYPE": pkg.spec.op_type, **macros}.items()),
        kernel_view.ge_enum_defines(),
    )


def build_kernel(
    pkg: OperatorPackage,
    macros: dict[str, str],
    workdir: Path,
    rt: build.Runtime,
    timeout_s: float,
) -> tuple[Path, bool]:
    """The kernel module for one set of DTYPE_<ARG> macros, its imports verified, precompiled by
    `rt`'s harness: (path, cache hit)."""
    key = kernel_key(pkg, macros)

    def compile_kernel(out: Path) -> None:
        cwd = build.build_dir(pkg, workdir, f"guest-{key}")
        prelude = cwd / f"prelude-{key}.h"
        defines = {"ASCENDC_SIM_OP_TYPE": pkg.spec.op_type, **macros}
        prelude.write_text(
            "\n".join(
                [f"#define {k} {v}" for k, v in defines.items()]
                + kernel_view.host_tiling_view(pkg)
                # ge::DataType / ge::Format values, as the native prelude's kernel_enums.h: an
                # undefined DT_BOOL is 0 in `#if ORIG_DTYPE_X == DT_BOOL`, which picks a wrong branch.
                + kernel_view.ge_enum_defines()
                + entry_lines(pkg)
                + [""]
            )
        )
        ir, obj, wasm = cwd / "kernel.ll", cwd / "kernel.o", cwd / "kernel.wasm"
        # The entry is exported by name, or by its attribute when renamed (entry_lines).
        export = [] if kernel_view.entry_renames(pkg.spec.kernel)[0] else [pkg.spec.kernel]
        # The native build's view of the kernel file: per-key TilingData bound, and a host launch
        # wrapper's `op<<<...>>>(args)` a call that converts nothing (its GM_ADDR is __gm__ here).
        source = kernel_view.keyed_tiling_source(
            pkg, workdir, key[:16], host_gxx=True, launch=r"ascendc_guest::host_launch(\1)("
        )
        # A template entry: the native build's dispatcher.
        if header := template_key.key_header(pkg):
            source = kernel_build.with_dispatcher(pkg, source, header, workdir, key[:16], timeout_s)
        codegen, link = module_commands(ir.name, obj.name, wasm.name, export)
        for program in (CLANG, link[0]):  # three of a kernel's four commands (zygote.py)
            zygote.serve(program)
        cmd = [CLANG, *FLAGS, *INCLUDES, "-I.", "-Iop_kernel", "-Iop_host"]
        cmd += [*build.repo_root_flags(pkg, cwd), *build.include_root_flags(pkg, workdir)]
        # C++ whatever the file's name: clang makes a `.h` a precompiled header, not IR.
        unit = ["-include", prelude.name, "-x", "c++", source]
        to_ir = ["-S", "-emit-llvm", "-o", ir.name]
        pch = ensure_pch()
        top = build.package_top(pkg, workdir)  # the tree's root where the package has tree/ files
        sees = build.view(top, pch.parent)

        def compile_ir(args: list[str], out: Path = ir) -> None:
            try:
                build.compile_candidate(args, cwd, out, "kernel", timeout_s, sees)
            except build.BuildError as e:
                if foreign := foreign_file(e.log, cwd, [top, pch.parent]):
                    raise build.BuildError("kernel", f"{foreign}: {FOREIGN}") from None
                raise

        lp64 = guest_lp64.spells_long(lp64_sources(pkg))

        def compile_unit(args: list[str]) -> None:
            if not lp64:
                return compile_ir([*args, *unit, *to_ir])
            # The device's 64-bit `long` (guest_lp64): preprocessed, widened, compiled as such.
            ii = cwd / "kernel.ii"
            compile_ir([*args, *unit, "-E", "-o", ii.name], ii)
            own = functools.partial(_own, pch.parent)
            rewrite_confined(ii, lambda t: guest_lp64.widen(t, own), timeout_s, "long pass")
            compile_ir([CLANG, *FLAGS, "-x", "c++-cpp-output", ii.name, *to_ir])

        try:
            compile_unit([*cmd, "-include-pch", str(pch)])
        except build.BuildError as e:
            # clang's C++ has no member functions for objects in an address space (an element of
            # class type, `half`, through a __gm__ pointer): such a kernel builds as before the
            # address spaces, where a raw access traps (no precompiled header: other macros).
            if "in address space" not in e.log:
                raise
            compile_unit([*cmd, "-DASCENDC_GUEST_PLAIN_POINTERS"])
        rewrite_confined(ir, _rewritten, timeout_s)
        build.compile_candidate(codegen, cwd, obj, "kernel", timeout_s, sees)
        build.compile_candidate(link, cwd, wasm, "kernel", timeout_s, sees)
        data = wasm.read_bytes()
        # The fuel count starts after instantiation (runtime/guest/guest.cpp), so a start function,
        # run by instantiating, would be free work: our link emits none, and none is taken.
        if START_SECTION in section_ids(data):
            raise build.BuildError("kernel", "the kernel's module has a start function")
        if refused := [
            f"{m}.{n}" for m, n in imports(data) if m != "ascendc" or n not in api_imports()
        ]:
            raise build.BuildError(
                "kernel",
                f"the kernel needs {', '.join(sorted(refused))}, which is not the AscendC API: "
                "a kernel reaches only the API (no printf, files, clocks or other system calls)",
            )
        # Compiled to machine code once here, not by every launch (the harness's engine, so the
        # launch's configuration; wasmtime refuses it under another).
        native = cwd / "kernel.cwasm"
        precompile = [str(rt.harness), "--precompile", wasm.name, native.name]
        build.compile_candidate(precompile, cwd, native, "kernel", timeout_s, [*sees, rt.root])
        out.write_bytes(native.read_bytes())

    return build.cached("guest", key, compile_kernel, workdir, pkg)


def _rewritten(text: str) -> str:
    """The kernel's IR `text` rewritten by guest_ir; raises BuildError where the guest engine
    refuses it."""
    if guest_ir.assembly(text):
        raise build.BuildError(
            "kernel", "inline assembly is not allowed (`.incbin` would copy a host file in)"
        )
    try:
        return guest_ir.rewrite(text)
    except guest_ir.RawAccessError as e:
        raise build.BuildError(
            "kernel", f"{e}: not supported by the guest engine (docs/trust_boundary.md)"
        ) from None
    except (IndexError, KeyError, ValueError) as e:
        # The IR is the candidate's: a line the pass cannot read is its failure, charged (a
        # daemon fault would make every such kernel a free evaluation at will).
        raise build.BuildError(
            "kernel", f"the guest engine's IR pass cannot read the kernel's IR ({e!r})"
        ) from None


def rewrite_confined(
    path: Path, transform: Callable[[str], str], timeout_s: float, what: str = "IR pass"
) -> None:
    """`transform` (a guest build pass: guest_ir's over the kernel's IR, guest_lp64's over its
    preprocessed text) applied to the file `path` in place, in a confined fork of the worker
    (sandbox.call) under a compile's limits: its time and memory grow with the text, the
    candidate's, so they are the compile's (the build timeout, the worker's memory share), never
    the worker's own. Bytes that are not UTF-8 (a GBK string literal) pass through as they came.
    Raises BuildError, the candidate's failure."""
    refused = path.with_name(f"{path.name}.refused")
    refused.unlink(missing_ok=True)  # a package file of that name is no verdict

    def rewrite() -> None:
        try:
            text = path.read_text(errors="surrogateescape")
            path.write_text(transform(text), errors="surrogateescape")
        except build.BuildError as e:
            refused.write_text(e.log)

    held = _own_mb()  # the fork's inherited mappings: the worker's, not the pass's doing
    limits = sandbox.Limits(
        cpu_s=int(timeout_s) + 1, address_space_mb=held + build.COMPILE_MB, mapped_mb=held
    )
    done = sandbox.call(rewrite, path.parent, timeout_s, limits)
    if done.timed_out:
        raise build.BuildError(
            "kernel", f"the guest build's {what} exceeded {timeout_s:.0f} s", timed_out=True
        )
    if done.returncode != 0:
        raise build.BuildError("kernel", f"the guest build's {what} failed: {done.stderr[-400:]}")
    if refused.exists():
        raise build.BuildError("kernel", refused.read_text())


def _own_mb() -> int:
    """This process's address space in MiB."""
    pages = int(Path("/proc/self/statm").read_text().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE") // 2**20 + 1


def module_commands(
    ir: str, obj: str, wasm: str, exports: list[str]
) -> tuple[list[str], list[str]]:
    """The commands that make a module of rewritten IR: instruction selection alone (the IR was
    optimised before the rewrite), then the link with libc++ and libc."""
    codegen = [CLANG, *FLAGS, "-Xclang", "-disable-llvm-optzns", "-c", ir, "-o", obj]
    program, libraries = linker()
    link = [*program, obj, *libraries, *LINK, *[f"--export={e}" for e in exports], "-o", wasm]
    return codegen, link


FOREIGN = "a file outside the package and the API's headers, which a kernel does not include"


# `path:line:` or `In file included from path:line:` at the start of a line of clang's log.
@functools.cache
def _system_roots() -> tuple[Path, ...]:
    """The headers the toolchain itself reads: clang's own and the wasm32 sysroot's, libc++'s
    included (Debian links its directory to the compiler's tree: a cited `<type_traits>` resolves
    out of the sysroot's include directory)."""
    out = subprocess.run([CLANG, "-print-resource-dir"], capture_output=True, text=True, check=True)
    include = Path(SYSROOT, "include")
    return (
        Path(out.stdout.strip()).resolve(),
        include.resolve(),
        *(cxx.resolve() for cxx in include.glob("wasm32-wasi/c++/v*")),
    )


def foreign_file(log: str, cwd: Path, roots: list[Path]) -> str | None:
    """build.foreign_file for clang's log: the native build's token gate, which refuses such
    includes before compiling, does not run for the guest."""
    return build.foreign_file(log, cwd, [*roots, GUEST_INCLUDE, *_system_roots()])


def entry_lines(pkg: OperatorPackage) -> list[str]:
    """Prelude lines giving the kernel entry C linkage and, when libc already takes its name
    (abs, sin, exp...), another name in the source, exported as the op's own (the native build's
    renaming, kernel_view.entry_renames, with the export named by an attribute)."""
    entry = pkg.spec.kernel
    rename, _ = kernel_view.entry_renames(entry)
    lines = rename + kernel_view.c_linkage(pkg)
    if rename and (definition := kernel_view.entry_definition(pkg)):
        # `entry` expands to the inner name here: the declaration names the exported function.
        lines.append(
            f'extern "C" __attribute__((export_name("{entry}"))) void {entry}({definition[1]});'
        )
    return lines


START_SECTION = 8  # a wasm module's start section: a function instantiating it runs


def section_ids(module: bytes) -> list[int]:
    """The ids of a wasm binary's sections, in order."""
    return [section for section, _, _ in _sections(module)]


def _sections(module: bytes) -> Iterator[tuple[int, int, int]]:
    """(id, start, end) of each section of a wasm binary, its contents module[start:end]."""
    if module[:8] != b"\0asm\x01\0\0\0":
        raise build.BuildError("kernel", "the compiler's output is not a wasm module")
    pos = 8
    while pos < len(module):
        size, start = _uleb(module, pos + 1)
        yield module[pos], start, start + size
        pos = start + size


def _uleb(data: bytes, pos: int) -> tuple[int, int]:
    """The unsigned LEB128 at `pos` and the position after it."""
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def imports(module: bytes) -> list[tuple[str, str]]:
    """(module, name) of every import of a wasm binary, from its import section."""
    pos = 0

    def uleb() -> int:
        nonlocal pos
        value, pos = _uleb(module, pos)
        return value

    def name() -> str:
        nonlocal pos
        n = uleb()
        pos += n
        # Not UTF-8 is no name of the API: refused below as any other import, never a failure here.
        return module[pos - n : pos].decode(errors="backslashreplace")

    found: list[tuple[str, str]] = []
    for section, pos, _ in _sections(module):
        if section != 2:
            continue
        for _ in range(uleb()):
            found.append((name(), name()))
            kind = module[pos]
            pos += 1
            if kind == 0:  # function: a type index
                uleb()
            else:  # table, memory or global: refused by kind, whatever the name
                found[-1] = (found[-1][0], f"{found[-1][1]} (not a function)")
                break
    return found
