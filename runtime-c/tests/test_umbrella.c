/* The umbrella header alone gives access to every module (it compiles, and one call per module
 * links and behaves). */
#include "cacheflow/cacheflow.h"
#include "helpers.h"

#include <errno.h>
#include <string.h>

int main(void) {
    char a[100] = "umbrella", b[100];
    cf_copy(b, a, sizeof a);
    CF_CHECK(strcmp(b, "umbrella") == 0);
    cf_ntm_copy(b, a, sizeof a);
    CF_CHECK(strcmp(b, "umbrella") == 0);
    CF_CHECK(cf_prestore(a, sizeof a, CF_CLEAN) == 0);
    CF_CHECK(cf_cpu_describe(NULL, 0) > 0);
    cf_cow_buffer *cow;
    CF_CHECK(cf_cow_create(&cow, 0, NULL) == -EINVAL);
    cf_heap *heap;
    CF_CHECK(cf_heap_create(&heap, 0, 0) == -EINVAL);
    cf_sched *sched;
    CF_CHECK(cf_sched_create(&sched, NULL) == -EINVAL);
    cf_stats s;
    cf_stats_thread(&s);
    CF_CHECK(s.bytes_memcpy >= sizeof a);
    return 0;
}
