# Debian packages of the install components (cmake/Install.cmake), made by CPack from a Release build:
#   cd build && cpack -G DEB        ->  libmcp-cpp-dev_<version>_<arch>.deb, mcp-cpp-tools_<version>_<arch>.deb
# libmcp-cpp-dev depends on the -dev packages a consumer compiles and links against; mcp-cpp-tools on the
# shared libraries its programs load (dpkg-shlibdeps). tests/packages/check.sh installs, uses, checks
# with lintian and purges them (scripts/test.sh --full).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mcp-cpp)
set(CPACK_PACKAGE_VENDOR "the mcp-cpp authors")
set(CPACK_PACKAGE_CONTACT "mcp-cpp maintainers <maintainers@mcp-cpp.invalid>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://modelcontextprotocol.io")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL dev tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libmcp-cpp-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "libboost1.81-dev, libboost-json1.81-dev, libboost-url1.81-dev, libssl-dev (>= 3), libfmt-dev, libspdlog-dev, libcli11-dev, libyaml-dev, pkg-config")
set(CPACK_COMPONENT_DEV_DESCRIPTION "Model Context Protocol servers and clients in C++20 (development files)
 mcp-cpp lets a C++ program serve tools, resources and prompts to LLM
 hosts over the Model Context Protocol, on stdio and Streamable HTTP.
 This package holds the static library, its headers, the CMake package
 (find_package(mcp-cpp)) and a pkg-config file (mcp-cpp).")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME mcp-cpp-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION net)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "Model Context Protocol programs built with mcp-cpp
 mcp-cpp-demo, a small notes assistant that serves MCP on stdio or
 over Streamable HTTP; mcp-cpp-client, which calls any MCP server's
 tools, resources and prompts from the command line; and mcp-cpp-gateway,
 which serves the MCP servers of a host configuration file as one server
 over Streamable HTTP.")

# Debian wants a copyright file and a compressed changelog in each package's documentation directory.
string(TIMESTAMP MCP_PACKAGE_DATE "%a, %d %b %Y 00:00:00 +0000" UTC)
foreach(component IN ITEMS dev tools)
  string(TOUPPER ${component} upper)
  set(package ${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
  set(changelog ${CMAKE_CURRENT_BINARY_DIR}/packaging/${package}/changelog.Debian)
  string(CONCAT entry "${package} (${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}) unstable; urgency=medium\n\n"
    "  * Built from the mcp-cpp sources with CPack.\n\n"
    " -- ${CPACK_PACKAGE_CONTACT}  ${MCP_PACKAGE_DATE}\n")
  file(CONFIGURE OUTPUT ${changelog} CONTENT "${entry}")
  add_custom_command(OUTPUT ${changelog}.gz COMMAND gzip -9nf -k ${changelog} DEPENDS ${changelog} VERBATIM)
  add_custom_target(mcp_changelog_${component} ALL DEPENDS ${changelog}.gz)
  install(FILES ${changelog}.gz DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package}
          RENAME copyright COMPONENT ${component})
endforeach()

include(CPack)
