"""kernforge's cuda backend: this folder holds the plugin (libkernforge_cuda.so) and its manifest
(cuda.json), which preloads the CUDA runtime and cuBLAS from NVIDIA's wheels (nvidia/cu13/lib in
site-packages). ``import kernforge`` loads it through the entry point ``cuda = kernforge_cuda`` of
the group ``kernforge.backends``; nothing here needs importing."""
