"""kernforge's rocm backend: this folder holds the plugin (libkernforge_rocm.so) and its manifest
(rocm.json), which preloads the system's HIP runtime (libamdhip64.so.5, from a ROCm installation
or Debian's libamdhip64-5). ``import kernforge`` loads it through the entry point
``rocm = kernforge_rocm`` of the group ``kernforge.backends``; nothing here needs importing."""
