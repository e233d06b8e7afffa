# Install and export rules (issue 19): the library, its public headers, the
# hsparse tool, the CMake package (hsparseConfig.cmake, hsparseConfigVersion
# .cmake, hsparseTargets.cmake: hsparse::hsparse, hsparse::cli) and hsparse.pc.
# Every installed path is relative to the prefix, so an install can be
# moved (tests/install/consume.sh moves one and builds against it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(HSPARSE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hsparse)

install(TARGETS hsparse EXPORT hsparseTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hsparse DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(FILES ${HSPARSE_GENERATED_INCLUDE}/hsparse/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hsparse)
if(TARGET hsparse_cli)
  install(TARGETS hsparse_cli EXPORT hsparseTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT hsparseTargets NAMESPACE hsparse:: DESTINATION ${HSPARSE_CMAKE_DIR})

# SameMinorVersion while the major version is 0: under semantic versioning a
# 0.y release may change the API, so 0.2 does not satisfy a request for 0.1.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(hsparse_compatibility SameMinorVersion)
else()
  set(hsparse_compatibility SameMajorVersion)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hsparseConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hsparseConfig.cmake INSTALL_DESTINATION ${HSPARSE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hsparseConfigVersion.cmake
  COMPATIBILITY ${hsparse_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/hsparseConfig.cmake ${PROJECT_BINARY_DIR}/hsparseConfigVersion.cmake
  DESTINATION ${HSPARSE_CMAKE_DIR})

# pkg-config. A static libhsparse.a needs its dependencies on the link line
# of every consumer, so they go to Libs there and to Libs.private for a
# shared library. The CUDA libraries are named with their folder (and an
# rpath, as the toolkit's folder is not on the loader's path by default).
set(pc_deps "")
if(HSPARSE_HAVE_CUDA)
  set(pc_cuda "-L${CUDAToolkit_LIBRARY_DIR} -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR} -lcusparse -lcublas -lcudart")
endif()
set(pc_deps "-lz")
if(LibArchive_FOUND)
  string(APPEND pc_deps " -larchive")
endif()
if(HWLOC_FOUND)
  string(APPEND pc_deps " -lhwloc")
endif()
if(HSPARSE_HAVE_MPI)
  foreach(lib IN LISTS MPI_CXX_LIBRARIES)
    string(APPEND pc_deps " ${lib}")
  endforeach()
endif()
if(HSPARSE_HAVE_METIS)
  string(APPEND pc_deps " ${METIS_LIBRARY}")
endif()
if(HSPARSE_HAVE_NCCL)
  string(APPEND pc_deps " ${NCCL_LIBRARY}")
endif()
set(HSPARSE_PC_CFLAGS "-fopenmp")
if(BUILD_SHARED_LIBS)
  set(HSPARSE_PC_LIBS "-fopenmp ${pc_cuda}")
  set(HSPARSE_PC_LIBS_PRIVATE "${pc_deps}")
else()
  set(HSPARSE_PC_LIBS "-fopenmp ${pc_deps} ${pc_cuda}")
  set(HSPARSE_PC_LIBS_PRIVATE "")
endif()
file(RELATIVE_PATH HSPARSE_PC_PREFIX_FROM_PCFILEDIR
  /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/hsparse.pc.in ${PROJECT_BINARY_DIR}/hsparse.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hsparse.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
