# The include lists of the repository's targets.
set(TILING_INCS ${KERNELS_HOME}/framework/tiling)
if(WITH_EXTRA_TILING)
  list(APPEND TILING_INCS ${KERNELS_HOME}/framework/extra)
endif()
if(DEFINED NEVER_SET_BY_THE_BUILD)
  list(APPEND TILING_INCS ${KERNELS_HOME}/framework/unused)
endif()
get_filename_component(SHARED_KERNELS "${KERNELS_HOME}/kernels/shared_kernels" ABSOLUTE)
