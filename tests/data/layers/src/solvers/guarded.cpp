// A solver that names the CUDA backend: what scripts/check-layers.py must refuse.
#ifdef HSPARSE_HAVE_CUDA
#endif
