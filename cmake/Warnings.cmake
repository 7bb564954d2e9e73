# Warnings for the project's own targets. Boost headers are system headers and stay quiet.
# MCP_WERROR makes them errors: off by default so that a newer compiler's new warnings never
# break a user's build; on in CI (scripts/test.sh) and the dev preset, so none lands unnoticed.
option(MCP_WERROR "Treat warnings in the project's own targets as errors" OFF)

# The GCC-only ones are left out for clang (the fuzz targets, tests/fuzz), which has no
# -Wshadow=local and not these false positives.
function(mcp_target_warnings target)
  set(gcc $<CXX_COMPILER_ID:GNU>)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic $<${gcc}:-Wshadow=local> -Wnon-virtual-dtor
    # Designated initializers that leave members defaulted are the intended style.
    -Wno-missing-field-initializers
    # GCC 12 false positive in Asio's coroutine frame allocator.
    $<${gcc}:-Wno-mismatched-new-delete>)
  if(MCP_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # The sanitizers' instrumentation defeats GCC 12's flow analysis: -Wmaybe-uninitialized fires on
    # Beast's boost::optional returns (net/beast_impl.cpp). The plain build still checks it.
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
  endif()
  if(MCP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
