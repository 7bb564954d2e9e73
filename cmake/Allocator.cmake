# MCP_ALLOCATOR: the malloc the project's own programs link (mcp-cpp-demo, mcp-cpp-gateway,
# mcp-cpp-client; docs/adr/0031-allocator.md). The library never links one: a host's malloc is the
# host's to choose, and the library works under any (docs/adr/0028-memory-after-a-burst.md).
set(MCP_ALLOCATOR "system" CACHE STRING "The malloc linked into the project's programs: system, jemalloc or mimalloc")
set_property(CACHE MCP_ALLOCATOR PROPERTY STRINGS system jemalloc mimalloc)
if(NOT MCP_ALLOCATOR MATCHES "^(system|jemalloc|mimalloc)$")
  message(FATAL_ERROR "MCP_ALLOCATOR must be system, jemalloc or mimalloc, not '${MCP_ALLOCATOR}'")
endif()
if(NOT MCP_ALLOCATOR STREQUAL "system" AND MCP_SANITIZE)
  message(FATAL_ERROR "MCP_ALLOCATOR=${MCP_ALLOCATOR} and MCP_SANITIZE: the sanitizers bring their own malloc")
endif()
if(MCP_ALLOCATOR STREQUAL "jemalloc")
  # Debian's libjemalloc-dev installs no CMake package: the library alone (its malloc replaces libc's).
  find_library(MCP_JEMALLOC_LIBRARY jemalloc REQUIRED)
elseif(MCP_ALLOCATOR STREQUAL "mimalloc")
  find_package(mimalloc REQUIRED)
endif()

# Links the chosen malloc into a program: a direct dependency is searched before libc, so its
# malloc and free are the ones the whole process binds.
function(mcp_link_allocator target)
  if(MCP_ALLOCATOR STREQUAL "jemalloc")
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/jemalloc_conf.cpp)
    target_link_libraries(${target} PRIVATE ${MCP_JEMALLOC_LIBRARY})
  elseif(MCP_ALLOCATOR STREQUAL "mimalloc")
    target_link_libraries(${target} PRIVATE mimalloc)
  endif()
endfunction()
