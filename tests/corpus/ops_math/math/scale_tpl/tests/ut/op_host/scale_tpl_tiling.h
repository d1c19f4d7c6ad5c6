// The author's unit-test copy of a tiling header: tests/ is not part of the kernel build.
#error "tests/ must stay out of the package"
