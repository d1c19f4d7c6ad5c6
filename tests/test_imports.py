"""The Python tree's import graph: no circles, and the cann backend stands apart from the sim backend.

The graph is read from the sources (AST, nothing imported), over the packages ascend_core,
ascend_gym, npu_daemon, agents and baselines. An edge A -> B means module A imports module B or a name from it
(`from pkg import mod` counts as an edge to pkg.mod when that is a module, else to pkg); the
parent packages' __init__ modules Python also runs are not edges of their own.

Every import statement counts, at module level or inside a function alike. A function-local
import cannot fail at import time, but a circle through one still ties two rooms into one (neither
can be read, tested or moved without the other), so it is not allowed either. The registries that
must name a module above them (backends.base, ascend_gym.policies) hold "module:Class" strings
and import on first use, which adds no edge. The cann backend must not import the sim backend at
all: it builds and runs without the simulator's Python code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ascend_core", "ascend_gym", "npu_daemon", "agents", "baselines")
# Operator packages are C++ with a numpy reference; they are data, not part of the Python tree.
SKIP = ("ascend_core/suite/level", "/calibration/a")


def _modules() -> dict[str, Path]:
    found = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if any(s in rel for s in SKIP):
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the tree that `module` imports, anywhere in its source."""
    tree = ast.parse(path.read_text(), str(path))
    is_pkg = path.name == "__init__.py"
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_pkg else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}"
                out.add(sub if sub in modules else target)
    return {m for m in out if m in modules and m != module}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: _imports(m, p, modules) for m, p in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules of each strongly connected component of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# Read once for the module: each test asks another question of the same sources.
@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return _graph()


def test_graph_is_read(graph):
    assert "npu_daemon.backends.sim.backend" in graph
    assert "npu_daemon.backends.base" in graph["npu_daemon.backends.sim.backend"]


def test_cycle_finder_sees_a_knot():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle(graph):
    cycles = _cycles(graph)
    assert not cycles, "import circles (modules of each knot):\n" + "\n".join(map(str, cycles))


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for w in graph[todo.pop()] - seen:
            seen.add(w)
            todo.append(w)
    return seen


def test_cann_does_not_import_sim(graph):
    """Not directly, nor through another module (the shared layer, say)."""
    bad = {
        f"{m} -> {t}"
        for m in graph
        if m.startswith("npu_daemon.backends.cann")
        for t in _reachable(graph, m)
        if t.startswith("npu_daemon.backends.sim")
    }
    assert not bad, sorted(bad)


def test_backend_interface_imports_no_backend(graph):
    targets = graph["npu_daemon.backends.base"]
    assert not {
        t for t in targets if t.startswith(("npu_daemon.backends.sim", "npu_daemon.backends.cann"))
    }


def test_core_imports_nothing_of_the_project(graph):
    """The core (messages, package, scanner, tunables, suite registry, SoC presets) stands below
    both sides."""
    bad = {f"{m} -> {t}" for m in graph if m.startswith("ascend_core") for t in graph[m]}
    bad = {b for b in bad if not b.split(" -> ")[1].startswith("ascend_core")}
    assert not bad, sorted(bad)


def test_daemon_never_imports_the_research_side(graph):
    """Not directly, nor through another module: an NPU host runs the daemon without Gymnasium."""
    bad = {
        f"{m} -> {t}"
        for m in graph
        if m.startswith("npu_daemon")
        for t in _reachable(graph, m)
        if t.startswith(("ascend_gym", "agents", "baselines"))
    }
    assert not bad, sorted(bad)
