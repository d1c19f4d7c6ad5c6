// A repository's copy of a toolkit header: the build names the toolkit's include directories
// first, so the runner leaves this one out of the package.
#error "the toolkit's kernel_operator.h comes before the repository's include directories"
