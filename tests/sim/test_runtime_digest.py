"""The runtime's source digest (build.runtime_sources_digest): asked several times per evaluation,
it walks the source trees again only when a directory changes, and still sees every edit; within
an evaluation (`sources_pinned`) it keeps the look the evaluation began with."""

from __future__ import annotations

import os

import pytest

from npu_daemon.backends.common import build


@pytest.fixture
def tree(tmp_path, monkeypatch):
    sim = tmp_path / "sim"
    (sim / "include" / "sub").mkdir(parents=True)
    monkeypatch.setattr(build, "SIM_DIR", sim)
    monkeypatch.setattr(build, "_SOURCE_TREES", ((sim / "include", (".h",)),))
    monkeypatch.setattr(build, "_SOURCE_FILES", ())
    monkeypatch.setattr(build, "_listing", None)
    monkeypatch.setattr(build, "_sources_seen", None)
    return sim / "include"


def test_every_edit_changes_the_digest_and_nothing_else_does(tree):
    header = tree / "a.h"
    header.write_text("int a;\n")
    first = build.runtime_sources_digest()
    assert build.runtime_sources_digest() == first

    header.write_text("int b;\n")  # an edit in place: the file's own mtime and size
    os.utime(header, ns=(1, 1))
    edited = build.runtime_sources_digest()
    assert edited != first

    added = tree / "sub" / "b.h"
    added.write_text("int c;\n")  # a new file in a subdirectory: that directory's mtime
    with_added = build.runtime_sources_digest()
    assert with_added != edited

    (tree / "sub" / "notes.txt").write_text("not a source\n")
    assert build.runtime_sources_digest() == with_added

    added.unlink()
    assert build.runtime_sources_digest() == edited


def test_an_evaluation_keeps_its_first_look_and_the_next_one_sees_the_edit(tree):
    header = tree / "a.h"
    header.write_text("int a;\n")
    with build.sources_pinned():
        first = build.runtime_sources_digest()
        header.write_text("int b;\n")
        os.utime(header, ns=(1, 1))
        assert build.runtime_sources_digest() == first  # no look inside the evaluation
    with build.sources_pinned():
        assert build.runtime_sources_digest() != first
