# SpeedlabBenchmark.cmake - Google Benchmark, the bench's clock: the one
# installed (libbenchmark-dev, a module, Spack, conda, Homebrew: anywhere
# CMAKE_PREFIX_PATH reaches), else built here from a pinned release's
# source. SPEEDLAB_BENCHMARK_SOURCE (a CMake setting, or the environment's)
# names that source for a machine without internet (a login node): a release tarball (Debian's
# benchmark_1.7.1.orig.tar.gz is GitHub's v1.7.1, byte for byte) or an
# unpacked folder. Without it the pinned tarball is downloaded, its SHA-256
# checked. When neither works, one message says every way to get it, and
# nothing partial stays in the build folder.
# 1.7 or newer: the bench sets each benchmark's warm-up (MinWarmUpTime,
# new in 1.7.0). An older one installed (Ubuntu 22.04's 1.6.1) is passed
# over, and said so: the pinned release is built here instead.
find_package(benchmark 1.7 QUIET)
if(benchmark_FOUND)
  set(SPEEDLAB_BENCHMARK_FROM "installed (${benchmark_DIR})")
  return()
endif()
if(benchmark_CONSIDERED_VERSIONS)
  # (One package is found again under each prefix that leads to it.)
  list(REMOVE_DUPLICATES benchmark_CONSIDERED_VERSIONS)
  list(JOIN benchmark_CONSIDERED_VERSIONS ", " _gb_old)
  message(STATUS "speedlab: the installed Google Benchmark (${_gb_old}) "
                 "is older than 1.7, which the bench needs (its warm-up setting)")
endif()

# The environment's SPEEDLAB_BENCHMARK_SOURCE is the default: set once in
# a login node's shell, it serves every build folder the kit makes.
set(SPEEDLAB_BENCHMARK_SOURCE "$ENV{SPEEDLAB_BENCHMARK_SOURCE}" CACHE STRING
    "Google Benchmark's source when none is installed: a release tarball or folder (default: download v1.7.1)")
set(_gb_url "https://github.com/google/benchmark/archive/refs/tags/v1.7.1.tar.gz")
set(_gb_sha256 "6430e4092653380d9dc4ccb45a1e2dc9259d581f4866dc0759713126056bc1d7")
set(_gb_tarball "${CMAKE_BINARY_DIR}/_deps/benchmark-1.7.1.tar.gz")
set(_gb_ways
  "Google Benchmark is not installed, and its source could not be had (REASON). Any one of these, then make again:\n"
  "  Debian/Ubuntu:  sudo apt-get install libbenchmark-dev (1.7 or newer: Debian 12, Ubuntu 24.04)\n"
  "  a cluster:      module load google-benchmark (or spack install benchmark, or conda install -c conda-forge benchmark),\n"
  "                  then make CMAKE_ARGS=-DCMAKE_PREFIX_PATH=<its prefix>\n"
  "  macOS:          brew install google-benchmark\n"
  "  no internet:    copy benchmark-1.7.1.tar.gz (${_gb_url}) here, then\n"
  "                  make CMAKE_ARGS=-DSPEEDLAB_BENCHMARK_SOURCE=/path/to/benchmark-1.7.1.tar.gz\n"
  "                  (or export SPEEDLAB_BENCHMARK_SOURCE=/path/to/benchmark-1.7.1.tar.gz: every build folder)")
string(CONCAT _gb_ways ${_gb_ways})

# The ways, unwrapped (message(NOTICE) keeps the lines as written), then
# the stop.
function(speedlab_no_benchmark why)
  message(NOTICE "speedlab: ${why}")
  message(FATAL_ERROR "speedlab: no Google Benchmark (the ways to get it are above)")
endfunction()

set(_gb_src "${SPEEDLAB_BENCHMARK_SOURCE}")
if(_gb_src AND NOT EXISTS "${_gb_src}")
  string(REPLACE "REASON" "SPEEDLAB_BENCHMARK_SOURCE=${_gb_src} does not exist" _gb_why "${_gb_ways}")
  speedlab_no_benchmark("${_gb_why}")
elseif(NOT _gb_src AND NOT EXISTS "${_gb_tarball}")
  message(STATUS "speedlab: Google Benchmark is not installed: downloading v1.7.1 to build it here")
  file(DOWNLOAD "${_gb_url}" "${_gb_tarball}.part" STATUS _gb_status TIMEOUT 60)
  list(GET _gb_status 0 _gb_code)
  list(GET _gb_status 1 _gb_text)
  if(_gb_code EQUAL 0)
    file(SHA256 "${_gb_tarball}.part" _gb_got)
    if(NOT _gb_got STREQUAL _gb_sha256)
      set(_gb_code 1)
      set(_gb_text "its SHA-256 is ${_gb_got}, not v1.7.1's")
    endif()
  endif()
  if(NOT _gb_code EQUAL 0)
    file(REMOVE "${_gb_tarball}.part")
    string(REPLACE "REASON" "the download failed: ${_gb_text}" _gb_why "${_gb_ways}")
    speedlab_no_benchmark("${_gb_why}")
  endif()
  file(RENAME "${_gb_tarball}.part" "${_gb_tarball}")
endif()
if(NOT _gb_src)
  set(_gb_src "${_gb_tarball}")
endif()

include(FetchContent)
set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_INSTALL OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_WERROR OFF CACHE BOOL "" FORCE)
set(BENCHMARK_INSTALL_DOCS OFF CACHE BOOL "" FORCE)
if(IS_DIRECTORY "${_gb_src}")
  FetchContent_Declare(benchmark SOURCE_DIR "${_gb_src}")
else()
  # Another release's tarball is the user's choice: only the pinned one
  # is held to its hash.
  FetchContent_Declare(benchmark URL "${_gb_src}")
endif()
FetchContent_MakeAvailable(benchmark)
set(SPEEDLAB_BENCHMARK_FROM "built from ${_gb_src}")
