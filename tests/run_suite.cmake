# Runs the whole test suite of another build of this project (the sanitizer build, the fuzz build)
# as one test of this one, so `ctest --test-dir build` runs every test. DIR: that build's folder.
if(NOT EXISTS ${DIR}/CTestTestfile.cmake)
  message(FATAL_ERROR "${DIR} has not been built: run `bash .ci/setup --hardening` first")
endif()
# Three at a time on CI's two cores: the real-window tests spend most of their time waiting on X and
# xdotool's pacing (the soak's minute of random input above all), and a third test computes meanwhile.
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${DIR} --output-on-failure -j3 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tests failed in ${DIR} (ctest exit ${rc}); the failing tests' output is above")
endif()
