# ascend_xent_kernel_dtypes(<target> <NAME> <dtype> [<NAME> <dtype>]...)
#
# Compiles <target> for one data-type combination of its op, with the defines CANN's
# op compiler passes per input and output (asc-devkit cmake/asc/fwk_modules/util/
# ascendc_impl_build.py, add_dtype_fmt_option_single): DTYPE_<NAME> (the kernel's C++
# type) and ORIG_DTYPE_<NAME> (its DT_* id), plus ASCEND_XENT_KERNEL_TYPE, which makes
# kernel_operator.h define the DT_* and FORMAT_* ids those are compared with
# (kernel_type.h). <NAME> is the parameter's name in upper case as the op definition
# spells it (an output named as an input is <NAME>_REF); <dtype> is the op
# definition's name of the type (float32, float16, bfloat16, int8, ...).
# docs/cpu_twin.md.
function(ascend_xent_kernel_dtypes target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "ascend_xent_kernel_dtypes: ${target} is not a target")
  endif()
  list(LENGTH ARGN n)
  math(EXPR odd "${n} % 2")
  if(n EQUAL 0 OR odd)
    message(FATAL_ERROR "ascend_xent_kernel_dtypes(${target}): give <NAME> <dtype> pairs")
  endif()
  # dtype -> DT_* id and C++ type, as ascendc_impl_build.py's DTYPE_MAP (the types the twin has)
  set(map_float32 DT_FLOAT float)
  set(map_float16 DT_FLOAT16 half)
  set(map_bfloat16 DT_BF16 bfloat16_t)
  set(map_double DT_DOUBLE double)
  set(map_int8 DT_INT8 int8_t)
  set(map_uint8 DT_UINT8 uint8_t)
  set(map_int16 DT_INT16 int16_t)
  set(map_uint16 DT_UINT16 uint16_t)
  set(map_int32 DT_INT32 int32_t)
  set(map_uint32 DT_UINT32 uint32_t)
  set(map_int64 DT_INT64 int64_t)
  set(map_uint64 DT_UINT64 uint64_t)
  set(map_bool DT_BOOL bool)
  set(map_int4 DT_INT4 int4b_t)
  set(defs ASCEND_XENT_KERNEL_TYPE=1)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET ARGN ${i} name)
    list(GET ARGN ${j} dtype)
    if(NOT DEFINED map_${dtype})
      message(FATAL_ERROR "ascend_xent_kernel_dtypes(${target}): ${name} has dtype ${dtype}, not one of float32, "
                          "float16, bfloat16, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64, bool, int4")
    endif()
    list(GET map_${dtype} 0 id)
    list(GET map_${dtype} 1 type)
    list(APPEND defs DTYPE_${name}=${type} ORIG_DTYPE_${name}=${id})
  endforeach()
  target_compile_definitions(${target} PRIVATE ${defs})
endfunction()
