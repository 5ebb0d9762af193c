# kernforge_add_plugin(<name> SOURCES <files...> [MANIFEST <template>] [LINK <libs...>]
#                      [OUTPUT_DIRECTORY <dir>])
#
# Builds the backend plugin libkernforge_<name> (MODULE library) that exports only
# kf_plugin_get, and writes its manifest from <template> (default: manifest.json.in next to the
# calling CMakeLists.txt) next to it: by default in the plugin folder next to libkernforge (so
# the core discovers it), or in OUTPUT_DIRECTORY (test plugins that must not be autoloaded).
# The template (configure_file, @ONLY) may use:
#   @KF_PLUGIN_NAME@     <name>
#   @KF_PLUGIN_LIBRARY@  the library's file name: libkernforge_<name>.so, libkernforge_<name>.dll
#   @KF_PLUGIN_OS@       the target system as the manifest's requires.os names it: linux,
#                        windows, macos (others: CMAKE_SYSTEM_NAME lower-cased)
#   @KF_PLUGIN_ARCH@     the target architecture as the manifest's requires.arch names it, the
#                        spelling the loader compares with (runtime/src/loader/requirements.cpp):
#                        x86_64 or aarch64 (others: CMAKE_SYSTEM_PROCESSOR lower-cased); see
#                        kernforge_plugin_arch() below
#   @KF_VERSION@         the project's version
# and any other variable set where kernforge_add_plugin is called.
#
# Exports: kf_plugin_get only. Linux: hidden visibility and a version script. Windows: only what
# is marked __declspec(dllexport) (KF_PLUGIN_EXPORT) is exported, and --exclude-all-symbols keeps
# the linker from ever exporting anything else automatically.
function(kernforge_add_plugin name)
  cmake_parse_arguments(ARG "" "MANIFEST;OUTPUT_DIRECTORY" "SOURCES;LINK" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "kernforge_add_plugin(${name}): SOURCES is required")
  endif()
  if(NOT ARG_MANIFEST)
    set(ARG_MANIFEST "${CMAKE_CURRENT_SOURCE_DIR}/manifest.json.in")
  endif()
  set(target kernforge_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE kernforge::plugin_sdk ${ARG_LINK})
  # Provenance (plugin.hpp records __FILE__) relative to the plugin's project, not the build host.
  if(NOT MSVC)
    target_compile_options(${target} PRIVATE "-fmacro-prefix-map=${CMAKE_SOURCE_DIR}/=")
  endif()
  if(COMMAND kernforge_warnings)
    kernforge_warnings(${target})
  endif()
  if(NOT KF_PLUGIN_DIR AND WIN32)
    set(KF_PLUGIN_DIR "${CMAKE_BINARY_DIR}/bin/kernforge/plugins")  # DLLs live in bin/
  elseif(NOT KF_PLUGIN_DIR)
    set(KF_PLUGIN_DIR "${CMAKE_BINARY_DIR}/lib/kernforge/plugins")
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set(KF_PLUGIN_DIR "${ARG_OUTPUT_DIRECTORY}")
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX "lib" OUTPUT_NAME "kernforge_${name}"
    LIBRARY_OUTPUT_DIRECTORY "${KF_PLUGIN_DIR}"
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(map "${CMAKE_CURRENT_BINARY_DIR}/${target}.map")
    file(WRITE "${map}" "{ global: kf_plugin_get; local: *; };\n")
    target_link_options(${target} PRIVATE "-Wl,--version-script=${map}"
                        $<$<NOT:$<BOOL:${KF_FUZZ}>>:-Wl,--no-undefined>)  # as libkernforge
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${map}")
  elseif(WIN32 AND NOT MSVC)
    target_link_options(${target} PRIVATE "-Wl,--exclude-all-symbols")
  endif()
  set(KF_PLUGIN_NAME "${name}")
  set(KF_PLUGIN_LIBRARY "libkernforge_${name}${CMAKE_SHARED_MODULE_SUFFIX}")  # PREFIX above
  if(WIN32)
    set(KF_PLUGIN_OS windows)
  elseif(APPLE)
    set(KF_PLUGIN_OS macos)
  else()
    string(TOLOWER "${CMAKE_SYSTEM_NAME}" KF_PLUGIN_OS)
  endif()
  kernforge_plugin_arch(KF_PLUGIN_ARCH "${CMAKE_SYSTEM_PROCESSOR}")
  configure_file("${ARG_MANIFEST}" "${KF_PLUGIN_DIR}/${name}.json" @ONLY)
  if(NOT ARG_OUTPUT_DIRECTORY)
    set_property(GLOBAL APPEND PROPERTY KF_PLUGINS ${target})
  endif()
endfunction()

# kernforge_plugin_arch(<out-var> <processor>)
# Sets <out-var> to the manifest's spelling of the architecture <processor> (a value of
# CMAKE_SYSTEM_PROCESSOR): x86_64, AMD64, amd64 -> x86_64; aarch64, arm64, ARM64 -> aarch64;
# anything else lower-cased. The loader compares requires.arch with x86_64 or aarch64 exactly.
# An empty <processor> (a toolchain file that sets CMAKE_SYSTEM_NAME but not
# CMAKE_SYSTEM_PROCESSOR) gives "" (no architecture requirement) and one warning.
function(kernforge_plugin_arch out processor)
  string(TOLOWER "${processor}" arch)
  if(arch MATCHES "^(x86_64|amd64)$")
    set(arch x86_64)
  elseif(arch MATCHES "^(aarch64|arm64)$")
    set(arch aarch64)
  elseif(arch STREQUAL "")
    get_property(warned GLOBAL PROPERTY KF_PLUGIN_ARCH_WARNED)
    if(NOT warned)
      set_property(GLOBAL PROPERTY KF_PLUGIN_ARCH_WARNED TRUE)
      message(WARNING "CMAKE_SYSTEM_PROCESSOR is empty, so the plugin manifests name no "
                      "architecture (\"arch\": \"\"): set it in the toolchain file (x86_64, "
                      "aarch64)")
    endif()
  endif()
  set(${out} "${arch}" PARENT_SCOPE)
endfunction()
