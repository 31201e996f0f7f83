#!/bin/sh
# Runs every check of the C runtime, in order, and fails on the first failure:
#   1. native build (gcc, warnings as errors) + ctest, install into the build tree, and build a
#      consumer against the installed package (find_package and pkg-config)
#   2. gcc Debug build (warnings as errors), compile only
#   3. clang build (warnings as errors), compile only - skipped with a notice if clang is missing
#   4. AddressSanitizer + UndefinedBehaviorSanitizer build + ctest
#   5. ThreadSanitizer build + ctest
#   6. aarch64, armhf and riscv64 cross builds + ctest under qemu-user (ctest only: no sanitizers, no benchmarks)
# Needs: cmake, a C compiler, ninja (optional), pkg-config (optional), gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross, gcc-arm-linux-gnueabihf, libc6-dev-armhf-cross, gcc-riscv64-linux-gnu,
# libc6-dev-riscv64-cross, qemu-user. Installs nothing; build directories are runtime-c/build-*.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
jobs=${CF_JOBS:-2}
generator=
if command -v ninja >/dev/null 2>&1; then generator="-G Ninja"; fi

step() { printf '\n==== %s ====\n' "$*"; }
die() { printf 'run-tests.sh: %s\n' "$*" >&2; exit 1; }

# Cross tools are required, not optional: fail before spending minutes on the other builds.
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
    die "aarch64-linux-gnu-gcc not found (Debian packages: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 ||
    die "arm-linux-gnueabihf-gcc not found (Debian packages: gcc-arm-linux-gnueabihf libc6-dev-armhf-cross)"
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 ||
    die "riscv64-linux-gnu-gcc not found (Debian packages: gcc-riscv64-linux-gnu libc6-dev-riscv64-cross)"
for emulator in qemu-aarch64 qemu-arm qemu-riscv64; do
    command -v $emulator >/dev/null 2>&1 || die "$emulator not found (Debian package: qemu-user)"
done
command -v cmake >/dev/null 2>&1 || die "cmake not found (Debian package: cmake)"

build() { # build <dir> <cmake args...>
    dir=$1; shift
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    cmake -S . -B "$dir" $generator -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCF_WERROR=ON "$@" >"$dir/configure.log" 2>&1 ||
        { cat "$dir/configure.log"; die "configure of $dir failed"; }
    cmake --build "$dir" -j "$jobs"
}

run_ctest() { # run_ctest <dir>
    (cd "$1" && ctest --output-on-failure -j "$jobs")
}

step "native build + tests"
build build-native
run_ctest build-native
rm -rf build-native/stage build-native/consumer
cmake --install build-native --prefix "$here/build-native/stage" >/dev/null
PKG_CONFIG_PATH="$here/build-native/stage/lib/pkgconfig:$here/build-native/stage/lib64/pkgconfig" \
    cmake -S cmake/consumer-check -B build-native/consumer $generator \
    -DCMAKE_PREFIX_PATH="$here/build-native/stage" >build-native/consumer.log 2>&1 ||
    { cat build-native/consumer.log; die "consumer of the installed package does not configure"; }
cmake --build build-native/consumer -j "$jobs" >>build-native/consumer.log 2>&1 ||
    { cat build-native/consumer.log; die "consumer of the installed package does not build"; }
for exe in build-native/consumer/consumer_*; do
    LD_LIBRARY_PATH="$here/build-native/stage/lib:$here/build-native/stage/lib64" "$exe"
done

# gcc at -O0 inlines the always_inline fast paths without propagating lengths, so its object-size warnings see
# branches an optimised build removes (cacheflow/internal/channel_fast.h's cf_channel_copy_): a Debug build, compile only, keeps them out.
step "gcc Debug build (warnings are errors), compile only"
build build-debug -DCMAKE_BUILD_TYPE=Debug -DCF_BUILD_BENCH=ON

if command -v clang >/dev/null 2>&1; then
    step "clang build (warnings are errors)"
    build build-clang -DCMAKE_C_COMPILER=clang -DCF_BUILD_BENCH=ON
else
    step "clang not installed: clang build skipped"
fi

step "AddressSanitizer + UndefinedBehaviorSanitizer"
build build-asan -DCF_SANITIZE=address,undefined -DCF_BUILD_BENCH=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 run_ctest build-asan

step "ThreadSanitizer"
build build-tsan -DCF_SANITIZE=thread -DCF_BUILD_BENCH=OFF
# TSan needs a low-entropy address layout; kernels with more mmap randomisation than the TSan
# runtime expects make it abort ("unexpected memory mapping"). setarch -R turns randomisation off
# for the test processes only.
tsan_prefix=
if command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R true 2>/dev/null; then
    tsan_prefix="setarch $(uname -m) -R"
fi
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 $tsan_prefix ctest --output-on-failure -j "$jobs")

# cross <name> <toolchain file> <qemu> <libc package> <benchmarks ON/OFF> <stress scale %>: CTest only, no sanitizers
cross() {
    step "$1 cross build + tests under qemu-user"
    build "build-$1" -DCMAKE_TOOLCHAIN_FILE="$here/cmake/toolchains/$2.cmake" -DCF_BUILD_BENCH="$5"
    grep -q "$3" "build-$1/CTestTestfile.cmake" ||
        die "$1 build has no qemu emulator configured (is $4 installed?)"
    (CF_TEST_SCALE=$6 && export CF_TEST_SCALE && run_ctest "build-$1")
}
# aarch64 runs the stress programs at half scale (at full scale its tests took 62 s under qemu, as long as the
# native, ASan and TSan ones together); armhf and riscv64 run every program too, their stress programs at a quarter
# of it (their own code is the arch/ paths, which the small programs cover, and the 32-bit build of the shared code)
cross aarch64 aarch64-linux-gnu qemu-aarch64 libc6-dev-arm64-cross OFF 50
cross armhf arm-linux-gnueabihf qemu-arm libc6-dev-armhf-cross OFF 25
cross riscv64 riscv64-linux-gnu qemu-riscv64 libc6-dev-riscv64-cross OFF 25

step "all checks passed"
