# Installs the built project into a scratch prefix, builds tests/consumer against it with
# find_package(mcp-cpp), runs it on a short stdio session and checks the answer.
# -DBUILD_DIR=<project build dir> -DSOURCE_DIR=<tests/consumer> -DWORK_DIR=<scratch dir>
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_PREFIX_PATH=${prefix}")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")

execute_process(COMMAND "${WORK_DIR}/build/consumer" INPUT_FILE "${SOURCE_DIR}/input.jsonl"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer exited with ${rc}\n${err}")
endif()
string(FIND "${out}" [["id":2,"result":{"content":[{"type":"text","text":"{\"result\":42}"}],"structuredContent":{"result":42}}]] found)
if(found EQUAL -1)
  message(FATAL_ERROR "unexpected consumer output:\n${out}")
endif()
message(STATUS "consumer built against the installed package and answered: ${out}")
