// No kernel includes this header: it must stay out of every package.
#error "common/inc/op_kernel/unused.h is included by nothing"
