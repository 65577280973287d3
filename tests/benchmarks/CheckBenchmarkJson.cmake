# ctest smoke check (not a timing test): a benchmark runs on a small input and prints one JSON
# object with the figures other tools read.
# Inputs: BENCH; ARGS (default: the report benchmark's); KEYS, top-level keys that must hold
# positive numbers (default: the report benchmark's, which also checks its per-kind figures).
if(NOT DEFINED ARGS)
  set(ARGS --rows 20000)
endif()
execute_process(COMMAND ${BENCH} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BENCH} exited with ${rc}: ${err}")
endif()
set(per_kind "")
if(NOT DEFINED KEYS)
  set(KEYS writer_rows_per_s baseline_rows_per_s close_ms)
  set(per_kind execution_trace host_events)
endif()
foreach(key IN LISTS KEYS)
  string(JSON value ERROR_VARIABLE problem GET "${out}" ${key})
  if(problem OR NOT value GREATER 0)
    message(FATAL_ERROR "no positive '${key}' in the benchmark's JSON (${problem}):\n${out}")
  endif()
endforeach()
foreach(kind IN LISTS per_kind)
  string(JSON value ERROR_VARIABLE problem GET "${out}" ${kind} writer_rows_per_s)
  if(problem OR NOT value GREATER 0)
    message(FATAL_ERROR "no '${kind}.writer_rows_per_s' in the benchmark's JSON:\n${out}")
  endif()
endforeach()
