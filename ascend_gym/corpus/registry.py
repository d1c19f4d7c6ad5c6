"""Where a repository registers each operator type's host tiling.

A repository of many operators builds every op_host tiling source into one library, and an
operator's tiling is whatever source of that library registers its type with the tiling registry
(`IMPL_OP_OPTILING(<OpType>)`). An operator that shares another's tiling has no tiling source of
its own: its op_host holds only its OpDef, and the registration of its type sits in the other
operator's tiling source (one function serving two types). The registry is read here from the
repository's op_host sources, so such an operator is built with the source that registers it;
and so are the functions and classes those sources define (`defining`, `defining_class`), where
one operator's tiling calls another's.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from ascend_gym.corpus import symbols

# A tiling registry entry naming its operator type (the device registry's too: a tiling sink's
# tiling runs on the host in a simulated launch).
REGISTERED_TYPE = re.compile(r"\b(?:DEVICE_)?IMPL_OP_OPTILING\s*\(\s*(\w+)\s*\)")
_HOST_UNITS = (".cpp", ".cc", ".cxx")
# Host sources read at most (a hostile checkout stays cheap); the development corpus's largest
# repository holds about 3,000.
MAX_HOST_SOURCES = 20_000
MAX_SOURCE_BYTES = 1 << 21


@functools.lru_cache(maxsize=8)
def host_sources(repo: Path) -> tuple[Path, ...]:
    """The repository's op_host sources, in path order: each C++ source under a directory named
    op_host, at any depth below it, outside `.git`, whose real path is inside the repository (a
    link whose target leaves the checkout is not read: the package would refuse it too), at most
    MAX_HOST_SOURCES of them, none larger than MAX_SOURCE_BYTES."""
    real = repo.resolve()
    sources = dict.fromkeys(  # once each, where an op_host holds another
        p
        for host in sorted(repo.rglob("op_host"))
        if host.is_dir() and ".git" not in host.relative_to(repo).parts
        for p in sorted(host.rglob("*"))
        if p.suffix in _HOST_UNITS and p.is_file()
    )
    return tuple(
        path
        for path in list(sources)[:MAX_HOST_SOURCES]
        if path.resolve().is_relative_to(real) and path.stat().st_size <= MAX_SOURCE_BYTES
    )


@functools.lru_cache(maxsize=2)
def _texts(repo: Path) -> dict[Path, str]:
    """Each op_host source's text, read once per repository (the largest's are about 60 MB)."""
    return {path: path.read_text(errors="replace") for path in host_sources(repo)}


@functools.lru_cache(maxsize=8)
def registrations(repo: Path) -> dict[str, tuple[Path, ...]]:
    """Every operator type the repository's op_host sources register a tiling for, with the
    sources (in path order) that do."""
    found: dict[str, list[Path]] = {}
    for path, text in _texts(repo).items():
        for op_type in set(REGISTERED_TYPE.findall(text)):
            found.setdefault(op_type, []).append(path)
    return {t: tuple(ps) for t, ps in found.items()}


@functools.lru_cache(maxsize=1024)
def defining(repo: Path, name: str) -> tuple[Path, ...]:
    """The op_host sources of `repo` that define a free function `name` another unit can call
    (`symbols.defined`, external), in path order."""
    # Its name, a parameter list and a body: the files worth reading as C++ (a call is not one).
    spelled = re.compile(rf"\b{re.escape(name)}\s*\([^;{{}}()]*\)\s*(?:const\s*)?\{{")
    return tuple(
        path
        for path, text in _texts(repo).items()
        if name in text and spelled.search(text) and name in symbols.defined(text, external=True)
    )


@functools.lru_cache(maxsize=1024)
def defining_class(repo: Path, name: str) -> tuple[Path, ...]:
    """The op_host sources of `repo` that define a member function of class `name` out of line
    (`symbols.member_definition`), in path order."""
    spelled = re.compile(symbols.member_definition(name))
    return tuple(
        path for path, text in _texts(repo).items() if name in text and spelled.search(text)
    )


def registering(repo: Path, op_type: str) -> tuple[Path, ...]:
    """The host sources of `repo` that register a tiling for `op_type`."""
    return registrations(repo).get(op_type, ())
