# SpeedlabProbes.cmake - what this compiler and machine can do, decided by
# compiling (and linking) real code, never by guessing from names.
#
# Sets, for the rest of the build:
#   SPEEDLAB_ARCH_FLAGS     flags for the target ISA (-march=native or none)
#   SPEEDLAB_SIMD_ISA       AVX-512, AVX2, SSE2, NEON or none (what the flags give)
#   SPEEDLAB_SIMD_LANES     doubles per vector register of that ISA
#   SPEEDLAB_NOVEC_FLAGS    flags that switch the auto-vectoriser off (scalar files)
#   SPEEDLAB_OFFLOAD_FLAGS  OpenMP offload flags chosen by a link test
#   SPEEDLAB_OFFLOAD_TARGET what offload code is generated for ("none" = host only)
#   SPEEDLAB_CUDA_STATUS    a sentence for the summary
include(CheckCSourceCompiles)
include(CheckLanguage)

# --- Target ISA -------------------------------------------------------------
set(SPEEDLAB_ARCH_FLAGS "")
if(SPEEDLAB_NATIVE)
  include(CheckCCompilerFlag)
  check_c_compiler_flag("-march=native" SPEEDLAB_HAS_MARCH_NATIVE)
  if(SPEEDLAB_HAS_MARCH_NATIVE)
    set(SPEEDLAB_ARCH_FLAGS "-march=native")
  else()
    # Apple clang on arm64 rejects -march=native; -mcpu=native is its spelling.
    check_c_compiler_flag("-mcpu=native" SPEEDLAB_HAS_MCPU_NATIVE)
    if(SPEEDLAB_HAS_MCPU_NATIVE)
      set(SPEEDLAB_ARCH_FLAGS "-mcpu=native")
    endif()
  endif()
endif()

# Ask the preprocessor which vector ISA these flags enable (widest first).
set(CMAKE_REQUIRED_FLAGS "${SPEEDLAB_ARCH_FLAGS}")
set(SPEEDLAB_SIMD_ISA "none")
set(SPEEDLAB_SIMD_LANES 1)
foreach(probe "AVX-512;__AVX512F__;8" "AVX2;__AVX2__;4" "SSE2;__SSE2__;2"
              "NEON;__ARM_NEON;2")
  list(GET probe 0 isa)
  list(GET probe 1 macro)
  list(GET probe 2 lanes)
  string(MAKE_C_IDENTIFIER "SPEEDLAB_ISA_${isa}" var)
  check_c_source_compiles("
    #ifndef ${macro}
    #error no ${isa}
    #endif
    int main(void) { return 0; }" ${var})
  if(${var})
    set(SPEEDLAB_SIMD_ISA "${isa}")
    set(SPEEDLAB_SIMD_LANES ${lanes})
    break()
  endif()
endforeach()
unset(CMAKE_REQUIRED_FLAGS)

# --- Scalar means scalar ----------------------------------------------------
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  set(SPEEDLAB_NOVEC_FLAGS -fno-tree-vectorize)
elseif(CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(SPEEDLAB_NOVEC_FLAGS -fno-vectorize -fno-slp-vectorize)
else()
  message(WARNING "speedlab: no known flag turns ${CMAKE_C_COMPILER_ID}'s "
                  "auto-vectoriser off; the scalar baseline may be vectorised")
  set(SPEEDLAB_NOVEC_FLAGS "")
endif()

# --- OpenMP offload: a real link of a target region decides ----------------
# Candidates per compiler, best first: "<what it targets>|<flag>,<flag>...".
set(_offload_src "${CMAKE_CURRENT_LIST_DIR}/probe_offload.c")
set(SPEEDLAB_OFFLOAD_FLAGS "")
set(SPEEDLAB_OFFLOAD_TARGET "none (host fallback)")
if(SPEEDLAB_OFFLOAD STREQUAL "OFF")
  set(_candidates "")
elseif(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  set(_candidates "nvptx sm_80|-foffload=nvptx-none,-foffload-options=nvptx-none=-misa=sm_80")
elseif(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  set(_candidates "nvptx sm_80|-fopenmp-targets=nvptx64-nvidia-cuda,-Xopenmp-target=nvptx64-nvidia-cuda,-march=sm_80")
else()
  set(_candidates "")
endif()
foreach(cand IN LISTS _candidates)
  string(REPLACE "|" ";" cand "${cand}")
  string(REPLACE "," ";" cand "${cand}")
  list(GET cand 0 target)
  list(REMOVE_AT cand 0)
  unset(_ok CACHE)  # try_compile caches; a re-configure must probe again
  try_compile(_ok "${CMAKE_BINARY_DIR}/probe_offload_${target}" "${_offload_src}"
    COMPILE_DEFINITIONS ${OpenMP_C_FLAGS} ${cand}
    LINK_OPTIONS ${OpenMP_C_FLAGS} ${cand}
    LINK_LIBRARIES ${OpenMP_C_LIBRARIES}
    OUTPUT_VARIABLE _log)
  if(_ok)
    set(SPEEDLAB_OFFLOAD_FLAGS ${cand})
    set(SPEEDLAB_OFFLOAD_TARGET "${target}")
    break()
  endif()
endforeach()
if(NOT SPEEDLAB_OFFLOAD_FLAGS AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
  # A GCC with an offload package installed still tries to build device code
  # for a plain -fopenmp link (and fails with a new ptxas): say host only.
  set(SPEEDLAB_OFFLOAD_FLAGS -foffload=disable)
endif()
if(SPEEDLAB_OFFLOAD STREQUAL "ON" AND SPEEDLAB_OFFLOAD_TARGET MATCHES "^none")
  message(FATAL_ERROR "speedlab: SPEEDLAB_OFFLOAD=ON but no offload "
    "configuration links a target region with ${CMAKE_C_COMPILER_ID}. For GCC "
    "install gcc-${CMAKE_C_COMPILER_VERSION_MAJOR}-offload-nvptx.")
endif()
# The same flags must also compile and link for the host-only fallback.
unset(_host_ok CACHE)
try_compile(_host_ok "${CMAKE_BINARY_DIR}/probe_offload_host" "${_offload_src}"
  COMPILE_DEFINITIONS ${OpenMP_C_FLAGS} ${SPEEDLAB_OFFLOAD_FLAGS}
  LINK_OPTIONS ${OpenMP_C_FLAGS} ${SPEEDLAB_OFFLOAD_FLAGS}
  LINK_LIBRARIES ${OpenMP_C_LIBRARIES}
  OUTPUT_VARIABLE _log)
if(NOT _host_ok)
  message(FATAL_ERROR "speedlab: a target region does not even build for the "
    "host with '${SPEEDLAB_OFFLOAD_FLAGS}':\n${_log}")
endif()

# --- CUDA: optional, never fatal ---------------------------------------------
set(SPEEDLAB_CUDA_STATUS "off (SPEEDLAB_CUDA=OFF)")
if(SPEEDLAB_CUDA)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(SPEEDLAB_CUDA_STATUS "nvcc found at ${CMAKE_CUDA_COMPILER} (CUDA variants arrive with lesson 5)")
  else()
    set(SPEEDLAB_CUDA_STATUS "no nvcc found (optional)")
  endif()
endif()
