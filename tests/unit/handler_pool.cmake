# The handler pool (with BlockingScope) and the context snapshot. Their sources are compiled straight
# into the tests for now.
mcp_unit_test(test_handler_pool test_handler_pool.cpp
  ${PROJECT_SOURCE_DIR}/src/server/handler_pool.cpp
  ${PROJECT_SOURCE_DIR}/src/util/log.cpp)
target_include_directories(test_handler_pool PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(test_handler_pool PRIVATE spdlog::spdlog fmt::fmt Threads::Threads)

mcp_unit_test(test_context_snapshot test_context_snapshot.cpp
  ${PROJECT_SOURCE_DIR}/src/server/context_snapshot.cpp
  ${PROJECT_SOURCE_DIR}/src/util/log.cpp)
target_include_directories(test_context_snapshot PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(test_context_snapshot PRIVATE spdlog::spdlog fmt::fmt Threads::Threads)
