// CANN's runtime API (acl/acl_rt.h) as far as a tiling reaches it: the version query of an
// installed CANN package. The simulation installs none, so every query answers
// ACL_ERROR_INVALID_PARAM and host code takes its path for a toolkit without the feature it
// asks about. Memory, stream and device calls are a device program's, which a tiling does not
// make; they are not declared, so a unit calling one fails to compile by its name.
#pragma once

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// The version of the installed package `pkgName` as a number (9.1.0 is 90100000).
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum);

#ifdef __cplusplus
}
#endif
