# kernforge_warnings(target): the settings every target of ours gets: warnings as errors
# (KF_WERROR) and, when KF_SANITIZE is set, the sanitizers (presets asan and tsan set it); with
# KF_FUZZ (the asan preset, clang), libFuzzer's coverage too, and ASan + UBSan even without
# KF_SANITIZE: one instrumented build serves the sanitizer suites and the fuzzers.
set(KF_SANITIZE "" CACHE STRING "Sanitizers for our own targets: '' (none), 'address' (ASan+UBSan) or 'thread'")
set_property(CACHE KF_SANITIZE PROPERTY STRINGS "" address thread)

function(kernforge_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${KF_WERROR}>:/WX>)
    return()
  endif()
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter
                         $<$<BOOL:${KF_WERROR}>:-Werror>)
  if(NOT KF_SANITIZE MATCHES "^(|address|thread)$")
    message(FATAL_ERROR "KF_SANITIZE must be '', 'address' or 'thread', not '${KF_SANITIZE}'")
  endif()
  set(flags "")
  if(KF_SANITIZE STREQUAL "thread")
    set(flags -fsanitize=thread)
  elseif(KF_SANITIZE STREQUAL "address" OR KF_FUZZ)
    set(flags -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  endif()
  if(KF_FUZZ)  # libFuzzer's coverage in everything of ours, so that the fuzzers are guided
    if(KF_SANITIZE STREQUAL "thread")
      message(FATAL_ERROR "KF_FUZZ=ON goes with ASan + UBSan (KF_SANITIZE=address), not 'thread'")
    endif()
    list(PREPEND flags -fsanitize=fuzzer-no-link)
  endif()
  if(flags)
    target_compile_options(${target} PRIVATE ${flags})
    target_link_options(${target} PRIVATE ${flags})
    if(NOT KF_SANITIZE STREQUAL "thread" AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      # A C program (the examples) linked by clang gets UBSan's C runtime, which lacks the
      # handlers of the C++ checks (vptr) that libkernforge refers to, and no libstdc++.
      target_link_options(${target} PRIVATE $<$<LINK_LANGUAGE:C>:-fsanitize-link-c++-runtime>
                          $<$<LINK_LANGUAGE:C>:-lstdc++>)
    endif()
  endif()
endfunction()
