# Warnings for the project's own targets. Boost headers are system headers and stay quiet.
function(mcp_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor
    # Designated initializers that leave members defaulted are the intended style.
    -Wno-missing-field-initializers
    # GCC 12 false positive in Asio's coroutine frame allocator.
    -Wno-mismatched-new-delete)
endfunction()
