# Runs BINARY with INPUT on stdin and checks stdout contains EXPECT and the exit code is 0.
execute_process(COMMAND "${BINARY}" --log-level off INPUT_FILE "${INPUT}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BINARY} exited with ${rc}\n${err}")
endif()
string(FIND "${out}" "${EXPECT}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "expected \"${EXPECT}\" in:\n${out}")
endif()
