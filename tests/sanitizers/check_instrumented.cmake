# cmake -DNM=<nm> -DSYMBOL=<prefix> -DFILES=<a;b;...> -P check_instrumented.cmake
# Fails unless every file refers to the sanitizer runtime symbol prefix SYMBOL: proof that the
# library, the plugins and the test programs were compiled with the sanitizer, not only linked.
foreach(file IN LISTS FILES)
  execute_process(COMMAND "${NM}" -D --undefined-only "${file}"
                  OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${file}")
  endif()
  string(FIND "${symbols}" "${SYMBOL}" at)
  if(at EQUAL -1)
    # clang links the sanitizer runtime into executables statically: the symbols are then in the
    # program's own symbol table, not among its dynamic imports.
    execute_process(COMMAND "${NM}" "${file}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc
                    ERROR_QUIET)
    string(FIND "${symbols}" "${SYMBOL}" at)
  endif()
  if(at EQUAL -1)
    message(FATAL_ERROR "${file} calls nothing named ${SYMBOL}*: it was built without the sanitizer")
  endif()
  message(STATUS "${file}: instrumented (${SYMBOL}*)")
endforeach()
