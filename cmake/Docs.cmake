# The API reference (Doxygen from Debian over the public headers listed in
# docs/Doxyfile.in): target hsparse_docs writes build/docs/html; the test
# doxygen_public_headers (tests/CMakeLists.txt) fails on any warning, an
# undocumented public entity included.
find_package(Doxygen QUIET)
set(HSPARSE_DOCS_OUTPUT ${PROJECT_BINARY_DIR}/docs)
set(HSPARSE_DOXYFILE ${PROJECT_BINARY_DIR}/Doxyfile)
configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${HSPARSE_DOXYFILE} @ONLY)
if(DOXYGEN_FOUND)
  add_custom_target(hsparse_docs
    COMMAND ${CMAKE_COMMAND} -E make_directory ${HSPARSE_DOCS_OUTPUT}
    COMMAND Doxygen::doxygen ${HSPARSE_DOXYFILE}
    COMMENT "API reference in ${HSPARSE_DOCS_OUTPUT}/html"
    VERBATIM)
endif()
