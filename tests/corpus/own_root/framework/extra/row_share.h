// Never found first: the build names framework/tiling before framework/extra.
#error "framework/extra is after framework/tiling on the include path"
