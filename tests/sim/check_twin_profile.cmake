# The timing model's outputs for a CPU-twin program of the user's own (the package
# test's scale_add_cpu, two launches of 8 blocks): ASCEND_XENT_PROFILE gets one line
# per launch with msprof's fields, ASCEND_XENT_TRACE a Chrome trace of the last one.
# -DEXE=<program> -DDIR=<scratch directory>
set(_prof ${DIR}/twin_profile.jsonl)
set(_trace ${DIR}/twin_trace.json)
file(REMOVE ${_prof} ${_trace})
execute_process(COMMAND ${CMAKE_COMMAND} -E env ASCEND_XENT_PROFILE=${_prof} ASCEND_XENT_TRACE=${_trace} ${EXE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} failed (${rc}): ${out}${err}")
endif()
file(STRINGS ${_prof} lines)
list(LENGTH lines n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected one profile line per launch (2), got ${n}")
endif()
foreach(line IN LISTS lines)
  foreach(field "\"kernel\": \"scale_add\"" "\"block_dim\": 8" "\"task_duration_us\"" "\"aiv_mte2_time_us\""
                "\"aiv_vec_ratio\"" "\"blocks\": [{\"block\": 0")
    string(FIND "${line}" "${field}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "profile line lacks ${field}: ${line}")
    endif()
  endforeach()
endforeach()
file(READ ${_trace} trace)
foreach(field "\"traceEvents\"" "\"name\": \"block 7\"" "MTE2 (GM->UB)" "\"name\": \"Add\"")
  string(FIND "${trace}" "${field}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "trace lacks ${field}")
  endif()
endforeach()
