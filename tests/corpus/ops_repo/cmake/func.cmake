function(add_modules_sources)
  target_include_directories(${OPHOST_NAME}_tiling_obj PRIVATE ${OP_TILING_INCLUDE})
  target_include_directories(${OPHOST_NAME}_kernel_obj PRIVATE ${OP_KERNEL_INCLUDE})
endfunction()
