"""A fourteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A fourteenth red
team"): what a client's reference can reach in the process it runs in, the constructor sections
of an object past the ELF's 16-bit section count, a source lent with isReuseSource beyond the
element-wise math family, and a tiling's text on a case kept across evaluations, each asserting
the honest outcome against a real daemon or on the object the build makes.

Safe if containment fails: the client references run in the daemon's reference sandbox (the
worker's unprivileged user, no network, a read-only filesystem) and read only their own process;
the objects are assembled in a temporary directory; the kernels are level1/add with one more call.
"""

from __future__ import annotations

import re
import subprocess


# ---- the constructor sections of an object of 65,280 sections or more ----------------------------
def test_an_object_past_the_short_section_count_keeps_no_constructor_section(tmp_path):
    # ELF counts sections in 16 bits; an object of 65,280 or more keeps its count and its name
    # table's index in section 0 (extended numbering), which g++ writes for a tiling of some
    # 34,000 explicit template instantiations (a section and a group each). ctors.defer read the
    # 16-bit fields: no section, nothing renamed, so the object's `.init_array` stayed and its
    # constructor ran at dlopen, at the loading stage of the tiling process's filter, which the
    # deferral exists to keep candidate code out of. Both fields are now read where ELF puts them.
    from npu_daemon.backends.common import ctors

    sections = "".join(f'.section .t{i},"ax",@progbits\n.byte {i % 256}\n' for i in range(65300))
    (tmp_path / "many.s").write_text(
        sections + '.section .init_array,"aw",@init_array\n.quad 0\n'
        '.section .fini_array,"aw",@fini_array\n.quad 0\n'
    )
    subprocess.run(["as", "many.s", "-o", "many.o"], cwd=tmp_path, check=True)
    assert ctors.defer(tmp_path / "many.o") == 2
    table = subprocess.run(
        ["readelf", "-SW", "many.o"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    names = set(re.findall(r"^\s+\[\s*\d+\]\s+(\S+)", table.stdout, re.M))
    assert table.stderr == "" and len(names) > 65300, table.stderr
    assert not names & {".init_array", ".fini_array"}, sorted(names & {".init_array"})
    assert {"cand_init", "cand_fini"} <= names
