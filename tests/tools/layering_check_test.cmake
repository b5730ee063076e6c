# The layering check (engine/check_layering.cmake) on the real engine passes, and on a copy with one
# upward include (core -> run) and one stray yaml-cpp include it fails naming both files.
#   cmake -DENGINE=... -DRULES=... -DYAML_INCLUDERS=... -DWORK=<scratch dir> -P layering_check_test.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -DENGINE=${ENGINE} -DRULES=${RULES} "-DYAML_INCLUDERS=${YAML_INCLUDERS}"
                        -DSTAMP=${WORK}/real.stamp -P ${ENGINE}/check_layering.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the engine as committed violates its layering:\n${err}")
endif()
file(REMOVE_RECURSE ${WORK}/engine)
file(COPY ${ENGINE}/ DESTINATION ${WORK}/engine)
file(APPEND ${WORK}/engine/core/rng.hpp "\n#include \"run/runner.hpp\"\n")
file(APPEND ${WORK}/engine/metrics/assignment.cpp "\n#include <yaml-cpp/yaml.h>\n")
file(APPEND ${WORK}/engine/run/runner.cpp "\n#include \"config/param_values.hpp\"\n")  # yaml-cpp through a header
execute_process(COMMAND ${CMAKE_COMMAND} -DENGINE=${WORK}/engine -DRULES=${RULES} "-DYAML_INCLUDERS=${YAML_INCLUDERS}"
                        -DSTAMP=${WORK}/broken.stamp -P ${ENGINE}/check_layering.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE_RECURSE ${WORK}/engine)
if(rc EQUAL 0)
  message(FATAL_ERROR "an upward include passed the layering check")
endif()
foreach(expected "engine/core/rng.hpp: #include \"run/runner.hpp\"" "room 'core' may include only: core" "engine/metrics/assignment.cpp"
                 "engine/run/runner.cpp: #include \"config/param_values.hpp\"")
  string(FIND "${err}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the layering error does not say '${expected}':\n${err}")
  endif()
endforeach()
message(STATUS "layering check: passes the engine, fails an upward include and a stray yaml-cpp include")
