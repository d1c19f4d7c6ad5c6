// Included only by the aclnn layer (op_host/op_api/), which a kernel launch does not build.
#error "the aclnn layer's headers must stay out of the package"
