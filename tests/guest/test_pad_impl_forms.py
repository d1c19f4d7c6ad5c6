"""DataCopyPad's raw-pointer forms of the library (DataCopyPadGm2UBImpl, DataCopyPadUB2GMImpl in
kernel_operator_data_copy_impl.h), which production kernels call directly: level1/add copying
in and out through them, with both parameter kinds, on both engines to one verdict and latency."""

from ascend_core.suite import resolve

ADD = resolve("level1/add")
KERNEL = ADD.files["op_kernel/add.cpp"]

COPY_IN = """    if (len * sizeof(DTYPE_X) % 32 == 0) {
      DataCopy(xLocal, xGm[offset], len);
      DataCopy(yLocal, yGm[offset], len);
    } else {
      DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
      DataCopyPad(xLocal, xGm[offset], params, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
      DataCopyPad(yLocal, yGm[offset], params, DataCopyPadExtParams<DTYPE_Y>{false, 0, 0, 0});
    }
"""
RAW_IN = """    const uint32_t bytes = len * sizeof(DTYPE_X);
    DataCopyPadGm2UBImpl((__ubuf__ DTYPE_X*)xLocal.GetPhyAddr(), (__gm__ DTYPE_X*)xGm[offset].GetPhyAddr(),
                         DataCopyExtParams{1, bytes, 0, 0, 0}, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
    DataCopyPadGm2UBImpl((__ubuf__ DTYPE_Y*)yLocal.GetPhyAddr(), (__gm__ DTYPE_Y*)yGm[offset].GetPhyAddr(),
                         DataCopyParams{1, static_cast<uint16_t>(bytes), 0, 0}, DataCopyPadParams{});
"""
COPY_OUT = """    if (len * sizeof(DTYPE_Z) % 32 == 0) {
      DataCopy(zGm[offset], zLocal, len);
    } else {
      DataCopyPad(zGm[offset], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Z)), 0, 0, 0});
    }
"""
RAW_OUT = """    DataCopyPadUB2GMImpl((__gm__ DTYPE_Z*)zGm[offset].GetPhyAddr(), (__ubuf__ DTYPE_Z*)zLocal.GetPhyAddr(),
                         DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Z)), 0, 0, 0});
"""


def test_level1_add_through_the_pad_impl_forms_on_both_engines(engines):
    assert COPY_IN in KERNEL and COPY_OUT in KERNEL
    kernel = KERNEL.replace(COPY_IN, RAW_IN, 1).replace(COPY_OUT, RAW_OUT, 1)
    result = engines.same(ADD.with_sources(kernel=kernel))
    assert len(result.cases) > 1  # every case of the suite operator, ragged tails included
