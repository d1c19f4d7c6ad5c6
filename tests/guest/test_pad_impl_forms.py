"""DataCopyPad's raw-pointer forms of the library (DataCopyPadGm2UBImpl, DataCopyPadUB2GMImpl in
kernel_operator_data_copy_impl.h), which production kernels call directly: level1/add copying
in and out through them, with both parameter kinds, on both engines to one verdict and latency."""

from ascend_core.suite import resolve

ADD = resolve("level1/add")
KERNEL = ADD.files["op_kernel/add.cpp"]

RAW_IN = """    const uint32_t bytes = len * sizeof(DTYPE_X);
    DataCopyPadGm2UBImpl((__ubuf__ DTYPE_X*)xLocal.GetPhyAddr(), (__gm__ DTYPE_X*)xGm[offset].GetPhyAddr(),
                         DataCopyExtParams{1, bytes, 0, 0, 0}, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
    DataCopyPadGm2UBImpl((__ubuf__ DTYPE_Y*)yLocal.GetPhyAddr(), (__gm__ DTYPE_Y*)yGm[offset].GetPhyAddr(),
                         DataCopyParams{1, static_cast<uint16_t>(bytes), 0, 0}, DataCopyPadParams{});
"""
RAW_OUT = """    DataCopyPadUB2GMImpl((__gm__ DTYPE_Z*)zGm[offset].GetPhyAddr(), (__ubuf__ DTYPE_Z*)zLocal.GetPhyAddr(),
                         DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Z)), 0, 0, 0});
"""


def _between(text: str, start: str, end: str, new: str) -> str:
    """`text` with what lies from `start` up to `end` replaced by `new`."""
    i = text.index(start)
    return text[:i] + new + text[text.index(end, i) :]


def test_level1_add_through_the_pad_impl_forms_on_both_engines(engines):
    # The suite kernel's copies (a DataCopy, or a DataCopyPad for a ragged tail) become the forms.
    kernel = _between(
        KERNEL, "    if (len * sizeof(DTYPE_X) % 32 == 0) {", "    inQueueX.EnQue", RAW_IN
    )
    kernel = _between(
        kernel, "    if (len * sizeof(DTYPE_Z) % 32 == 0) {", "    outQueueZ.FreeTensor", RAW_OUT
    )
    result = engines.same(ADD.with_sources(kernel=kernel))
    assert len(result.cases) > 1  # every case of the suite operator, ragged tails included
