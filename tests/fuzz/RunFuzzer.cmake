# ctest driver: a fresh seed corpus (made by SEED_MAKER and/or copied from SEED_DIR), then a
# bounded libFuzzer session. Passes when the fuzzer exits cleanly having run exactly RUNS inputs.
# Inputs: FUZZER, WORK, RUNS, and SEED_MAKER and/or SEED_DIR.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
get_filename_component(name ${FUZZER} NAME)
if(SEED_MAKER)
  execute_process(COMMAND ${SEED_MAKER} ${WORK}/corpus RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "seed corpus: ${SEED_MAKER} failed (${rc})")
  endif()
endif()
if(SEED_DIR)
  file(GLOB seeds ${SEED_DIR}/*)
  file(COPY ${seeds} DESTINATION ${WORK}/corpus)
endif()
execute_process(
  COMMAND ${FUZZER} -runs=${RUNS} -max_total_time=60 -seed=20261121 -timeout=20
          -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/
          ${WORK}/corpus
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${name} exited with ${rc}; inputs that failed are in "
                      "${WORK}/artifacts\n${log}")
endif()
string(REGEX MATCH "Done ([0-9]+) runs" done "${log}")
if(NOT done OR NOT CMAKE_MATCH_1 EQUAL RUNS)
  message(FATAL_ERROR "${name} ran '${CMAKE_MATCH_1}' inputs, expected ${RUNS} "
                      "(time limit hit?)\n${log}")
endif()
string(REGEX MATCH "stat::average_exec_per_sec: *[0-9]+" speed "${log}")
message(STATUS "${name}: ${CMAKE_MATCH_1} inputs run cleanly (${speed})")
