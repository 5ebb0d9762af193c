# The backends: every <dir>/<name>/ with a CMakeLists.txt is a backend, found by itself; no list
# of names is kept anywhere.
#
# kernforge_add_backends(<dir>)
#   For each backend folder, the cache variable KF_BACKEND_<NAME> (<NAME>: the folder name
#   upper-cased, anything but letters, digits and _ turned into _) says what to do with it:
#     OFF   not added at all, and not mentioned;
#     AUTO  (default) added; when it declares that it cannot be built here, it is skipped with
#           one STATUS line, `backend <name>: skipped (<reason>)`, and the configure goes on;
#     ON    added, and the configure fails when it declares that it cannot be built here,
#           saying why and what to do.
#   One STATUS line at the end lists the backends built and skipped, and the global property
#   KF_BACKENDS_BUILT holds the names of those built (folder names, sorted), for the parts of
#   the build that do something per backend (tests/cts).
#   KF_BACKEND_DEFAULT (AUTO unless set) is the first value of every KF_BACKEND_<NAME>: the
#   wheel's build sets it to OFF and KF_BACKEND_CPU to ON, so it names no other backend.
#
# kernforge_backend_unavailable(<reason>...)
#   Called from a backend's own CMakeLists.txt when something it needs is missing here, before
#   it creates any target; the backend then return()s. <reason> says what is missing and what to
#   install, e.g. "OpenMP for C++ was not found (Debian: libomp-dev for clang)"; several
#   arguments are concatenated, as message() does. A backend that calls it and still defines
#   targets fails the configure. While a backend's CMakeLists.txt runs, KF_CURRENT_BACKEND
#   holds its name.

include_guard(GLOBAL)

# kernforge_optional_header(<option> HEADER <header> INCLUDE_DIR <cache var> RESULT <var>
#                           PACKAGE <Debian package> DOC <what it is> WITHOUT <what then>)
#   A header-only library a backend uses when it is there: the cache option <option>, AUTO
#   (default), ON or OFF. Unless OFF, <header> is looked for (find_path into <cache var>);
#   <var> is set to 1 when it was found, else 0. ON without it fails the configure naming the
#   package; AUTO says in one STATUS line what the backend does without it (WITHOUT).
function(kernforge_optional_header option)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "HEADER;INCLUDE_DIR;RESULT;PACKAGE;DOC;WITHOUT" "")
  set(${option} AUTO CACHE STRING "${ARG_DOC}: ON, OFF or AUTO")
  set_property(CACHE ${option} PROPERTY STRINGS AUTO ON OFF)
  set(found 0)
  if(NOT ${option} STREQUAL "OFF")
    find_path(${ARG_INCLUDE_DIR} ${ARG_HEADER})
    if(${ARG_INCLUDE_DIR})
      set(found 1)
    elseif(${option} STREQUAL "ON")
      message(FATAL_ERROR "${option}=ON but ${ARG_HEADER} was not found (Debian: ${ARG_PACKAGE})")
    else()
      message(STATUS "${ARG_HEADER} not found (Debian: ${ARG_PACKAGE}); ${ARG_WITHOUT}")
    endif()
  endif()
  set(${ARG_RESULT} ${found} PARENT_SCOPE)
endfunction()

function(kernforge_backend_unavailable)
  # The arguments are concatenated, as message() does, so a long reason can be split in pieces.
  set(reason "")
  if(ARGC GREATER 0)
    math(EXPR last "${ARGC} - 1")
    foreach(i RANGE ${last})
      string(APPEND reason "${ARGV${i}}")
    endforeach()
  endif()
  if(NOT DEFINED KF_CURRENT_BACKEND OR KF_CURRENT_BACKEND STREQUAL "")
    message(FATAL_ERROR "kernforge_backend_unavailable(\"${reason}\") was called from "
                        "${CMAKE_CURRENT_LIST_FILE}, which kernforge_add_backends() did not add")
  endif()
  if(reason MATCHES "^[. ]*$")
    message(FATAL_ERROR "kernforge_backend_unavailable() in ${CMAKE_CURRENT_LIST_FILE}: "
                        "give the reason (what is missing and what to install)")
  endif()
  # A trailing period would double up in the messages built around it.
  string(REGEX REPLACE "[. ]+$" "" reason "${reason}")
  get_property(earlier GLOBAL PROPERTY KF_BACKEND_UNAVAILABLE_${KF_CURRENT_BACKEND})
  if(NOT earlier STREQUAL "")
    set(reason "${earlier}; ${reason}")
  endif()
  set_property(GLOBAL PROPERTY KF_BACKEND_UNAVAILABLE_${KF_CURRENT_BACKEND} "${reason}")
endfunction()

function(kernforge_add_backends dir)
  file(GLOB candidates LIST_DIRECTORIES true "${dir}/*")
  list(SORT candidates)
  set(built "")
  set(skipped "")
  foreach(backend_dir IN LISTS candidates)
    if(NOT IS_DIRECTORY "${backend_dir}" OR NOT EXISTS "${backend_dir}/CMakeLists.txt")
      continue()
    endif()
    get_filename_component(name "${backend_dir}" NAME)
    string(MAKE_C_IDENTIFIER "${name}" upper)
    string(TOUPPER "${upper}" upper)
    set(option KF_BACKEND_${upper})
    if(NOT DEFINED KF_BACKEND_DEFAULT)
      set(KF_BACKEND_DEFAULT AUTO)
    endif()
    set(${option} ${KF_BACKEND_DEFAULT} CACHE STRING
        "Build the ${name} backend: AUTO (where it can be built), ON (must be built) or OFF")
    set_property(CACHE ${option} PROPERTY STRINGS AUTO ON OFF)

    string(TOUPPER "${${option}}" mode)
    if(mode MATCHES "^(ON|YES|TRUE|Y|1)$")
      set(mode ON)
    elseif(mode MATCHES "^(OFF|NO|FALSE|N|0)$")
      set(mode OFF)
    elseif(NOT mode STREQUAL "AUTO")
      message(FATAL_ERROR "${option} is '${${option}}'; it must be AUTO, ON or OFF")
    endif()
    if(mode STREQUAL "OFF")
      continue()
    endif()

    set(KF_CURRENT_BACKEND "${name}")
    set_property(GLOBAL PROPERTY KF_BACKEND_UNAVAILABLE_${name} "")
    add_subdirectory("${backend_dir}")
    unset(KF_CURRENT_BACKEND)
    get_property(reason GLOBAL PROPERTY KF_BACKEND_UNAVAILABLE_${name})

    if(reason STREQUAL "")
      list(APPEND built "${name}")
      continue()
    endif()
    get_property(targets DIRECTORY "${backend_dir}" PROPERTY BUILDSYSTEM_TARGETS)
    if(NOT targets STREQUAL "")
      message(FATAL_ERROR "The ${name} backend declared itself unavailable (${reason}) but "
                          "still defined targets (${targets}): its CMakeLists.txt must return() "
                          "right after kernforge_backend_unavailable(), before creating any")
    endif()
    if(mode STREQUAL "ON")
      message(FATAL_ERROR "${option}=ON but the ${name} backend cannot be built: ${reason}. "
                          "Install what is missing, or set ${option}=AUTO (build it only where "
                          "it can be built) or ${option}=OFF")
    endif()
    message(STATUS "backend ${name}: skipped (${reason})")
    list(APPEND skipped "${name}")
  endforeach()

  if(NOT built STREQUAL "")
    list(JOIN built ", " built_text)
  else()
    set(built_text "none")
  endif()
  if(NOT skipped STREQUAL "")
    list(JOIN skipped ", " skipped_text)
  else()
    set(skipped_text "none")
  endif()
  message(STATUS "backends: built: ${built_text}; skipped: ${skipped_text}")
  set_property(GLOBAL PROPERTY KF_BACKENDS_BUILT "${built}")
endfunction()
