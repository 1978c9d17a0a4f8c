# kernel.cmake - Monte Carlo pi's compile policy (read by CMakeLists.txt).
#
# Exactness: no contraction anywhere a point is tested (its x*x + y*y < 1
# must round as written, in the reference and in every variant; nvcc's
# --fmad=false for CUDA), so that every variant counts the same points.
# The reference also gets this machine's ISA, so that checking a billion
# points takes a fraction of a second rather than seconds.
set(KERNEL_PROBLEM_FLAGS -ffp-contract=off ${SPEEDLAB_ARCH_FLAGS})
set(KERNEL_C_FLAGS -ffp-contract=off)
set(KERNEL_CUDA_FLAGS --fmad=false)
