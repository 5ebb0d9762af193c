# kernforge_core_part(<target>)
#
# The settings every object library of libkernforge shares (runtime/ and dispatcher/): the
# include folders of the core's floors, the generated sources' folder, the definitions, the
# dependencies, warnings and link-time optimisation for release builds. The floors, bottom up:
# runtime/src/{core,device,memory,tensor}, dispatcher/, runtime/src/{loader,c_api}; each
# includes only from the floors below it (docs/architecture.md).
function(kernforge_core_part target)
  add_dependencies(${target} kernforge_codegen)
  kernforge_warnings(${target})
  target_include_directories(${target}
    PUBLIC "${PROJECT_SOURCE_DIR}/runtime/include" "${PROJECT_SOURCE_DIR}/plugin_sdk/include"
    PRIVATE "${PROJECT_SOURCE_DIR}/runtime/src" "${PROJECT_SOURCE_DIR}/dispatcher"
            "${KF_GENERATED_DIR}/src")
  target_link_libraries(${target}
    PUBLIC kernforge_generated_headers
    PRIVATE spdlog::spdlog nlohmann_json::nlohmann_json Threads::Threads)
  target_compile_definitions(${target} PRIVATE KF_BUILDING_CORE
    KF_VERSION_STRING="${KF_VERSION}")
  if(WIN32 AND TARGET Boost::headers)
    target_link_libraries(${target} PRIVATE Boost::headers)
  endif()
  if(KF_IPO_SUPPORTED AND NOT KF_SANITIZE)
    set_target_properties(${target} PROPERTIES INTERPROCEDURAL_OPTIMIZATION_RELEASE ON)
  endif()
endfunction()
