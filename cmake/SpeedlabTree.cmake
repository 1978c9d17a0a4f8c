# SpeedlabTree.cmake - turn a tree folder into a library, and build programs
# for one tree.
#
# speedlab_add_tree(<name> <dir> [OVERRIDE <relative file> <replacement> ...])
# builds speedlab_tree_<name> from ${SPEEDLAB_TREE_SOURCES} under <dir>, with
# symbols prefixed <name>_ (common/tree.h). OVERRIDE swaps single files, which
# the tests use to build a deliberately broken tree.
# speedlab_source_of(<out var> <dir> <relative file> [<from> <to> ...]): the
# file to build for <dir>/<relative file>, or its OVERRIDE replacement.
function(speedlab_source_of out dir rel)
  set(src "${dir}/${rel}")
  set(overrides ${ARGN})
  while(overrides)
    list(POP_FRONT overrides from to)
    if(from STREQUAL rel)
      set(src "${to}")
    endif()
  endwhile()
  set(${out} "${src}" PARENT_SCOPE)
endfunction()

function(speedlab_add_tree name dir)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "" "OVERRIDE")
  set(sources "")
  foreach(rel IN LISTS SPEEDLAB_TREE_SOURCES)
    speedlab_source_of(src "${dir}" "${rel}" ${ARG_OVERRIDE})
    list(APPEND sources "${src}")
    # CUDA files: no fused multiply-add where the reference has none.
    if(rel MATCHES "^(fractal|montecarlo)/.*\\.cu$")
      set_property(SOURCE "${src}" APPEND PROPERTY COMPILE_OPTIONS --fmad=false)
      continue()
    elseif(rel MATCHES "\\.cu$")
      continue()
    endif()
    # Variants that are not SIMD on purpose get the auto-vectoriser off, so
    # that each rung of the ladder measures only what it adds.
    if(rel MATCHES "(^|/)(scalar|threads)\\.c$" AND NOT SPEEDLAB_AUTOVEC_BASELINE)
      set_property(SOURCE "${src}" APPEND PROPERTY COMPILE_OPTIONS ${SPEEDLAB_NOVEC_FLAGS})
    endif()
    # clang may refuse an offload region's `simd` on the host fallback and
    # say so ("loop not vectorized"): lesson 5 shows that warning, so it
    # must not stop a -Werror build.
    if(rel MATCHES "/gpu[^/]*\\.c$" AND CMAKE_C_COMPILER_ID MATCHES "Clang")
      set_property(SOURCE "${src}" APPEND PROPERTY COMPILE_OPTIONS -Wno-error=pass-failed)
    endif()
    # Exactness policy (common/fractal_problem.c, montecarlo_problem.h):
    # no FMA contraction.
    if(rel MATCHES "^(fractal|montecarlo)/")
      set_property(SOURCE "${src}" APPEND PROPERTY COMPILE_OPTIONS -ffp-contract=off)
    endif()
    # The lane pool's step (`go ? new : old` under omp simd): without
    # AVX-512's masked instructions GCC 12 will not turn it into blends
    # while a comparison may trap (-ftrapping-math, the default), so on
    # AVX2 (x86-64-v3, the GPU bundle, most laptops) the whole step stayed
    # scalar: 2.3x slower than with this flag, measured on a copy of the
    # loop. Nothing here enables floating-point traps, and the flag changes
    # no value (contraction stays off; the images stay exact).
    if(rel MATCHES "^fractal/")
      set_property(SOURCE "${src}" APPEND PROPERTY COMPILE_OPTIONS -fno-trapping-math)
    endif()
  endforeach()
  add_library(speedlab_tree_${name} STATIC ${sources})
  target_include_directories(speedlab_tree_${name} PUBLIC "${dir}")
  target_compile_definitions(speedlab_tree_${name} PRIVATE SPEEDLAB_TREE=${name})
  # The C flags are gcc's or clang's; nvcc gets its own (below).
  target_compile_options(speedlab_tree_${name} PRIVATE
    "$<$<COMPILE_LANGUAGE:C>:${SPEEDLAB_WARNINGS};${SPEEDLAB_ARCH_FLAGS};${SPEEDLAB_OFFLOAD_FLAGS}>")
  if(SPEEDLAB_HAVE_CUDA)
    target_compile_options(speedlab_tree_${name} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:${SPEEDLAB_CUDA_WARNINGS}>")
    target_link_libraries(speedlab_tree_${name} PUBLIC CUDA::cudart)
  endif()
  # Offload flags act at link time too (device code is linked then), and
  # clang wants its -fopenmp spelling beside them on the link line.
  if(SPEEDLAB_OFFLOAD_FLAGS)
    target_link_options(speedlab_tree_${name} INTERFACE ${OpenMP_C_FLAGS} ${SPEEDLAB_OFFLOAD_FLAGS})
  endif()
  target_link_libraries(speedlab_tree_${name} PUBLIC speedlab_common OpenMP::OpenMP_C)
endfunction()

# speedlab_add_hybrid(<name> <dir> [OVERRIDE <relative file> <replacement> ...])
# builds speedlab_hybrid_<name> from <dir>/mpi/ (lesson 6) on top of the
# tree's own library, whose rows and loops its variants reuse. Like every
# fractal and Monte Carlo file: no FMA contraction.
function(speedlab_add_hybrid name dir)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "" "OVERRIDE")
  set(sources "")
  foreach(rel IN LISTS SPEEDLAB_HYBRID_SOURCES)
    speedlab_source_of(src "${dir}" "${rel}" ${ARG_OVERRIDE})
    list(APPEND sources "${src}")
  endforeach()
  add_library(speedlab_hybrid_${name} STATIC ${sources})
  target_include_directories(speedlab_hybrid_${name} PUBLIC "${dir}/mpi")
  target_compile_definitions(speedlab_hybrid_${name} PRIVATE SPEEDLAB_TREE=${name})
  target_compile_options(speedlab_hybrid_${name} PRIVATE
    ${SPEEDLAB_WARNINGS} ${SPEEDLAB_ARCH_FLAGS} -ffp-contract=off)
  target_link_libraries(speedlab_hybrid_${name} PUBLIC speedlab_tree_${name} MPI::MPI_C)
endfunction()

# speedlab_add_tree_program(<target> <tree> <source> [libraries...]) builds a
# program for one tree (its bench, its variant test): compiled with that
# tree's -DSPEEDLAB_TREE so SL_TREE_SYMBOL names the tree's own kernels.
function(speedlab_add_tree_program target tree source)
  add_executable(${target} "${source}")
  target_compile_definitions(${target} PRIVATE SPEEDLAB_TREE=${tree})
  target_compile_options(${target} PRIVATE ${SPEEDLAB_WARNINGS})
  target_link_libraries(${target} PRIVATE speedlab_tree_${tree} ${ARGN})
endfunction()
