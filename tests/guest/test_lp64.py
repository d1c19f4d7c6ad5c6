"""The device's LP64 `long` on the guest engine (guest_lp64.py): a kernel that spells `long` and
`unsigned long` computes as on the device (64 bits), on both engines, where wasm32's own `long`
is 32 bits."""

from __future__ import annotations

from npu_daemon.backends.sim import guest_lp64
from tests.guest.test_data import add_with
from tests.guest.test_real_gaps import add_edited

# A template on the index type takes the int64 branch for `long` (ops-nn scatter_elements_v2's
# `std::is_same<U, int32_t>`), a long holds 2^40 and an unsigned long's top bit is bit 63. Any of
# them wrong and no block writes z: a WRONG_ANSWER.
LONG_KERNEL = add_edited(
    (
        "constexpr int32_t BUFFER_NUM = 2;\n",
        "constexpr int32_t BUFFER_NUM = 2;\n"
        "template <typename U>\n"
        "__aicore__ inline uint32_t IndexBytes() {\n"
        "  if constexpr (std::is_same<U, int32_t>::value) return 4;\n"
        "  else if constexpr (std::is_same<U, int64_t>::value) return 8;\n"
        "  else return 0;\n"
        "}\n",
    ),
    (
        "    for (uint32_t done = 0; done < blockLength; done += tileLength) {\n",
        "    const long wide = static_cast<long>(tileLength) << 32;\n"
        "    const unsigned long top = ~0UL >> 63;\n"
        "    long int fits = 1L << 40;\n"
        "    if (IndexBytes<long>() != 8 || IndexBytes<unsigned long>() != 0 || sizeof(long) != 8 ||\n"
        "        (wide >> 32) != tileLength || top != 1 || (fits >> 40) != 1) return;\n"
        "    for (long done = 0; done < blockLength; done += tileLength) {\n",
    ),
)


def test_long_is_64_bits_on_both_engines(engines):
    engines.same(add_with(LONG_KERNEL))


def test_only_the_kernels_regions_are_widened():
    text = (
        '# 1 "op_kernel/k.cpp"\n'
        "static const long a = 1L; unsigned long b = 2ul; long long c = 3LL; long double d = 1.0L;\n"
        'long unsigned int e = long(3); const char* s = "long 1L"; X<long> x; double y = 1e3L;\n'
        '# 1 "/usr/include/wasm32-wasi/stdlib.h" 1 3\n'
        "long labs(long);\n"
        '# 2 "op_kernel/k.cpp" 2\n'
        "int long f = 0x10LU;\n"
    )
    out = guest_lp64.widen(text, lambda path: path.startswith("op_kernel/"))
    L, U = guest_lp64.LONG, guest_lp64.ULONG
    assert out == (
        guest_lp64.PRELUDE + '# 1 "op_kernel/k.cpp"\n'
        f"static const {L} a = 1LL; {U}  b = 2ull; long long c = 3LL; long double d = 1.0L;\n"
        f'{U}   e = {L}(3); const char* s = "long 1L"; X<{L}> x; double y = 1e3L;\n'
        '# 1 "/usr/include/wasm32-wasi/stdlib.h" 1 3\n'
        "long labs(long);\n"
        '# 2 "op_kernel/k.cpp" 2\n'
        f"{L}  f = 0x10LLU;\n"
    )


def test_a_kernel_spelling_long_only_in_comments_or_long_long_is_built_as_before():
    assert not guest_lp64.spells_long(["// a long loop\nlong long n = 1LL; long double d;"])
    assert guest_lp64.spells_long(["int64_t n = 1L;"])
    assert guest_lp64.spells_long(["template <> void F<unsigned long>();"])
