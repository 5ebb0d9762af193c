/* foreign_arch_stub.c — cross-built for another architecture (aarch64 on x86_64 hosts) by
 * tests/loader/CMakeLists.txt: a well-formed shared library the host's dynamic loader must refuse
 * (loader.WrongArchitectureLibrary). It exports the plugin entry's name, nothing else. */
int kf_plugin_get(void);
int kf_plugin_get(void) { return 0; }
