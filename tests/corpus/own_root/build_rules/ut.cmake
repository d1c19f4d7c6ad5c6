# Unit tests' stubs: never a kernel launch's include directory.
include_directories(${KERNELS_HOME}/tests/stubs)
