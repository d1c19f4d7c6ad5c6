"""Files in a candidate's directory are read without following links, blocking on FIFOs or
reading more than expected: what a candidate planted is its own (charged) failure."""

from __future__ import annotations

import errno
import os

import pytest

from npu_daemon.candidate_files import Tampered, read_descriptor, read_exact


def test_a_regular_file_of_the_exact_size_is_read(tmp_path):
    (tmp_path / "out.bin").write_bytes(b"x" * 64)
    assert read_exact(tmp_path / "out.bin", 64) == b"x" * 64


@pytest.mark.parametrize("kind", ["missing", "symlink", "fifo", "directory", "oversized"])
def test_planted_files_are_tampering(tmp_path, kind):
    path = tmp_path / "out.bin"
    secret = tmp_path / "secret"
    secret.write_bytes(b"s" * 64)
    if kind == "symlink":
        path.symlink_to(secret)
    elif kind == "fifo":
        os.mkfifo(path)  # a blocking open would hang the worker forever
    elif kind == "directory":
        path.mkdir()
    elif kind == "oversized":
        path.write_bytes(b"x" * (1 << 20))
    with pytest.raises(Tampered):
        read_exact(path, 64)


def test_a_short_file_is_the_daemons_disk(tmp_path):
    (tmp_path / "out.bin").write_bytes(b"x" * 10)
    with pytest.raises(OSError) as e:
        read_exact(tmp_path / "out.bin", 64)
    assert e.value.errno == errno.ENOSPC and not isinstance(e.value, Tampered)


def test_a_descriptor_is_read_up_to_its_bound():
    fd = os.memfd_create("result")
    os.write(fd, b"y" * 100)
    assert read_descriptor(fd, 10) == b"y" * 10
    assert read_descriptor(fd, 1000) == b"y" * 100
    os.close(fd)
