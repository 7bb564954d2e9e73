# mcp_layer(<name> [DIR <dir under src/>] [DEPENDS <layer>...] SOURCES <file>...)
#
# One layer of the library (docs/architecture.md) as an OBJECT library, mcp_<name>. It compiles
# against the public headers (include/) and the private headers of its own directory and of the
# layers it depends on, directly or through them, and of no other: its include root holds links
# to exactly those directories, so an #include of a layer above fails to compile.
# scripts/check-layers.sh shows the resulting graph and checks the public headers as well.
function(mcp_layer name)
  cmake_parse_arguments(L "" "DIR" "DEPENDS;SOURCES" ${ARGN})
  if(NOT L_DIR)
    set(L_DIR ${name})
  endif()
  set_property(GLOBAL PROPERTY MCP_LAYER_DIR_${name} ${L_DIR})

  set(visible ${name})
  foreach(dependency IN LISTS L_DEPENDS)
    get_property(below GLOBAL PROPERTY MCP_LAYER_VISIBLE_${dependency})
    if(NOT below)
      message(FATAL_ERROR "layer ${name} depends on ${dependency}, which is not declared before it")
    endif()
    list(APPEND visible ${below})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  set_property(GLOBAL PROPERTY MCP_LAYER_VISIBLE_${name} ${visible})

  set(root ${CMAKE_CURRENT_BINARY_DIR}/include-roots/${name})
  file(REMOVE_RECURSE ${root})
  foreach(layer IN LISTS visible)
    get_property(dir GLOBAL PROPERTY MCP_LAYER_DIR_${layer})
    get_filename_component(parent ${root}/${dir} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${dir} ${root}/${dir} SYMBOLIC)
  endforeach()

  add_library(mcp_${name} OBJECT ${L_SOURCES})
  set_target_properties(mcp_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(mcp_${name} PRIVATE ${root} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  # The settings every layer shares, and what the layers below need to compile (their third-party
  # headers and definitions); object libraries pass on usage requirements only, not objects.
  target_link_libraries(mcp_${name} PUBLIC mcp_build_settings)
  foreach(dependency IN LISTS L_DEPENDS)
    target_link_libraries(mcp_${name} PUBLIC mcp_${dependency})
  endforeach()
  mcp_target_warnings(mcp_${name})
endfunction()
