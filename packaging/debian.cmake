# CPack: one Debian package per install component (the table in CMakeLists.txt), made with
#   cpack --config <build>/CPackConfig.cmake -G DEB -B <folder>
# Dependencies that hold: every backend package depends on a core of a compatible version (the
# same major, from 1.0 on; the same minor before 1.0, where minors may break the plugin ABI) and
# kernforge-dev on exactly its own core; the core depends on no backend. The Debian libraries
# each package links (libopenblas, libgomp, libOpenCL, libstdc++, ...) are named by
# dpkg-shlibdeps. The core package carries the shlibs file of libkernforge.so.2 and runs ldconfig
# when installed and removed.

# KF_DEB_VERSION: the version as Debian spells it (cmake/KernforgeVersion.cmake).
string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _ "${KF_VERSION_NUMERIC}")
if(CMAKE_MATCH_1 EQUAL 0)
  math(EXPR kf_next_minor "${CMAKE_MATCH_2} + 1")
  set(KF_DEB_NEXT_INCOMPATIBLE "0.${kf_next_minor}")
else()
  math(EXPR kf_next_major "${CMAKE_MATCH_1} + 1")
  set(KF_DEB_NEXT_INCOMPATIBLE "${kf_next_major}")
endif()
set(KF_DEB_CORE_DEPENDS
    "kernforge-core (>= ${KF_DEB_VERSION}), kernforge-core (<< ${KF_DEB_NEXT_INCOMPATIBLE}~)")

set(CPACK_PACKAGE_NAME kernforge)
set(CPACK_PACKAGE_VENDOR "kernforge")
set(CPACK_PACKAGE_VERSION "${KF_DEB_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "kernforge tensor runtime")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "kernforge developers <kernforge@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A shlibs file for every package with a library that has a soname: kernforge-core's
# libkernforge.so.2 (the plugins and libkernforge_global_deps have none).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# The CLI in kernforge-core links libkernforge.so.2 of the same package.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${KF_OUTPUT_LIB}")

set(CPACK_DEBIAN_CORE_PACKAGE_NAME kernforge-core)
set(CPACK_COMPONENT_CORE_DESCRIPTION
    "kernforge tensor runtime: the core\n libkernforge (the C ABI), its global dependencies and the kernforge command.\n Install one backend package or more to compute (kernforge-backend-cpu).")
set(CPACK_DEBIAN_CORE_PACKAGE_SUGGESTS "kernforge-backend-cpu")

set(CPACK_DEBIAN_SDK_PACKAGE_NAME kernforge-dev)
set(CPACK_DEBIAN_SDK_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_SDK_PACKAGE_DEPENDS "kernforge-core (= ${KF_DEB_VERSION})")
set(CPACK_COMPONENT_SDK_DESCRIPTION
    "kernforge tensor runtime: development files\n Headers of the C ABI, the C++ frontend and the plugin ABI, the CMake package\n (find_package(kernforge CONFIG), kernforge_add_plugin), pkg-config files and\n the conformance suite kernforge-cts for plugin authors.")

set(components core sdk)
get_property(kf_backend_components GLOBAL PROPERTY KF_PLUGIN_COMPONENTS)
list(REMOVE_DUPLICATES kf_backend_components)
foreach(component IN LISTS kf_backend_components)
  string(TOUPPER "${component}" upper)
  set(CPACK_DEBIAN_${upper}_PACKAGE_NAME "kernforge-backend-${component}")
  set(CPACK_DEBIAN_${upper}_PACKAGE_DEPENDS "${KF_DEB_CORE_DEPENDS}")
  set(CPACK_COMPONENT_${upper}_DESCRIPTION
      "kernforge tensor runtime: the ${component} backend\n The ${component} plugin and its manifest, which the kernforge core loads at start-up.")
  list(APPEND components "${component}")
endforeach()
set(CPACK_COMPONENTS_ALL ${components})

include(CPack)
