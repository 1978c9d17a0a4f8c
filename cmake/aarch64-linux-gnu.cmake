# aarch64-linux-gnu.cmake - cross-compile the kit for 64-bit ARM Linux with
# Debian's cross compiler (gcc-aarch64-linux-gnu) against Debian's arm64
# multiarch libraries (libbenchmark-dev:arm64, libsqlite3-dev:arm64,
# libgomp1:arm64), and run its programs under qemu-user.
#
# qemu is given the whole machine's root (-L /), not the cross compiler's
# sysroot (/usr/aarch64-linux-gnu): that sysroot's dynamic loader (glibc
# 2.36-8cross1 in Debian 12) with the multiarch libc.so.6 it then finds
# (2.36-9+deb12uN) disagree on the loader's shared state, and the first
# pthread_create walks a list that never ends. One glibc for both, and
# threads run under qemu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# QEMU_CPU (neoverse-n1, or max,sve-max-vq=2 for 256-bit SVE) picks the
# emulated core at run time; ctest runs every test program through this.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)
# pkg-config answers for the machine it runs on unless told otherwise:
# arm64's .pc files, or CMake 3.31's FindSQLite3 (Debian 13), which takes
# its hints, links the x86-64 libsqlite3.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/pkgconfig:/usr/share/pkgconfig")
