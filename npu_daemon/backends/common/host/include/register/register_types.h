// The registration libraries' export and deprecation markers (metadef's register/register_types.h):
// a tiling compiled into one library with its registrations needs neither, so they are empty.
#pragma once

#define FMK_FUNC_HOST_VISIBILITY
#define FMK_FUNC_DEV_VISIBILITY
#define ATTRIBUTED_DEPRECATED(replacement)
