# mcp::run's option sources and their precedence: flag > --config file > MCP_* variable > code.
# -DBINARY=<mcp-cpp-demo> -DWORK_DIR=<scratch>
file(MAKE_DIRECTORY "${WORK_DIR}")
file(WRITE "${WORK_DIR}/session.jsonl"
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}}\n"
  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n")
file(WRITE "${WORK_DIR}/two.toml" "page-size = 2\nlog-level = \"off\"\n")

# Runs the demo and returns how many tools the first tools/list page held.
function(page_size out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} "${BINARY}" --log-level off
                  INPUT_FILE "${WORK_DIR}/session.jsonl" RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "exit ${rc}: ${stderr}")
  endif()
  string(REGEX MATCHALL "\"inputSchema\"" schemas "${stdout}")
  list(LENGTH schemas n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

function(expect what actual expected)
  if(NOT actual EQUAL expected)
    message(FATAL_ERROR "${what}: expected ${expected} tools on the first page, got ${actual}")
  endif()
endfunction()

page_size(n)
expect("code default" ${n} 9)  # every demo tool fits the default page
page_size(n MCP_PAGE_SIZE=3)
expect("environment" ${n} 3)
page_size(n MCP_PAGE_SIZE=3 MCP_CONFIG=${WORK_DIR}/two.toml)
expect("config file over environment" ${n} 2)
# A flag beats the file: pass it through the environment-free path.
execute_process(COMMAND "${BINARY}" --config "${WORK_DIR}/two.toml" --page-size 4
                INPUT_FILE "${WORK_DIR}/session.jsonl" OUTPUT_VARIABLE stdout RESULT_VARIABLE rc)
string(REGEX MATCHALL "\"inputSchema\"" schemas "${stdout}")
list(LENGTH schemas n)
expect("flag over config file" ${n} 4)

# Bad values stop the server with exit code 2 and a reason on stderr.
foreach(bad "--page-size=0" "--handler-grow-after=5parsecs" "--max-message-bytes=lots" "--log-format=xml")
  execute_process(COMMAND "${BINARY}" ${bad} INPUT_FILE "${WORK_DIR}/session.jsonl"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 2 OR stderr STREQUAL "" OR NOT stdout STREQUAL "")
    message(FATAL_ERROR "${bad}: expected exit 2, a reason on stderr and nothing on stdout; got ${rc}, '${stderr}', '${stdout}'")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E env MCP_PAGE_SIZE=zero "${BINARY}" INPUT_FILE "${WORK_DIR}/session.jsonl"
                RESULT_VARIABLE rc ERROR_VARIABLE stderr OUTPUT_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "MCP_PAGE_SIZE=zero: expected exit 2, got ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env MCP_CONFIG=${WORK_DIR}/missing.toml "${BINARY}"
                INPUT_FILE "${WORK_DIR}/session.jsonl" RESULT_VARIABLE rc ERROR_VARIABLE stderr OUTPUT_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "MCP_CONFIG naming a missing file: expected exit 2, got ${rc}")
endif()

# Sealing keys: a malformed key is a startup error; a good one (file or variable) is accepted.
file(WRITE "${WORK_DIR}/good.keys" "# rotation: the first key is active\nk2:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\nk1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=\n")
file(WRITE "${WORK_DIR}/bad.keys" "k1:c2hvcnQ=\n")
foreach(env "MCP_SECRET=not-base64!" "MCP_SECRET_FILE=${WORK_DIR}/bad.keys")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} "${BINARY}" INPUT_FILE "${WORK_DIR}/session.jsonl"
                  RESULT_VARIABLE rc ERROR_VARIABLE stderr OUTPUT_QUIET)
  if(NOT rc EQUAL 2 OR stderr MATCHES "c2hvcnQ")
    message(FATAL_ERROR "${env}: expected exit 2 without echoing the key; got ${rc}: ${stderr}")
  endif()
endforeach()
foreach(env "MCP_SECRET_FILE=${WORK_DIR}/good.keys" "MCP_SECRET=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} "${BINARY}" --log-level off INPUT_FILE "${WORK_DIR}/session.jsonl"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 0 OR NOT stdout MATCHES "\"id\":2,\"result\"")
    message(FATAL_ERROR "${env}: expected a working server; got ${rc}: ${stderr}")
  endif()
endforeach()
