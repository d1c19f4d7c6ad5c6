// The aclnn API's base header (opbase aclnn/aclnn_base.h): its object types and status
// (aclnn/acl_meta.h). aclnnInit / aclnnFinalize, which set up the device's op library, are a
// device program's and are not declared here.
#pragma once

#include "aclnn/acl_meta.h"
