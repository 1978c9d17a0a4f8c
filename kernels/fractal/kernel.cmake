# kernel.cmake - the fractals' compile policy (read by CMakeLists.txt).
#
# Exactness: no fused multiply-add anywhere an image is computed, so every
# variant rounds like the reference (fractal_problem.c) and the images are
# checked pixel for pixel; nvcc's --fmad=false is the same for CUDA.
#
# The lane pool's step (`go ? new : old` under omp simd): without AVX-512's
# masked instructions GCC 12 will not turn it into blends while a
# comparison may trap (-ftrapping-math, the default), so on AVX2
# (x86-64-v3, the GPU bundle, most laptops) the whole step stayed scalar:
# 2.3x slower than with -fno-trapping-math, measured on a copy of the loop.
# Nothing here enables floating-point traps, and the flag changes no value
# (contraction stays off; the images stay exact).
set(KERNEL_PROBLEM_FLAGS -ffp-contract=off)
set(KERNEL_C_FLAGS -ffp-contract=off -fno-trapping-math)
set(KERNEL_CUDA_FLAGS --fmad=false)
