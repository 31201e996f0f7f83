# Shared by the per-target toolchain files: compilers named <triple>-gcc, the target's runtime libraries
# found next to the cross libc (so nothing here names a path of the build machine), and qemu-user as
# the emulator CTest runs the test programs with.
set(CMAKE_C_COMPILER ${CF_CROSS_TRIPLE}-gcc)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Ask the cross compiler where its libc lives; the directory above lib/ is the prefix that qemu-user
# needs (-L) to find the target's dynamic loader and shared libraries.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libc.so.6
                OUTPUT_VARIABLE _cf_libc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _cf_rc)
if(_cf_rc EQUAL 0 AND IS_ABSOLUTE "${_cf_libc}")
  get_filename_component(_cf_libdir "${_cf_libc}" DIRECTORY)
  get_filename_component(CF_CROSS_SYSROOT "${_cf_libdir}/.." REALPATH)
  list(APPEND CMAKE_FIND_ROOT_PATH "${CF_CROSS_SYSROOT}")
endif()

string(REGEX REPLACE "^(arm|aarch64|riscv64).*" "\\1" _cf_qemu_arch "${CF_CROSS_TRIPLE}")
find_program(CF_QEMU qemu-${_cf_qemu_arch})
if(CF_QEMU AND CF_CROSS_SYSROOT)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CF_QEMU} -L ${CF_CROSS_SYSROOT})
endif()
