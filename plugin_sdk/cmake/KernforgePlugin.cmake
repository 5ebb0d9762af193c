# kernforge_add_plugin(): builds a backend plugin, writes its manifest and installs both. The same
# function serves the backends of this repository and third-party plugins built against the
# installed SDK (find_package(kernforge CONFIG) includes this file).
#
#   kernforge_add_plugin(<name>
#     SOURCES <files...>
#     [KIND device|collective]        a backend (default), or a collective plugin over an
#                                     engine (kernforge/collective.h; manifest_version 2, its
#                                     ABI the collective ABI, exporting kf_collective_get)
#     [DEVICE_TYPE <type>]            the device type it brings, or a collective plugin the
#                                     device type whose tensors it moves (default: <name>)
#     [VERSION <version>]             the plugin's version (default: this project's)
#     [ABI <major>.<minor>]           the plugin ABI it is written for (default: the SDK's)
#     [PRIORITY <n>]                  among plugins of one device type, higher wins (default 100)
#     [ACTIVATION startup|first_use]  when the core starts it (default startup; docs/loader.md)
#     [PRELOAD <item>...]             native libraries the loader opens first, in this order;
#                                     an item is "<soname>[ folders=<a>,<b>][ optional]"
#     [GLOBAL_DEPS <soname>...]       libraries opened RTLD_GLOBAL before the preloads
#     [REQUIRES <key>=<value>...]     os=<os>, arch=<arch> (both default to the target's),
#                                     cpu_features=<a>,<b>, kernforge=<version> (the exact
#                                     core version it needs: another core refuses it; the
#                                     plugins of this repository say so in a wheel's build,
#                                     KF_WHEEL)
#     [DRIVER <probe>...]             the availability gate: what must exist for the device to
#                                     be there, any one of "library=<soname>", "path=<path>",
#                                     "folder=<path>[ suffix=<end>]" (paths absolute or starting
#                                     with $ORIGIN / $VARIABLE); without one the plugin is
#                                     unavailable and nothing of it is loaded (docs/loader.md)
#     [DRIVER_INSTALL <text>]         what to install when none is there (required with DRIVER)
#     [SEARCH <root>...]              where the preloads are looked for (default $ORIGIN)
#     [MANIFEST <template>]           a manifest template (configure_file @ONLY) instead of the
#                                     generated manifest, for plugins with unusual manifests
#     [LINK <libs...>]                linked privately
#     [OUTPUT_DIRECTORY <dir>]        build it there instead of the plugin folder: not
#                                     autoloaded, not installed (test and skeleton plugins)
#     [COMPONENT <component>]         install component (default <name>)
#     [INSTALL_DESTINATION <dir>]     (default: the plugin folder under the install prefix,
#                                     the installed kernforge's own (KERNFORGE_PLUGIN_INSTALL_SUBDIR)
#                                     or <libdir>/kernforge/plugins; Windows: bin/kernforge/plugins)
#     [NO_INSTALL])
#
# The result is the MODULE library libkernforge_<name> (target kernforge_<name>) exporting only
# kf_plugin_get, or kf_collective_get for KIND collective (Linux: hidden visibility and a version script; Windows: only what
# KF_PLUGIN_EXPORT marks, and --exclude-all-symbols), with its manifest <name>.json next to it in
# the build tree's plugin folder, where the core of the same build tree autoloads it; a plugin
# built outside this repository lands in <build>/lib/kernforge/plugins, which
# KERNFORGE_PLUGIN_PATH can name. Installed, the two go into the plugin folder next to an
# installed libkernforge of the same prefix, where its core finds them. The library gets no
# RUNPATH: what it needs beyond the system's comes through its manifest's PRELOAD and SEARCH.
#
# A MANIFEST template may use @KF_PLUGIN_NAME@, @KF_PLUGIN_LIBRARY@ (the library's file name),
# @KF_PLUGIN_OS@ and @KF_PLUGIN_ARCH@ (the manifest's spellings of the target; see
# kernforge_plugin_arch below), @KF_VERSION@ (the plugin's version) and any variable set where
# kernforge_add_plugin is called.

include_guard(GLOBAL)
include(GNUInstallDirs)

# The plugin ABI of this SDK (plugin.h's KF_PLUGIN_ABI_MAJOR / _MINOR), read once from the
# header next to this file (in the source tree or in the installed prefix).
# A collective plugin's is collective.h's KF_COLLECTIVE_ABI_MAJOR / _MINOR (KIND collective).
function(_kernforge_sdk_abi out_major out_minor)
  set(header_name plugin.h)
  set(prefix PLUGIN)
  if(ARGV2 STREQUAL "collective")
    set(header_name collective.h)
    set(prefix COLLECTIVE)
  endif()
  set(candidates "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../include/kernforge/${header_name}")
  if(DEFINED KERNFORGE_SDK_INCLUDE_DIR)
    list(PREPEND candidates "${KERNFORGE_SDK_INCLUDE_DIR}/kernforge/${header_name}")
  endif()
  foreach(header IN LISTS candidates)
    if(EXISTS "${header}")
      file(STRINGS "${header}" lines REGEX "#define KF_${prefix}_ABI_(MAJOR|MINOR) ")
      string(REGEX MATCH "MAJOR ([0-9]+)" _ "${lines}")
      set(major "${CMAKE_MATCH_1}")
      string(REGEX MATCH "MINOR ([0-9]+)" _ "${lines}")
      set(${out_major} "${major}" PARENT_SCOPE)
      set(${out_minor} "${CMAKE_MATCH_1}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "kernforge_add_plugin: kernforge/${header_name} was not found (looked for "
                      "${candidates}); the kernforge SDK is incomplete")
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

# The manifest's spelling of the target operating system.
function(_kernforge_plugin_os out)
  if(WIN32)
    set(os windows)
  elseif(APPLE)
    set(os macos)
  else()
    string(TOLOWER "${CMAKE_SYSTEM_NAME}" os)
  endif()
  set(${out} "${os}" PARENT_SCOPE)
endfunction()

# Note [Manifest values]
# Every value goes into the manifest as JSON, escaped here: a backslash or a quote in a version,
# a path or a name is written as \\ or \" (before, `VERSION "1\"x"` became "1" and a path was
# cut at its quote, and the result still parsed). A control character has no place in a
# manifest value and stops the configure, naming the value. Whether the loader takes the
# manifest (types, ranges, sonames, ...) is the loader's to say, with its own rules: see
# _kernforge_check_manifest below; they are not copied here.

# `value` as a JSON string literal, for the manifest field `what` of plugin `plugin`.
function(_kernforge_json_string out plugin what value)
  string(ASCII 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
               31 127 control)
  if(value MATCHES "[${control}]")
    string(REGEX REPLACE "[${control}]" "?" shown "${value}")
    message(FATAL_ERROR "kernforge_add_plugin(${plugin}): ${what} '${shown}' holds a control "
                        "character (shown as ?); a manifest value is printable text")
  endif()
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# A JSON array of strings from a CMake list.
function(_kernforge_json_strings out plugin what)
  set(json "[]")
  set(i 0)
  foreach(item IN LISTS ARGN)
    _kernforge_json_string(quoted "${plugin}" "${what}" "${item}")
    string(JSON json SET "${json}" ${i} "${quoted}")
    math(EXPR i "${i} + 1")
  endforeach()
  set(${out} "${json}" PARENT_SCOPE)
endfunction()

# The manifest's "preload" array from PRELOAD items "<soname>[ folders=a,b][ optional]".
function(_kernforge_json_preload out plugin)
  set(json "[]")
  set(i 0)
  foreach(item IN LISTS ARGN)
    string(REPLACE " " ";" words "${item}")
    list(POP_FRONT words soname)
    set(entry "{}")
    _kernforge_json_string(soname_json "${plugin}" "PRELOAD soname" "${soname}")
    string(JSON entry SET "${entry}" soname "${soname_json}")
    foreach(word IN LISTS words)
      if(word MATCHES "^folders=(.+)$")
        string(REPLACE "," ";" folders "${CMAKE_MATCH_1}")
        _kernforge_json_strings(folders_json "${plugin}" "PRELOAD folder" ${folders})
        string(JSON entry SET "${entry}" folders "${folders_json}")
      elseif(word STREQUAL "optional")
        string(JSON entry SET "${entry}" required false)
      elseif(NOT word STREQUAL "")
        message(FATAL_ERROR "kernforge_add_plugin(${plugin}): PRELOAD item '${item}' has "
                            "'${word}'; an item is \"<soname>[ folders=<a>,<b>][ optional]\"")
      endif()
    endforeach()
    string(JSON json SET "${json}" ${i} "${entry}")
    math(EXPR i "${i} + 1")
  endforeach()
  set(${out} "${json}" PARENT_SCOPE)
endfunction()

# The gate's object {"any_of": [...], "install": ...} from DRIVER items and DRIVER_INSTALL.
function(_kernforge_json_driver out plugin install)
  set(any_of "[]")
  set(i 0)
  foreach(item IN LISTS ARGN)
    string(REPLACE " " ";" words "${item}")
    list(POP_FRONT words first)
    if(NOT first MATCHES "^(library|path|folder)=(.+)$")
      message(FATAL_ERROR "kernforge_add_plugin(${plugin}): DRIVER item '${item}' is not "
                          "library=<soname>, path=<path> or folder=<path>[ suffix=<end>]")
    endif()
    set(key "${CMAKE_MATCH_1}")
    _kernforge_json_string(value "${plugin}" "DRIVER ${key}" "${CMAKE_MATCH_2}")
    set(entry "{}")
    string(JSON entry SET "${entry}" ${key} "${value}")
    foreach(word IN LISTS words)
      if(key STREQUAL "folder" AND word MATCHES "^suffix=(.+)$")
        _kernforge_json_string(suffix "${plugin}" "DRIVER suffix" "${CMAKE_MATCH_1}")
        string(JSON entry SET "${entry}" suffix "${suffix}")
      elseif(NOT word STREQUAL "")
        message(FATAL_ERROR "kernforge_add_plugin(${plugin}): DRIVER item '${item}' has "
                            "'${word}'; only a folder=<path> item takes suffix=<end>")
      endif()
    endforeach()
    string(JSON any_of SET "${any_of}" ${i} "${entry}")
    math(EXPR i "${i} + 1")
  endforeach()
  if(install STREQUAL "")
    message(FATAL_ERROR "kernforge_add_plugin(${plugin}): DRIVER needs DRIVER_INSTALL <text>, "
                        "what to install when the driver is missing (it ends the reason)")
  endif()
  _kernforge_json_string(install_json "${plugin}" "DRIVER_INSTALL" "${install}")
  set(json "{}")
  string(JSON json SET "${json}" any_of "${any_of}")
  string(JSON json SET "${json}" install "${install_json}")
  set(${out} "${json}" PARENT_SCOPE)
endfunction()

# The manifest's "requires" object from REQUIRES items <key>=<value>.
function(_kernforge_json_requires out plugin)
  _kernforge_plugin_os(os)
  kernforge_plugin_arch(arch "${CMAKE_SYSTEM_PROCESSOR}")
  set(features "")
  foreach(item IN LISTS ARGN)
    if(item MATCHES "^os=(.*)$")
      set(os "${CMAKE_MATCH_1}")
    elseif(item MATCHES "^arch=(.*)$")
      set(arch "${CMAKE_MATCH_1}")
    elseif(item MATCHES "^cpu_features=(.*)$")
      string(REPLACE "," ";" features "${CMAKE_MATCH_1}")
    elseif(item MATCHES "^kernforge=(.+)$")
      set(core "${CMAKE_MATCH_1}")
    else()
      message(FATAL_ERROR "kernforge_add_plugin(${plugin}): REQUIRES item '${item}' is not "
                          "os=<os>, arch=<arch>, cpu_features=<a>,<b> or kernforge=<version>")
    endif()
  endforeach()
  _kernforge_json_strings(features_json "${plugin}" "REQUIRES cpu_features" ${features})
  _kernforge_json_string(os "${plugin}" "REQUIRES os" "${os}")
  _kernforge_json_string(arch "${plugin}" "REQUIRES arch" "${arch}")
  set(json "{}")
  string(JSON json SET "${json}" os "${os}")
  string(JSON json SET "${json}" arch "${arch}")
  string(JSON json SET "${json}" cpu_features "${features_json}")
  if(DEFINED core)
    _kernforge_json_string(core "${plugin}" "REQUIRES kernforge" "${core}")
    string(JSON json SET "${json}" kernforge "${core}")
  endif()
  set(${out} "${json}" PARENT_SCOPE)
endfunction()

# The plugin ABI a plugin declares: ABI <major>.<minor> checked against the SDK's (the same
# major, a minor no newer than the SDK's: an older minor is what plugin.h promises to load).
function(_kernforge_plugin_abi out_major out_minor plugin requested kind)
  _kernforge_sdk_abi(sdk_major sdk_minor "${kind}")
  if(requested STREQUAL "")
    set(requested "${sdk_major}.${sdk_minor}")
  endif()
  if(NOT requested MATCHES "^([0-9]+)\\.([0-9]+)$")
    message(FATAL_ERROR "kernforge_add_plugin(${plugin}): ABI '${requested}' is not "
                        "<major>.<minor>, e.g. ${sdk_major}.${sdk_minor}")
  endif()
  set(major "${CMAKE_MATCH_1}")
  set(minor "${CMAKE_MATCH_2}")
  if(NOT major EQUAL sdk_major OR minor GREATER sdk_minor)
    message(FATAL_ERROR "kernforge_add_plugin(${plugin}): ABI ${requested} is not served by "
                        "this kernforge SDK, whose plugin ABI is ${sdk_major}.${sdk_minor} "
                        "(it builds plugins for ABI ${sdk_major}.0 to ${sdk_major}.${sdk_minor}): "
                        "use a newer kernforge SDK or ask for an older ABI")
  endif()
  set(${out_major} "${major}" PARENT_SCOPE)
  set(${out_minor} "${minor}" PARENT_SCOPE)
endfunction()

# Writes the manifest <dir>/<name>.json from the arguments (ARG_* of kernforge_add_plugin).
function(_kernforge_write_manifest file name library version)
  cmake_parse_arguments(M "" "KIND;DEVICE_TYPE;ABI;PRIORITY;ACTIVATION;DRIVER_INSTALL"
                        "PRELOAD;GLOBAL_DEPS;REQUIRES;SEARCH;DRIVER" ${ARGN})
  _kernforge_plugin_abi(abi_major abi_minor "${name}" "${M_ABI}" "${M_KIND}")
  if(NOT M_ACTIVATION MATCHES "^(startup|first_use)$")
    message(FATAL_ERROR "kernforge_add_plugin(${name}): ACTIVATION is '${M_ACTIVATION}'; it "
                        "must be startup or first_use")
  endif()
  if(NOT M_PRIORITY MATCHES "^-?[0-9]+$")
    message(FATAL_ERROR "kernforge_add_plugin(${name}): PRIORITY '${M_PRIORITY}' is not an "
                        "integer")
  endif()
  _kernforge_json_requires(requires "${name}" ${M_REQUIRES})
  if(M_DRIVER)
    _kernforge_json_driver(driver "${name}" "${M_DRIVER_INSTALL}" ${M_DRIVER})
    string(JSON requires SET "${requires}" driver "${driver}")
  elseif(NOT "${M_DRIVER_INSTALL}" STREQUAL "")
    message(FATAL_ERROR "kernforge_add_plugin(${name}): DRIVER_INSTALL without DRIVER")
  endif()
  _kernforge_json_preload(preload "${name}" ${M_PRELOAD})
  _kernforge_json_strings(global_deps "${name}" "GLOBAL_DEPS" ${M_GLOBAL_DEPS})
  _kernforge_json_strings(search "${name}" "SEARCH" ${M_SEARCH})
  set(j "{}")
  if(M_KIND STREQUAL "collective")  # a new kind raises the version: older loaders refuse it
    string(JSON j SET "${j}" manifest_version 2)
    string(JSON j SET "${j}" kind "\"collective\"")
  else()
    string(JSON j SET "${j}" manifest_version 1)
  endif()
  foreach(field IN ITEMS "name;${name}" "library;${library}" "version;${version}"
                         "device_type;${M_DEVICE_TYPE}" "activation;${M_ACTIVATION}")
    list(POP_FRONT field key)
    _kernforge_json_string(quoted "${name}" "${key}" "${field}")
    string(JSON j SET "${j}" ${key} "${quoted}")
  endforeach()
  string(JSON j SET "${j}" abi "[${abi_major}, ${abi_minor}]")
  string(JSON j SET "${j}" priority ${M_PRIORITY})
  string(JSON j SET "${j}" requires "${requires}")
  string(JSON j SET "${j}" global_deps "${global_deps}")
  string(JSON j SET "${j}" preload "${preload}")
  string(JSON j SET "${j}" search "${search}")
  # Written as it is (file(CONFIGURE) would expand an @VAR@ inside a value), and copied over the
  # manifest only when it changed.
  file(WRITE "${file}.new" "${j}\n")
  configure_file("${file}.new" "${file}" COPYONLY)
endfunction()

# Note [The loader checks every manifest it will read]
# The manifest is read by the loader's own parser and rules, `kernforge check-manifest`
# (kf_plugin_manifest_check), so a manifest the loader would refuse (a priority beyond int32, a
# path where a soname belongs, an unknown key in a template) fails where it is made, not at its
# first load. Against an installed kernforge (the imported kernforge::cli, which the package
# brings), the check runs at configure time. In this repository the command is built by the
# same build (KERNFORGE_MANIFEST_CHECKER names its target), so the check is a build step: a
# target <plugin>_manifest in `all`, run again whenever the manifest or the command changes. A
# cross build cannot run the command it builds and skips the check, with one line.
function(_kernforge_check_manifest target manifest)
  if(DEFINED KERNFORGE_MANIFEST_CHECKER)
    set(checker "${KERNFORGE_MANIFEST_CHECKER}")
  elseif(TARGET kernforge::cli)
    set(checker kernforge::cli)
  else()
    message(WARNING "kernforge_add_plugin: no `kernforge` command (kernforge::cli) to check "
                    "${manifest} with the loader's rules; install kernforge-core with the SDK")
    return()
  endif()
  if(CMAKE_CROSSCOMPILING)
    get_property(said GLOBAL PROPERTY KF_MANIFEST_CHECK_SKIPPED)
    if(NOT said)
      set_property(GLOBAL PROPERTY KF_MANIFEST_CHECK_SKIPPED TRUE)
      message(STATUS "kernforge_add_plugin: a cross build does not check its manifests (the "
                     "kernforge command it builds cannot run here)")
    endif()
    return()
  endif()
  if(NOT DEFINED KERNFORGE_MANIFEST_CHECKER)  # the installed command: check it now
    _kernforge_check_manifest_now(${checker} "${manifest}")
    return()
  endif()
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest-checked")
  add_custom_command(OUTPUT "${stamp}"
    COMMAND "$<TARGET_FILE:${checker}>" check-manifest "${manifest}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS "${manifest}" ${checker}
    COMMENT "Checking ${target}'s manifest with the loader's rules" VERBATIM)
  add_custom_target(${target}_manifest ALL DEPENDS "${stamp}")
endfunction()

# The check at configure time, with an installed `kernforge`.
function(_kernforge_check_manifest_now checker manifest)
  get_target_property(command ${checker} LOCATION)
  execute_process(COMMAND "${command}" check-manifest "${manifest}"
                  RESULT_VARIABLE result ERROR_VARIABLE error OUTPUT_QUIET)
  if(NOT result EQUAL 0)
    string(STRIP "${error}" error)
    message(FATAL_ERROR "kernforge_add_plugin: the loader would refuse ${manifest}:\n${error}")
  endif()
endfunction()

# The link options that leave kf_plugin_get the only exported symbol.
function(_kernforge_plugin_exports target symbol)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(map "${CMAKE_CURRENT_BINARY_DIR}/${target}.map")
    file(CONFIGURE OUTPUT "${map}" CONTENT "{ global: ${symbol}; local: *; };\n")  # unchanged: no relink
    target_link_options(${target} PRIVATE "-Wl,--version-script=${map}"
                        $<$<NOT:$<BOOL:${KF_FUZZ}>>:-Wl,--no-undefined>)  # as libkernforge
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${map}")
  elseif(WIN32 AND NOT MSVC)
    target_link_options(${target} PRIVATE "-Wl,--exclude-all-symbols")
  endif()
endfunction()

function(kernforge_add_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL"
    "MANIFEST;OUTPUT_DIRECTORY;KIND;DEVICE_TYPE;VERSION;ABI;PRIORITY;ACTIVATION;COMPONENT;INSTALL_DESTINATION;DRIVER_INSTALL"
    "SOURCES;LINK;PRELOAD;GLOBAL_DEPS;REQUIRES;SEARCH;DRIVER" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "kernforge_add_plugin(${name}): SOURCES is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kernforge_add_plugin(${name}): unknown arguments "
                        "'${ARG_UNPARSED_ARGUMENTS}' (see the comment at the top of "
                        "KernforgePlugin.cmake)")
  endif()
  if(NOT name MATCHES "^[A-Za-z0-9_]+$")
    message(FATAL_ERROR "kernforge_add_plugin(${name}): a plugin name is letters, digits and _")
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
  if(NOT ARG_KIND)
    set(ARG_KIND device)
  endif()
  if(ARG_KIND STREQUAL "collective")
    _kernforge_plugin_exports(${target} kf_collective_get)
    set_property(GLOBAL APPEND PROPERTY KF_COLLECTIVE_PLUGIN_NAMES "${name}")  # not in the CTS
  elseif(ARG_KIND STREQUAL "device")
    _kernforge_plugin_exports(${target} kf_plugin_get)
  else()
    message(FATAL_ERROR "kernforge_add_plugin(${name}): KIND is '${ARG_KIND}'; it must be "
                        "device or collective")
  endif()

  set(dir "${KF_PLUGIN_DIR}")
  if(NOT dir AND WIN32)
    set(dir "${CMAKE_BINARY_DIR}/bin/kernforge/plugins")  # DLLs live in bin/
  elseif(NOT dir)
    set(dir "${CMAKE_BINARY_DIR}/lib/kernforge/plugins")
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set(dir "${ARG_OUTPUT_DIRECTORY}")
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX "lib" OUTPUT_NAME "kernforge_${name}"
    LIBRARY_OUTPUT_DIRECTORY "${dir}" RUNTIME_OUTPUT_DIRECTORY "${dir}"
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)

  # The manifest: generated from the arguments, or from a template.
  set(library "libkernforge_${name}${CMAKE_SHARED_MODULE_SUFFIX}")  # PREFIX above
  set(version "${ARG_VERSION}")
  if(version STREQUAL "" AND DEFINED KF_VERSION)
    set(version "${KF_VERSION}")  # the backends of this repository
  elseif(version STREQUAL "")
    set(version "${PROJECT_VERSION}")
  endif()
  if(version STREQUAL "")
    message(FATAL_ERROR "kernforge_add_plugin(${name}): the plugin has no version: give "
                        "VERSION <version>, or project(<name> VERSION <version>)")
  endif()
  set(manifest "${dir}/${name}.json")
  if(KF_WHEEL AND DEFINED KF_VERSION AND NOT ARG_VERSION)  # this repository's, in a wheel
    list(APPEND ARG_REQUIRES "kernforge=${KF_VERSION}")
  endif()
  if(ARG_MANIFEST)
    set(KF_PLUGIN_NAME "${name}")
    set(KF_PLUGIN_LIBRARY "${library}")
    set(KF_VERSION "${version}")
    _kernforge_plugin_os(KF_PLUGIN_OS)
    kernforge_plugin_arch(KF_PLUGIN_ARCH "${CMAKE_SYSTEM_PROCESSOR}")
    configure_file("${ARG_MANIFEST}" "${manifest}" @ONLY)
  else()
    foreach(default IN ITEMS "DEVICE_TYPE;${name}" "PRIORITY;100" "ACTIVATION;startup"
                             "SEARCH;$ORIGIN")
      list(GET default 0 key)
      list(GET default 1 value)
      if(NOT ARG_${key})
        set(ARG_${key} "${value}")
      endif()
    endforeach()
    _kernforge_write_manifest("${manifest}" "${name}" "${library}" "${version}"
      KIND "${ARG_KIND}" DEVICE_TYPE "${ARG_DEVICE_TYPE}" ABI "${ARG_ABI}" PRIORITY "${ARG_PRIORITY}"
      ACTIVATION "${ARG_ACTIVATION}" PRELOAD ${ARG_PRELOAD} GLOBAL_DEPS ${ARG_GLOBAL_DEPS}
      REQUIRES ${ARG_REQUIRES} SEARCH ${ARG_SEARCH} DRIVER ${ARG_DRIVER}
      DRIVER_INSTALL "${ARG_DRIVER_INSTALL}")
  endif()

  _kernforge_check_manifest(${target} "${manifest}")

  if(ARG_OUTPUT_DIRECTORY OR ARG_NO_INSTALL)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY KF_PLUGINS ${target})
  if(NOT ARG_COMPONENT)
    set(ARG_COMPONENT "${name}")
  endif()
  if(NOT ARG_INSTALL_DESTINATION AND KERNFORGE_PLUGIN_INSTALL_SUBDIR)
    # Built against an installed kernforge: where that install's core looks, under this prefix.
    set(ARG_INSTALL_DESTINATION "${KERNFORGE_PLUGIN_INSTALL_SUBDIR}")
  elseif(NOT ARG_INSTALL_DESTINATION AND WIN32)
    set(ARG_INSTALL_DESTINATION "${CMAKE_INSTALL_BINDIR}/kernforge/plugins")
  elseif(NOT ARG_INSTALL_DESTINATION)
    set(ARG_INSTALL_DESTINATION "${CMAKE_INSTALL_LIBDIR}/kernforge/plugins")
  endif()
  install(TARGETS ${target} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}"
          COMPONENT "${ARG_COMPONENT}")
  install(FILES "${manifest}" DESTINATION "${ARG_INSTALL_DESTINATION}"
          COMPONENT "${ARG_COMPONENT}")
  set_property(GLOBAL APPEND PROPERTY KF_PLUGIN_COMPONENTS "${ARG_COMPONENT}")
endfunction()
