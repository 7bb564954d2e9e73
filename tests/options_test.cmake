# mcp::run's option sources and their precedence: flag > --config file > MCP_* variable > code;
# the MCP_* names derived from the long flags.
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
expect("code default" ${n} 10)  # every demo tool fits the default page
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

# MCP_* names are derived from the long flag (--max-sessions: MCP_MAX_SESSIONS). --help lists
# exactly these; --stdio has none, MCP_CONFIG and MCP_SECRET are read by hand.
set(derived
  HTTP ENDPOINT ALLOWED_HOSTS IO_THREADS
  STDIO_SUBJECT STDIO_SCOPES
  PUBLIC_URL TLS_CERT TLS_KEY TLS_CLIENT_CA CORS_ORIGINS
  AUTH_ISSUER AUTH_AUDIENCE AUTH_JWKS_URI AUTH_INTROSPECTION_URL AUTH_CLIENT_CREDENTIALS_FILE AUTH_SCOPES AUTH_CA_FILE
  AUTH_LEEWAY AUTH_RESOURCE_NAME AUTH_RESOURCE_DOCUMENTATION AUTH_LIST_UNAUTHORIZED RATE_LIMIT
  MAX_CONNECTIONS MAX_HEADER_BYTES HEADER_TIMEOUT BODY_TIMEOUT IDLE_TIMEOUT WRITE_TIMEOUT MAX_STREAMS_PER_SESSION SHUTDOWN_GRACE
  MAX_SESSIONS SESSION_TIMEOUT
  TRUSTED_PROXIES FORWARDED_HEADER IPV6_PREFIX MAX_CONNECTIONS_PER_CLIENT MAX_SESSIONS_PER_CLIENT HALF_OPEN_TIMEOUT
  MAX_GET_STREAMS_PER_CLIENT MAX_LISTEN_STREAMS_PER_CLIENT MAX_PARKED_CALLS_PER_CLIENT MAX_CALLS_PER_CLIENT
  ELICITATION_TIMEOUT SAMPLING_TIMEOUT ROOTS_TIMEOUT REQUEST_STATE_TTL MAX_PARKED_CALLS
  TASK_TTL TASK_POLL_INTERVAL MAX_TASKS
  STORE SECRET_FILE
  CACHE_TTL READ_CACHE_TTL CACHE_SCOPE
  LOG_LEVEL LOG_FORMAT CLIENT_LOG_LEVEL
  METRICS DRAIN_DELAY AUDIT_LOG MEMORY_RELEASE_INTERVAL
  PAGE_SIZE MAX_MESSAGE_BYTES MAX_JSON_DEPTH OUTPUT_VALIDATION MAX_LISTEN_STREAMS MAX_SUBSCRIPTIONS
  HANDLER_THREADS MAX_HANDLER_THREADS HANDLER_QUEUE HANDLER_GROW_AFTER HANDLER_IDLE_TIMEOUT HANDLER_STACK_SIZE
  OTLP_ENDPOINT OTLP_PROTOCOL OTLP_HEADERS OTLP_CA_FILE OTLP_CLIENT_CERT OTLP_CLIENT_KEY OTEL_SERVICE_NAME
  OTEL_RESOURCE_ATTRIBUTES OTEL_SAMPLING_RATIO OTEL_STREAM_SPAN_EVENTS)
execute_process(COMMAND "${BINARY}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
string(REGEX MATCHALL "\\(Env:MCP_[A-Z0-9_]+\\)" listed "${help}")
list(TRANSFORM listed REPLACE "^\\(Env:MCP_(.*)\\)$" "\\1")
list(SORT listed)
set(expected ${derived})
list(SORT expected)
if(NOT rc EQUAL 0 OR NOT listed STREQUAL expected)
  message(FATAL_ERROR "--help should list MCP_ variables ${expected}, lists ${listed}")
endif()
foreach(heading "Transport" "HTTP limits and timeouts" "Sessions \\(2025-era HTTP\\)" "Requests to the client" "Tasks"
                "Store and keys" "Caching" "Logging" "Operations" "Limits" "Handler pool" "stdio" "HTTPS and browsers"
                "Authorization \\(OAuth 2.1 resource server, HTTP\\)" "Clients \\(who one is, what one may hold\\)"
                "Tracing \\(OpenTelemetry\\)")
  if(NOT help MATCHES "\n${heading}:\n  --")
    message(FATAL_ERROR "--help has no group headed '${heading}:'")
  endif()
endforeach()

# A bad value in a derived variable is rejected by the option it belongs to, named first.
foreach(case
    "HTTP=nope|--http" "IO_THREADS=0|--io-threads"
    "MAX_CONNECTIONS=0|--max-connections" "MAX_HEADER_BYTES=100|--max-header-bytes"
    "HEADER_TIMEOUT=5x|--header-timeout" "BODY_TIMEOUT=5x|--body-timeout" "IDLE_TIMEOUT=5x|--idle-timeout"
    "WRITE_TIMEOUT=5x|--write-timeout" "MAX_STREAMS_PER_SESSION=0|--max-streams-per-session"
    "SHUTDOWN_GRACE=5x|--shutdown-grace"
    "MAX_SESSIONS=0|--max-sessions" "SESSION_TIMEOUT=5x|--session-timeout"
    "ELICITATION_TIMEOUT=5x|--elicitation-timeout" "SAMPLING_TIMEOUT=5x|--sampling-timeout"
    "ROOTS_TIMEOUT=5x|--roots-timeout" "REQUEST_STATE_TTL=5x|--request-state-ttl"
    "SECRET_FILE=${WORK_DIR}/missing.keys|--secret-file"
    "MEMORY_RELEASE_INTERVAL=5x|--memory-release-interval" "CACHE_TTL=5x|--cache-ttl" "READ_CACHE_TTL=5x|--read-cache-ttl" "CACHE_SCOPE=shared|--cache-scope"
    "LOG_LEVEL=loud|--log-level" "LOG_FORMAT=xml|--log-format" "CLIENT_LOG_LEVEL=loud|--client-log-level"
    "PAGE_SIZE=0|--page-size" "MAX_MESSAGE_BYTES=lots|--max-message-bytes" "MAX_JSON_DEPTH=1|--max-json-depth"
    "OUTPUT_VALIDATION=maybe|--output-validation"
    "MAX_LISTEN_STREAMS=0|--max-listen-streams" "MAX_SUBSCRIPTIONS=0|--max-subscriptions"
    "HANDLER_THREADS=5000|--handler-threads" "MAX_HANDLER_THREADS=0|--max-handler-threads"
    "HANDLER_QUEUE=0|--handler-queue" "HANDLER_GROW_AFTER=5x|--handler-grow-after"
    "HANDLER_IDLE_TIMEOUT=5x|--handler-idle-timeout" "HANDLER_STACK_SIZE=1KiB|--handler-stack-size"
    "PUBLIC_URL=ftp://example.com/mcp|--public-url" "TLS_CERT=${WORK_DIR}/missing.pem|--tls-cert"
    "TLS_KEY=${WORK_DIR}/missing.pem|--tls-key" "TLS_CLIENT_CA=${WORK_DIR}/missing.pem|--tls-client-ca"
    "AUTH_CLIENT_CREDENTIALS_FILE=${WORK_DIR}/missing|--auth-client-credentials-file"
    "AUTH_CA_FILE=${WORK_DIR}/missing.pem|--auth-ca-file" "AUTH_LEEWAY=5x|--auth-leeway"
    "AUTH_LIST_UNAUTHORIZED=maybe|--auth-list-unauthorized" "RATE_LIMIT=fast|--rate-limit"
    "TRUSTED_PROXIES=nginx.internal|--trusted-proxies" "FORWARDED_HEADER=via|--forwarded-header"
    "IPV6_PREFIX=129|--ipv6-prefix" "MAX_CONNECTIONS_PER_CLIENT=0|--max-connections-per-client"
    "MAX_SESSIONS_PER_CLIENT=0|--max-sessions-per-client" "HALF_OPEN_TIMEOUT=5x|--half-open-timeout"
    "MAX_GET_STREAMS_PER_CLIENT=0|--max-get-streams-per-client"
    "MAX_LISTEN_STREAMS_PER_CLIENT=0|--max-listen-streams-per-client"
    "MAX_PARKED_CALLS_PER_CLIENT=0|--max-parked-calls-per-client" "MAX_CALLS_PER_CLIENT=0|--max-calls-per-client"
    "OTLP_ENDPOINT=collector:4318|--otlp-endpoint" "OTLP_PROTOCOL=grpc|--otlp-protocol"
    "OTLP_HEADERS=novalue|--otlp-headers" "OTLP_CA_FILE=${WORK_DIR}/missing.pem|--otlp-ca-file"
    "OTLP_CLIENT_CERT=${WORK_DIR}/missing.pem|--otlp-client-cert" "OTLP_CLIENT_KEY=${WORK_DIR}/missing.pem|--otlp-client-key"
    "OTEL_RESOURCE_ATTRIBUTES=a|--otel-resource-attributes" "OTEL_SAMPLING_RATIO=2|--otel-sampling-ratio"
    "OTEL_STREAM_SPAN_EVENTS=0|--otel-stream-span-events")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 setting)
  list(GET parts 1 flag)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env MCP_${setting} "${BINARY}" INPUT_FILE "${WORK_DIR}/session.jsonl"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 2 OR NOT stderr MATCHES "^${flag}: " OR NOT stdout STREQUAL "")
    message(FATAL_ERROR "MCP_${setting}: expected exit 2 and '${flag}: ...' on stderr; got ${rc}, '${stderr}'")
  endif()
endforeach()

# The standard OTEL_* variables (read where no tracing flag is given): a bad value stops the
# server, naming the variable (docs/adr/0030-tracing.md).
foreach(case
    "OTEL_EXPORTER_OTLP_ENDPOINT=collector:4318" "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=ftp://c/v1/traces"
    "OTEL_EXPORTER_OTLP_PROTOCOL=grpc" "OTEL_EXPORTER_OTLP_HEADERS=k=%zz" "OTEL_RESOURCE_ATTRIBUTES=novalue"
    "OTEL_TRACES_SAMPLER=sometimes" "OTEL_TRACES_SAMPLER=traceidratio|OTEL_TRACES_SAMPLER_ARG=1.5")
  string(REPLACE "|" ";" variables "${case}")
  list(GET variables -1 named)
  string(REGEX REPLACE "=.*" "" named "${named}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${variables} "${BINARY}" INPUT_FILE "${WORK_DIR}/session.jsonl"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 2 OR NOT stderr MATCHES "${named}: " OR NOT stdout STREQUAL "")
    message(FATAL_ERROR "${case}: expected exit 2 and '${named}: ...' on stderr; got ${rc}, '${stderr}'")
  endif()
endforeach()

# And good values take effect, a few options of every group.
# Runs the demo on INPUT with the variables in ARGN and the flags after ARGS. HOLD keeps stdin
# open that many seconds after the input: at its end a pending roots/list fails at once, and a
# 2026-era answer still in flight is sometimes not written. TIMEOUT ends an HTTP server.
function(demo input)
  cmake_parse_arguments(arg "" "HOLD;TIMEOUT" "ARGS" ${ARGN})
  set(command ${CMAKE_COMMAND} -E env ${arg_UNPARSED_ARGUMENTS} "${BINARY}" ${arg_ARGS})
  set(timeout 30)
  if(arg_TIMEOUT)
    set(timeout ${arg_TIMEOUT})
  endif()
  if(arg_HOLD)
    execute_process(COMMAND sh -c "cat '${WORK_DIR}/${input}'; sleep ${arg_HOLD}" COMMAND ${command}
                    TIMEOUT ${timeout} RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  else()
    execute_process(COMMAND ${command} INPUT_FILE "${WORK_DIR}/${input}"
                    TIMEOUT ${timeout} RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  endif()
  set(rc "${rc}" PARENT_SCOPE)
  set(stdout "${stdout}" PARENT_SCOPE)
  set(stderr "${stderr}" PARENT_SCOPE)
endfunction()

function(expect_match what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected output matching '${regex}', got '${text}'")
  endif()
endfunction()

# Transport and logging: port 0 lets the system pick a free port, the log line names it.
demo(session.jsonl TIMEOUT 2 MCP_HTTP=127.0.0.1:0 MCP_ENDPOINT=/from-env MCP_LOG_FORMAT=json)
expect_match("MCP_HTTP, MCP_ENDPOINT" "${stderr}" "serving MCP on http://127\\.0\\.0\\.1:[1-9][0-9]*/from-env")
expect_match("MCP_LOG_FORMAT" "${stderr}" "^{\"time\":")

set(meta "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}")
file(WRITE "${WORK_DIR}/stateless.jsonl"
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{${meta}}}\n"
  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{${meta},\"uri\":\"demo://server/stats\"}}\n")
demo(stateless.jsonl HOLD 0.5 MCP_CACHE_TTL=5s MCP_READ_CACHE_TTL=250ms MCP_CACHE_SCOPE=public MCP_LOG_LEVEL=off)
expect_match("MCP_CACHE_TTL, MCP_CACHE_SCOPE" "${stdout}" "\"id\":1,\"result\":.*\"ttlMs\":5000,\"cacheScope\":\"public\"")
expect_match("MCP_READ_CACHE_TTL" "${stdout}" "\"id\":2,\"result\":.*\"ttlMs\":250,")
if(NOT stderr STREQUAL "")
  message(FATAL_ERROR "MCP_LOG_LEVEL=off: expected nothing on stderr, got '${stderr}'")
endif()

file(WRITE "${WORK_DIR}/client.jsonl"
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"roots\":{}}}}\n"
  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"project_roots\",\"arguments\":{}}}\n"
  "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"slow_count\",\"arguments\":{\"to\":1,\"step_ms\":1}}}\n")
# roots/list goes unanswered: the short timeout ends the call before the input does.
demo(client.jsonl HOLD 1 MCP_ROOTS_TIMEOUT=200ms MCP_CLIENT_LOG_LEVEL=error ARGS --log-level off)
expect_match("MCP_ROOTS_TIMEOUT" "${stdout}" "\"id\":2,\"result\":{\"content\":\\[{\"type\":\"text\",\"text\":\"no answer to roots/list in time\"")
expect_match("slow_count" "${stdout}" "\"id\":3,\"result\"")
if(stdout MATCHES "notifications/message")
  message(FATAL_ERROR "MCP_CLIENT_LOG_LEVEL=error: slow_count's info message should not be sent")
endif()

file(WRITE "${WORK_DIR}/initialize.jsonl"
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}}\n")
demo(initialize.jsonl MCP_MAX_JSON_DEPTH=2 ARGS --log-level off)
expect_match("MCP_MAX_JSON_DEPTH" "${stdout}" "nesting deeper than 2")
demo(initialize.jsonl MCP_MAX_MESSAGE_BYTES=64 ARGS --log-level off)
expect_match("MCP_MAX_MESSAGE_BYTES" "${stdout}" "exceeds 64 bytes")

# Each value is in range; only together do they break the --max-handler-threads rule.
demo(initialize.jsonl MCP_HANDLER_THREADS=8 MCP_MAX_HANDLER_THREADS=4)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "MCP_HANDLER_THREADS=8 MCP_MAX_HANDLER_THREADS=4: expected exit 2, got ${rc}")
endif()
expect_match("MCP_HANDLER_THREADS, MCP_MAX_HANDLER_THREADS" "${stderr}"
  "--max-handler-threads \\(4\\) must be at least the handler threads kept ready \\(8")
# Below the default of one thread per CPU (at least 2): refused too, not raised in silence.
demo(initialize.jsonl MCP_MAX_HANDLER_THREADS=1)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "MCP_MAX_HANDLER_THREADS=1: expected exit 2, got ${rc}")
endif()
expect_match("MCP_MAX_HANDLER_THREADS=1" "${stderr}" "--max-handler-threads \\(1\\) must be at least")

demo(initialize.jsonl MCP_STORE=bogus)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "MCP_STORE=bogus: expected exit 2, got ${rc}")
endif()
expect_match("MCP_STORE" "${stderr}" "store: expected memory, redis\\[s\\]://.*redis\\[s\\]-sentinel://.* or redis\\[s\\]-cluster://")
