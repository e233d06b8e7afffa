# Writes OUT (a header defining HSPARSE_GIT_COMMIT) from `git rev-parse`,
# marking a dirty tree, and touches it only when the text changes, so a
# commit with no source change rebuilds one file. Run at every build.
# HSPARSE_COMMIT in the environment names the commit instead: the GPU
# machine's copy of the tree carries a .git that is not the tree's
# (scripts/gpu-check.sh is run with it).
if(DEFINED ENV{HSPARSE_COMMIT} AND NOT "$ENV{HSPARSE_COMMIT}" STREQUAL "")
  set(commit "$ENV{HSPARSE_COMMIT}")
else()
  execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT commit)
    set(commit "unknown")
  else()
    execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                    OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(dirty)
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
file(WRITE ${OUT}.tmp "#pragma once\n#define HSPARSE_GIT_COMMIT \"${commit}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.tmp)
