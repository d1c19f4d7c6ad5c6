"""The acceptance check: what a candidate's C++ may not contain, read as the compiler reads it.

An AscendC kernel and its host tiling move data with the AscendC API and compute with vector
instructions; they never need the constructs below, which are how a candidate would reach past
the API to the simulator, the machine or its own measurement. The check reads each translation
unit after `g++ -E` with the build's own include paths and macros (`check_preprocessed`), so
backslash-newlines, digraphs, token pasting and `#include MACRO` are already undone; it keeps the
tokens whose line markers point into the package (any file of it, whatever its suffix) and
leaves the emulation's headers and the system's alone. Before that, `check_package` looks at the
raw files for the one thing the preprocessor would hide: a `#line` directive, which could make
the candidate's own tokens look like ours. The check is the first line, not the containment:
the sim harness's syscall filter and process split (docs/daemon.md, Threat model) hold whatever
gets past it. A violation is a REJECTED result naming the file, the line and the rule.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import os
import re
import resource
import select
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ascend_core.package import OperatorPackage

# What the token gate still reads, because the linker cannot see it: a construct that leaves no
# symbol (inline assembly, a builtin, the simulator's namespace reached through an inline function
# of our headers). Calls to any function are the link gate's (`check_linked`). (what it stops,
# names): forbidden as a token, except as a member (`x.open`, `p->read`).
FORBIDDEN_NAMES: list[tuple[str, tuple[str, ...]]] = [
    ("inline assembly", ("asm", "__asm", "__asm__")),
    ("non-local jumps", ("__builtin_setjmp", "__builtin_longjmp")),
    (
        "the simulator's internals (kernels use the AscendC API)",
        (
            # the namespace, and the instruction counter the build adds to a kernel object
            # (backends/sim/scalar_count.py)
            "ascendc_sim", "ascendc_sim_scalar_instrs",
            "__builtin_frame_address", "__builtin_return_address",
            "__builtin_extract_return_addr", "__builtin_apply", "__builtin_apply_args",
            "__builtin_eh_return", "__builtin_unwind_init", "__builtin_bit_cast",
        ),
    ),
]  # fmt: skip
# GNU attributes that place code or bind a name to another symbol (`weakref("open")` calls open
# under a name of the candidate's choosing). `constructor`, `init_priority` and `destructor` are
# not among them: ctors.defer moves a candidate object's `.init_array` (every constructor, a static
# object's or an attributed function's, with or without a priority) to the runner the candidate
# process calls once its filter is tight, in link order, and drops its `.fini_array`, which no
# process then runs (the confined one ends by `_exit`, past static destructors too). Real host
# code uses them: a cube tiling's estimator registrations and the join of its cache thread.
ATTRIBUTES: dict[str, str] = {
    "section": "code placed in a chosen section",
    **dict.fromkeys(
        ("alias", "weakref", "ifunc", "symver"),
        "binding a name to another symbol",
    ),
}
# Pragmas that bind a name to another symbol (`redefine_extname my_open open`) or place code:
# refused; any other (`once`, `pack`, `unroll`, `GCC diagnostic`, `bisheng auto_sync`) is fine.
PRAGMAS = ("redefine_extname", "weak", "extern_prefix", "section", "init",
           "fini", "alloc_text", "code_seg", "data_seg", "init_seg")  # fmt: skip
# System headers whose danger is code the linker never sees: `inb`/`outb` are inline functions of
# the header holding the port I/O instructions as inline assembly (no symbol, and no `asm` token of
# the candidate's). Every other header of system calls or file I/O is admitted: its danger is a
# function the link gate (`check_linked`) refuses by symbol, whatever spelling reaches it, and real
# host code includes them (a cube tiling's <fstream>, beside the cache it never writes). Argued
# each: <fstream>, <filesystem>: the streams and paths are libstdc++'s out-of-line members
# (`std::__basic_file<char>`, `std::filesystem::status`), <fcntl.h> (`open`, its fortified
# `__open_2`), <dlfcn.h> (`dlopen`), <csignal>/<signal.h> (`signal`, `raise`, `kill`),
# <csetjmp>/<setjmp.h> (`_setjmp`, `longjmp`; `__builtin_setjmp` is a name refused above),
# <spawn.h>, <sys/wait.h> (`posix_spawn`, `waitpid`), <dirent.h> (`opendir`), <link.h>
# (`dl_iterate_phdr`, `_r_debug`), <sys/mman.h> (`mmap`), <sys/socket.h>, <sys/stat.h> (`stat`,
# or glibc's older `__xstat`), <sys/ptrace.h>, <sys/prctl.h>: none is in LINKABLE.
FORBIDDEN_HEADERS = ("sys/io.h",)
# The link gate (`check_linked`): what a candidate's linked shared object may need from outside its
# own units, besides the exports of our runtime library (the AscendC API, kernel and host, and
# what its inline functions call). g++ has resolved every spelling (macros, ADL, overloads, an
# address taken, `decltype`) to these symbols. (category: why, patterns over the demangled name,
# each matched whole). Anything else is refused: file and descriptor I/O (`read`, `pread64`,
# `std::ifstream`), processes and threads (`popen`, `std::thread`), sockets, time, signals,
# `dlopen`/`dlsym`, `syscall`, exit handlers, the environment's writes.
LINKABLE: list[tuple[str, tuple[str, ...]]] = [
    (
        "the C++ language runtime: what g++ emits for new and delete, exceptions, RTTI, static "
        "and thread_local initialisation and destruction, failed assertions, the start files of "
        "a shared object",
        (
            r"operator (?:new|delete)(?:\[\])?", r"__cxa_(?:allocate|free)_exception",
            r"__cxa_(?:throw|rethrow|begin_catch|end_catch|get_exception_ptr|call_unexpected)",
            r"__cxa_guard_(?:acquire|release|abort)", r"__cxa_(?:pure|deleted)_virtual",
            r"__cxa_atexit", r"__cxa_finalize", r"__dso_handle", r"__gxx_personality_v0",
            r"__tls_get_addr", r"__cxa_thread_atexit(?:_impl)?",
            r"_Unwind_Resume", r"__stack_chk_fail", r"__libc_single_threaded", r"__gmon_start__",
            r"_ITM_(?:de)?registerTMCloneTable", r"std::terminate", r"std::nothrow",
            r"__cxxabiv1::__\w+_type_info(?:::.*)?", r"__dynamic_cast",
            r"abort", r"__assert_fail", r"__assert_perror_fail",
        ),
    ),
    (
        "containers, strings, algorithms: the out-of-line parts of std::string, map, set, list, "
        "unordered_map, function, shared_ptr, and the exceptions they throw",
        (
            r"std::(?:__cxx11::)?basic_string<.*", r"std::_Rb_tree_\w+",
            r"std::(?:__detail::|__cxx11::)?_List_node_base::.*",
            r"std::__detail::_Prime_rehash_policy::.*", r"std::_(?:Hash|Fnv_hash)_bytes",
            r"std::__throw_\w+", r"std::_Sp_make_shared_tag::.*",
            r"std::operator(?:\+|==|!=|<=?|>=?) ?<char, std::char_traits<char>, std::allocator<char> >",
            r"std::(?:exception|bad_alloc|bad_array_new_length|bad_cast|bad_typeid"
            r"|bad_function_call|bad_optional_access|bad_variant_access|logic_error|domain_error"
            r"|invalid_argument|length_error|out_of_range|runtime_error|range_error"
            r"|overflow_error|underflow_error)(?:::.*)?",
        ),
    ),
    (
        "formatting in memory: string streams and the stream machinery they share",
        (
            r"std::(?:__cxx11::)?basic_(?:o|i)?stringstream<.*",
            r"std::(?:__cxx11::)?basic_stringbuf<.*",
            r"std::basic_(?:ostream|istream|iostream|ios|streambuf)<.*",
            r"std::(?:__ostream_insert|operator<<|operator>>) ?<.*",
            r"std::ios_base::.*", r"std::locale::.*", r"std::ctype<char>::.*",
            r"std::(?:num_put|num_get|numpunct)<.*",
        ),
    ),
    (
        "writing to the standard output and error streams: diagnostics, which reach the "
        "evaluation's log (bounded, scrubbed of case data)",
        (
            r"stdout", r"stderr", r"std::(?:cout|cerr|clog)", r"(?:__)?v?f?printf(?:_chk)?",
            r"f?puts", r"f?putc", r"putchar", r"fwrite", r"fflush", r"perror",
        ),
    ),
    (
        "math: <cmath> and <cstdlib>'s arithmetic",
        (
            r"(?:a?(?:sin|cos|tan)h?|atan2|exp(?:2|10|m1)?|log(?:2|10|1p|b)?|ilogb|pow|sqrt|cbrt"
            r"|hypot|erfc?|[lt]gamma|ceil|floor|trunc|l?l?round|nearbyint|l?l?rint|fmod"
            r"|remainder|remquo|copysign|nan|nextafter|nexttoward|fdim|fmax|fmin|fma|fabs|frexp"
            r"|ldexp|modf|scalbl?n|sincos)[fl]?",
            r"__\w+_finite", r"l?l?abs", r"l?l?div",
        ),
    ),
    (
        "strings and memory: <cstring>, <cctype>, parsing and formatting numbers in memory (and "
        "errno, through which parsing reports, and localeconv, whose decimal point nlohmann/json's "
        "number parser reads)",
        (
            r"mem(?:cpy|move|set|cmp|chr)(?:_chk)?", r"__(?:mem(?:cpy|move|set)|str(?:n?cpy|cat))_chk",
            r"str(?:n?len|n?cmp|n?cpy|n?cat|r?chr|str|c?spn|pbrk|tok(?:_r)?|n?dup)",
            r"strto(?:u?ll?|f|l?d)", r"ato(?:ll?|i|f)", r"(?:__)?v?s(?:n)?printf(?:_chk)?",
            r"(?:__isoc(?:99|23)_)?sscanf", r"__isoc23_strto\w+", r"__errno_location",
            r"is(?:alnum|alpha|blank|cntrl|digit|graph|lower|print"
            r"|punct|space|upper|xdigit)", r"to(?:lower|upper)", r"__ctype_(?:b|tolower|toupper)_loc",
            r"qsort", r"bsearch", r"localeconv",
        ),
    ),
    ("allocation", (r"malloc", r"calloc", r"realloc", r"free", r"aligned_alloc", r"posix_memalign")),
    (
        "locks and the thread's own id: std::mutex, std::shared_mutex, std::call_once and "
        "std::this_thread::get_id, which real tilings put around their caches; the program starts "
        "no thread (a std::thread runs at its join, tiling_std), so a lock only orders its own code",
        (
            r"pthread_(?:mutex|rwlock)_(?:lock|trylock|unlock|rdlock|wrlock|tryrdlock|trywrlock)",
            r"pthread_once", r"__once_proxy", r"std::__once_call(?:able)?", r"pthread_self",
        ),
    ),
    (
        "reading the environment: the sandbox hands the program one of its own, holding nothing "
        "of the daemon's (real tilings read profiling switches)",
        (r"(?:secure_)?getenv",),
    ),
    (
        "the sanitizers' hooks, in a sanitized build (ASCEND_GYM_SIM_SANITIZE=1)",
        (r"__(?:asan|ubsan|lsan|sanitizer)_\w+",),
    ),
]  # fmt: skip
_LINKABLE = re.compile("|".join(f"(?:{p})" for _, ps in LINKABLE for p in ps))
# A vtable, typeinfo or VTT is its class's: the class decides.
_OF_CLASS = re.compile(
    r"(?:vtable|typeinfo|typeinfo name|VTT|construction vtable) for (.*?)(?:-in-.*)?"
)
# An operator's name, which may hold `<`, `>`, `(` or a space (`operator<<`, `operator new[]`).
_OPERATOR = re.compile(
    r"operator(?:\s+\w+(?:\[\])?|<=>|<<=|>>=|->\*?|<<|>>|&&|\|\||\+\+|--|\(\)|\[\]|[-+*/%^&|~!=<>,]=?)"
)
SYSTEM_ROOTS = (Path("/usr/include"), Path("/usr/lib/gcc"), Path("/usr/local/include"))
BACKENDS = Path(__file__).resolve().parent / "backends"  # the emulation's headers
# The casts that can make a function pointer of an address (static_cast and const_cast cannot).
REINTERPRETING = ("reinterpret_cast", "bit_cast")
FN_POINTER = "a function pointer (calling code by address)"
# What reading one unit's tokens may take beyond the process's own memory: the suite's largest
# unit (1.7 MiB preprocessed) takes under 1 MiB; a 4 KiB source whose own macros expand a
# millionfold would take gigabytes. A unit up to IN_PROCESS_BYTES (at most a few tens of MiB of
# text and tokens) is read in the calling process, a larger one in a bounded child.
CHECK_MEMORY_MB = 256
WHAT_CHARS = 512
IN_PROCESS_BYTES = 4 << 20

_WHY = {name: why for why, names in FORBIDDEN_NAMES for name in names}
# One pass over `g++ -E -fdebug-cpp` output, where every token is preceded by its spelling
# location (`{P:file;F:includer;L:line;...}`): a token our header's macro produced is spelled in
# our header, a token the candidate pasted or spliced is spelled in the candidate's file. Tokens
# are matched whole (a literal holding `{P:` is one token); a pragma line carries no location,
# but for the first line of a file, where g++ prints one before its `#` (`{P:...}#pragma weak x`).
_TOKEN = re.compile(
    r"(?P<at>\{P:(?P<file>[^;{}\n]*);F:(?P<by>[^;{}\n]*);L:(?P<line>\d+);C:\d+;S:(?P<sys>\d+);"
    r"M:[^;{}\n]*;E:\d+,LOC:\d+,R:\d+\})"
    r"|(?:^|(?<=\}))[ \t]*\#[ \t]*pragma[ \t]+(?P<pragma>[^\n]*)$"
    r'|^[ \t]*\#[ \t]*\d+[ \t]+"(?P<marker>[^"\n]*)"[^\n]*$'
    r'|(?P<raw>(?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")'
    r'|(?P<lit>(?:u8|[uUL])?(?:"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'))'
    r"|(?P<id>[A-Za-z_$][\w$]*)"
    r"|(?P<num>\.?\d(?:[eEpP][+-]|[\w.'])*)"
    r"|(?P<space>\s+)"
    r"|(?P<punct>::|->|\.\.\.|[^\s\w])",
    re.MULTILINE | re.DOTALL,
)
# The package's data files (spec, numpy reference): never C++.
DATA_SUFFIXES = (".py", ".toml")
# A `#line` (or `# N`) directive in a raw file, after line splicing and with comments blanked.
_LINE_DIRECTIVE = re.compile(r"^[ \t]*(?:#|%:|\?\?=)[ \t]*(?:line\b|\d)", re.MULTILINE)
_UNREADABLE_NAME = re.compile(r'[;{}"\n\\]')
# What `_blank_comments` blanks, tried in this order at each position: a line comment, a block
# comment, a raw string literal, a string literal.
_RAW_OPEN = re.compile(r'(?:u8|[uUL])?R"([^(\s]{0,16})\(')
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"', re.DOTALL)
_STARTS = re.compile(r'//|/\*|(?:u8|[uUL])?R"|"')


def _blank_comments(text: str) -> str:
    """`text` with its comments and string literals blanked (newlines kept), linear in its length
    (the candidate's raw files are read in the daemon's worker: a regex would rescan the rest of
    the file for each unterminated raw string or string on one line)."""
    n, out, at = len(text), [], 0
    block_end = -2  # the next `*/` at or after the last search's start (-1: none)
    closers: dict[str, list[int]] | None = None  # a raw string's delimiter -> where `)d"` starts
    no_string_before = 0  # a failed string literal fails again until its line's end
    pos = 0
    while (m := _STARTS.search(text, pos)) is not None:
        i, end = m.start(), -1
        if m[0] == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif m[0] == "/*":
            if block_end != -1 and block_end < i + 2:
                block_end = text.find("*/", i + 2)
            end = block_end + 2 if block_end >= 0 else -1
        elif m[0].endswith('R"'):
            if (raw := _RAW_OPEN.match(text, i)) is not None:
                if closers is None:
                    closers = _raw_closers(text)
                found = closers.get(raw[1], [])
                k = bisect.bisect_left(found, raw.end())
                end = found[k] + len(raw[1]) + 2 if k < len(found) else -1
        j = m.end() - 1  # a string literal from the quote (`R"` failed as a raw string)
        if end < 0 and text[j] == '"' and j >= no_string_before:
            if (lit := _STRING.match(text, j)) is not None:
                i, end = j, lit.end()
            else:
                eol = text.find("\n", j)
                no_string_before = n if eol < 0 else eol
        if end >= 0:
            out += [text[at:i], re.sub(r"[^\n]", " ", text[i:end])]
            at = pos = end
        else:  # nothing starts here: the next position may (`/**//`)
            pos = m.start() + 1
    return "".join(out) + text[at:]


def _raw_closers(text: str) -> dict[str, list[int]]:
    """Where each delimiter's `)d"` starts in `text`, ascending: at most 17 per `)`."""
    closers: dict[str, list[int]] = {}
    for p in (m.start() for m in re.finditer(r"\)", text)):
        for k in range(17):
            q = p + 1 + k
            if q >= len(text) or text[q - 1 : q].isspace() and k or "(" in text[p + 1 : q]:
                break
            if text[q] == '"':
                closers.setdefault(text[p + 1 : q], []).append(p)
    return closers


class Violation(Exception):
    def __init__(self, path: str, line: int, what: str, rule: str):
        # What the candidate wrote, quoted at most this far (a pragma line may run for megabytes).
        what = what if len(what) <= WHAT_CHARS else what[:WHAT_CHARS] + "..."
        super().__init__(f"{path}:{line}: `{what}` is not allowed: {rule}")
        self.path, self.line, self.what, self.rule = path, line, what, rule


_enforced = True


def configure(enforce: bool) -> None:
    """Whether builds run the check (a daemon with `--source-policy off`: containment tests)."""
    global _enforced
    _enforced = enforce


def enforced() -> bool:
    return _enforced


@functools.cache
def _source_digest() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def fingerprint() -> str:
    """What the object cache keys on: an object built unchecked, or under another version of
    this check, is never served to a build that checks."""
    return _source_digest() if _enforced else "unchecked"


def check_package(pkg: OperatorPackage) -> None:
    """Raise `Violation` for a file name the locations could not carry, or a `#line` directive in
    any C++ file of the package (whatever its suffix): with one, the candidate's own tokens could
    carry our headers' names in their locations. The data files (reference.py, op.toml) may have
    `# 1`-like comments: a unit that includes one is refused in `check_preprocessed`."""
    for path in sorted(pkg.files):
        if _UNREADABLE_NAME.search(path):
            raise Violation(path, 0, path, 'a file name with `;`, `{`, `}`, `"` or a newline')
        if Path(path).suffix in DATA_SUFFIXES:  # never C++: a unit that includes one is refused
            continue
        text = pkg.files[path].replace("\\\n", "")
        if "line" in text or "#" in text or "%:" in text:
            code = _blank_comments(text)
            if m := _LINE_DIRECTIVE.search(code):
                line = code.count("\n", 0, m.start()) + 1
                raise Violation(path, line, "#line", "a line directive (it renames the file)")


def check_unit(
    unit: Path,
    source: str,
    cwd: Path,
    top: Path,
    own: frozenset[Path],
    trusted: tuple[Path, ...],
    timeout_s: float,
) -> None:
    """`check_preprocessed` on the preprocessed file `unit` (of the package's `source`): here for
    a unit of at most IN_PROCESS_BYTES, else in a forked child under CHECK_MEMORY_MB of memory
    beyond ours and `timeout_s` of CPU and wall time, so the caller (a daemon's worker) never
    holds a large unit's text or tokens, and a unit that needs more is refused (REJECTED,
    charged) instead of growing it."""
    if unit.stat().st_size <= IN_PROCESS_BYTES:  # no fork for the units real operators have
        check_preprocessed(unit.read_text(errors="replace"), cwd, top, own, trusted)
        return
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 2
        try:
            os.close(r)
            pages = int(Path("/proc/self/statm").read_text().split()[0])
            limit = pages * os.sysconf("SC_PAGE_SIZE") + (CHECK_MEMORY_MB << 20)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            cpu = int(timeout_s) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
            check_preprocessed(unit.read_text(errors="replace"), cwd, top, own, trusted)
            code = 0
        except Violation as e:
            # Whole, so the parent can parse it (a cut report was a daemon fault at will).
            os.write(w, json.dumps([e.path, e.line, e.what, e.rule]).encode())
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    found, end = b"", time.monotonic() + timeout_s
    try:
        while select.select([r], [], [], max(0.0, end - time.monotonic()))[0]:
            chunk = os.read(r, 1 << 16)
            if not chunk:
                break
            found += chunk
        else:  # out of time: the child is still reading
            os.kill(pid, signal.SIGKILL)
    finally:
        os.close(r)
        status = os.waitpid(pid, 0)[1]
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1:
        raise Violation(*json.loads(found))
    raise Violation(
        source,
        0,
        "the preprocessed unit",
        f"a unit whose tokens take more than {CHECK_MEMORY_MB} MiB or {timeout_s:g} s to read",
    )


NOT_LINKABLE = (
    "a symbol neither the package's own, nor the AscendC API, nor a listed part of the standard "
    "library (source_policy.LINKABLE)"
)


def check_linked(
    linked: Path,
    units: list[tuple[Path, str]],
    top: Path,
    library: Path,
    runner: Path,
    harness: Path,
) -> None:
    """Raise `Violation` for a symbol the candidate's shared object `linked` (of `units`: each
    object and the package file it was compiled from, under `top`, linked with our `runner`)
    needs from outside itself that our runtime `library` does not export and LINKABLE does not
    list: named demangled, with the file that needs it (and its line where the object has line
    tables). The units' own definitions were resolved at the link, libgcc's arithmetic helpers
    too (linked in statically). A symbol no library of the `harness` that loads it defines is
    left to that load, which fails as an undefined symbol does (a link error, not a refusal)."""
    ours = _ours(library, runner)
    needed = sorted(n for n in _undefined(linked, "--dyn-syms") if n not in ours)  # one verdict
    for name in needed:
        shown, ok = _verdict(name, needed)
        if not ok and name in _loadable(harness):
            for obj, unit in units:
                if name in _undefined(obj):
                    raise Violation(*_where(obj, name, unit, top), shown, NOT_LINKABLE)
            raise Violation(units[0][1], 0, shown, NOT_LINKABLE)


# A symbol's (demangled name, linkable), for as long as the process lives (a worker's candidates
# need the same few hundred).
_verdicts: dict[str, tuple[str, bool]] = {}


def _verdict(name: str, batch: list[str]) -> tuple[str, bool]:
    """`name`'s verdict; the first unknown name demangles all of `batch` in one c++filt."""
    if name not in _verdicts:
        fresh = [n for n in batch if n not in _verdicts]
        shown = _tool(["c++filt"], "\n".join(fresh)).splitlines()
        for raw, readable in zip(fresh, shown, strict=True):
            _verdicts[raw] = (readable, _LINKABLE.fullmatch(_entity(readable)) is not None)
    return _verdicts[name]


def _entity(name: str) -> str:
    """What a demangled symbol names, without its return type and parameters
    (`std::ostream& std::ostream::_M_insert<long>(long)` -> `std::ostream::_M_insert<long>`),
    or the class of a vtable, typeinfo or VTT."""
    if m := _OF_CLASS.fullmatch(name):
        return m[1]
    if name.endswith(")") or name.endswith(") const"):
        depth, k = 0, name.rindex(")")
        while k >= 0:
            depth += (name[k] == ")") - (name[k] == "(")
            if depth == 0:
                break
            k -= 1
        name = name[:k]
    depth, start, k = 0, 0, 0
    while k < len(name):
        if op := _OPERATOR.match(name, k):  # and the space before its template arguments
            k = op.end() + name.startswith(" <", op.end())
            continue
        c = name[k]
        depth += (c == "<") - (c == ">")
        if c == " " and depth == 0:
            start = k + 1
        k += 1
    return name[start:]


def _tool(cmd: list[str], stdin: str | None = None) -> str:
    return subprocess.run(
        cmd, input=stdin, capture_output=True, text=True, check=True, timeout=60
    ).stdout


def _symbols(obj: Path, table: str) -> list[tuple[str, bool]]:
    """(name, defined) of each named symbol in an ELF file's `table` (`--syms` or `--dyn-syms`).
    readelf, not nm: nm loads the linker plugins (LLVM's among them), 70 ms a call here."""
    out = _tool(["readelf", "--wide", table, str(obj)])
    # `Num: Value Size Type Bind Vis Ndx Name`, Ndx `UND` for a symbol needed from elsewhere.
    rows = (line.split() for line in out.splitlines())
    return [(f[7].split("@")[0], f[6] != "UND") for f in rows if len(f) >= 8 and f[0][-1] == ":"]


def _undefined(obj: Path, table: str = "--syms") -> frozenset[str]:
    """The symbols an ELF object or shared object needs from elsewhere (weak ones too)."""
    return frozenset(name for name, defined in _symbols(obj, table) if not defined)


@functools.cache
def _ours(library: Path, runner: Path) -> frozenset[str]:
    """What our runtime library defines for others (the AscendC API it was built from) and what
    our runner needs: per runtime, immutable."""
    exports = (name for name, defined in _symbols(library, "--dyn-syms") if defined)
    return frozenset(exports) | _undefined(runner)


@functools.cache
def _loadable(program: Path) -> frozenset[str]:
    """What the libraries `program` loads define: what a symbol of a library it opens binds to."""
    found = re.findall(r"(?:=> )?(/\S+) \(0x", _tool(["ldd", str(program)]))
    return frozenset(
        n for lib in found for n, defined in _symbols(Path(lib), "--dyn-syms") if defined
    )


def _where(obj: Path, name: str, unit: str, top: Path) -> tuple[str, int]:
    """The package file and line of a use of `name` in `obj` (compiled from `unit`), from its
    line tables; `unit` and 0 without them, or where the use is in our headers."""
    for line in _tool(["nm", "--undefined-only", "--line-numbers", str(obj)]).splitlines():
        fields = line.split(maxsplit=2)
        if len(fields) == 3 and fields[1].split("@")[0] == name:
            path, _, at = fields[2].rpartition(":")
            full = (obj.parent / path).resolve()
            if at.isdigit() and int(at) > 0 and full.is_relative_to(top.resolve()):
                return full.relative_to(top.resolve()).as_posix(), int(at)
    return unit, 0


@dataclass(slots=True)
class _Token:
    kind: str
    text: str
    file: str
    line: int
    # Spelled by our headers or the build (`DTYPE_Z`, `__gm__`, `GM_ADDR`) and expanded at a
    # package line: never itself a violation, but there, so `(__gm__ DTYPE_Z*)(x)` reads as the
    # pointer cast it is and not as `(*)(x)`.
    ours: bool = False


def check_preprocessed(
    text: str,
    cwd: Path,
    top: Path,
    own: frozenset[Path] = frozenset(),
    trusted: tuple[Path, ...] = (),
) -> None:
    """Raise `Violation` for the first forbidden construct among the tokens of `text` (`g++ -E`
    output of a compile run in `cwd`) that come from files under `top` (the package as written
    for the build) other than `own` (files the build generated itself). The package may include
    the emulation's headers, the system's and files under `trusted` (the build cache)."""
    roots = (*(r.resolve() for r in trusted), BACKENDS)
    tokens = list(_package_tokens(text, cwd.resolve(), top.resolve(), own, roots))
    aliases = _function_type_aliases(tokens)
    known = aliases | _our_aliases()
    for i, tok in enumerate(tokens):
        found = _rule(tokens, i, aliases, known)
        if found is not None:
            what, why = found
            raise Violation(tok.file, tok.line, what, why)


def _package_tokens(
    text: str, cwd: Path, top: Path, own: frozenset[Path], trusted: tuple[Path, ...]
):
    """The tokens spelled in the package; also raises for an include from the package that
    leaves it."""
    known: dict[str, tuple[str, bool, Path]] = {}
    includes: set[tuple[str, str]] = set()

    def where(name: str) -> tuple[str, bool, Path]:
        if name not in known:
            path = Path(name) if name.startswith("<") else (cwd / name).resolve()
            inside = path.is_relative_to(top) and path not in own
            known[name] = (path.relative_to(top).as_posix() if inside else name, inside, path)
        return known[name]

    # `mine`: the token was spelled in the package. `expanded`: it was spelled in a system
    # header while the output is at a package file's line (a system macro the package invoked:
    # `pthread_cleanup_push` expands to `__sigsetjmp`); its names are checked too. `ours`: spelled
    # by our headers or the build's -D (`DTYPE_Z`, `__gm__`) on an output line that holds the
    # package's tokens (a macro expanded there): kept in the sequence, never itself a violation.
    file, line, mine, system, at_package, place = "", 0, False, False, False, ("", 0)
    pending: list[_Token] = []  # the output line's tokens, yielded at its end
    line_is_mine = False
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "at":
            if (m["file"], m["by"]) not in includes:  # entering a file: `line` is the #include's
                includes.add((m["file"], m["by"]))
                shown, by_package, _ = where(m["by"])
                if by_package and not where(m["file"])[1]:
                    at = line if shown == file else 0
                    _check_include(shown, at, where(m["file"])[2], trusted)
            file, mine, _ = where(m["file"])
            if mine and Path(file).suffix in DATA_SUFFIXES:
                raise Violation(file, 0, file, "the package's data file included as C++")
            line, system = int(m["line"]), m["sys"] != "0"
            if mine:
                place = (file, line)
            continue
        if kind in ("marker", "pragma") or (kind == "space" and "\n" in m[0]):
            yield from (t for t in pending if line_is_mine or not t.ours)
            pending, line_is_mine = [], False
        if kind == "marker":
            at_package = where(m["marker"])[1]
            continue
        if kind == "space" or kind is None:
            continue
        kind = "raw" if kind == "delim" else kind
        if not mine:
            if system and at_package and kind == "id":
                pending.append(_Token("expanded", m[0], *place))
            elif kind != "pragma":
                pending.append(_Token(kind, m[0], *place, ours=True))
        elif kind == "pragma":
            pragma = " ".join(m["pragma"].split())
            if pragma.split("(")[0].startswith(PRAGMAS):
                raise Violation(file, line, f"#pragma {pragma}", "a pragma that changes symbols")
        else:
            pending.append(_Token(kind, m[0], file, line))
            line_is_mine = True
    yield from (t for t in pending if line_is_mine or not t.ours)


def _check_include(file: str, line: int, path: Path, trusted: tuple[Path, ...]) -> None:
    """`file` (the package's) includes `path` (not the package's)."""
    root = next((r for r in SYSTEM_ROOTS if path.is_relative_to(r)), None)
    if root is None:
        if not path.name.startswith("<") and not any(path.is_relative_to(r) for r in trusted):
            raise Violation(file, line, f"#include {path}", "including a file outside the package")
        return
    rel = path.relative_to(root).as_posix()
    if any(rel == h or rel.endswith("/" + h) for h in FORBIDDEN_HEADERS):
        raise Violation(file, line, f"#include <{rel}>", "a header of inline port I/O")


def _rule(
    tokens: list[_Token], i: int, aliases: set[str], cast_aliases: set[str]
) -> tuple[str, str] | None:
    """The rule token i breaks, if any. `aliases`: the package's function-type aliases, a cast
    whatever its form; `cast_aliases`: with ours too (`ops::TilingFunc`), in a cast's type (the
    candidate may name its own tiling function `TilingFunc`)."""
    tok = tokens[i]
    if tok.ours:
        return None
    if tok.kind == "expanded":
        return (tok.text, _WHY[tok.text]) if tok.text in _WHY else None
    if tok.kind != "id" and tok.text != "(":
        return None
    prev = tokens[i - 1].text if i else ""
    nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
    if tok.text == "(":
        fn = _abstract_fn(tokens, i)
        return (" ".join(t.text for t in tokens[i : i + 5]), FN_POINTER) if fn else None
    name = tok.text
    if prev in (".", "->"):
        return None
    if name in _WHY:
        return name, _WHY[name]
    if name in ("__attribute__", "__attribute") and nxt == "(":
        for t in tokens[i + 2 : _close(tokens, i + 1)]:
            if t.kind == "id" and t.text.strip("_") in ATTRIBUTES:
                return f"__attribute__(({t.text}", ATTRIBUTES[t.text.strip("_")]
    if name in REINTERPRETING and nxt == "<":
        end = _close(tokens, i + 1)
        target = tokens[i + 2 : end]
        if any(t.text in ("(", "decltype") or t.text in cast_aliases for t in target):
            return f"{name}<{' '.join(t.text for t in target)}>", FN_POINTER
    if name in aliases and nxt == "(" and prev not in ("using", "typedef"):
        return f"{name}(...)", FN_POINTER  # functional cast
    if name in cast_aliases and nxt == ")" and _operand(tokens, i + 2):
        start = i
        while start >= 2 and tokens[start - 1].text == "::" and tokens[start - 2].kind == "id":
            start -= 2
        if start and tokens[start - 1].text == "(":
            return f"({name})", FN_POINTER  # C-style cast
    return None


def _abstract_fn(tokens: list[_Token], i: int) -> bool:
    """`( * )` or `( & )` followed by `(`: a function pointer or reference type with no name, which
    appears only in a type: a cast's (aliases are declared where `using` or `typedef` is)."""
    j = i + 1
    if j >= len(tokens) or tokens[j].text not in ("*", "&", "&&"):
        return False
    while j < len(tokens) and tokens[j].text in ("*", "&", "&&", "const", "volatile"):
        j += 1
    if j + 1 >= len(tokens) or tokens[j].text != ")" or tokens[j + 1].text != "(":
        return False
    return not _in_alias(tokens, i)


def _in_alias(tokens: list[_Token], i: int) -> bool:
    """Token i is inside a `using X = ...;` or `typedef ...;` statement."""
    for k in range(i - 1, max(-1, i - 200), -1):
        t = tokens[k].text
        if t in (";", "{", "}"):
            return False
        if t == "typedef" or (t == "=" and k >= 2 and tokens[k - 2].text == "using"):
            return True
    return False


@functools.cache
def _our_aliases() -> frozenset[str]:
    """Function-pointer type aliases our headers and the C++ library declare."""
    found = re.compile(r"using\s+(\w+)\s*=[^;]*\(\s*\*|typedef[^;]*\(\s*\*\s*(\w+)\s*\)")
    names = {"terminate_handler", "unexpected_handler", "new_handler", "sighandler_t"}
    for header in BACKENDS.rglob("*.h"):
        names.update(a or b for a, b in found.findall(header.read_text(errors="replace")))
    return frozenset(names)


def _function_type_aliases(tokens: list[_Token]) -> set[str]:
    """Names the package declares for function or function-pointer types (`using F = void (*)();`,
    `typedef void (*F)();`, `using G = decltype(&f);`): a cast to one is a cast to a function."""
    names: set[str] = set()
    for i, tok in enumerate(tokens):
        if tok.text == "using" and i + 2 < len(tokens) and tokens[i + 2].text == "=":
            end = _statement_end(tokens, i)
            if any(t.text in ("(", "decltype") for t in tokens[i + 3 : end]):
                names.add(tokens[i + 1].text)
        elif tok.text == "typedef":
            body = tokens[i + 1 : _statement_end(tokens, i)]
            for k in range(len(body) - 1):
                if (
                    body[k].text in ("*", "&")
                    and body[k + 1].kind == "id"
                    and k
                    and (body[k - 1].text == "(")
                ):
                    names.add(body[k + 1].text)
                if body[k].kind == "id" and body[k + 1].text == "(" and k + 1 == _first(body, "("):
                    names.add(body[k].text)
    return names


def _first(tokens: list[_Token], text: str) -> int:
    return next((k for k, t in enumerate(tokens) if t.text == text), -1)


def _statement_end(tokens: list[_Token], i: int) -> int:
    return next((k for k in range(i, len(tokens)) if tokens[k].text == ";"), len(tokens))


def _close(tokens: list[_Token], i: int) -> int:
    """Index of the bracket closing the one at i (`(`, `<` or `{`)."""
    opening = tokens[i].text
    closing = {"(": ")", "<": ">", "{": "}"}[opening]
    depth = 0
    for k in range(i, len(tokens)):
        t = tokens[k].text
        depth += (t == opening) - (t == closing)
        if depth == 0:
            return k
    return len(tokens)


def _operand(tokens: list[_Token], j: int) -> bool:
    """Token j can start the operand of a C-style cast."""
    if j >= len(tokens):
        return False
    t = tokens[j]
    return t.kind in ("id", "num", "lit") or t.text in ("(", "&", "*", "::", "~", "!", "-", "+")
