# kernel.cmake - k-means' build (read by CMakeLists.txt).
#
# Lesson 9's whole program, to be profiled first: each stage a function of
# its own, built without inlining so that a profiler shows them as the
# source has them (speedlab-kmeans-app).
set(KERNEL_PROGRAMS app/kmeans_app.c)
set(KERNEL_PROGRAM_FLAGS -fno-inline)
