"""The kernel-launch project for one candidate: written from templates, built with CMake.

One build per (kernel sources, tiling header, DTYPE macros, tiling key, SoC, toolkit), so a change
to the tiling program alone (Stage I's mutations) rebuilds nothing on the device side: the result
is cached by that key under the shared cache, built in place under a per-key lock (CMake builds
are not relocatable), so different candidates build in parallel and a repeat costs nothing.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import time
from pathlib import Path

from ascend_core.package import OperatorPackage
from npu_daemon import sandbox
from npu_daemon.backends.cann.tiling import cache_root
from npu_daemon.backends.cann.toolkit import Toolkit
from npu_daemon.backends.common import build, kernel_view

TEMPLATES = Path(__file__).resolve().parent
APP = "ascend_gym_app"
_INCLUDE = re.compile(r"^\s*#\s*include\b")
_PRAGMA_ONCE = re.compile(r"^\s*#\s*pragma\s+once\b")
_TILING_BASE_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]register/tilingdata_base\.h[">]')


class BuildFailure(Exception):
    def __init__(self, message: str, log: str, timed_out: bool = False):
        super().__init__(message)
        self.message, self.log, self.timed_out = message, log, timed_out


def _render(template: str, **values: str) -> str:
    text = (TEMPLATES / template).read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    return text


def _kernel_tiling_view(pkg: OperatorPackage) -> tuple[list[str], list[str]]:
    """(includes to hoist, view lines): the host tiling header inlined into the shared tiling view.

    Its includes are hoisted out of the view's namespace (the host TilingData base is dropped: the
    entry defines the kernel-side macros), keeping the header's line numbers for diagnostics."""
    hoisted, body = [], []
    for line in pkg.files[pkg.tiling_header_path].splitlines():
        if _INCLUDE.match(line) or _PRAGMA_ONCE.match(line):
            if _INCLUDE.match(line) and not _TILING_BASE_INCLUDE.match(line):
                hoisted.append(line.strip())
            line = ""
        body.append(line)
    view = kernel_view.tiling_view(
        pkg, [f'#line 1 "{pkg.tiling_header_path}"', *body, '#line 1 "<ascend_gym tiling view>"']
    )
    if not view:
        return [], []
    default = kernel_view.registered_tiling(pkg)[0]
    return hoisted, [*view, *([f"using AscendGymTilingDefault = {default};"] if default else [])]


def include_dirs(pkg: OperatorPackage) -> list[str]:
    """The repository build's include roots the package carries, as the project names them:
    the package is written as it is, so a root of the tree is under tree/."""
    top = "${CMAKE_CURRENT_SOURCE_DIR}" + ("/tree" if pkg.spec.tree_path else "")
    return [top if d == "." else f"{top}/{d}" for d in pkg.spec.include_dirs]


def write_project(
    pkg: OperatorPackage, macros: dict[str, str], tiling_key: int, root: Path
) -> None:
    pkg.write_to(root)
    spec = pkg.spec
    definitions = [
        *(f"{k}={v}" for k, v in sorted(macros.items())),
        f"ASCEND_GYM_TILING_KEY={tiling_key}ULL",
    ]
    (root / "CMakeLists.txt").write_text(
        _render(
            "CMakeLists.template.txt",
            DEFINITIONS=" ".join(definitions),
            INCLUDE_DIRS=" ".join(include_dirs(pkg)),
        )
    )
    includes, view = _kernel_tiling_view(pkg)
    (root / "kernel_entry.cpp").write_text(
        _render(
            "kernel_entry.template.cpp",
            TILING_INCLUDES="\n".join(includes),
            GE_ENUMS="\n".join(kernel_view.ge_enum_defines()),
            TILING_VIEW="\n".join(view),
            KERNEL_PATH=kernel_view.keyed_tiling_source(pkg, root, "entry"),
        )
    )
    args = ", ".join(f"args[{i}]" for i in range(len(spec.inputs) + len(spec.outputs)))
    (root / "app_main.cpp").write_text(_render("app_main.cpp", KERNEL=spec.kernel, ARGS=args))


def build_key(
    pkg: OperatorPackage, macros: dict[str, str], tiling_key: int, soc: str, toolkit: Toolkit
) -> str:
    templates = [
        *(
            (TEMPLATES / t).read_bytes()
            for t in ("CMakeLists.template.txt", "kernel_entry.template.cpp", "app_main.cpp")
        ),
        Path(kernel_view.__file__).read_bytes(),
        kernel_view.GE_ENUMS_HEADER.read_bytes(),
    ]
    return build.digest(
        "cann-app",
        str(toolkit.home),
        toolkit.version,
        soc,
        tiling_key,
        sorted([k, v] for k, v in macros.items()),
        templates,
        # The project is the package written whole, its top and op_host/ on the compile's include
        # path (a header there, a file CMake reads), so every file keys it; the spec names the
        # kernel file, the entry and the app's arguments.
        sorted([p, text] for p, text in pkg.files.items()),
        build.derived_key(pkg),
    )


def build_app(
    pkg: OperatorPackage,
    macros: dict[str, str],
    tiling_key: int,
    soc: str,
    toolkit: Toolkit,
    timeout_s: float,
) -> tuple[Path, bool]:
    """The built app for this candidate: (path, cache hit). Raises BuildFailure. The project
    holds the package's files, so what says it is built lies beside it (a package's `ready`
    once did), and its `build/` is CMake's alone."""
    key = build_key(pkg, macros, tiling_key, soc, toolkit)
    root = cache_root() / "apps" / key
    app, ready = root / "build" / APP, root.parent / f"{key}.ready"
    if ready.exists():
        return app, True
    root.parent.mkdir(parents=True, exist_ok=True)
    with (root.parent / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready.exists():
            return app, True
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir()
        write_project(pkg, macros, tiling_key, root)
        shutil.rmtree(root / "build", ignore_errors=True)
        deadline = time.monotonic() + timeout_s
        try:
            _step(
                [
                    "cmake",
                    "-S",
                    str(root),
                    "-B",
                    str(root / "build"),
                    f"-DSOC_VERSION={soc}",
                    f"-DASCEND_CANN_PACKAGE_PATH={toolkit.home}",
                ],
                root,
                deadline,
                toolkit,
                "configure",
            )
            _step(
                ["cmake", "--build", str(root / "build"), "-j", "2"],
                root,
                deadline,
                toolkit,
                "build",
            )
        except BuildFailure:
            shutil.rmtree(root, ignore_errors=True)
            raise
        if not app.exists():
            raise BuildFailure(f"the build produced no {APP}", "")
        _seal(root)
        ready.write_text(key)
    return app, False


def _seal(root: Path) -> None:
    """A sandboxed build leaves its project to the worker's uid: hand it back to the daemon, readable
    by every sandbox user (any worker may run a cached app) and writable by none of them."""
    if sandbox.current_identity() is None:
        return
    for path in [root, *root.rglob("*")]:
        os.lchown(path, os.geteuid(), os.getegid())
        if not path.is_symlink():
            mode = path.stat().st_mode
            path.chmod(mode & 0o755 | (0o055 if path.is_dir() or mode & 0o100 else 0o044))


def _step(cmd: list[str], cwd: Path, deadline: float, toolkit: Toolkit, what: str) -> None:
    left = deadline - time.monotonic()
    if left <= 0:
        raise BuildFailure(
            f"build exceeded its time limit before the {what} step", "", timed_out=True
        )
    done = sandbox.run(
        cmd,
        cwd,
        left,
        sandbox.Limits(cpu_s=int(left) + 1, address_space_mb=8192, open_files=1024),
        env=toolkit.env,
    )
    # Paths relative to the project, as the candidate's author sees them.
    log = (done.stdout + "\n" + done.stderr).strip().replace(f"{cwd}/", "")
    if done.timed_out:
        raise BuildFailure(f"{what} exceeded the build time limit", log, timed_out=True)
    if done.returncode != 0:
        raise BuildFailure(
            f"{what} failed: {first_error((done.stderr + chr(10) + done.stdout).replace(f'{cwd}/', ''))}",
            log,
        )


def first_error(log: str) -> str:
    """The compiler's (or CMake's) first error line, for the one-line message."""
    lines = log.splitlines()
    for pattern in (r"\berror:", r"CMake Error", r"\berror\b"):
        for i, line in enumerate(lines):
            if re.search(pattern, line, re.I):
                if pattern == "CMake Error":  # CMake puts the reason on the lines below its header
                    reason = next((l.strip() for l in lines[i + 1 :] if l.strip()), "")
                    return f"{line.strip()} {reason}"[:400]
                return line.strip()[:400]
    return lines[0][:400] if lines else "unknown error"
