#include <cacheflow/cacheflow.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char text[256], src[1000], dst[1000];
    memset(src, 3, sizeof src);
    cf_ntm_copy(dst, src, sizeof dst);
    cf_cpu_describe(text, sizeof text);
    printf("installed cacheflow works: %s\n", text);
    return memcmp(dst, src, sizeof dst) != 0;
}
