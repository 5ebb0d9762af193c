# kernforge_warnings(target): the settings every target of ours gets: warnings as errors
# (KF_WERROR) and, when KF_SANITIZE is set, the sanitizers (presets asan and tsan set it); with
# KF_FUZZ (the fuzz preset), libFuzzer's coverage and ASan + UBSan.
set(KF_SANITIZE "" CACHE STRING "Sanitizers for our own targets: '' (none), 'address' (ASan+UBSan) or 'thread'")
set_property(CACHE KF_SANITIZE PROPERTY STRINGS "" address thread)

function(kernforge_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${KF_WERROR}>:/WX>)
    return()
  endif()
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter
                         $<$<BOOL:${KF_WERROR}>:-Werror>)
  if(KF_SANITIZE STREQUAL "address")
    set(flags -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  elseif(KF_SANITIZE STREQUAL "thread")
    set(flags -fsanitize=thread)
  elseif(NOT KF_SANITIZE STREQUAL "")
    message(FATAL_ERROR "KF_SANITIZE must be '', 'address' or 'thread', not '${KF_SANITIZE}'")
  elseif(KF_FUZZ)  # the fuzz preset: libFuzzer's coverage and ASan + UBSan in everything of ours
    set(flags -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
              -fno-sanitize-recover=undefined)
  endif()
  if(flags)
    target_compile_options(${target} PRIVATE ${flags})
    target_link_options(${target} PRIVATE ${flags})
  endif()
endfunction()
