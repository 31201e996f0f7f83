/* cf_channel with slot memory from the caller (cf_channel_storage_size, cf_channel_create_in) and
 * cf_channel_reset: for every layout and homing, k in {1, 3, 8}, the storage is filled with garbage (as
 * another channel sharing it would leave it), the receiver thread resets the channel, and the two threads pass
 * 3k + 1 messages (every length of the slot, each checked byte by byte); then again after the next garbage
 * and reset, and once more after a close. Argument errors: NULL, too small and misaligned storage, NULL
 * outputs. The storage outlives cf_channel_destroy (which must not unmap or free it). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "cacheflow/channel.h"
#include "helpers.h"

typedef struct round_state {
    cf_channel *ch;
    size_t max_message;
    uint64_t messages;
    uint32_t round;
    int close_after; /* the sender closes the channel after its last message */
    pthread_barrier_t reset_done;
} round_state;

static size_t length_of(uint64_t seq, size_t max_message) { return max_message ? (size_t)(seq % (max_message + 1)) : 0; }

static unsigned char byte_of(uint32_t round, uint64_t seq, size_t i) {
    return (unsigned char)(round * 97u + seq * 31u + i * 7u + 1u);
}

static void fill_garbage(unsigned char *storage, size_t bytes, uint32_t seed) {
    uint64_t x = 0x9e3779b97f4a7c15u ^ seed;
    for (size_t i = 0; i < bytes; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        storage[i] = (unsigned char)(x | 1u); /* never zero: no slot may look empty or unwritten by chance */
    }
}

static void *sender_main(void *arg) {
    round_state *r = arg;
    pthread_barrier_wait(&r->reset_done); /* orders the receiver's reset before the first send */
    unsigned char message[256];
    for (uint64_t seq = 0; seq < r->messages; seq++) {
        size_t len = length_of(seq, r->max_message);
        for (size_t i = 0; i < len; i++) message[i] = byte_of(r->round, seq, i);
        CF_CHECK(cf_channel_send(r->ch, message, len) == 0);
    }
    if (r->close_after) cf_channel_close(r->ch);
    return NULL;
}

static void receive_round(round_state *r) {
    CF_CHECK(cf_channel_reset(r->ch) == 0); /* on the receiver, as a program does on entering a variant */
    pthread_t sender;
    CF_CHECK(pthread_create(&sender, NULL, sender_main, r) == 0);
    pthread_barrier_wait(&r->reset_done);
    unsigned char message[256];
    for (uint64_t seq = 0; seq < r->messages; seq++) {
        size_t len = 0;
        CF_CHECK(cf_channel_receive(r->ch, message, sizeof message, &len) == 0);
        CF_CHECK(len == length_of(seq, r->max_message));
        for (size_t i = 0; i < len; i++) CF_CHECK(message[i] == byte_of(r->round, seq, i));
    }
    CF_CHECK(pthread_join(sender, NULL) == 0);
    size_t len = 0;
    if (r->close_after) CF_CHECK(cf_channel_receive(r->ch, message, sizeof message, &len) == -EPIPE);
    else CF_CHECK(cf_channel_try_receive(r->ch, message, sizeof message, &len) == -EAGAIN);
}

static void test_rounds(cf_channel_layout layout, cf_channel_homing homing, size_t max_message, size_t slots) {
    cf_channel_options options = {.slots = slots, .max_message = max_message, .homing = homing, .layout = layout};
    size_t bytes = 0, align = 0;
    CF_CHECK(cf_channel_storage_size(&options, &bytes, &align) == 0);
    CF_CHECK(align == CF_CHANNEL_STORAGE_ALIGN && bytes > 0 && bytes % align == 0);
    CF_CHECK(bytes >= slots * (max_message < 8 ? 8 : max_message)); /* at least the messages themselves */
    /* Mapped storage, one page more than asked: a destroy that unmapped it would make the writes after it fault. */
    size_t mapped = bytes + 4096;
    unsigned char *storage = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CF_CHECK(storage != MAP_FAILED);
    fill_garbage(storage, mapped, (uint32_t)(slots * 131 + max_message));
    cf_channel *ch = NULL;
    CF_CHECK(cf_channel_create_in(&ch, &options, storage, bytes) == 0);
    CF_CHECK(cf_channel_slots(ch) == slots && cf_channel_max_message(ch) == max_message);
    round_state r = {.ch = ch, .max_message = max_message, .messages = 3 * slots + 1};
    for (uint32_t round = 0; round < 3; round++) {
        CF_CHECK(pthread_barrier_init(&r.reset_done, NULL, 2) == 0);
        r.round = round;
        r.close_after = round == 1;
        receive_round(&r);
        pthread_barrier_destroy(&r.reset_done);
        fill_garbage(storage, bytes, round + 7); /* another channel's messages in the same storage */
    }
    cf_channel_destroy(ch);
    storage[0] = 1; /* still mapped: destroy left the caller's storage alone */
    storage[bytes - 1] = 1;
    CF_CHECK(munmap(storage, mapped) == 0);
}

static void test_errors(void) {
    cf_channel_options options = {.slots = 4, .max_message = 16};
    size_t bytes = 0, align = 0;
    CF_CHECK(cf_channel_storage_size(&options, &bytes, &align) == 0);
    CF_CHECK(cf_channel_storage_size(&options, NULL, &align) == -EINVAL);
    CF_CHECK(cf_channel_storage_size(&options, &bytes, NULL) == -EINVAL);
    CF_CHECK(cf_channel_storage_size(NULL, &bytes, &align) == -EINVAL);
    cf_channel_options bad = {.slots = 0, .max_message = 8};
    CF_CHECK(cf_channel_storage_size(&bad, &bytes, &align) == -EINVAL);
    CF_CHECK(cf_channel_storage_size(&options, &bytes, &align) == 0);
    unsigned char *storage = aligned_alloc(align, bytes + align);
    CF_CHECK(storage != NULL);
    cf_channel *ch = (cf_channel *)&ch; /* must be NULL after every failure */
    CF_CHECK(cf_channel_create_in(&ch, &options, NULL, bytes) == -EINVAL);
    CF_CHECK(ch == NULL);
    ch = (cf_channel *)&ch;
    CF_CHECK(cf_channel_create_in(&ch, &options, storage, bytes - align) == -EINVAL); /* too small */
    CF_CHECK(ch == NULL);
    ch = (cf_channel *)&ch;
    CF_CHECK(cf_channel_create_in(&ch, &options, storage + 64, bytes) == -EINVAL); /* misaligned */
    CF_CHECK(ch == NULL);
    CF_CHECK(cf_channel_create_in(&ch, &bad, storage, bytes) == -EINVAL);
    CF_CHECK(cf_channel_create_in(NULL, &options, storage, bytes) == -EINVAL);
    CF_CHECK(cf_channel_reset(NULL) == -EINVAL);
    /* more than enough is fine; single-threaded use after a reset of a channel with messages left in it */
    CF_CHECK(cf_channel_create_in(&ch, &options, storage, bytes + align) == 0);
    CF_CHECK(cf_channel_home_here(ch) == 0);
    unsigned char message[16] = {1, 2, 3};
    size_t len = 0;
    CF_CHECK(cf_channel_send(ch, message, 3) == 0);
    CF_CHECK(cf_channel_reset(ch) == 0); /* the message in flight is dropped */
    CF_CHECK(cf_channel_try_receive(ch, message, sizeof message, &len) == -EAGAIN);
    cf_channel_destroy(ch);
    free(storage);
}

int main(void) {
    test_errors();
    static const size_t slot_counts[] = {1, 3, 8};
    static const cf_channel_homing homings[] = {CF_CHANNEL_HOMING_NONE, CF_CHANNEL_HOMING_NTM, CF_CHANNEL_HOMING_CLEAN,
                                                CF_CHANNEL_HOMING_DEMOTE};
    for (int layout = CF_CHANNEL_LAYOUT_AUTO; layout <= CF_CHANNEL_LAYOUT_WORD; layout++) {
        int small = layout == CF_CHANNEL_LAYOUT_TAGGED || layout == CF_CHANNEL_LAYOUT_WORD;
        for (size_t h = 0; h < sizeof homings / sizeof homings[0]; h++) {
            if (small && homings[h] != CF_CHANNEL_HOMING_NONE) continue; /* -EINVAL: 8-byte slots, no homing */
            for (size_t s = 0; s < sizeof slot_counts / sizeof slot_counts[0]; s++) {
                test_rounds((cf_channel_layout)layout, homings[h], 8, slot_counts[s]);
                if (!small) {
                    test_rounds((cf_channel_layout)layout, homings[h], 24, slot_counts[s]);
                    test_rounds((cf_channel_layout)layout, homings[h], 200, slot_counts[s]);
                }
            }
        }
    }
    printf("test_channel_storage: ok\n");
    return 0;
}
