"""What a CMake build gives an operator, read by evaluating the build files: its include
directories and the sources it compiles.

Only what those need is evaluated, and nothing of a particular repository is known here: `set`,
`list(APPEND|PREPEND|INSERT|FILTER|LENGTH|GET|FIND|...)`, `file(GLOB|GLOB_RECURSE)` inside the
repository, `get_filename_component`, `set_property`/`get_property` of GLOBAL properties,
`include()` chains (a file, or a module on `CMAKE_MODULE_PATH`), `function` and `macro`
definitions and calls (with `cmake_parse_arguments`), `foreach`, and `if`/`elseif`/`else` where a
condition can be decided from variables the build files define or the configuration sets (the
toolkit's target variables, `TARGET`: the A2). A condition on anything else (a `-D` option, a
toolkit's path) takes every branch: the directories and sources of either are collected.
`include_directories`, `target_include_directories` and `ascendc_include_directories` give the
directories, `add_library`, `add_executable`, `target_sources` and `ascendc_library` the sources,
in the order the evaluation meets them; `target_compile_definitions`, the `-D` of
`target_compile_options` and `target_link_libraries` give each target its definitions as CMake's
usage requirements pass them on (`Usage`). Generator expressions are evaluated where a build for
the A2 decides them (`_genex`), and left empty where it does not.

The root CMakeLists.txt is evaluated whole; `add_subdirectory` is followed only down the chain of
directories to the operator's (the others build other operators). A directory of that chain the
root did not reach (its list came from a glob) is evaluated afterwards, in the root's scope. The
body of a function nothing called is read once more at the end, so that a helper invoked only by
other operators' lists still gives its directories. Bounded: a file is entered at most
MAX_DEPTH deep and at most MAX_COMMANDS commands are evaluated (hostile build files stay cheap).
"""

from __future__ import annotations

import fnmatch
import functools
import glob as _glob
import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

MAX_DEPTH = 24
MAX_COMMANDS = 200_000
# The toolkit's configuration variables for the target SoC, as a build for the A2 sets them on the
# command line: the custom-op project's compute unit (its CMakePresets.json) and the kernel
# launch projects' SOC_VERSION. The build files' own defaults (a `CACHE` set) do not override them.
TARGET = {"ASCEND_COMPUTE_UNIT": "ascend910b", "SOC_VERSION": "Ascend910B1"}
MAX_GLOB = 5000  # paths one file(GLOB) yields at most
MAX_WALK = 200_000  # directory entries one file(GLOB) looks at, at most
# A value expanded is cut at MAX_VALUE characters and costs the budget a command per VALUE_CHARGE
# (so all of an evaluation's expansions make at most 200 MB): a glob's MAX_GLOB paths are about
# 0.75 MB.
MAX_VALUE = 1 << 21
MAX_FILE_BYTES = 1 << 20  # a build file read at most (the development corpus's largest: 54 KB)
VALUE_CHARGE = 1 << 10
SOURCE_COMMANDS = {"add_library", "add_executable", "target_sources", "ascendc_library"}
_TARGET_WORDS = {
    *("STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE", "PUBLIC", "PRIVATE"),
    *("EXCLUDE_FROM_ALL", "WIN32", "MACOSX_BUNDLE", "FILE_SET", "HEADERS", "CXX_MODULES"),
}
INCLUDE_COMMANDS = {
    "include_directories",
    "target_include_directories",
    "ascendc_include_directories",
}
_KEYWORDS = {"PRIVATE", "PUBLIC", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"}
# The unit tests' helpers (ut.cmake, func_utest.cmake, intf_pub_llt_*.cmake): their include
# directories hold stubs that stand in for real headers.
TEST_CMAKE = re.compile(r"(^|_)(ut|utest|llt|tests?)(_|$)")


@dataclass
class Command:
    name: str  # lower case
    args: list[tuple[str, bool]]  # (text, quoted)
    file: Path


_TOKEN = re.compile(
    r"""\#\[(=*)\[.*?\]\1\]      # bracket comment
      | \#[^\n]*                 # line comment
      | \[(=*)\[(.*?)\]\2\]      # bracket argument
      | "((?:\\.|[^"\\])*)"      # quoted argument
      | ([()])                   # parentheses
      | ((?:[^\s()#"\\]|\\.)(?:[^\s()#"\\]|\\.|"(?:\\.|[^"\\])*")*)  # unquoted (legacy: a="b c")
    """,
    re.S | re.X,
)


def parse(text: str, file: Path) -> list[Command]:
    """The commands of a CMake file: `name(args)`, arguments with their quoting, comments gone."""
    commands: list[Command] = []
    name, depth, args = None, 0, []
    for m in _TOKEN.finditer(text):
        if m.group(1) is not None or (m.group(0).startswith("#") and m.group(3) is None):
            continue
        if m.group(5) == "(":
            if name is not None and depth == 0:
                depth = 1
                continue
            depth += 1
            args.append(("(", False))
        elif m.group(5) == ")":
            depth -= 1
            if depth == 0 and name is not None:
                commands.append(Command(name.lower(), args, file))
                name, args = None, []
            elif depth > 0:
                args.append((")", False))
            depth = max(depth, 0)
        elif depth == 0:
            name = m.group(6) or None
        elif m.group(3) is not None:
            args.append((m.group(3), True))
        elif m.group(4) is not None:
            args.append((m.group(4), True))
        elif m.group(6):
            args.append((m.group(6), False))
    return commands


@functools.lru_cache(maxsize=512)
def _parsed(path: Path, mtime_ns: int, size: int) -> list[Command]:
    """A file's commands, parsed once per version (every operator of a repository reads its
    root's and helpers' files again)."""
    return parse(path.read_text(errors="replace"), path)


_VAR = re.compile(r"\$(ENV)?\{([^${}]*)\}")
_INNER_GENEX = re.compile(r"\$<([^$<>]*)>")
# Generator expressions whose value a build for the A2 decides; any other (a target's file, the
# compiler's version) is left undecided: the empty string, so that `$<undecided:x>` drops x.
_GENEX_LOGIC = {
    "AND": lambda a: _bit(all(x == "1" for x in a)) if set(a) <= {"0", "1"} else "",
    "OR": lambda a: _bit(any(x == "1" for x in a)) if set(a) <= {"0", "1"} else "",
    "NOT": lambda a: {"0": "1", "1": "0"}.get(a[0], "") if len(a) == 1 else "",
    "BOOL": lambda a: _bit(_truth(",".join(a), False)),
    "IF": lambda a: (a[1] if a[0] == "1" else a[2] if a[0] == "0" else "") if len(a) == 3 else "",
    "STREQUAL": lambda a: _bit(a[0] == a[1]) if len(a) == 2 else "",
    "BUILD_INTERFACE": lambda a: ",".join(a),
    "BUILD_LOCAL_INTERFACE": lambda a: ",".join(a),
    "INSTALL_INTERFACE": lambda a: "",
    "COMPILE_LANGUAGE": lambda a: _bit("CXX" in a),
    "COMMA": lambda a: ",",
    "SEMICOLON": lambda a: ";",
    "ANGLE-R": lambda a: ">",
}


def _bit(value: bool) -> str:
    return "1" if value else "0"


def _genex(text: str) -> str:
    """Generator expressions evaluated innermost first (cmake-generator-expressions(7)):
    `$<0:x>`, `$<1:x>`, the logical ones, BUILD/INSTALL_INTERFACE, COMPILE_LANGUAGE (a C++
    source); the rest undecided (empty)."""

    def one(m: re.Match[str]) -> str:
        name, colon, rest = m[1].partition(":")
        if name in ("0", "1") and colon:
            return rest if name == "1" else ""
        rule = _GENEX_LOGIC.get(name)
        return rule(rest.split(",") if colon else []) if rule else ""

    for _ in range(64):
        new = _INNER_GENEX.sub(one, text)
        if new == text:
            break
        text = new
    return text


# The commands that give a target its compile definitions (`-D` of target_compile_options
# too) and the libraries it links, whose usage requirements (their INTERFACE/PUBLIC
# definitions) it takes.
USAGE_COMMANDS = {"target_compile_definitions", "target_compile_options", "target_link_libraries"}
_VISIBILITY = {"PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE", "LINK_PUBLIC"}
# A definition the simulator's build takes: a macro's name, then its value. A reserved name
# (`_GLIBCXX_USE_CXX11_ABI`, `__X`) configures the compiler and the standard library, which the
# simulator's own libraries, linked with the tiling program, fix.
_DEFINITION = re.compile(r"(?![_][_A-Z])[A-Za-z_]\w*(=[^\n]*)?")


@dataclass
class Usage:
    """Per target: the sources it compiles, the definitions it is given and the libraries it
    links, each as (visibility, item)."""

    sources: dict[str, list[str]]
    definitions: dict[str, list[tuple[str, str]]]
    links: dict[str, list[tuple[str, str]]]

    def record(self, command: str, words: list[str]) -> None:
        if not words:
            return
        target, visibility = words[0], "PUBLIC"  # the plain signature links transitively
        for w in words[1:]:
            if w in _VISIBILITY:
                visibility = w.removeprefix("LINK_")
            elif command == "target_link_libraries":
                self.links.setdefault(target, []).append((visibility, w))
            elif command == "target_compile_definitions" or w.startswith("-D"):
                self.definitions.setdefault(target, []).append((visibility, w.removeprefix("-D")))

    def merged(self, other: Usage) -> Usage:
        def union(a: dict, b: dict) -> dict:
            return {k: list(dict.fromkeys([*a.get(k, []), *b.get(k, [])])) for k in a | b}

        return Usage(
            union(self.sources, other.sources),
            union(self.definitions, other.definitions),
            union(self.links, other.links),
        )

    def compile_definitions(self, target: str) -> list[str]:
        """The definitions a target's sources compile with: its own PRIVATE and PUBLIC ones, and
        the INTERFACE and PUBLIC ones of every library it links, through their INTERFACE and
        PUBLIC links (CMake's usage requirements)."""
        out = [d for v, d in self.definitions.get(target, []) if v != "INTERFACE"]
        seen, todo = {target}, [n for _, n in self.links.get(target, [])]
        while todo:
            t = todo.pop(0)
            if t in seen:
                continue
            seen.add(t)
            out += [d for v, d in self.definitions.get(t, []) if v != "PRIVATE"]
            todo += [n for v, n in self.links.get(t, []) if v != "PRIVATE"]
        return out

    def targets_of(self, source: Path) -> set[str]:
        """The targets that compile `source`."""
        path = os.path.normpath(source)
        return {t for t, srcs in self.sources.items() if path in srcs}

    def definitions_of(self, sources: list[Path]) -> list[str]:
        """The definitions of the targets that compile any of `sources`, the ones a simulated
        build takes (`_DEFINITION`)."""
        targets = sorted({t for p in sources for t in self.targets_of(p)})
        found = [d for t in targets for d in self.compile_definitions(t)]
        return [d for d in dict.fromkeys(found) if _DEFINITION.fullmatch(d)]


@dataclass
class Function:
    params: list[str]
    body: list[Command]
    macro: bool
    called: bool = False


@dataclass
class Evaluation:
    """One evaluation of a repository's build files toward one operator directory."""

    repo: Path
    chain: list[Path]  # the directories from the repository's root down to the operator's
    functions: dict[str, Function] = field(default_factory=dict)
    properties: dict[str, list[str]] = field(default_factory=dict)
    found: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    targets: set[str] = field(default_factory=set)  # the targets the evaluation built or widened
    # The directories each `target_include_directories` gave its target.
    target_dirs: dict[str, list[str]] = field(default_factory=dict)
    usage: Usage = field(default_factory=lambda: Usage({}, {}, {}))
    entered: dict[Path, dict[str, str]] = field(default_factory=dict)  # directory -> its scope
    scopes: dict[str, dict[str, str]] = field(default_factory=dict)  # callers, for PARENT_SCOPE
    budget: int = MAX_COMMANDS

    # ---- values -------------------------------------------------------------------------------

    def expand(self, text: str, scope: dict[str, str]) -> str:
        if self.budget <= 0:  # spent inside one command's arguments
            return ""
        for _ in range(64):  # innermost references first: ${A_${B}}
            new = _VAR.sub(lambda m: "" if m[1] else scope.get(m[2], ""), text)
            # A value's length is charged and held: `set(A "${A}${A}")` doubles it each time.
            self.budget -= len(new) // VALUE_CHARGE
            if new == text or len(new) > MAX_VALUE:
                text = new[:MAX_VALUE]
                break
            text = new
        return _genex(text)

    def words(self, args: list[tuple[str, bool]], scope: dict[str, str]) -> list[str]:
        """The arguments as the command sees them: an unquoted one split on `;`."""
        out: list[str] = []
        for text, quoted in args:
            value = self.expand(text, scope)
            out += [value] if quoted else [w for w in value.split(";") if w]
        return out

    # ---- evaluation ---------------------------------------------------------------------------

    def run_file(self, path: Path, scope: dict[str, str], depth: int) -> None:
        if depth > MAX_DEPTH or not path.is_file():
            return
        stat = path.stat()
        if stat.st_size > MAX_FILE_BYTES:  # read whole and kept parsed: not a build file's size
            return
        scope["CMAKE_CURRENT_LIST_DIR"] = str(path.parent)
        scope["CMAKE_CURRENT_LIST_FILE"] = str(path)
        self.run(_parsed(path, stat.st_mtime_ns, stat.st_size), scope, depth)

    def run(self, commands: list[Command], scope: dict[str, str], depth: int) -> None:
        i = 0
        while i < len(commands) and self.budget > 0:
            self.budget -= 1
            c = commands[i]
            if c.name in ("function", "macro"):
                end = _block_end(commands, i, c.name, "end" + c.name)
                words = self.words(c.args, scope)
                if words:
                    self.functions[words[0].lower()] = Function(
                        words[1:], commands[i + 1 : end], c.name == "macro"
                    )
                i = end + 1
                continue
            if c.name == "if":
                end, branches = _if_branches(commands, i)
                for cond, body in branches:
                    verdict = True if cond is None else self.condition(cond, scope)
                    if verdict is not False:
                        self.run(body, scope, depth)
                    if verdict is True:
                        break
                i = end + 1
                continue
            if c.name == "foreach":
                end = _block_end(commands, i, "foreach", "endforeach")
                var, items = self.loop_items(c.args, scope)
                for item in items[:1000]:
                    scope[var] = item
                    self.run(commands[i + 1 : end], scope, depth)
                i = end + 1
                continue
            if c.name == "while":  # not evaluated: its body once, as a branch taken
                end = _block_end(commands, i, "while", "endwhile")
                self.run(commands[i + 1 : end], scope, depth)
                i = end + 1
                continue
            self.command(c, scope, depth)
            i += 1

    def command(self, c: Command, scope: dict[str, str], depth: int) -> None:
        name = c.name
        if name in INCLUDE_COMMANDS:
            words = self.words(c.args, scope)
            target = None if name == "include_directories" else (words[:1] or [""])[0]
            for w in words[target is not None :]:
                if w.upper() not in _KEYWORDS:
                    path = (
                        w
                        if os.path.isabs(w)
                        else os.path.join(scope["CMAKE_CURRENT_SOURCE_DIR"], w)
                    )
                    self.found.append(os.path.normpath(path))
                    if target:
                        self.target_dirs.setdefault(target, []).append(self.found[-1])
            if target:
                self.targets.add(target)
            return
        if name in SOURCE_COMMANDS:
            words = self.words(c.args, scope)
            self.targets.update(words[:1])
            self.add_sources(words, scope)
            return
        if name in USAGE_COMMANDS:
            self.usage.record(name, self.words(c.args, scope))
            return
        if name == "set":
            self.set_variable(self.words(c.args, scope), scope)
        elif name == "unset":
            for w in self.words(c.args, scope)[:1]:
                scope.pop(w, None)
        elif name == "option":
            words = self.words(c.args, scope)
            if words and words[0] not in scope:
                scope[words[0]] = words[2] if len(words) > 2 else "OFF"
        elif name == "list":
            self.list_operation(self.words(c.args, scope), scope)
        elif name == "file":
            self.glob(self.words(c.args, scope), scope)
        elif name == "get_filename_component":
            self.filename_component(self.words(c.args, scope), scope)
        elif name == "set_property":
            self.set_property(self.words(c.args, scope))
        elif name == "get_property":
            words = self.words(c.args, scope)
            if len(words) >= 4 and words[1] == "GLOBAL" and words[2] == "PROPERTY":
                scope[words[0]] = ";".join(self.properties.get(words[3], []))
        elif name == "cmake_parse_arguments":
            self.parse_arguments(self.words(c.args, scope), scope)
        elif name == "include":
            self.include(self.words(c.args, scope), scope, depth)
        elif name == "add_subdirectory":
            words = self.words(c.args, scope)
            if words:
                self.subdirectory(scope["CMAKE_CURRENT_SOURCE_DIR"], words[0], scope, depth)
        elif name in self.functions:
            self.call(self.functions[name], c, scope, depth)

    def add_sources(self, words: list[str], scope: dict[str, str]) -> None:
        """The sources of `add_library`/`add_executable`/`target_sources`/`ascendc_library`
        (the target named first; an IMPORTED or ALIAS target has none)."""
        if "IMPORTED" in words or "ALIAS" in words or not words:
            return
        for w in words[1:]:
            if w and w not in _TARGET_WORDS and "$<" not in w:
                path = w if os.path.isabs(w) else os.path.join(scope["CMAKE_CURRENT_SOURCE_DIR"], w)
                self.sources.append(os.path.normpath(path))
                self.usage.sources.setdefault(words[0], []).append(self.sources[-1])

    def glob(self, words: list[str], scope: dict[str, str]) -> None:
        """`file(GLOB|GLOB_RECURSE <var> [LIST_DIRECTORIES b] [RELATIVE dir] ... <globs>)`,
        inside the repository and bounded; no other mode of file() is evaluated."""
        if len(words) < 2 or words[0] not in ("GLOB", "GLOB_RECURSE"):
            return
        recurse, var, rest = words[0] == "GLOB_RECURSE", words[1], words[2:]
        dirs, relative, patterns = not recurse, None, []
        k = 0
        while k < len(rest):
            w = rest[k]
            if w == "LIST_DIRECTORIES" and k + 1 < len(rest):
                dirs, k = _truth(rest[k + 1], False), k + 2
                continue
            if w == "RELATIVE" and k + 1 < len(rest):
                relative, k = rest[k + 1], k + 2
                continue
            if w not in ("CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS"):
                patterns.append(w)
            k += 1
        found: list[str] = []
        for pattern in patterns:
            if not os.path.isabs(pattern):
                pattern = os.path.join(scope["CMAKE_CURRENT_SOURCE_DIR"], pattern)
            pattern = os.path.normpath(pattern)
            if not Path(pattern).is_relative_to(self.repo):
                continue
            for p in itertools.islice(walk_glob(pattern, recurse, dirs, self.repo), MAX_GLOB):
                found.append(os.path.relpath(p, relative) if relative else p)
        scope[var] = ";".join(sorted(dict.fromkeys(found))[:MAX_GLOB])

    def set_variable(self, words: list[str], scope: dict[str, str]) -> None:
        if not words:
            return
        var, values = words[0], words[1:]
        if "CACHE" in values:
            values = values[: values.index("CACHE")]
            if var in scope:  # a cache entry does not override a normal variable
                return
        parent = "PARENT_SCOPE" in values
        values = [v for v in values if v != "PARENT_SCOPE"]
        target = scope.get("\0parent") if parent else None
        into = self.scopes.get(target) if target else scope
        if into is None:
            return
        if values:
            into[var] = ";".join(values)
        else:
            into.pop(var, None)

    def list_operation(self, words: list[str], scope: dict[str, str]) -> None:
        if len(words) < 2:
            return
        op, var, rest = words[0].upper(), words[1], words[2:]
        items = [w for w in scope.get(var, "").split(";") if w]
        if op == "APPEND":
            items += rest
        elif op == "PREPEND":
            items = rest + items
        elif op == "INSERT" and rest and rest[0].lstrip("-").isdigit():
            at = int(rest[0])
            items[at:at] = rest[1:]
        elif op == "REMOVE_ITEM":
            items = [x for x in items if x not in rest]
        elif op == "REMOVE_DUPLICATES":
            items = list(dict.fromkeys(items))
        elif op == "FILTER" and len(rest) == 3 and rest[1] == "REGEX":
            try:
                regex = re.compile(rest[2])
            except re.error:
                return
            keep = rest[0] == "INCLUDE"
            items = [x for x in items if bool(regex.search(x)) == keep]
        elif op in ("LENGTH", "GET", "FIND") and rest:
            scope[rest[-1]] = _list_query(op, items, rest[:-1])
            return
        else:
            return
        scope[var] = ";".join(items)

    def filename_component(self, words: list[str], scope: dict[str, str]) -> None:
        if len(words) < 3:
            return
        var, path, mode = words[0], words[1], words[2].upper()
        if not os.path.isabs(path):
            path = os.path.join(scope["CMAKE_CURRENT_SOURCE_DIR"], path)
        if mode in ("DIRECTORY", "PATH"):
            scope[var] = os.path.dirname(os.path.normpath(path))
        elif mode in ("ABSOLUTE", "REALPATH"):
            scope[var] = os.path.normpath(path)
        elif mode == "NAME":
            scope[var] = os.path.basename(path)

    def set_property(self, words: list[str]) -> None:
        if len(words) < 3 or words[0] != "GLOBAL":
            return
        append = "APPEND" in words or "APPEND_STRING" in words
        if "PROPERTY" not in words:
            return
        at = words.index("PROPERTY")
        if at + 1 >= len(words):
            return
        name, values = words[at + 1], words[at + 2 :]
        self.properties[name] = (self.properties.get(name, []) if append else []) + values

    def parse_arguments(self, words: list[str], scope: dict[str, str]) -> None:
        """cmake_parse_arguments(<prefix> <options> <one_value> <multi_value> <args>...)."""
        if len(words) < 4:
            return
        prefix = words[0]
        options, one, multi = ([k for k in w.split(";") if k] for w in words[1:4])
        args = words[4:]
        keys = set(options) | set(one) | set(multi)
        values: dict[str, list[str]] = {}
        current = None
        for a in args:
            if a in keys:
                current = a
                values.setdefault(a, [])
                if a in options:
                    current = None
            elif current is not None:
                values[current].append(a)
                if current in one:
                    current = None
        for k in options:
            scope[f"{prefix}_{k}"] = "TRUE" if k in values else "FALSE"
        for k in [*one, *multi]:
            scope[f"{prefix}_{k}"] = ";".join(values.get(k, []))

    def include(self, words: list[str], scope: dict[str, str], depth: int) -> None:
        if not words:
            return
        spelled = words[0]
        here = Path(scope["CMAKE_CURRENT_LIST_DIR"])
        places = [Path(spelled) if os.path.isabs(spelled) else here / spelled]
        if not spelled.endswith(".cmake"):  # a module: <name>.cmake on the module path
            modules = [m for m in scope.get("CMAKE_MODULE_PATH", "").split(";") if m]
            places = [Path(m) / f"{spelled}.cmake" for m in modules]
        path = next((p for p in places if p.is_file()), None)
        if path is None or TEST_CMAKE.search(path.stem):
            return
        path = Path(os.path.normpath(path))
        # Its spelling and the file it is (a link in the checkout may point anywhere).
        if not path.is_relative_to(self.repo) or not Path(os.path.realpath(path)).is_relative_to(
            os.path.realpath(self.repo)
        ):
            return
        saved = (scope.get("CMAKE_CURRENT_LIST_DIR"), scope.get("CMAKE_CURRENT_LIST_FILE"))
        self.run_file(path, scope, depth + 1)
        scope["CMAKE_CURRENT_LIST_DIR"], scope["CMAKE_CURRENT_LIST_FILE"] = saved

    def subdirectory(self, here: str, spelled: str, scope: dict[str, str], depth: int) -> None:
        d = Path(
            os.path.normpath(spelled if os.path.isabs(spelled) else os.path.join(here, spelled))
        )
        if d in self.chain and d not in self.entered:
            self.directory(d, scope, depth + 1)

    def directory(self, d: Path, parent: dict[str, str], depth: int) -> None:
        """A directory's CMakeLists.txt in a scope of its own (a copy of the parent's)."""
        scope = self.entered[d] = {**parent, "CMAKE_CURRENT_SOURCE_DIR": str(d)}
        self.run_file(d / "CMakeLists.txt", scope, depth)

    def call(self, f: Function, c: Command, scope: dict[str, str], depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        f.called = True
        args = self.words(c.args, scope)
        bound = {p: (args[k] if k < len(args) else "") for k, p in enumerate(f.params)}
        bound |= {
            "ARGN": ";".join(args[len(f.params) :]),
            "ARGV": ";".join(args),
            "ARGC": str(len(args)),
        }
        if f.macro:  # a macro runs in its caller's scope
            scope.update(bound)
            self.run(f.body, scope, depth + 1)
            return
        key = f"scope{depth}"
        self.scopes[key] = scope
        inner = {**scope, **bound, "\0parent": key}
        self.run(f.body, inner, depth + 1)

    def loop_items(
        self, args: list[tuple[str, bool]], scope: dict[str, str]
    ) -> tuple[str, list[str]]:
        words = self.words(args, scope)
        if not words:
            return "", []
        var, rest = words[0], words[1:]
        if rest[:1] == ["RANGE"]:
            nums = [int(x) for x in rest[1:4] if x.lstrip("-").isdigit()]
            lo, hi = (0, nums[0]) if len(nums) == 1 else (nums + [0, 0])[:2]
            return var, [str(k) for k in range(lo, min(hi, lo + 1000) + 1)]
        if rest[:1] == ["IN"]:
            items, mode = [], None
            for w in rest[1:]:
                if w in ("LISTS", "ITEMS", "ZIP_LISTS"):
                    mode = w
                elif mode == "LISTS":
                    items += [x for x in scope.get(w, "").split(";") if x]
                elif mode == "ITEMS":
                    items.append(w)
            return var, items
        return var, rest

    # ---- conditions ---------------------------------------------------------------------------

    def condition(self, args: list[tuple[str, bool]], scope: dict[str, str]) -> bool | None:
        """An if() condition: True or False where it is decided by what the build files define,
        None (every branch taken) where it reads anything else."""
        tokens = [(self.expand(t, scope) if q else t, q) for t, q in args]
        try:
            value, rest = self._or(tokens, scope)
        except _Undecided:
            return None
        return value if not rest else None

    def _or(self, tokens, scope, op: str = "OR"):
        """`a OR b ...` of `AND` terms (op "AND": of `NOT` terms), left to right."""
        term = functools.partial(self._or, op="AND") if op == "OR" else self._not
        value, tokens = term(tokens, scope)
        while tokens and tokens[0] == (op, False):
            right, tokens = term(tokens[1:], scope)
            value = (value or right) if op == "OR" else (value and right)
        return value, tokens

    def _not(self, tokens, scope):
        if tokens and tokens[0] == ("NOT", False):
            value, tokens = self._not(tokens[1:], scope)
            return not value, tokens
        return self._atom(tokens, scope)

    def _atom(self, tokens, scope):
        if not tokens:
            raise _Undecided
        if tokens[0] == ("(", False):
            value, tokens = self._or(tokens[1:], scope)
            if not tokens or tokens[0] != (")", False):
                raise _Undecided
            return value, tokens[1:]
        (word, quoted), rest = tokens[0], tokens[1:]
        if not quoted and word == "DEFINED" and rest:
            return rest[0][0] in scope, rest[1:]
        if not quoted and word in ("EXISTS", "IS_DIRECTORY") and rest:
            path = self.expand(rest[0][0], scope)
            test = os.path.isdir if word == "IS_DIRECTORY" else os.path.exists
            return bool(path) and test(path), rest[1:]
        if rest and rest[0][0] in _COMPARISONS and not rest[0][1] and len(rest) > 1:
            left, right = self._operand(tokens[0], scope), self._operand(rest[1], scope)
            return _COMPARISONS[rest[0][0]](left, right), rest[2:]
        return _truth(self._operand(tokens[0], scope), quoted), rest

    def _operand(self, token: tuple[str, bool], scope: dict[str, str]) -> str:
        text, quoted = token
        text = self.expand(text, scope)
        if quoted or _CONSTANT.match(text) or text.lstrip("-").isdigit():
            return text
        if text in scope:
            return scope[text]
        if re.fullmatch(r"\w+", text):  # a variable the build files do not define
            raise _Undecided
        return text


def walk_glob(pattern: str, recurse: bool, dirs: bool, repo: Path) -> Iterator[str]:
    """The paths `file(GLOB[_RECURSE])` lists for `pattern`, found by a walk of the repository
    that follows no link to a directory (CMake's default, policy CMP0009) and looks at most
    MAX_WALK entries: a link to `/` or a loop of links made the glob walk the disk or for ever.
    `GLOB_RECURSE dir/x/*.h` lists a `*.h` at any depth under what `dir/x` matches."""
    parts = pattern.split(os.sep)
    fixed = next((k for k, part in enumerate(parts) if _glob.has_magic(part)), len(parts) - 1)
    base = os.sep.join(parts[:fixed]) or os.sep
    real = Path(os.path.realpath(base))
    if not real.is_relative_to(os.path.realpath(repo)) or not os.path.isdir(base):
        return
    heads, tail = parts[fixed:-1], parts[-1]
    budget = MAX_WALK
    for top, subdirs, files in os.walk(base):
        depth = len(Path(top).relative_to(base).parts)
        budget -= len(subdirs) + len(files)
        if budget < 0:
            return
        here = Path(top).relative_to(base).parts
        if not all(_name_matches(n, h) for n, h in zip(here, heads)):
            subdirs.clear()
            continue
        if depth < len(heads):
            continue
        names = [*files, *(subdirs if dirs else [])]
        # Deeper only for GLOB_RECURSE, and as glob's `**`: into no hidden directory.
        subdirs[:] = [d for d in subdirs if d[:1] != "."] if recurse else []
        yield from (os.path.join(top, n) for n in names if _name_matches(n, tail))


def _name_matches(name: str, pattern: str) -> bool:
    """One path component against one glob component (a leading dot is matched only by one)."""
    return fnmatch.fnmatchcase(name, pattern) and (pattern.startswith(".") or name[:1] != ".")


def _list_query(op: str, items: list[str], args: list[str]) -> str:
    """list(LENGTH), list(GET <indices>), list(FIND <value>): the value stored."""
    if op == "LENGTH":
        return str(len(items))
    if op == "FIND":
        return str(items.index(args[0])) if args and args[0] in items else "-1"
    at = [int(a) for a in args if a.lstrip("-").isdigit()]
    return ";".join(items[k] for k in at if -len(items) <= k < len(items))


class _Undecided(Exception):
    pass


_CONSTANT = re.compile(r"^(1|ON|YES|TRUE|Y|0|OFF|NO|FALSE|N|IGNORE|NOTFOUND|.*-NOTFOUND)$", re.I)


def _truth(value: str, quoted: bool) -> bool:
    if value.upper() in ("", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND"):
        return False
    if value.upper().endswith("-NOTFOUND"):
        return False
    return True


def _num(a: str) -> float:
    try:
        return float(a)
    except ValueError:
        raise _Undecided from None


_COMPARISONS = {
    "STREQUAL": lambda a, b: a == b,
    "EQUAL": lambda a, b: _num(a) == _num(b),
    "LESS": lambda a, b: _num(a) < _num(b),
    "GREATER": lambda a, b: _num(a) > _num(b),
    "GREATER_EQUAL": lambda a, b: _num(a) >= _num(b),
    "LESS_EQUAL": lambda a, b: _num(a) <= _num(b),
    "IN_LIST": lambda a, b: a in b.split(";"),
    "MATCHES": lambda a, b: _matches(a, b),
}


def _matches(text: str, regex: str) -> bool:
    try:
        return re.search(regex, text) is not None
    except re.error:
        raise _Undecided from None


def _block_end(commands: list[Command], start: int, opening: str, closing: str) -> int:
    depth = 0
    for k in range(start, len(commands)):
        if commands[k].name == opening:
            depth += 1
        elif commands[k].name == closing:
            depth -= 1
            if depth == 0:
                return k
    return len(commands) - 1


def _if_branches(commands: list[Command], start: int):
    """The end of an if() block and its branches: (condition args or None for else, body)."""
    depth, branches, cond, body_start = 0, [], commands[start].args, start + 1
    for k in range(start, len(commands)):
        name = commands[k].name
        if name == "if":
            depth += 1
        elif name == "endif":
            depth -= 1
            if depth == 0:
                branches.append((cond, commands[body_start:k]))
                return k, branches
        elif depth == 1 and name in ("elseif", "else"):
            branches.append((cond, commands[body_start:k]))
            cond, body_start = (commands[k].args if name == "elseif" else None), k + 1
    branches.append((cond, commands[body_start:]))
    return len(commands) - 1, branches


@dataclass(frozen=True)
class Build:
    """What the build files give the build of one operator directory (absolute, normalised, in
    the order the evaluation meets them; not filtered: the caller keeps the ones that serve)."""

    include_dirs: list[Path]
    sources: list[Path]  # every source the evaluated targets compile, the operator's or not
    usage: Usage  # each target's sources, definitions and links


def evaluate(repo: Path, operator: Path) -> Build:
    """The build files of `repo` evaluated toward the operator directory `operator`, for the
    target (`TARGET`)."""
    chain = [operator, *operator.parents]
    chain = list(reversed(chain[: chain.index(repo) + 1])) if repo in chain else [operator]
    ev = Evaluation(repo=repo, chain=chain)
    root = {
        **TARGET,
        "CMAKE_SOURCE_DIR": str(repo),
        "PROJECT_SOURCE_DIR": str(repo),
        "CMAKE_CURRENT_SOURCE_DIR": str(repo),
    }
    ev.directory(repo, root, 0)
    scope = ev.entered[repo]
    for d in chain[1:]:  # reached by no add_subdirectory the evaluation could follow
        if d not in ev.entered:
            ev.directory(d, scope, 1)
        scope = ev.entered[d]
    op_host = operator / "op_host"
    if op_host not in ev.entered:
        ev.directory(op_host, scope, 1)
    for f in ev.functions.values():  # helpers only other directories call
        if not f.called:
            body = [c for c in f.body if c.name in INCLUDE_COMMANDS]
            ev.run(body, {**ev.entered[repo], "CMAKE_CURRENT_SOURCE_DIR": str(repo)}, 1)
    widening = _widening(repo, ev.entered[repo])
    widened = [d for t, dirs in widening.target_dirs.items() if t in ev.targets for d in dirs]
    return Build(
        list(dict.fromkeys(Path(p) for p in [*ev.found, *widened])),
        list(dict.fromkeys(Path(p) for p in ev.sources)),
        ev.usage.merged(widening.usage),
    )


# What of another directory's list is read for the include directories it gives a target.
_WIDENING_COMMANDS = {
    *("set", "list", "get_filename_component", "target_include_directories"),
    *USAGE_COMMANDS,
}
_TARGET_COMMANDS = {"target_include_directories", *USAGE_COMMANDS}
_WIDENED: dict[Path, Evaluation] = {}


def _widening(repo: Path, root: dict[str, str]) -> Evaluation:
    """The include directories the lists of the repository's directories give each target: a
    target's include directories are the union of every `target_include_directories` on it,
    wherever it is called (a package's one tiling library that each module's list widens); its
    definitions and links (`USAGE_COMMANDS`) likewise, from any list (a helper library's
    INTERFACE definitions set beside it, a directory the evaluation does not enter). Each
    list is read in the root's scope `root`, its own variables and paths alone (no function call,
    no glob), once per repository (in the scope the first evaluation left at its root, which
    every operator's shares); at most MAX_GLOB lists, unit tests' left out."""
    if repo in _WIDENED:
        return _WIDENED[repo]
    other = Evaluation(repo=repo, chain=[])
    for path in sorted(itertools.islice(repo.rglob("CMakeLists.txt"), MAX_GLOB)):
        if any(TEST_CMAKE.search(p) for p in path.relative_to(repo).parts[:-1]):
            continue
        stat = path.stat()
        commands = _parsed(path, stat.st_mtime_ns, stat.st_size)
        if not any(c.name in _TARGET_COMMANDS for c in commands):
            continue
        scope = {**root, "CMAKE_CURRENT_SOURCE_DIR": str(path.parent)}
        scope |= {"CMAKE_CURRENT_LIST_DIR": str(path.parent), "CMAKE_CURRENT_LIST_FILE": str(path)}
        other.run([c for c in commands if c.name in _WIDENING_COMMANDS], scope, 1)
    _WIDENED[repo] = other
    return other


def include_dirs(repo: Path, operator: Path) -> list[Path]:
    """The include directories the build files of `repo` give the build of `operator`."""
    return evaluate(repo, operator).include_dirs
