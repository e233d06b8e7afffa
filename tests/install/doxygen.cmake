# Runs Doxygen over the public headers (DOXYFILE, configured by
# cmake/Docs.cmake) and fails on any warning, printing them all.
file(MAKE_DIRECTORY ${OUTPUT})
execute_process(COMMAND ${DOXYGEN} ${DOXYFILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${OUTPUT}/warnings.log warnings)
string(STRIP "${warnings}" warnings)
if(NOT rc EQUAL 0 OR NOT warnings STREQUAL "")
  message(FATAL_ERROR "doxygen (exit ${rc}) warns about the public headers:\n${warnings}\n${err}")
endif()
message(STATUS "doxygen: no warnings; reference in ${OUTPUT}/html/index.html")
