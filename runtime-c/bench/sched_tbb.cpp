// bench_sched's oneTBB variant (built when CMake finds TBB, Debian libtbb-dev): the fan graph of bench_sched.c
// with tbb::task_group in a task_arena of `threads` threads: per iteration the source, then `width` tasks and
// a wait, then the sink.
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <chrono>

extern "C" double cf_bench_tbb_fan(unsigned threads, long iterations, unsigned width, void (*actor)(void)) {
    tbb::task_arena arena(static_cast<int>(threads));
    double seconds = 0;
    arena.execute([&] {
        tbb::task_group group;
        auto begin = std::chrono::steady_clock::now();
        for (long i = 0; i < iterations; i++) {
            actor();
            for (unsigned k = 0; k < width; k++) group.run([actor] { actor(); });
            group.wait();
            actor();
        }
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    });
    return seconds;
}
