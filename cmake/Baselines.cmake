# The CPU baselines of hsparse bench: Eigen (headers), librsb and OpenBLAS,
# each optional (Eigen3::Eigen, PkgConfig::LIBRSB, PkgConfig::OPENBLAS;
# Eigen3_FOUND, LIBRSB_FOUND, OPENBLAS_FOUND).
find_package(Eigen3 3.3 QUIET NO_MODULE)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(LIBRSB QUIET IMPORTED_TARGET librsb)
  pkg_check_modules(OPENBLAS QUIET IMPORTED_TARGET openblas)
  # PETSc (Debian's petsc-dev): the distributed bench's CPU baseline, over MPI.
  pkg_check_modules(PETSC QUIET IMPORTED_TARGET PETSc)
endif()
# The GPU machine has neither: scripts/gpu-prepare.sh carries Debian's Eigen
# headers and librsb (library and headers) in third_party/ (git-ignored).
set(TP ${PROJECT_SOURCE_DIR}/third_party)
if(NOT Eigen3_FOUND AND EXISTS ${TP}/include/eigen3/Eigen/SparseCore)
  add_library(Eigen3::Eigen INTERFACE IMPORTED)
  target_include_directories(Eigen3::Eigen INTERFACE ${TP}/include/eigen3)
  set(Eigen3_FOUND ON)
endif()
if(NOT LIBRSB_FOUND AND EXISTS ${TP}/lib/librsb.so AND EXISTS ${TP}/include/rsb.h)
  add_library(PkgConfig::LIBRSB INTERFACE IMPORTED)
  target_include_directories(PkgConfig::LIBRSB INTERFACE ${TP}/include)
  target_link_libraries(PkgConfig::LIBRSB INTERFACE ${TP}/lib/librsb.so)
  set(LIBRSB_FOUND ON)
endif()
# OpenBLAS on the GPU machine: gpu-prepare.sh carries the library xz-packed
# (the carry's size limit) with libgfortran; gpu-check.sh unpacks it.
if(NOT OPENBLAS_FOUND AND EXISTS ${TP}/lib/libopenblas.so AND EXISTS ${TP}/include/openblas/cblas.h)
  add_library(PkgConfig::OPENBLAS INTERFACE IMPORTED)
  target_include_directories(PkgConfig::OPENBLAS INTERFACE ${TP}/include/openblas)
  target_link_libraries(PkgConfig::OPENBLAS INTERFACE ${TP}/lib/libopenblas.so)
  set(OPENBLAS_FOUND ON)
endif()
