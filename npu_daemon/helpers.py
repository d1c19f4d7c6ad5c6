"""The C helpers the daemon compiles once and runs as root (sandbox_exec, the compilers' fork
server): each built with `cc` on first use, per source digest, into a directory only this user
may write, and refused if anyone else could replace it (a sandboxed candidate above all)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from pathlib import Path

from ascend_core.cache import cache_dir


def compiled(name: str, sources: list[Path], flags: list[str]) -> Path:
    """`cc -O2 FLAGS SOURCES` as `$ASCEND_GYM_CACHE/exec/NAME-DIGEST` (NAME's suffix kept)."""
    digest = hashlib.sha256(b"".join(s.read_bytes() for s in sources)).hexdigest()[:16]
    stem, dot, suffix = name.partition(".")
    folder = cache_dir() / "exec"
    folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    target = folder / f"{stem}-{digest}{dot}{suffix}"
    if not target.exists():
        tmp = target.with_name(f"{target.name}.tmp{os.getpid()}-{threading.get_ident()}")
        cmd = ["cc", "-O2", *flags, *map(str, sources), "-o", str(tmp)]
        subprocess.run(cmd, check=True, capture_output=True)
        os.replace(tmp, target)
    for path in (folder, target):
        st = path.stat()
        if st.st_uid != os.geteuid() or st.st_mode & 0o022:
            raise PermissionError(f"{path} is not ours alone: {name} must be trusted")
    return target
