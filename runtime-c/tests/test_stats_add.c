/* cf_stats_add: counts made elsewhere (another MPI rank's) show in the total, field by field, once. */
#include "cacheflow/cacheflow.h"
#include "helpers.h"

#include <string.h>

int main(void) {
    cf_stats before, after, added;
    cf_stats_total(&before);
    memset(&added, 0, sizeof added);
    added.bytes_memcpy = 1000;
    added.channel_waits = 7;
    added.cow_pages_shared = 3;
    cf_stats_add(&added);
    cf_stats_total(&after);
    CF_CHECK(after.bytes_memcpy == before.bytes_memcpy + 1000);
    CF_CHECK(after.channel_waits == before.channel_waits + 7);
    CF_CHECK(after.cow_pages_shared == before.cow_pages_shared + 3);
    CF_CHECK(after.bytes_ntm == before.bytes_ntm);
    cf_stats mine;
    cf_stats_thread(&mine);
    CF_CHECK(mine.bytes_memcpy >= 1000);
    return 0;
}
