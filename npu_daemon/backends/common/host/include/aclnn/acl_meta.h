// The aclnn API's object types and status (opbase aclnn/acl_meta.h). The aclnn layer is a
// device program's entry (it builds an executor and launches kernels); the simulator launches
// through its own harness and runs none of it, so the objects are declared, opaque, for host
// code that names them, and no function of the layer is.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

#ifndef ACLNN_META
#define ACLNN_META
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef int32_t aclnnStatus;
constexpr aclnnStatus OK = 0;
#endif
