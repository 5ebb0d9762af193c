# The shared OpenCL C kernels compiled to SPIR-V at build time, for backends that load modules
# instead of compiling OpenCL C at run time (backends/xpu, through Level Zero).
#
# include()d after clkernels.cmake, it defines
#
#   kernforge_clkernels_spirv(CLANG <clang-15> LLVM_SPIRV <llvm-spirv-15> SPIRV_VAL <spirv-val>)
#
# which creates the static library kernforge_clkernels_spirv: one SPIR-V module per family
# (kernels/<family>.cl) and dtype (every kf_dtype_t of KF_DTYPE_LIST in types.h, as -DKF_DT=<n>),
# embedded as byte arrays, and the header clkernels/spirv_modules.hpp that finds them:
#
#   const unsigned char* kf::clk::spirv_module(kf::clk::ProgramKey key, bool fp64,
#                                              size_t* size) noexcept;
#
# The OpenCL backend builds a program with -DKF_HAS_FP64=<0|1> after the device's double support
# (kf::clk::build_options), which changes kernels' arguments (arange's start and step are
# double or float), so every module exists twice, for devices with and without fp64, except the
# float64 ones (only with fp64). A module built without fp64 must not use doubles at all: the
# embedding step fails the build when one declares the Float64 capability.
#
# Each module is built by its own rule, so a changed .cl file rebuilds only its family's modules,
# and every module goes through spirv-val: a module that does not validate fails the build.
#
# Note [Compiling OpenCL C to SPIR-V with clang-15 and llvm-spirv-15]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The steps of each module's rule, which `spirv_ir.py build` runs in order in one process:
# clang-15 -cl-std=CL1.2 -target spir64 -O2 -fno-vectorize -fno-slp-vectorize
#          -Xclang -finclude-default-header -include common.clh -DKF_DT=<n> -DKF_HAS_FP64=<0|1>
#          -emit-llvm -S <family>.cl
#   OpenCL C 1.2 (no generic address space, which every Level Zero device reads), the builtin
#   declarations of opencl-c.h, common.clh prepended as the OpenCL backend prepends it at run
#   time. On spir64 every extension clang knows is on, cl_khr_fp64 included. No vectorisation:
#   the GPU compiler vectorises across work-items itself, and llvm-spirv 15 does not know the
#   llvm.vector.reduce intrinsics the SLP vectoriser makes of the unrolled matmul tiles.
# spirv_ir.py regularize: removes `freeze` and puts the blocks in dominance order, the two
#   things of LLVM 15's -O2 output that llvm-spirv 15.0.0 translates wrongly (its Note).
# clang-15 -target spir64 -x ir -c -emit-llvm: back to bitcode (no optimisation on IR input).
# llvm-spirv-15 --spirv-max-version=1.2: SPIR-V 1.0 to 1.2 (Intel's Level Zero driver reports
#   1.2 in spirvVersionSupported).
# spirv-val --target-env opencl1.2: a module that does not validate fails the build.
# spirv_ir.py embed: the module as a byte array, after checking that a module built without
#   fp64 declares no Float64 capability.
# Optimising before SPIR-V is not required (the driver optimises again), but -O0 output is about
# three times larger and full of allocas, and OpenCL C's plain `inline` functions are then
# emitted as imports that spirv-val refuses.
include_guard(GLOBAL)

# kernforge_clkernels_dtypes(<out-names> <out-values>): the dtypes of KF_DTYPE_LIST in types.h,
# e.g. float32;float64;... and 0;1;... (derived, so no list of dtypes is kept here), without the
# complex ones.
function(kernforge_clkernels_dtypes out_names out_values)
  get_target_property(sdk_includes kernforge::plugin_sdk INTERFACE_INCLUDE_DIRECTORIES)
  set(types_h "")
  foreach(dir IN LISTS sdk_includes)
    string(REGEX REPLACE "^\\$<BUILD_INTERFACE:(.*)>$" "\\1" dir "${dir}")
    if(EXISTS "${dir}/kernforge/types.h")
      set(types_h "${dir}/kernforge/types.h")
      break()
    endif()
  endforeach()
  if(types_h STREQUAL "")
    message(FATAL_ERROR "spirv.cmake: kernforge/types.h was not found in the include folders "
                        "of kernforge::plugin_sdk (${sdk_includes})")
  endif()
  file(READ "${types_h}" text)
  set(line_re "X\\([A-Z0-9]+, ([0-9]+), \"([a-z0-9]+)\", \"[a-z0-9]+\", [0-9]+, '([a-z])'")
  string(REGEX MATCHALL "${line_re}" lines "${text}")
  set(names "")
  set(values "")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "${line_re}" _ "${line}")
    if(CMAKE_MATCH_3 STREQUAL "c")
      continue()  # complex: xpu leaves them to the CPU fallback (supported_dtypes(caps, false))
    endif()
    list(APPEND values "${CMAKE_MATCH_1}")
    list(APPEND names "${CMAKE_MATCH_2}")
  endforeach()
  if(names STREQUAL "")
    message(FATAL_ERROR "spirv.cmake: no dtype found in the KF_DTYPE_LIST of ${types_h}")
  endif()
  set(${out_names} "${names}" PARENT_SCOPE)
  set(${out_values} "${values}" PARENT_SCOPE)
endfunction()

# _kernforge_spirv_rule(<family source> <dtype name> <dtype value> <fp64> <out-cpp-var>): the
# rule that builds one module and its embedding .cpp.
function(_kernforge_spirv_rule source dt_name dt_value fp64 out_cpp)
  get_filename_component(family "${source}" NAME_WE)
  set(dir "${CMAKE_BINARY_DIR}/generated/clkernels/spirv")
  set(symbol "${family}_${dt_name}_fp64_${fp64}")
  set(stem "${dir}/${symbol}")
  file(GLOB headers CONFIGURE_DEPENDS "${KF_CLKERNELS_DIR}/kernels/*.clh")
  # One process runs the steps of the Note above in order (spirv_ir.py build).
  add_custom_command(
    OUTPUT "${stem}.cpp" "${stem}.spv"
    COMMAND "${KF_CLKERNELS_PYTHON}" "${KF_CLKERNELS_DIR}/spirv_ir.py" build "${ARG_CLANG}"
            "${ARG_LLVM_SPIRV}" "${ARG_SPIRV_VAL}" "${stem}" "${symbol}" ${fp64}
            -cl-std=CL1.2 -target spir64 -O2 -fno-vectorize -fno-slp-vectorize
            -Xclang -finclude-default-header
            -include "${KF_CLKERNELS_COMMON}" -I "${KF_CLKERNELS_DIR}/kernels"
            -DKF_DT=${dt_value} -DKF_HAS_FP64=${fp64} "${source}"
    DEPENDS "${source}" ${headers} "${KF_CLKERNELS_SPIRV_SCRIPT}"
            "${KF_CLKERNELS_DIR}/spirv_ir.py"
    # (not the .spv.tmp, which the last step renames: a byproduct that is missing afterwards
    # would make every build run the command again)
    BYPRODUCTS "${stem}.ll" "${stem}.opt.ll" "${stem}.bc"
    COMMENT "SPIR-V: ${family}.cl for ${dt_name}, KF_HAS_FP64=${fp64}"
    VERBATIM)
  set(${out_cpp} "${stem}.cpp" PARENT_SCOPE)
endfunction()

# The index (a table of every module) and the header that declares the lookups, written at
# configure time: the families and dtypes are known then.
function(_kernforge_spirv_index index_cpp header entries)
  set(decls "")
  set(rows "")
  foreach(entry IN LISTS entries)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 family)
    list(GET parts 1 dt_name)
    list(GET parts 2 dt_value)
    list(GET parts 3 fp64)
    set(symbol "${family}_${dt_name}_fp64_${fp64}")
    string(APPEND decls "extern const unsigned char ${symbol}[];\n"
                        "extern const size_t ${symbol}_size;\n")
    string(APPEND rows "    {\"${family}\", ${dt_value}, ${fp64}, spirv_data::${symbol}, "
                       "&spirv_data::${symbol}_size},\n")
  endforeach()
  list(LENGTH entries count)
  set(cpp "// Generated by backends/clkernels/spirv.cmake. Do not edit.
#include <cstring>

#include \"clkernels/spirv_modules.hpp\"

namespace kf::clk {
namespace spirv_data {
${decls}}  // namespace spirv_data

namespace {
struct Entry {
  const char* family;
  int32_t dtype;
  int fp64;
  const unsigned char* data;
  const size_t* size;
};
const Entry kModules[] = {
${rows}    {nullptr, -1, 0, nullptr, nullptr}};
}  // namespace

size_t spirv_module_count() noexcept { return ${count}; }

const unsigned char* spirv_module_by_name(const char* family, int32_t dtype, bool fp64,
                                          size_t* size) noexcept {
  if (size != nullptr) *size = 0;
  if (family == nullptr) return nullptr;
  for (const Entry& e : kModules) {
    if (e.family == nullptr || e.dtype != dtype || (e.fp64 != 0) != fp64 ||
        std::strcmp(e.family, family) != 0) {
      continue;
    }
    if (size != nullptr) *size = *e.size;
    return e.data;
  }
  return nullptr;
}

const unsigned char* spirv_module(ProgramKey key, bool fp64, size_t* size) noexcept {
  return spirv_module_by_name(family_name(key.family), key.dtype, fp64, size);
}

}  // namespace kf::clk
")
  set(hpp "// Generated by backends/clkernels/spirv.cmake. Do not edit.
// spirv_modules.hpp — the shared kernels as SPIR-V modules compiled at build time, one per
// family and dtype, embedded in the library kernforge_clkernels_spirv. The bytes are static:
// they live as long as the process; the lookups are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

#include \"clkernels/launch.hpp\"

namespace kf::clk {

/// The SPIR-V module of `key` built for devices with (fp64 true: -DKF_HAS_FP64=1) or without
/// double arithmetic, and its size in bytes; nullptr (and *size 0) when there is none (float64
/// exists only with fp64).
const unsigned char* spirv_module(ProgramKey key, bool fp64, size_t* size) noexcept;

/// The same by family name (\"copy\") and kf_dtype_t value.
const unsigned char* spirv_module_by_name(const char* family, int32_t dtype, bool fp64,
                                          size_t* size) noexcept;

/// How many modules were built.
size_t spirv_module_count() noexcept;

}  // namespace kf::clk
")
  foreach(pair "${index_cpp}|cpp" "${header}|hpp")
    string(REPLACE "|" ";" pair "${pair}")
    list(GET pair 0 path)
    list(GET pair 1 var)
    file(WRITE "${path}.tmp" "${${var}}")
    file(COPY_FILE "${path}.tmp" "${path}" ONLY_IF_DIFFERENT)
    file(REMOVE "${path}.tmp")
  endforeach()
endfunction()

function(kernforge_clkernels_spirv)
  cmake_parse_arguments(ARG "" "CLANG;LLVM_SPIRV;SPIRV_VAL" "" ${ARGN})
  # The variables of clkernels.cmake live in the directory that included it first (another
  # backend's, maybe): the folder is found from this file's own place instead.
  set(KF_CLKERNELS_SPIRV_SCRIPT "${CMAKE_CURRENT_FUNCTION_LIST_FILE}")
  get_filename_component(KF_CLKERNELS_DIR "${KF_CLKERNELS_SPIRV_SCRIPT}" DIRECTORY)
  set(KF_CLKERNELS_COMMON "${KF_CLKERNELS_DIR}/kernels/common.clh")
  # The interpreter itself (its sys.executable), not a launcher in front of it: the build starts
  # Python once per module, and a pyenv shim adds ~60 ms to each start.
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import sys; print(sys.executable)"
                  OUTPUT_VARIABLE KF_CLKERNELS_PYTHON OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE python_result)
  if(NOT python_result EQUAL 0 OR NOT EXISTS "${KF_CLKERNELS_PYTHON}")
    set(KF_CLKERNELS_PYTHON "${Python3_EXECUTABLE}")
  endif()
  file(GLOB KF_CLKERNELS_FAMILY_SOURCES CONFIGURE_DEPENDS "${KF_CLKERNELS_DIR}/kernels/*.cl")
  list(SORT KF_CLKERNELS_FAMILY_SOURCES)
  foreach(tool CLANG LLVM_SPIRV SPIRV_VAL)
    if(NOT ARG_${tool})
      message(FATAL_ERROR "kernforge_clkernels_spirv(): ${tool} <program> is required")
    endif()
  endforeach()
  if(NOT TARGET kernforge_clkernels)
    message(FATAL_ERROR "kernforge_clkernels_spirv(): include clkernels.cmake first")
  endif()
  if(TARGET kernforge_clkernels_spirv)
    return()
  endif()
  kernforge_clkernels_dtypes(dt_names dt_values)
  list(LENGTH dt_names dt_count)
  math(EXPR dt_last "${dt_count} - 1")
  set(cpps "")
  set(entries "")
  foreach(source IN LISTS KF_CLKERNELS_FAMILY_SOURCES)
    get_filename_component(family "${source}" NAME_WE)
    foreach(i RANGE ${dt_last})
      list(GET dt_names ${i} dt_name)
      list(GET dt_values ${i} dt_value)
      foreach(fp64 0 1)
        if(dt_name STREQUAL "float64" AND fp64 EQUAL 0)
          continue()  # float64 runs only on devices with fp64
        endif()
        _kernforge_spirv_rule("${source}" "${dt_name}" "${dt_value}" ${fp64} cpp)
        list(APPEND cpps "${cpp}")
        list(APPEND entries "${family}|${dt_name}|${dt_value}|${fp64}")
      endforeach()
    endforeach()
  endforeach()
  set(gen "${CMAKE_BINARY_DIR}/generated/clkernels")
  _kernforge_spirv_index("${gen}/spirv/spirv_index.cpp"
                         "${gen}/spirv_include/clkernels/spirv_modules.hpp" "${entries}")
  add_library(kernforge_clkernels_spirv STATIC "${gen}/spirv/spirv_index.cpp" ${cpps})
  target_include_directories(kernforge_clkernels_spirv PUBLIC "${gen}/spirv_include")
  target_link_libraries(kernforge_clkernels_spirv PUBLIC kernforge_clkernels)
  set_target_properties(kernforge_clkernels_spirv PROPERTIES POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
endfunction()
