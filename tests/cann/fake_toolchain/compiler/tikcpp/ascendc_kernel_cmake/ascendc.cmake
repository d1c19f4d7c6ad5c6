# Fake CANN (tests only): the kernel-launch CMake functions, built on g++ and the ascend_gym
# simulator headers instead of the bisheng compiler. fake_sim.cmake (written when the fake toolkit
# is installed) sets FAKE_SIM_INCLUDE, FAKE_SIM_PCH and FAKE_SIM_RUNTIME.
get_filename_component(FAKE_CANN_ROOT ${CMAKE_CURRENT_LIST_DIR}/../../.. ABSOLUTE)
include(${FAKE_CANN_ROOT}/fake_sim.cmake)

if(NOT SOC_VERSION)
  message(FATAL_ERROR "SOC_VERSION value not set.")
endif()
set(FAKE_CANN_SOC_PARAMS ${FAKE_CANN_ROOT}/fake/soc/${SOC_VERSION}.txt)
if(NOT EXISTS ${FAKE_CANN_SOC_PARAMS})
  message(FATAL_ERROR "SOC_VERSION ${SOC_VERSION} is not supported by this toolkit.")
endif()

if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
  target_include_directories(host_intf_pub INTERFACE ${FAKE_CANN_ROOT}/include)
  target_link_directories(host_intf_pub INTERFACE ${FAKE_CANN_ROOT}/lib64)
  target_link_libraries(host_intf_pub INTERFACE ascendcl)
endif()

function(ascendc_library target kind)
  set(gen ${CMAKE_BINARY_DIR}/include/${target})
  execute_process(COMMAND python3 ${FAKE_CANN_ROOT}/tools/gen_launch.py ${gen} ${ARGN}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generating kernel launch headers failed: ${err}")
  endif()
  file(GLOB stubs ${gen}/aclrtlaunch_*.cpp)
  add_library(${target} ${kind} ${ARGN} ${stubs})
  # The simulator's flags, so its precompiled kernel_operator.h applies.
  target_compile_options(${target} PRIVATE -std=c++17 -O2 -fPIC -w)
  target_compile_definitions(${target} PRIVATE ASCENDC_SIM_KERNEL FAKE_CANN_SOC_PARAMS="${FAKE_CANN_SOC_PARAMS}")
  target_include_directories(${target} PRIVATE ${FAKE_SIM_PCH} ${FAKE_SIM_INCLUDE} PUBLIC ${gen} ${FAKE_CANN_ROOT}/include)
  target_link_directories(${target} PUBLIC ${FAKE_CANN_ROOT}/lib64 ${FAKE_SIM_RUNTIME})
  target_link_libraries(${target} PUBLIC ascendcl ascendc_sim)
  set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER ${FAKE_CANN_ROOT}/tools/ccec)
  # Entries named like libc functions, renamed for g++ only (see tools/gen_launch.py).
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS "-include;${gen}/fake_entry_renames.h")
endfunction()

function(ascendc_compile_definitions target scope)
  target_compile_definitions(${target} ${scope} ${ARGN})
endfunction()

function(ascendc_include_directories target scope)
  target_include_directories(${target} ${scope} ${ARGN})
endfunction()

function(ascendc_compile_options target scope)
  target_compile_options(${target} ${scope} ${ARGN})
endfunction()
