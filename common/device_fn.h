/* device_fn.h - SL_DEVICE_FN marks a small helper that both the host and a
 * GPU call: OpenMP code gets it through `declare target` (written out where
 * the helpers are), CUDA C needs __host__ __device__ on each function. One
 * helper, one definition, for the OpenMP variants and the CUDA ones alike.
 */
#ifndef SPEEDLAB_DEVICE_FN_H
#define SPEEDLAB_DEVICE_FN_H

#ifdef __CUDACC__
#define SL_DEVICE_FN __host__ __device__
#else
#define SL_DEVICE_FN
#endif

#endif
