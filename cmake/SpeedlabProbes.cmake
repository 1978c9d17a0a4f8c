# SpeedlabProbes.cmake - what this compiler and machine can do, decided by
# compiling (and linking) real code, never by guessing from names.
#
# Sets, for the rest of the build:
#   SPEEDLAB_ARCH_FLAGS     flags for the target ISA (-march=native, -march=$SPEEDLAB_ARCH
#                           when that names a level, or none), and for kernel
#                           code's layout (-falign-*=64); as one
#                           line: SPEEDLAB_ARCH_FLAGS_TEXT
#   SPEEDLAB_ARCH_WARNINGS  what those flags need kept quiet (clang 19, AVX10)
#   SPEEDLAB_SIMD_ISA       AVX-512, AVX2, SSE2, NEON or none (what the flags give)
#   SPEEDLAB_SIMD_LANES     doubles per vector register of that ISA
#   SPEEDLAB_NOVEC_FLAGS    flags that switch the auto-vectoriser off (scalar files)
#   SPEEDLAB_OFFLOAD_FLAGS  OpenMP offload flags chosen by a link test
#   SPEEDLAB_OFFLOAD_TARGET what offload code is generated for ("none" = host only)
#   SPEEDLAB_HAVE_CUDA      1 when nvcc works: CUDA is enabled, the CUDA
#                           variants are built (architectures 75;80;90 unless
#                           CMAKE_CUDA_ARCHITECTURES says otherwise)
#   SPEEDLAB_HAVE_NVTX      1 when the toolkit's NVTX 3 header is there
#   SPEEDLAB_CUDA_STATUS    a sentence for the summary
include(CheckCSourceCompiles)
include(CheckLanguage)

# --- Target ISA -------------------------------------------------------------
set(SPEEDLAB_ARCH_FLAGS "")
include(CheckCCompilerFlag)
if(SPEEDLAB_ARCH)
  # A named level (the GPU bundle: x86-64-v3) runs on machines other than
  # this one; native would stop with an illegal instruction there.
  string(MAKE_C_IDENTIFIER "SPEEDLAB_HAS_MARCH_${SPEEDLAB_ARCH}" _var)
  check_c_compiler_flag("-march=${SPEEDLAB_ARCH}" ${_var})
  if(NOT ${_var})
    message(FATAL_ERROR "speedlab: ${CMAKE_C_COMPILER_ID} does not take -march=${SPEEDLAB_ARCH} (SPEEDLAB_ARCH)")
  endif()
  set(SPEEDLAB_ARCH_FLAGS "-march=${SPEEDLAB_ARCH}")
elseif(SPEEDLAB_NATIVE)
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

# clang 19 on a CPU with AVX10.1 (an Intel Xeon 6 here) says for every
# file that -march=native's "+avx10.1-256 will be promoted to avx10.1-512":
# its own choice of features, harmless (the CPU has AVX-512), and an error
# under -Werror. Kept quiet where the compiler has that warning.
set(SPEEDLAB_ARCH_WARNINGS "")
if(SPEEDLAB_ARCH_FLAGS AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  check_c_compiler_flag("-Winvalid-feature-combination" SPEEDLAB_HAS_WFEATURE_COMBINATION)
  if(SPEEDLAB_HAS_WFEATURE_COMBINATION)
    set(SPEEDLAB_ARCH_WARNINGS "$<$<COMPILE_LANGUAGE:C>:-Wno-invalid-feature-combination>")
  endif()
endif()

# Ask the preprocessor which vector ISA these flags enable (widest first).
set(CMAKE_REQUIRED_FLAGS "${SPEEDLAB_ARCH_FLAGS}")
set(SPEEDLAB_SIMD_ISA "none")
set(SPEEDLAB_SIMD_LANES 1)
# SVE's vector length is the machine's (128 to 2048 bits): 2 doubles, its
# least and NEON's, unless -msve-vector-bits fixes it (below).
foreach(probe "AVX-512;__AVX512F__;8" "AVX2;__AVX2__;4" "SSE2;__SSE2__;2"
              "SVE;__ARM_FEATURE_SVE;2" "NEON;__ARM_NEON;2")
  list(GET probe 0 isa)
  list(GET probe 1 macro)
  list(GET probe 2 lanes)
  # The flags in the name: a result cached for other flags (SPEEDLAB_ARCH
  # changed in this folder) is not this one's.
  string(MAKE_C_IDENTIFIER "SPEEDLAB_ISA_${isa}_${SPEEDLAB_ARCH_FLAGS}" var)
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
if(SPEEDLAB_SIMD_ISA STREQUAL "SVE")
  foreach(bits 2048 1024 512 256)
    check_c_source_compiles("
      #if !defined(__ARM_FEATURE_SVE_BITS) || __ARM_FEATURE_SVE_BITS != ${bits}
      #error not ${bits}
      #endif
      int main(void) { return 0; }" ${var}_${bits})
    if(${var}_${bits})
      math(EXPR SPEEDLAB_SIMD_LANES "${bits} / 64")
      break()
    endif()
  endforeach()
endif()
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
set(SPEEDLAB_OFFLOAD_FLAGS "")
set(SPEEDLAB_OFFLOAD_TARGET "none (host fallback)")
set(_offload_rpath "")
if(SPEEDLAB_OFFLOAD STREQUAL "OFF")
  set(_candidates "")
elseif((SPEEDLAB_SANITIZE OR SPEEDLAB_RACECHECK) AND NOT SPEEDLAB_OFFLOAD STREQUAL "ON")
  # The sanitizers have no device runtime (GCC's mkoffload stops at
  # "unresolved symbol __ubsan_handle_add_overflow"): a sanitized build
  # checks the host fallback, with or without an offload compiler.
  set(_candidates "")
elseif(SPEEDLAB_OFFLOAD STREQUAL "HOST")
  # LLVM's host offload device (libomptarget's host plugin): the "device"
  # is this CPU with memory of its own, so every map copies, as to a GPU.
  # libomptarget sits beside the libomp found, outside the loader's path:
  # every link (and the probe's) gets that folder as a run path. Only
  # clang has it; any other compiler ends below with how to get it.
  set(_candidates "")
  if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
    get_filename_component(_omp_dir "${OpenMP_omp_LIBRARY}" DIRECTORY)
    set(_offload_rpath "-Wl,-rpath,${_omp_dir}")
    # Its device code leaves a region's simd loops scalar and warns each
    # time ("loop not vectorized"): its speed is not the point, its copies
    # are. Line tables let LIBOMPTARGET_INFO name each map and region
    # ("alloc(terms[0:steps])", file:line) instead of "unknown". The
    # device is this machine's own target (x86_64-pc-linux-gnu here).
    execute_process(COMMAND ${CMAKE_C_COMPILER} -dumpmachine OUTPUT_VARIABLE _triple
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(_candidates
      "host offload device|-fopenmp-targets=${_triple},-Wno-pass-failed,-gline-tables-only")
  endif()
elseif(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  # Ubuntu's GCC turns on -fcf-protection (Intel CET) by default and hands
  # it to the nvptx compiler, which stops ("not supported for this
  # target"): the device code is built without it.
  set(_candidates "nvptx sm_80|-foffload=nvptx-none,-foffload-options=nvptx-none=-misa=sm_80,-foffload-options=nvptx-none=-fcf-protection=none")
elseif(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  # clang 16 and 19 (Debian: clang-N, libomp-N-dev, clang-tools-N for the
  # offload packager and linker wrapper) build machine code for Ampere and
  # Hopper with the CUDA toolkit they find; they warn that CUDA 13 is newer
  # than the one they know, which is no error (but see scripts/cubin_v1.c).
  # clang 14 has no nvptx device runtime in Debian and falls to the host.
  set(_candidates
    "nvptx sm_80+sm_90|-fopenmp-targets=nvptx64-nvidia-cuda,--offload-arch=sm_80,--offload-arch=sm_90,-Wno-unknown-cuda-version"
    "nvptx sm_80|-fopenmp-targets=nvptx64-nvidia-cuda,-Xopenmp-target=nvptx64-nvidia-cuda,-march=sm_80")
else()
  set(_candidates "")
endif()

# clang 19's linker wrapper takes device code out of a static library only
# when device code already linked needs it, and no kernel's is needed that
# way: the program then has no device image and crashes in its first target
# region (seen with clang 19.1.7; clang 16 extracted it). So with clang,
# programs take every member of a library that holds target regions
# (speedlab_offload_library), and the probe links its library the same way.
if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  set(_whole_archive ON)
else()
  set(_whole_archive OFF)
endif()

# Build the probe project with some flags, then run it: a configuration that
# links but cannot start (no offload runtime) would break every program.
# Sets ${result} to TRUE when the probe built and ran correctly.
function(speedlab_try_offload result tag flags)
  string(JOIN " " flagtext ${OpenMP_C_FLAGS} ${flags})
  set(dir "${CMAKE_BINARY_DIR}/probe_offload_${tag}")
  file(REMOVE_RECURSE "${dir}")
  try_compile(built "${dir}" "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/probe_offload" probe_offload
    CMAKE_FLAGS "-DPROBE_FLAGS=${flagtext}" "-DPROBE_OMP_FLAGS=${OpenMP_C_FLAGS}"
                "-DPROBE_LIBS=${OpenMP_C_LIBRARIES}"
                "-DPROBE_WHOLE_ARCHIVE=${_whole_archive}"
                "-DPROBE_COMMON=${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../common"
                "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}"
    OUTPUT_VARIABLE log)
  set(ok FALSE)
  if(built AND EXISTS "${dir}/probe")
    # A cross build runs it through its emulator (cmake/aarch64-linux-gnu.cmake).
    execute_process(COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} "${dir}/probe" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET
                    TIMEOUT 60)
    if(rc EQUAL 0)
      set(ok TRUE)
    endif()
  endif()
  set(${result} ${ok} PARENT_SCOPE)
endfunction()

foreach(cand IN LISTS _candidates)
  string(REPLACE "|" ";" cand "${cand}")
  string(REPLACE "," ";" cand "${cand}")
  list(GET cand 0 target)
  list(REMOVE_AT cand 0)
  speedlab_try_offload(_ok device "${cand};${_offload_rpath}")
  if(_ok)
    set(SPEEDLAB_OFFLOAD_FLAGS ${cand})
    set(SPEEDLAB_OFFLOAD_TARGET "${target}")
    if(_offload_rpath)
      add_link_options("LINKER:-rpath,${_omp_dir}")
    endif()
    break()
  endif()
endforeach()
if(NOT SPEEDLAB_OFFLOAD_FLAGS AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
  # A GCC with an offload package installed still tries to build device code
  # for a plain -fopenmp link (and fails with a new ptxas): say host only.
  set(SPEEDLAB_OFFLOAD_FLAGS -foffload=disable)
endif()
if(SPEEDLAB_OFFLOAD STREQUAL "ON" AND SPEEDLAB_OFFLOAD_TARGET MATCHES "^none")
  string(REGEX MATCH "^[0-9]+" _major "${CMAKE_C_COMPILER_VERSION}")
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    set(_need "install gcc-${_major}-offload-nvptx")
  else()
    set(_need "clang needs the CUDA toolkit (libdevice, ptxas) and its libomp's nvptx runtime")
  endif()
  message(FATAL_ERROR "speedlab: SPEEDLAB_OFFLOAD=ON but no offload "
    "configuration links and runs a target region with ${CMAKE_C_COMPILER_ID}: ${_need}.")
endif()
if(SPEEDLAB_OFFLOAD STREQUAL "HOST" AND SPEEDLAB_OFFLOAD_TARGET MATCHES "^none")
  # Asked for a device that copies: falling back to shared memory would
  # hide the very bugs it is asked for.
  set(_why "has none")
  if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
    set(_why "could not build and run a target region for it (${CMAKE_BINARY_DIR}/probe_offload_device)")
  endif()
  message(FATAL_ERROR "speedlab: SPEEDLAB_OFFLOAD=HOST needs clang with LLVM's "
    "offload runtime: make ... OFFLOAD=host sets it up (clang-19 and clang-tools-19 "
    "installed, libomp-19-dev unpacked beside the build by scripts/clang_omp.sh); "
    "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} ${_why}")
endif()
set(SPEEDLAB_OFFLOAD_WHOLE_ARCHIVE OFF)
if(_whole_archive AND NOT SPEEDLAB_OFFLOAD_TARGET MATCHES "^none")
  set(SPEEDLAB_OFFLOAD_WHOLE_ARCHIVE ON)
endif()

# speedlab_offload_library(<lib>): every program linking <lib>, a static
# library with target regions, takes all of it where the compiler needs
# that to find the device code (above). One -Wl, option per library, so
# CMake's de-duplication of link options keeps the three words together.
function(speedlab_offload_library lib)
  if(SPEEDLAB_OFFLOAD_WHOLE_ARCHIVE)
    target_link_options(${lib} INTERFACE "LINKER:--whole-archive,$<TARGET_FILE:${lib}>,--no-whole-archive")
  endif()
endfunction()

# The flags chosen must at least build and run for the host.
speedlab_try_offload(_host_ok host "${SPEEDLAB_OFFLOAD_FLAGS};${_offload_rpath}")
if(NOT _host_ok)
  message(FATAL_ERROR "speedlab: a target region does not build and run for "
    "the host with '${SPEEDLAB_OFFLOAD_FLAGS}'; see ${CMAKE_BINARY_DIR}/probe_offload_host")
endif()

# --- Kernel code's layout ----------------------------------------------------
# Each function, loop and jump target starts a 64-byte line, so that a
# kernel's loops sit in the same lines whatever code the linker put
# before it, and a short loop never straddles two. Without it k-means'
# scalar took 455 ms in one build and 660 in the next (Intel Xeon model
# 167): the same instructions, its 34-byte inner loop inside one line or
# across two, moved by a change to another kernel (make history would
# have flagged that commit), and threads.c on one thread could be 1.45x
# faster than scalar.c. Each flag where the compiler takes it for a
# target region with the offload flags chosen above: clang ignores
# -falign-jumps, and passes -falign-loops to its GPU code, whose ptxas
# rejects the alignment ("Parsing error near '.p2align'").
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
foreach(flag -falign-functions=64 -falign-loops=64 -falign-jumps=64)
  string(MAKE_C_IDENTIFIER "SPEEDLAB_HAS${flag}_${SPEEDLAB_OFFLOAD_TARGET}" _var)
  # Optimised, as the kernels are: at -O0 no loop is aligned at all.
  string(JOIN " " CMAKE_REQUIRED_FLAGS -O2 ${OpenMP_C_FLAGS} ${SPEEDLAB_OFFLOAD_FLAGS} ${flag})
  check_c_source_compiles("
    double f(double *a, int n) {
      double s = 0.0;
    #pragma omp target teams distribute parallel for reduction(+:s) map(to: a[0:n])
      for (int i = 0; i < n; i++) s += a[i] * a[i];
      return s;
    }" ${_var} FAIL_REGEX "not supported" "unknown argument" "unrecognized .*option"
    "unknown .*option" "argument unused" "ignoring unknown")
  if(${_var})
    list(APPEND SPEEDLAB_ARCH_FLAGS ${flag})
  endif()
endforeach()
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_TRY_COMPILE_TARGET_TYPE)
string(REPLACE ";" " " SPEEDLAB_ARCH_FLAGS_TEXT "${SPEEDLAB_ARCH_FLAGS}")

# --- CUDA: optional, never fatal ---------------------------------------------
set(SPEEDLAB_CUDA_STATUS "off (SPEEDLAB_CUDA=OFF)")
set(SPEEDLAB_HAVE_CUDA 0)
set(SPEEDLAB_HAVE_NVTX 0)
set(SPEEDLAB_CUDA_ARCHS_TEXT "")
if(SPEEDLAB_OFFLOAD STREQUAL "HOST")
  # A build for machines without a GPU: no CUDA rows beside its "device".
  set(SPEEDLAB_CUDA_STATUS "off (host offload build)")
elseif(SPEEDLAB_CUDA)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Named architectures, never "native": a build must not depend on the
    # GPU of the machine that compiled it (CI has none). 75 Turing, 80
    # Ampere, 90 Hopper; CUDA 13 dropped everything older than 75.
    if(NOT CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 75 80 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(SPEEDLAB_HAVE_CUDA 1)
    string(JOIN ";" SPEEDLAB_CUDA_ARCHS_TEXT ${CMAKE_CUDA_ARCHITECTURES})
    set(_nvtx "off (no nvtx3 header)")
    if(EXISTS "${CUDAToolkit_INCLUDE_DIRS}/nvtx3/nvToolsExt.h")
      set(SPEEDLAB_HAVE_NVTX 1)
      set(_nvtx "on")
    endif()
    set(SPEEDLAB_CUDA_STATUS "CUDA variants built by nvcc ${CMAKE_CUDA_COMPILER_VERSION} for sm ${SPEEDLAB_CUDA_ARCHS_TEXT}; NVTX ranges ${_nvtx}")
  else()
    set(SPEEDLAB_CUDA_STATUS "no nvcc found: CUDA variants not built (optional)")
  endif()
endif()
