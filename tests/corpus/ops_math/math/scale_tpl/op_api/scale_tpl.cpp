// The aclnn layer: not part of the kernel build.
#error "op_api/ must stay out of the package"
