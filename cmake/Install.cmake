# What `cmake --install` puts where, in two components that cmake/Packaging.cmake turns into Debian
# packages: `dev` (the static library, its headers, the CMake package and a pkg-config file) and
# `tools` (the programs: the demo server, and every command-line program the project ships).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS mcp EXPORT mcp-cppTargets COMPONENT dev
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/mcp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(EXPORT mcp-cppTargets NAMESPACE mcp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-cpp COMPONENT dev)

configure_package_config_file(cmake/mcp-cppConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-cpp)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-cpp COMPONENT dev)

# pkg-config, for builds without CMake: relocatable (paths from the file's own place).
file(RELATIVE_PATH MCP_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(cmake/mcp-cpp.pc.in ${CMAKE_CURRENT_BINARY_DIR}/mcp-cpp.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mcp-cpp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
