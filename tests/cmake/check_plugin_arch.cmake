# cmake -DPLUGIN_MODULE=<KernforgePlugin.cmake> -DREQUIREMENTS_CPP=<loader's requirements.cpp>
#       -P check_plugin_arch.cmake
#
# kernforge_plugin_arch() maps CMAKE_SYSTEM_PROCESSOR to the manifest's requires.arch; the
# loader compares that string exactly with its own name for the running architecture, so the
# names written for x86_64 and aarch64 must be the ones requirements.cpp returns.
include("${PLUGIN_MODULE}")
set(failures "")

foreach(pair IN ITEMS x86_64=x86_64 AMD64=x86_64 amd64=x86_64 aarch64=aarch64 arm64=aarch64
                      ARM64=aarch64 RISCV64=riscv64 ppc64le=ppc64le)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 processor)
  list(GET pair 1 expected)
  kernforge_plugin_arch(arch "${processor}")
  if(NOT arch STREQUAL expected)
    string(APPEND failures "\n  ${processor} -> '${arch}', expected '${expected}'")
  endif()
endforeach()

file(READ "${REQUIREMENTS_CPP}" loader)
foreach(name IN ITEMS x86_64 aarch64)
  string(FIND "${loader}" "return \"${name}\";" at)
  if(at EQUAL -1)
    string(APPEND failures "\n  the loader (${REQUIREMENTS_CPP}) no longer names an architecture "
                           "\"${name}\": update kernforge_plugin_arch() to its spelling")
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "kernforge_plugin_arch():${failures}")
endif()
message(STATUS "kernforge_plugin_arch(): manifests name x86_64 and aarch64 as the loader does")
