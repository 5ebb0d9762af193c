# The floors of libkernforge (docs/architecture.md, section Floors).
include(CheckIPOSupported)
check_ipo_supported(RESULT KF_IPO_SUPPORTED OUTPUT KF_IPO_MESSAGE LANGUAGES CXX)
#
# kernforge_floor(<name> [BELOW <floor>...] [SOURCES <file>...] [GENERATED <folder>])
#
# One floor of the core, in the folder that calls it: an object library kernforge_<name> of the
# folder's *.cpp files (and SOURCES), whose headers are in the folder's include/<name>/. Its
# include folders are its own include/ (and GENERATED, a folder of generated headers that only
# this floor may include) plus those of the floors named BELOW, which come with their targets:
# a floor sees the floors below it and nothing else, so an include of a floor above, or of one
# beside it that it does not name, fails to compile. The public headers (runtime/include,
# plugin_sdk/include and the generated kernforge/*.h) are the ground every floor stands on.
#
# Every floor is listed, in the order the calls ran, in the global property KF_CORE_FLOORS:
# libkernforge (capi/) and the tests that link the core's pieces take their objects from there.
# What each floor names BELOW is kept in KF_FLOOR_BELOW_<name>: tests/floors checks, for every
# pair of floors, that one includes the other exactly when it stands above it.
function(kernforge_floor name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "GENERATED" "BELOW;SOURCES")
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  set(target kernforge_${name})
  add_library(${target} OBJECT ${sources} ${ARG_SOURCES})
  kernforge_core_part(${target})
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/include")
    target_include_directories(${target} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include")
  endif()
  if(ARG_GENERATED)
    target_include_directories(${target} PUBLIC "${ARG_GENERATED}")
  endif()
  foreach(lower IN LISTS ARG_BELOW)
    target_link_libraries(${target} PUBLIC kernforge_${lower})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY KF_CORE_FLOORS ${target})
  set_property(GLOBAL PROPERTY KF_FLOOR_BELOW_${name} ${ARG_BELOW})  # for tests/floors
endfunction()

# kernforge_core_part(<target>)
#
# The settings every object library of libkernforge shares: the public headers, the
# definitions, the dependencies, warnings and link-time optimisation for release builds.
function(kernforge_core_part target)
  add_dependencies(${target} kernforge_codegen)
  kernforge_warnings(${target})
  target_include_directories(${target}
    PUBLIC "${PROJECT_SOURCE_DIR}/runtime/include" "${PROJECT_SOURCE_DIR}/plugin_sdk/include")
  target_link_libraries(${target}
    PUBLIC kernforge_generated_headers
    PRIVATE spdlog::spdlog nlohmann_json::nlohmann_json Threads::Threads)
  target_compile_definitions(${target} PUBLIC KF_BUILDING_CORE
    PRIVATE KF_VERSION_STRING="${KF_VERSION}")
  if(WIN32 AND TARGET Boost::headers)
    target_link_libraries(${target} PRIVATE Boost::headers)
  endif()
  if(KF_IPO_SUPPORTED AND NOT KF_SANITIZE)
    set_target_properties(${target} PROPERTIES INTERPROCEDURAL_OPTIMIZATION_RELEASE ON)
  endif()
endfunction()

# kernforge_core_objects(<target>)
#
# Links every floor's objects into <target> (an executable of the tests that calls the core's
# C++ pieces directly, which libkernforge's version script hides), with the floors' include
# folders. Such a target must not also link libkernforge: both would define the kf_* functions.
function(kernforge_core_objects target)
  get_property(floors GLOBAL PROPERTY KF_CORE_FLOORS)
  foreach(floor IN LISTS floors)
    target_link_libraries(${target} PRIVATE ${floor})  # linked directly: its objects too
  endforeach()
  target_link_libraries(${target} PRIVATE spdlog::spdlog nlohmann_json::nlohmann_json
                                          Threads::Threads ${CMAKE_DL_LIBS})
  if(TARGET Boost::headers)
    target_link_libraries(${target} PRIVATE Boost::headers)
  endif()
endfunction()
