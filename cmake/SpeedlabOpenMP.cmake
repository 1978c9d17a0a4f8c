# SpeedlabOpenMP.cmake - OpenMP for the C compiler, or one message naming
# the ways to get it (in place of CMake's "Could NOT find OpenMP_C").
#
# AppleClang has no OpenMP runtime of its own, and Homebrew's libomp is
# keg-only: installed under <prefix>/opt/libomp, outside the paths
# FindOpenMP searches. Unless OpenMP_ROOT names one, it is looked for in
# Homebrew's prefix ($HOMEBREW_PREFIX, else Apple Silicon's /opt/homebrew,
# else Intel Macs' /usr/local). Written for macOS; not yet run on a Mac.
if(APPLE AND NOT OpenMP_ROOT AND NOT DEFINED ENV{OpenMP_ROOT})
  foreach(_brew "$ENV{HOMEBREW_PREFIX}" /opt/homebrew /usr/local)
    if(_brew AND EXISTS "${_brew}/opt/libomp/include/omp.h")
      set(OpenMP_ROOT "${_brew}/opt/libomp")
      message(STATUS "speedlab: Homebrew's libomp in ${OpenMP_ROOT}")
      break()
    endif()
  endforeach()
endif()

find_package(OpenMP COMPONENTS C)
if(NOT OpenMP_C_FOUND)
  string(CONCAT _omp_ways
    "speedlab: the C compiler (${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}, ${CMAKE_C_COMPILER}) "
    "builds no OpenMP program. Any one of these, then make again:\n"
    "  macOS (Apple's clang):  brew install libomp (found in Homebrew's prefix; "
    "elsewhere: export OpenMP_ROOT=<libomp's prefix>)\n"
    "  Debian/Ubuntu (clang):  sudo apt-get install libomp-dev\n"
    "  another compiler:       make CC=gcc (on a cluster: module load gcc)")
  message(NOTICE "${_omp_ways}")
  message(FATAL_ERROR "speedlab: no OpenMP for the C compiler (the ways to get it are above)")
endif()
