set(OP_TILING_INCLUDE
  ${ASCEND_DIR}/include
  ${OPS_DEMO_DIR}
  ${OPS_DEMO_DIR}/common/inc
)
# One directory per SoC: the A2 build (arch22) takes its own.
set(OP_KERNEL_INCLUDE
  ${OPS_DEMO_DIR}
  ${OPS_DEMO_DIR}/common/inc/arch35
  ${OPS_DEMO_DIR}/common/inc/arch22
)
