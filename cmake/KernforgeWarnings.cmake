# kernforge_warnings(target): our own code builds with warnings as errors (KF_WERROR).
function(kernforge_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${KF_WERROR}>:/WX>)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter
                           $<$<BOOL:${KF_WERROR}>:-Werror>)
  endif()
endfunction()
