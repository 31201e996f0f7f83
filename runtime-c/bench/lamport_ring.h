/* Baseline for bench_channel: Lamport's single-producer single-consumer ring, in its classic form.
 *
 * The producer owns `tail`, the consumer owns `head` (free-running counters, each on its own 128-byte
 * block); the ring is full when tail - head == capacity and empty when head == tail. Unlike the rdy-ack
 * channel and the modern queues, neither side keeps a cached copy of the other's index: every push
 * reads `head` and every pop reads `tail`, so both index lines move between the cores on every message
 * while the queue is busy. Slots are packed (length word + payload, 8-byte aligned), as in an array of
 * elements; the capacity is a power of two so that indexing is a mask. Waiting spins with a pause
 * instruction and never sleeps. Not part of the library. */
#ifndef CF_BENCH_LAMPORT_RING_H
#define CF_BENCH_LAMPORT_RING_H
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"

typedef struct lamport_ring {
    alignas(128) size_t head; /* written by the consumer */
    alignas(128) size_t tail; /* written by the producer */
    alignas(128) char *slots; /* read-only after creation */
    size_t capacity;
    size_t stride;
    size_t max_message;
} lamport_ring;

static inline lamport_ring *lamport_ring_create(size_t capacity, size_t max_message) {
    if (capacity == 0 || (capacity & (capacity - 1))) return NULL;
    lamport_ring *ring = aligned_alloc(128, sizeof *ring);
    if (!ring) return NULL;
    memset(ring, 0, sizeof *ring);
    ring->capacity = capacity;
    ring->max_message = max_message;
    ring->stride = (sizeof(uint64_t) + max_message + 7) / 8 * 8;
    ring->slots = aligned_alloc(128, (capacity * ring->stride + 127) / 128 * 128);
    if (!ring->slots) {
        free(ring);
        return NULL;
    }
    memset(ring->slots, 0, capacity * ring->stride);
    return ring;
}

static inline void lamport_ring_destroy(lamport_ring *ring) {
    if (!ring) return;
    free(ring->slots);
    free(ring);
}

static inline void lamport_ring_push(lamport_ring *ring, const void *message, size_t len) {
    size_t tail = ring->tail; /* own index: a plain read by its only writer */
    while (tail - __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE) == ring->capacity) cf_arch_cpu_relax();
    char *slot = ring->slots + (tail & (ring->capacity - 1)) * ring->stride;
    uint64_t length = len;
    memcpy(slot, &length, sizeof length);
    memcpy(slot + sizeof length, message, len);
    __atomic_store_n(&ring->tail, tail + 1, __ATOMIC_RELEASE);
}

/* Returns the message length (the caller's buffer holds max_message bytes). */
static inline size_t lamport_ring_pop(lamport_ring *ring, void *buffer) {
    size_t head = ring->head;
    while (__atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) == head) cf_arch_cpu_relax();
    const char *slot = ring->slots + (head & (ring->capacity - 1)) * ring->stride;
    uint64_t length;
    memcpy(&length, slot, sizeof length);
    memcpy(buffer, slot + sizeof length, (size_t)length);
    __atomic_store_n(&ring->head, head + 1, __ATOMIC_RELEASE);
    return (size_t)length;
}

#endif
