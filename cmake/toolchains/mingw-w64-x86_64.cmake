# Cross-compiling kernforge for 64-bit Windows with Debian's mingw-w64 (g++-mingw-w64-x86-64)
# and running the results with wine64 (tools/windows-build.sh, preset `windows`).
#
#   cmake --preset windows        (or -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/mingw-w64-x86_64.cmake)
#
# The -posix flavour of the compiler is used: its libstdc++ has std::thread and std::mutex
# (the -win32 flavour of GCC 12 has neither). The C++ runtime (libstdc++, libgcc, winpthread)
# is linked statically into every executable and DLL, so wine needs no MinGW DLL except the
# OpenMP runtime libgomp-1.dll, which is shared on purpose (see runtime/global_deps) and is
# copied into bin/ with its two dependencies by cmake/KernforgeDependenciesMingw.cmake.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(KF_MINGW_TRIPLET x86_64-w64-mingw32)
find_program(CMAKE_C_COMPILER NAMES ${KF_MINGW_TRIPLET}-gcc-posix REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES ${KF_MINGW_TRIPLET}-g++-posix REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${KF_MINGW_TRIPLET}-windres)

# Libraries and CMake packages come from the MinGW sysroot only, never from Linux's /usr: a
# Linux header or library in a Windows build is always a mistake. Programs (python3, ccache)
# are the build machine's.
set(CMAKE_FIND_ROOT_PATH /usr/${KF_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# libstdc++ and libgcc statically; winpthread (which the -posix libstdc++ calls) statically too,
# whole, so that no later -lpthread pulls in libwinpthread-1.dll. Explicit __declspec(dllexport)
# decides what a DLL exports (nothing is exported automatically; see KernforgePlugin.cmake).
set(KF_MINGW_STATIC_RUNTIME
    "-static-libgcc -static-libstdc++ -Wl,-Bstatic,--whole-archive -lwinpthread -Wl,--no-whole-archive,-Bdynamic")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${KF_MINGW_STATIC_RUNTIME}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${KF_MINGW_STATIC_RUNTIME}")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "${KF_MINGW_STATIC_RUNTIME}")

# Tests and test discovery run the .exe files through wine64. The project replaces this with a
# wrapper that gives wine a prefix inside the build tree (KernforgeDependenciesMingw.cmake).
find_program(KF_WINE64 NAMES wine64 PATHS /usr/lib/wine NO_CACHE)
if(KF_WINE64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${KF_WINE64}")
endif()
