"""What a candidate's C++ may not contain, checked before anything is compiled.

An AscendC kernel and its host tiling move data with the AscendC API and compute with vector
instructions; they never need the constructs below, which are how a candidate would reach past
the API to the simulator, the machine or its own measurement. The check is lexical (comments,
string and character literals removed first, so a name in a message or a comment is fine), small
and explainable: every rule names what it stops. It is the first line, not the containment: the
sim harness's syscall filter and process split (docs/daemon.md, Threat model) hold whatever gets
past it. A violation is a REJECTED result naming the file, the line and the rule.
"""

from __future__ import annotations

import functools
import re

from ascend_core.package import OperatorPackage

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".inc")

# (what it stops, names): forbidden as a token, except as a member (`x.open`, `p->read`).
FORBIDDEN_NAMES: list[tuple[str, tuple[str, ...]]] = [
    ("inline assembly", ("asm", "__asm", "__asm__")),
    (
        "system calls and processes",
        (
            "syscall",
            "fork",
            "vfork",
            "clone3",
            "execl",
            "execlp",
            "execle",
            "execv",
            "execvp",
            "execve",
            "execvpe",
            "fexecve",
            "posix_spawn",
            "posix_spawnp",
            "ptrace",
            "prctl",
            "seccomp",
            "mmap",
            "munmap",
            "mprotect",
            "pkey_mprotect",
            "mremap",
            "madvise",
            "sigaction",
            "sigsetjmp",
            "siglongjmp",
            "setjmp",
            "longjmp",
            "pthread_create",
            "socketpair",
            "shmget",
            "shmat",
            "semget",
            "msgget",
            "mq_open",
            "shm_open",
            "memfd_create",
        ),
    ),  # fmt: skip
    (
        "file I/O (a kernel reads its inputs and writes its outputs through GM)",
        (
            "fopen",
            "freopen",
            "fdopen",
            "tmpfile",
            "popen",
            "openat",
            "creat",
            "unlinkat",
            "opendir",
            "ftruncate",
            "ifstream",
            "ofstream",
            "fstream",
            "filebuf",
        ),
    ),  # fmt: skip
    (
        "ending the process or running code at its exit",
        ("atexit", "at_quick_exit", "on_exit", "_exit", "_Exit", "quick_exit"),
    ),
    ("loading or looking up code", ("dlopen", "dlmopen", "dlsym", "dlvsym", "dl_iterate_phdr")),
    (
        "the simulator's internals (kernels use the AscendC API)",
        ("ascendc_sim", "__builtin_frame_address", "__builtin_return_address"),
    ),
]
# Forbidden when called: common words a kernel may use for its own objects (`TPipe pipe;`).
CALLED_NAMES: list[tuple[str, tuple[str, ...]]] = [
    (
        "system calls and processes",
        ("clone", "system", "kill", "signal", "socket", "connect", "bind", "listen", "accept"),
    ),
    (
        "file I/O (a kernel reads its inputs and writes its outputs through GM)",
        (
            "open",
            "read",
            "write",
            "pread",
            "pwrite",
            "readv",
            "writev",
            "close",
            "lseek",
            "remove",
            "rename",
            "unlink",
            "mkdir",
            "rmdir",
            "chdir",
            "truncate",
            "dup",
            "dup2",
            "dup3",
            "pipe",
            "pipe2",
        ),
    ),  # fmt: skip
    ("ending the process or running code at its exit", ("exit",)),
]
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "constructors and destructors run outside the launch",
        re.compile(r"\b(constructor|destructor|init_priority)\b\s*[(\])]"),
    ),
    ("code placed in a chosen section", re.compile(r"\bsection\s*\(")),
    ("token pasting (`##` can assemble a forbidden name)", re.compile(r"##")),
    (
        "a cast to a function pointer (calling code by address)",
        re.compile(r"(reinterpret_cast|static_cast|bit_cast)\s*<[^;>]*\(\s*\*\s*\)"),
    ),
    ("a C-style cast to a function pointer", re.compile(r"\(\s*[\w:<>, ]+\(\s*\*\s*\)\s*\([^()]*\)\s*\)")),
]  # fmt: skip
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)
# System headers whose only use in a kernel would be what the rules above forbid.
FORBIDDEN_HEADERS = (
    "fcntl.h", "dlfcn.h", "fstream", "csignal", "signal.h", "csetjmp", "setjmp.h", "spawn.h",
    "dirent.h", "link.h", "syscall.h",
)  # fmt: skip

_WHY = {name: why for why, names in [*FORBIDDEN_NAMES, *CALLED_NAMES] for name in names}
_NAMES = frozenset(_WHY)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NOT_MEMBER = r"(?<![\w.])(?<!->)(?<!\.\s)"
_FORBIDDEN = re.compile(
    _NOT_MEMBER + r"\b(" + "|".join(n for _, names in FORBIDDEN_NAMES for n in names) + r")\b"
)
_CALLED = re.compile(
    _NOT_MEMBER + r"\b(" + "|".join(n for _, names in CALLED_NAMES for n in names) + r")\s*\("
)
# Comments, then literals: raw strings, strings, characters (not a digit separator: 1'000).
_NOT_CODE = re.compile(
    r"//[^\n]*|/\*.*?\*/"
    r'|\bu?8?[LUu]?R"([^(\s]{0,16})\(.*?\)\1"'
    r'|"(?:[^"\\\n]|\\.)*"?'
    r"|(?<![0-9A-Fa-f])'(?:[^'\\\n]|\\.)*'?",
    re.DOTALL,
)


class Violation(Exception):
    def __init__(self, path: str, line: int, what: str, rule: str):
        super().__init__(f"{path}:{line}: `{what}` is not allowed: {rule}")
        self.path, self.line, self.what, self.rule = path, line, what, rule


def check_package(pkg: OperatorPackage) -> None:
    """Raise `Violation` for the first forbidden construct in any C/C++ file of the package."""
    for path in sorted(pkg.files):
        if path.endswith(SOURCE_SUFFIXES):
            found = _violation(path, pkg.files[path])
            if found is not None:
                raise found


def check_source(path: str, text: str) -> None:
    found = _violation(path, text)
    if found is not None:
        raise found


@functools.lru_cache(
    maxsize=4096
)  # a resubmitted source (another seed, case, soc) is not rescanned
def _violation(path: str, text: str) -> Violation | None:
    for match in INCLUDE.finditer(text):  # on the raw text: the literal holds the path
        line = text.count("\n", 0, match.start()) + 1
        quote, header = match.groups()
        if header.startswith("/") or ".." in header.split("/"):
            return Violation(
                path, line, f"#include {header}", "including a file outside the package"
            )
        if quote == "<" and (header in FORBIDDEN_HEADERS or header.startswith("sys/")):
            return Violation(
                path, line, f"#include <{header}>", "a header of system calls or file I/O"
            )
    code = strip_comments_and_literals(text)
    found = [
        (m.start(), m.group(0).strip(), why)
        for why, pattern in PATTERNS
        if (m := pattern.search(code))
    ]
    if _NAMES.isdisjoint(_IDENT.findall(code)):  # the usual case: no name to look at closely
        pattern_list = ()
    else:
        pattern_list = (_FORBIDDEN, _CALLED)
    for pattern in pattern_list:
        if m := pattern.search(code):
            found.append((m.start(), m.group(1), _WHY[m.group(1)]))
    if not found:
        return None
    start, what, why = min(found)
    return Violation(path, code.count("\n", 0, start) + 1, what, why)


def strip_comments_and_literals(text: str) -> str:
    """Comments, string and character literals replaced by spaces; newlines kept (line numbers)."""
    return _NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
