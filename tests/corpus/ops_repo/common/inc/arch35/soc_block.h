// Another SoC's variant of soc_block.h: an A2 build never includes it.
#error "the A2 build must take common/inc/arch22/soc_block.h"
