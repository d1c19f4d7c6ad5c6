"""The runtime's source digest (build.runtime_sources_digest): asked several times per evaluation,
it walks the source trees again only when a directory changes, and still sees every edit; within
its recheck window it does not look at all."""

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
    monkeypatch.setattr(build, "SOURCES_RECHECK_S", 0.0)  # every ask looks
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


def test_within_the_recheck_window_an_edit_waits_for_the_next_look(tree, monkeypatch):
    header = tree / "a.h"
    header.write_text("int a;\n")
    first = build.runtime_sources_digest()
    monkeypatch.setattr(build, "SOURCES_RECHECK_S", 3600.0)
    header.write_text("int b;\n")
    os.utime(header, ns=(1, 1))
    assert build.runtime_sources_digest() == first  # no look: the signature is an hour fresh
    monkeypatch.setattr(build, "SOURCES_RECHECK_S", 0.0)
    assert build.runtime_sources_digest() != first
