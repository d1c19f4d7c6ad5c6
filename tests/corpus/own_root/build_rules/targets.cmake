# One helper per operator: its tiling and kernel objects get the repository's include lists and
# the operator's own extras.
function(kernels_add_op op_name)
  cmake_parse_arguments(ARG "" "" "EXTRA_INCS" ${ARGN})
  target_include_directories(${op_name}_tiling PRIVATE ${TILING_INCS} ${ARG_EXTRA_INCS})
  target_include_directories(${op_name}_kernel PRIVATE ${SHARED_KERNELS})
endfunction()
