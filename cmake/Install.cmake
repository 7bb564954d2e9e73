include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS mcp EXPORT mcp-cppTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/mcp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT mcp-cppTargets NAMESPACE mcp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-cpp)

configure_package_config_file(cmake/mcp-cppConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-cpp)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/mcp-cppConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-cpp)
