"""ascend_core.cpp's function-body test: what opens a function, whatever qualifies it."""

from __future__ import annotations

import pytest

from ascend_core.cpp import code_view, is_function_body


@pytest.mark.parametrize(
    ("head", "body"),
    [
        ("__aicore__ inline void Process()", True),
        ("void Get(int32_t i) const", True),
        ("void Get() const noexcept override", True),
        ("void Get() final\n  ", True),
        ("void Get() const // why\n", True),  # a comment is blanked by the view
        ("if (i < n)", False),
        ("for (int i = 0; i < n; ++i)", False),
        ("x = [&](int v)", False),  # a lambda's parameters follow `]`, no name
        ("void Get() isconst", False),  # the end of a longer name, not the qualifier
        ("int32_t tiles = 8;", False),
    ],
)
def test_a_function_body_is_recognised_from_its_head(head, body):
    view = code_view(head + " {}")
    assert is_function_body(view, view.rindex("{")) is body
