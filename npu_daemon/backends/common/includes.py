"""A package's includes as the compiler resolves them: which package file an include names, and
the files a file reaches through its includes (the kernel's tiling view and the template key's
header both follow them)."""

from __future__ import annotations

import posixpath
import re

from ascend_core.package import OperatorPackage

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"][^">]+[">])', re.M)
_ROOTED = re.compile(r"(?:[A-Za-z_][\w-]*/)+?((?:op_host|op_kernel)/.+)")


def resolve_include(pkg: OperatorPackage, including: str, spelled: str) -> str | None:
    """The package file an include of the package file `including` names (`spelled` with its
    quotes or angle brackets), looked up as the compiler does: a quoted one beside the including
    file first, then the build's own directories (-I. -Iop_kernel -Iop_host) and the include roots
    in order; None where no package file answers (a toolkit header)."""
    name = spelled[1:-1]
    # Paths from the package's top: the tree's root where the package has tree/ files.
    own = pkg.spec.tree_path

    def top(path: str) -> str:
        return path.removeprefix("tree/") if path.startswith("tree/") else posixpath.join(own, path)

    def package_path(path: str) -> str:
        if not own:
            return path
        inside = posixpath.relpath(path, own)
        return inside if not inside.startswith("../") else f"tree/{path}"

    near = [posixpath.dirname(top(including))] if spelled[0] == '"' else []
    places = [*near, *(posixpath.join(own, d) for d in ("", "op_kernel", "op_host"))]
    places += pkg.spec.include_dirs
    for place in places:
        found = posixpath.normpath(posixpath.join(place, name))
        if not found.startswith("../") and (path := package_path(found)) in pkg.files:
            return path
    # The package's own file spelled from the repository's root (`build.repo_root_flags`).
    rooted = _ROOTED.fullmatch(name)
    return rooted[1] if rooted and rooted[1] in pkg.files else None


def reachable(pkg: OperatorPackage, start: str) -> list[str]:
    """The package file `start` and the package files it includes, directly or through others."""
    seen, todo = [], [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        todo += [
            found
            for spelled in INCLUDE.findall(pkg.files[path])
            if (found := resolve_include(pkg, path, spelled))
        ]
    return seen
