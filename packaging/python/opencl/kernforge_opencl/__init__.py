"""kernforge's opencl backend: this folder holds the plugin (libkernforge_opencl.so) and its
manifest (opencl.json). ``import kernforge`` loads it through the entry point
``opencl = kernforge_opencl`` of the group ``kernforge.backends``; nothing here needs importing."""
