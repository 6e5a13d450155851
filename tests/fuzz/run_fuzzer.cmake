# Runs one fuzzer for SECONDS from a scratch copy of its corpus (the checked-in corpus is never
# written to); a crash, leak, timeout or sanitizer report fails the test and leaves the input in WORK.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
file(GLOB seeds ${CORPUS}/*)
file(COPY ${seeds} DESTINATION ${WORK}/corpus)
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -max_len=65536
                        -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/ ${WORK}/corpus
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} found a problem (exit ${rc}); the input is in ${WORK}/artifacts")
endif()
