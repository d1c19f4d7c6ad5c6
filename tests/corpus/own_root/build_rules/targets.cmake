# One helper per operator: its tiling and kernel objects get the repository's include lists and
# the operator's own extras; its tiling object, definitions of its own and the log library's.
function(kernels_add_op op_name)
  cmake_parse_arguments(ARG "" "" "EXTRA_INCS;TILING_SOURCES" ${ARGN})
  add_library(${op_name}_tiling OBJECT ${ARG_TILING_SOURCES})
  target_compile_definitions(${op_name}_tiling PRIVATE BLEND_LOG_NAME="OP_TILING"
    $<$<NOT:$<BOOL:${BUILD_UNIT_TESTS}>>:BLEND_FROM_BUILD>)
  target_link_libraries(${op_name}_tiling PRIVATE $<BUILD_INTERFACE:blend_log_headers>)
  target_include_directories(${op_name}_tiling PRIVATE ${TILING_INCS} ${ARG_EXTRA_INCS})
  target_include_directories(${op_name}_kernel PRIVATE ${SHARED_KERNELS})
endfunction()
