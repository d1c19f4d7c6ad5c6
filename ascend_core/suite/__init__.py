"""The ascend-ops-v1 operator suite and the registry that resolves operator addresses.

An operator is addressed as `op://ascend-ops-v1/<level>/<name>`, as the short `<level>/<name>`,
or as a filesystem path to a package directory. Users add their own suites with `register_suite`
(or the ASCEND_GYM_SUITES environment variable: `name=path` pairs separated by `:`); suites made by
`ascend-gym suite import` live in `data_dir()/<name>` and are registered from there.

Derived suites are generated from a registered one, never copied: `ascend-ops-v1-untuned` is
ascend-ops-v1 with the `@tune` markers stripped from every tiling program, so a policy must
synthesise its own evolvable template (AscendOptimizer's Stage I template synthesis).

Defined suites are public operators named in the repository (`<name>.toml` here: repository,
pinned commit, path, level; the specs and references are ours) whose third-party sources are never
committed: `ascend-gym suite materialise <name> --src DIR` builds them from the user's checkouts
into `data_dir()/<name>`, where they resolve like any registered suite.
"""

from __future__ import annotations

import os
from pathlib import Path

from collections.abc import Callable

from ascend_core.package import SOURCE_SUFFIXES, OperatorPackage, load_package
from ascend_core.tune import strip_markers

SUITE_NAME = "ascend-ops-v1"
SUITE_ROOT = Path(__file__).resolve().parent
LEVELS = ("level1", "level2", "level3")

# The smoke set: small, fast ops for quick end-to-end runs.
SMOKE = ("level1/add", "level1/mul", "level1/relu")

_suites: dict[str, Path] = {SUITE_NAME: SUITE_ROOT}

REAL_SUITE = "ascend-real-v1"
# v1's operators at the sizes they serve, with their provenance (docs/real_suite.md)
REAL_SUITE_V2 = "ascend-real-v2"
# name -> its definition: operators whose sources come from the user's checkouts
DEFINED: dict[str, Path] = {
    name: SUITE_ROOT / f"{name}.toml" for name in (REAL_SUITE, REAL_SUITE_V2)
}


def definition_path(name: str) -> Path | None:
    return DEFINED.get(name)


def _untuned(package: OperatorPackage) -> OperatorPackage:
    return package.with_sources(tiling=strip_markers(package.tiling_source))


# name -> (the suite it derives from, the edit applied to each of its packages)
DERIVED: dict[str, tuple[str, Callable[[OperatorPackage], OperatorPackage]]] = {
    f"{SUITE_NAME}-untuned": (SUITE_NAME, _untuned),
}


def register_suite(name: str, root: str | Path) -> None:
    """Make `op://<name>/<level>/<op>` resolve to `<root>/<level>/<op>`."""
    _suites[name] = Path(root).resolve()


def data_dir() -> Path:
    """Where imported suites are kept: $ASCEND_GYM_DATA/suites, else the XDG data home's."""
    base = os.environ.get("ASCEND_GYM_DATA") or Path(
        os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share", "ascend_gym"
    )
    return Path(base) / "suites"


def _registry() -> dict[str, Path]:
    """Every suite name -> its root, found afresh: the data directory's suites and
    $ASCEND_GYM_SUITES as they are now, then the built-in and registered ones, which win."""
    found: dict[str, Path] = {}
    if data_dir().is_dir():
        found = {p.name: p.resolve() for p in sorted(data_dir().iterdir()) if p.is_dir()}
    for pair in filter(None, os.environ.get("ASCEND_GYM_SUITES", "").split(":")):
        name, _, root = pair.partition("=")
        found[name] = Path(root).resolve()
    return found | _suites


def roots() -> dict[str, Path]:
    """Every suite that resolves (the built-in one, imported ones, $ASCEND_GYM_SUITES): its root."""
    return dict(sorted(_registry().items()))


def op_dirs(suite: str = SUITE_NAME) -> list[Path]:
    """Every operator directory of a suite, in level then name order."""
    suites = _registry()
    if suite in DEFINED and suite not in suites:
        raise KeyError(
            f"suite {suite!r} is not materialised: "
            f"`ascend-gym suite materialise {suite} --src DIR` builds it from your checkouts"
        )
    root = suites[suite]
    return sorted(p.parent for p in root.glob("level*/*/op.toml"))


def op_uris(suite: str = SUITE_NAME, levels: list[int] | None = None) -> list[str]:
    if suite in DERIVED:
        base = DERIVED[suite][0]
        return [f"op://{suite}/" + u.split("/", 3)[3] for u in op_uris(base, levels)]
    uris = []
    for d in op_dirs(suite):
        level = d.parent.name
        if levels is None or int(level.removeprefix("level")) in levels:
            uris.append(f"op://{suite}/{level}/{d.name}")
    return uris


def resolve(address: str) -> OperatorPackage:
    """Load an operator from an op:// URI, a `<level>/<name>` short name, or a directory path."""
    if address.startswith("op://"):
        suite, _, rest = address.removeprefix("op://").partition("/")
        if suite in DERIVED:
            base, edit = DERIVED[suite]
            return edit(resolve(f"op://{base}/{rest}")).model_copy(update={"uri": address})
        path, uri = _op_dir(address), address
    elif Path(address).is_dir():
        path, uri = Path(address), str(Path(address).resolve())
    else:
        path, uri = SUITE_ROOT / address, f"op://{SUITE_NAME}/{address}"
    if not (path / "op.toml").is_file():
        raise KeyError(f"no operator at {address!r}")
    return load_package(path, uri=uri)


def expand(names: str) -> list[str]:
    """A comma list of addresses, with `smoke` standing for the smoke set, `all` for the suite
    and a suite's name (`ascend-real-v1`) for every operator of that suite."""
    suites = _registry()
    out: list[str] = []
    for name in filter(None, (n.strip() for n in names.split(","))):
        if name == "smoke":
            out += [f"op://{SUITE_NAME}/{s}" for s in SMOKE]
        elif name == "all":
            out += op_uris()
        elif name in LEVELS:
            out += op_uris(levels=[int(name.removeprefix("level"))])
        elif name in suites or name in DEFINED or name in DERIVED:
            out += op_uris(name)
        else:
            out.append(name)
    return out


# ---- expert versions --------------------------------------------------------------------------
# An operator may carry `expert/`: the files an expert rewrote, at the same relative paths as in
# the baseline (e.g. expert/op_kernel/<op>.cpp). The expert is the baseline with them overlaid.

EXPERT_DIR = "expert"


def _op_dir(address: str) -> Path:
    if address.startswith("op://"):
        suite, _, rest = address.removeprefix("op://").partition("/")
        suite = DERIVED[suite][0] if suite in DERIVED else suite
        suites = _registry()
        if suite not in suites:
            raise KeyError(f"unknown suite {suite!r}; registered: {sorted(suites)}")
        return suites[suite] / rest
    if Path(address).is_dir():
        return Path(address)
    return SUITE_ROOT / address


def has_expert(address: str) -> bool:
    """Whether the operator at `address` ships an expert version."""
    return (_op_dir(address) / EXPERT_DIR).is_dir()


def load_expert(address: str) -> OperatorPackage | None:
    """The expert version of an operator (baseline files with expert/ overlaid), or None."""
    root = _op_dir(address) / EXPERT_DIR
    if not root.is_dir():
        return None
    base = resolve(address)
    files = dict(base.files)
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts:
            rel = p.relative_to(root).as_posix()
            if rel not in files:
                raise ValueError(f"{address}: expert file {rel} replaces nothing in the baseline")
            files[rel] = p.read_text(errors="replace")
    return base.model_copy(update={"files": files})


def expert_uris(suite: str = SUITE_NAME) -> list[str]:
    """Every operator of a suite that has an expert version."""
    return [u for u in op_uris(suite) if has_expert(u)]
