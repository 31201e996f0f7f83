/* The rdy-ack channel's layout and inline fast path: internals of cacheflow/channel.h, which includes this
 * file where the API needs it (not API; may change). The layout, the protocol, the orderings (a)-(d) the
 * comments below name and the cache lines each message touches are explained in docs/channel.md,
 * "Protocol" and "The fast path in the header"; src/channel.c has the slow paths. */
#ifndef CACHEFLOW_INTERNAL_CHANNEL_FAST_H
#define CACHEFLOW_INTERNAL_CHANNEL_FAST_H
#ifndef CACHEFLOW_CHANNEL_H
#error "include cacheflow/channel.h, not this internal header"
#endif

/* Shared with the Lamport build (src/channel_common.h). */
/* Read by the sender after every publish; written when the receiver sleeps or wakes, and on close. */
struct cf_channel_to_receiver_ {
    uint32_t receiver_sleeping; /* futex word */
    uint32_t closed;
};
/* Read by the receiver after every release; written when the sender sleeps or wakes. */
struct cf_channel_to_sender_ {
    uint32_t sender_sleeping; /* futex word */
};
/* Read-only after creation, off the fast path. */
struct cf_channel_shared_ {
    char *slots;
    size_t map_bytes;     /* the slot memory: mapped by cf_channel_create, or the caller's (cf_channel_create_in) */
    size_t used_bytes;    /* the bytes of it the channel uses (cf_channel_reset zeroes them) */
    uint32_t foreign;     /* 1: the caller's storage (cf_channel_create_in), which destroy leaves alone */
    size_t slots_count;
    size_t max_message;
    cf_channel_layout layout; /* in use: AUTO resolved */
};

#if !defined(__cplusplus) && (!defined(CF_CHANNEL_OUT_OF_LINE) || defined(CF_CHANNEL_RDYACK_IMPLEMENTATION))

#define CF_CHANNEL_ACK_ ((uint64_t)1 << 63)
#define CF_CHANNEL_TAGGED_PER_LINE_ 7u /* tagged: 7 tag bytes + 1 spare, then 7 slots of 8 bytes */
#define CF_CHANNEL_TAGGED_PAYLOAD_ 8u  /* the first slot, from the line start */
#define CF_CHANNEL_TAG_FULL_ 0x10u     /* a tag: 0 = empty (the sender's), FULL | length = the receiver's */
#define CF_CHANNEL_TAG_LENGTH_ 0x0fu
#define CF_CHANNEL_WORD_ESCAPED_ (CF_CHANNEL_WORD_ESCAPE ^ CF_CHANNEL_WORD_EMPTY) /* word: ESCAPE as stored */
#define CF_CHANNEL_ALIGN_ __attribute__((aligned(128)))
#define CF_CHANNEL_LIKELY_(x) __builtin_expect(!!(x), 1)
#define CF_CHANNEL_UNLIKELY_(x) __builtin_expect(!!(x), 0)

/* Each side's private copy of the geometry: its fast path reads only its own block. */
struct cf_channel_geometry_ {
    char *groups;          /* first group */
    char *groups_end;      /* groups + R / per_group * group_stride (tagged: the slot after the k-th) */
    size_t group_stride;   /* bytes from one group to the next, a multiple of 64 */
    size_t slot_stride;    /* bytes from one slot of a group to the next */
    size_t payload_offset; /* first slot's message, from the group start */
    size_t prefetch_ahead; /* receiver: bytes ahead of a group it enters to prefetch (0: none) */
    size_t max_message;
    uint64_t slots;        /* k */
    uint64_t ring;         /* R: mapped slots, a multiple of per_group, >= k + per_group - 1 */
    uint32_t per_group;
    uint32_t length_bits;  /* 31 / per_group */
    uint32_t spin_limit;
    uint32_t homing;       /* cf_channel_homing */
    uint32_t symmetric_fences; /* 1: a full fence after every publish/release instead of membarrier */
    uint32_t tagged;       /* CF_CHANNEL_LAYOUT_TAGGED: slot tags instead of group headers (docs: TAGGED) */
    uint32_t word;         /* CF_CHANNEL_LAYOUT_WORD: the slot word is the flag (docs: WORD) */
    uint32_t direct;       /* word ring of 8-byte messages, asymmetric fences: the inline fast paths apply */
    char *escapes;         /* word: the side entries (struct cf_channel_escape_), one per slot */
};

/* Word rings: a slot's side entry, for messages that are not a plain 8-byte value. */
struct cf_channel_escape_ {
    uint64_t bytes;  /* the message area (reserve hands it out) */
    uint64_t length; /* 0 .. 8 */
};

struct cf_channel_sender_ {
    struct cf_channel_geometry_ g;
    uint64_t sent;      /* messages published */
    uint64_t known;     /* messages known to be consumed (from ACKs or `received`) */
    uint64_t free;      /* slots known free: k - (sent - known) */
    char *group;        /* group of the next message */
    char *slot;         /* its message area */
    uint64_t lengths;   /* the group header's length bits so far */
    uint64_t stage;     /* word rings: the message reserve hands out, published by commit */
    uint32_t index;     /* position of the next message in its group */
    uint32_t reserved;  /* slot handed out by reserve, not committed yet (set through cf_channel_reserved_) */
    union {             /* the inline word send applies when word == CF_CHANNEL_SEND_GO_ (one load for its test) */
        uint32_t word;
        uint8_t part[4]; /* [0] g.direct && !reserved (the sender's), [1] closed (set by cf_channel_close) */
    } fast;
};

struct cf_channel_receiver_ {
    struct cf_channel_geometry_ g;
    uint64_t received;  /* messages released; the sender reads it when it has no free slot */
    uint64_t header;    /* the current group's header as last loaded (tagged: the tag; word: the slot word) */
    uint64_t stash;     /* word rings: a kept (acquired) direct value, the bytes acquire hands out */
    uint32_t ready;     /* messages that header shows beyond `received` */
    uint32_t index;     /* position of the next message in its group */
    char *group;
    char *slot;
    uint32_t acquired;  /* the next message was handed out by acquire, not released yet (cf_channel_acquired_) */
    uint32_t fast;      /* g.direct && !acquired: the inline word receive applies (one load for its test) */
    uint32_t lagging;   /* the current group was complete when first looked at: the sender is ahead */
    uint32_t caught_up; /* the last header load showed the group still being filled */
};

struct cf_channel {
    CF_CHANNEL_ALIGN_ struct cf_channel_sender_ sender;
    CF_CHANNEL_ALIGN_ struct cf_channel_receiver_ receiver;
    CF_CHANNEL_ALIGN_ struct cf_channel_to_receiver_ to_receiver;
    CF_CHANNEL_ALIGN_ struct cf_channel_to_sender_ to_sender;
    CF_CHANNEL_ALIGN_ struct cf_channel_shared_ shared;
};

/* The library's slow paths (src/channel.c); the names are the rdy-ack implementation's own, so code
 * built with this fast path does not link against the Lamport build. */
int cf_chan_rdyack_sender_wait(cf_channel *ch, int may_wait);   /* no free slot known, or closed */
int cf_chan_rdyack_receiver_wait(cf_channel *ch, int may_wait); /* next message not published yet */
int cf_chan_rdyack_receiver_slip(cf_channel *ch, int may_wait); /* a pause, then as above */
/* Tagged and word rings (the flag is the slot's tag or the slot word itself): */
int cf_chan_rdyack_tagged_sender_wait(cf_channel *ch, int may_wait);   /* slot not empty yet, or closed */
int cf_chan_rdyack_tagged_receiver_wait(cf_channel *ch, int may_wait); /* slot not full yet */
/* Word rings: writes the message into the slot's side entry, returns the slot word announcing it. */
uint64_t cf_chan_rdyack_word_escape(const struct cf_channel_geometry_ *g, char *slot, const void *message,
                                    size_t len);
int cf_chan_rdyack_send_homed(cf_channel *ch, const void *message, size_t len);
int cf_chan_rdyack_commit_homed(cf_channel *ch, size_t len);
void cf_chan_rdyack_wake_receiver(cf_channel *ch);
void cf_chan_rdyack_wake_sender(cf_channel *ch);

/* Copies of fewer than 8 bytes without a library call: two possibly overlapping loads and stores. */
static inline __attribute__((always_inline)) void cf_channel_copy_short_(void *dst, const void *src, size_t n) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + n - 4, 4);
        memcpy(d, &head, 4);
        memcpy(d + n - 4, &tail, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* Copies of up to 16 bytes without a library call. */
static inline __attribute__((always_inline)) void cf_channel_copy_(void *dst, const void *src, size_t n) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    if (n > 16) {
        /* The empty asm hides where d and s point: inlined into a caller whose message is a small object and
         * whose length the compiler cannot see (gcc at -O0, with always_inline), gcc's object-size checks would
         * warn (-Wstringop-overflow, -Wstringop-overread) about this branch, which such a length never takes.
         * It emits no instruction. */
        __asm__("" : "+r"(d), "+r"(s));
        memcpy(d, s, n);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, s, 8);
        memcpy(&tail, s + n - 8, 8);
        memcpy(d, &head, 8);
        memcpy(d + n - 8, &tail, 8);
    } else {
        cf_channel_copy_short_(d, s, n);
    }
}

/* Tagged rings: a slot's tag, found from the slot's address alone (lines are 64-byte aligned: the tags at
 * bytes 0-6, slot i at 8 + 8 i), so each side's whole position is one pointer. */
static inline __attribute__((always_inline)) uint8_t *cf_channel_tag_(char *slot) {
    uintptr_t at = (uintptr_t)slot;
    return (uint8_t *)(at & ~(uintptr_t)63) + (at & 63) / 8 - 1;
}

/* Tagged rings: the next slot -- the next of the line's 7, the next line's first after the 7th (the
 * address is then a line start: skip the tags), the ring's first after exactly k slots. */
static inline __attribute__((always_inline)) char *cf_channel_tagged_next_(const struct cf_channel_geometry_ *g,
                                                                          char *slot) {
    slot += 8;
    if (((uintptr_t)slot & 63) == 0) slot += CF_CHANNEL_TAGGED_PAYLOAD_;
    return CF_CHANNEL_UNLIKELY_(slot == g->groups_end) ? g->groups + CF_CHANNEL_TAGGED_PAYLOAD_ : slot;
}

/* Word rings: the next slot word (8 to a line, back to the first after exactly k). */
static inline __attribute__((always_inline)) char *cf_channel_word_next_(const struct cf_channel_geometry_ *g,
                                                                        char *slot) {
    slot += 8;
    return CF_CHANNEL_UNLIKELY_(slot == g->groups_end) ? g->groups : slot;
}

static inline __attribute__((always_inline)) uint64_t *cf_channel_word_(char *slot) {
    return (uint64_t *)(void *)slot;
}

/* Word rings: a slot word holding a plain 8-byte value -- neither EMPTY (0) nor ESCAPE (1) as stored. */
_Static_assert(CF_CHANNEL_WORD_ESCAPED_ == 1, "ESCAPE must be EMPTY with the lowest bit flipped");
static inline __attribute__((always_inline)) int cf_channel_word_plain_(uint64_t word) {
    return word > CF_CHANNEL_WORD_ESCAPED_;
}

/* The flags a side's fast-path test reads as one: `fast` follows them (testing g.direct and reserved/acquired
 * apart cost k = 1024 about 15% of its throughput in the near placement: docs/channel.md, bench_spsc).
 * The sender's also holds `closed`, in a byte of its own that only cf_channel_close writes (after
 * to_receiver.closed), so the send fast path needs no load of the closed flag and nobody's store
 * overwrites another's: the sender writes byte 0, the closer byte 1, the fast path loads all four. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CF_CHANNEL_SEND_GO_ (UINT32_C(1) << 24) /* part[0] == 1, every other byte 0 */
#else
#define CF_CHANNEL_SEND_GO_ UINT32_C(1)
#endif
static inline __attribute__((always_inline)) void cf_channel_reserved_(struct cf_channel_sender_ *s, uint32_t v) {
    s->reserved = v;
    __atomic_store_n(&s->fast.part[0], (uint8_t)(s->g.direct & !v), __ATOMIC_RELAXED);
}
static inline __attribute__((always_inline)) int cf_channel_send_fast_(const struct cf_channel_sender_ *s) {
    return __atomic_load_n(&s->fast.word, __ATOMIC_RELAXED) == CF_CHANNEL_SEND_GO_;
}
static inline __attribute__((always_inline)) void cf_channel_acquired_(struct cf_channel_receiver_ *r, uint32_t v) {
    r->acquired = v;
    r->fast = r->g.direct & !v;
}

/* The spin-wait hint (src/arch's cf_arch_cpu_relax, which this public header cannot include). */
static inline __attribute__((always_inline)) void cf_channel_relax_(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || (defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7)
    __asm__ __volatile__("yield" ::: "memory");
#elif defined(__riscv)
    __asm__ __volatile__(".insn i 0x0f, 0, x0, x0, 0x010" ::: "memory"); /* pause, a no-op HINT without Zihintpause */
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* Word rings' fast paths: the side's own slot word until it is empty (full == 0: the sender's (a)) or full
 * (full == 1: the receiver's (c)), each load an acquire, waiting inline for up to CF_CHANNEL_INLINE_SPINS_
 * pauses (at most spin_limit) before the caller gives up to the general path and its out-of-line wait.
 * Returns the last word loaded. Measured (docs/channel.md, word layout): a wait that leaves the inlined loop
 * cost k = 8 about a tenth of its throughput. */
#define CF_CHANNEL_INLINE_SPINS_ 256u
static inline __attribute__((always_inline)) uint64_t cf_channel_word_wait_(char *slot, int full,
                                                                           uint32_t spin_limit) {
    uint64_t word = __atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE);
    if (CF_CHANNEL_UNLIKELY_((word != 0) != full)) {
        uint32_t spins = spin_limit < CF_CHANNEL_INLINE_SPINS_ ? spin_limit : CF_CHANNEL_INLINE_SPINS_;
        do {
            cf_channel_relax_();
            word = __atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE);
        } while (((word != 0) != full) && --spins);
    }
    return word;
}

/* Word rings, (b) and rdy: the slot word published (release), the sender on to the next slot. */
static inline __attribute__((always_inline)) void cf_channel_word_put_(struct cf_channel_sender_ *s, char *slot,
                                                                      uint64_t word) {
    __atomic_store_n(cf_channel_word_(slot), word, __ATOMIC_RELEASE);
    s->slot = cf_channel_word_next_(&s->g, slot);
}

/* Word rings, (d) and ack: the slot back to EMPTY (release, after its use), the receiver on to the next slot. */
static inline __attribute__((always_inline)) void cf_channel_word_take_(struct cf_channel_receiver_ *r, char *slot) {
    __atomic_store_n(cf_channel_word_(slot), (uint64_t)0, __ATOMIC_RELEASE);
    r->slot = cf_channel_word_next_(&r->g, slot);
}

/* Word rings: a slot's side entry (16 bytes per 8-byte slot). */
static inline __attribute__((always_inline)) struct cf_channel_escape_ *
cf_channel_escape_of_(const struct cf_channel_geometry_ *g, char *slot) {
    return (struct cf_channel_escape_ *)(void *)(g->escapes + (slot - g->groups) * 2);
}

/* Word rings: the slot word that publishes `message` -- the value itself (XOR EMPTY: docs/channel.md, WORD) when
 * it is 8 bytes and neither EMPTY nor ESCAPE, else ESCAPE after the side entry is written (a call). */
static inline __attribute__((always_inline)) uint64_t cf_channel_word_encode_(const struct cf_channel_geometry_ *g,
                                                                             char *slot, const void *message,
                                                                             size_t len) {
    if (CF_CHANNEL_LIKELY_(len == 8)) {
        uint64_t word;
        memcpy(&word, message, 8);
        word ^= CF_CHANNEL_WORD_EMPTY;
        if (CF_CHANNEL_LIKELY_(cf_channel_word_plain_(word))) return word;
    }
    return cf_chan_rdyack_word_escape(g, slot, message, len);
}

/* Tagged rings, receiver: on entering a new line of a large ring, prefetch the line two ahead
 * (measured on the tagged layout: distance 4 halved k = 1024 -- it pulls lines the sender is still
 * writing -- distance 2 was level or better in 5 of 6 interleaved runs). `first`: a line's first slot's
 * offset in it. */
static inline __attribute__((always_inline)) void cf_channel_enter_line_(const struct cf_channel_geometry_ *g,
                                                                        char *next, uintptr_t first) {
    if (((uintptr_t)next & 63) == first && g->prefetch_ahead) {
        char *ahead = next + g->prefetch_ahead;
        if (ahead >= g->groups_end) ahead -= g->groups_end - g->groups;
        __builtin_prefetch(ahead, 0, 3);
    }
}

/* A free slot is known and the channel is open: the sender may fill s->slot. */
static inline __attribute__((always_inline)) int cf_channel_sender_ready_(cf_channel *ch, int may_wait) {
    struct cf_channel_sender_ *s = &ch->sender;
    if (s->g.word) { /* (a): the acquire load of the slot word saw the receiver's release of it */
        /* Waited for inline a while, as a send does (reserve's callers wait for the slot); open: the close's byte
         * of `fast`, on the sender's own line (cf_channel_close sets it after `closed`). */
        uint64_t word = may_wait ? cf_channel_word_wait_(s->slot, 0, s->g.spin_limit)
                                 : __atomic_load_n(cf_channel_word_(s->slot), __ATOMIC_ACQUIRE);
        if (CF_CHANNEL_LIKELY_(word == 0 && !__atomic_load_n(&s->fast.part[1], __ATOMIC_RELAXED))) return 0;
        return cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
    }
    if (s->g.tagged) { /* (a): the acquire load of the slot's tag saw the receiver's release of it */
        if (CF_CHANNEL_LIKELY_(__atomic_load_n(cf_channel_tag_(s->slot), __ATOMIC_ACQUIRE) == 0 &&
                               !__atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED)))
            return 0;
        return cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
    }
    if (CF_CHANNEL_LIKELY_(s->free != 0 && !__atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED)))
        return 0;
    return cf_chan_rdyack_sender_wait(ch, may_wait);
}

/* (b) and rdy: one release store of the group header (tagged: of the slot's tag; word: of the slot word,
 * the message being in the side entry reserve handed out), then on to the next slot. */
static inline __attribute__((always_inline)) void cf_channel_publish_store_(cf_channel *ch, size_t len) {
    struct cf_channel_sender_ *s = &ch->sender;
    if (s->g.word) {
        char *slot = s->slot;
        cf_channel_reserved_(s, 0);
        cf_channel_word_put_(s, slot, cf_channel_word_encode_(&s->g, slot, &s->stage, len));
        return;
    }
    if (s->g.tagged) {
        __atomic_store_n(cf_channel_tag_(s->slot), (uint8_t)(CF_CHANNEL_TAG_FULL_ | len), __ATOMIC_RELEASE);
        cf_channel_reserved_(s, 0);
        s->slot = cf_channel_tagged_next_(&s->g, s->slot);
        return;
    }
    uint64_t lengths = s->lengths | (uint64_t)len << (32 + s->index * s->g.length_bits);
    __atomic_store_n((uint64_t *)(void *)s->group, lengths | (uint32_t)(s->sent + 1), __ATOMIC_RELEASE);
    s->sent++;
    s->free--;
    cf_channel_reserved_(s, 0);
    if (++s->index == s->g.per_group) {
        s->index = 0;
        s->lengths = 0;
        s->group += s->g.group_stride;
        if (s->group == s->g.groups_end) s->group = s->g.groups;
        s->slot = s->group + s->g.payload_offset;
    } else {
        s->lengths = lengths;
        s->slot += s->g.slot_stride;
    }
}

/* After a publish: wake the receiver if it announced it sleeps (channel_common.h: the compiler barrier
 * here and the sleeper's membarrier make Dekker's pair). `symmetric`: the channel's symmetric_fences (the
 * waker then fences and looks); the word fast path passes 0, known for its channels (g.direct). */
static inline __attribute__((always_inline)) void cf_channel_publish_wake_(cf_channel *ch, uint32_t symmetric) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (CF_CHANNEL_UNLIKELY_(symmetric | __atomic_load_n(&ch->to_receiver.receiver_sleeping, __ATOMIC_RELAXED)))
        cf_chan_rdyack_wake_receiver(ch);
}

static inline __attribute__((always_inline)) int cf_channel_send_(cf_channel *ch, const void *message, size_t len,
                                                                 int may_wait) {
    /* Word rings, the common case first and alone: an 8-byte value the slot word can hold, no reservation,
     * the slot empty (a) (waited for inline a while), open. Then FastForward's store (b) and the sleeping
     * flag; everything else (errors, escapes, longer waits) takes the general path below. Measured
     * (docs/channel.md, word layout): both sides this lean, or neither -- a fast sender against a slower
     * receiver (or the reverse) made k = 1024 slower, not faster. */
    if (CF_CHANNEL_LIKELY_(ch && message && len == 8 && cf_channel_send_fast_(&ch->sender))) {
        struct cf_channel_sender_ *s = &ch->sender;
        char *slot = s->slot;
        uint64_t word;
        memcpy(&word, message, 8);
        word ^= CF_CHANNEL_WORD_EMPTY;
        /* Open: `fast` says so (a close sets its byte 1). */
        if (CF_CHANNEL_LIKELY_(cf_channel_word_plain_(word) && cf_channel_word_wait_(slot, 0, s->g.spin_limit) == 0)) {
            cf_channel_word_put_(s, slot, word);
            cf_channel_publish_wake_(ch, 0); /* g.direct: asymmetric fences */
            return 0;
        }
    }
    if (CF_CHANNEL_UNLIKELY_(!ch || (!message && len))) return -EINVAL;
    struct cf_channel_sender_ *s = &ch->sender;
    if (CF_CHANNEL_UNLIKELY_(len > s->g.max_message || s->reserved)) return s->reserved ? -EINVAL : -EMSGSIZE;
    if (s->g.word) { /* the whole word send: FastForward's slot load (a) and store (b), or the escape */
        char *slot = s->slot;
        if (CF_CHANNEL_UNLIKELY_(__atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE) != 0 ||
                                 __atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED))) {
            int rc = cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
            if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        }
        cf_channel_word_put_(s, slot, cf_channel_word_encode_(&s->g, slot, message, len));
        cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
        return 0;
    }
    if (s->g.tagged) { /* the whole tagged send: tag load (a), copy, tag store (b) */
        char *slot = s->slot;
        uint8_t *tag = cf_channel_tag_(slot);
        if (CF_CHANNEL_UNLIKELY_(__atomic_load_n(tag, __ATOMIC_ACQUIRE) != 0 ||
                                 __atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED))) {
            int rc = cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
            if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        }
        cf_channel_copy_(slot, message, len);
        __atomic_store_n(tag, (uint8_t)(CF_CHANNEL_TAG_FULL_ | len), __ATOMIC_RELEASE);
        s->slot = cf_channel_tagged_next_(&s->g, slot);
        cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
        return 0;
    }
    int rc = cf_channel_sender_ready_(ch, may_wait);
    if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
    if (CF_CHANNEL_UNLIKELY_(s->g.homing)) return cf_chan_rdyack_send_homed(ch, message, len);
    cf_channel_copy_(s->slot, message, len);
    cf_channel_publish_store_(ch, len);
    cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_reserve_(cf_channel *ch, void **slot, int may_wait) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !slot)) return -EINVAL;
    struct cf_channel_sender_ *s = &ch->sender;
    if (!s->reserved) {
        int rc = cf_channel_sender_ready_(ch, may_wait);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        cf_channel_reserved_(s, 1);
    }
    *slot = s->g.word ? (void *)&s->stage : (void *)s->slot;
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_commit_(cf_channel *ch, size_t len) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !ch->sender.reserved)) return -EINVAL;
    if (CF_CHANNEL_UNLIKELY_(len > ch->sender.g.max_message)) return -EMSGSIZE;
    if (CF_CHANNEL_UNLIKELY_(ch->sender.g.homing)) return cf_chan_rdyack_commit_homed(ch, len);
    cf_channel_publish_store_(ch, len);
    cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
    return 0;
}

/* A header load showed `ready` messages from the receiver's position on. */
static inline __attribute__((always_inline)) void cf_channel_announced_(struct cf_channel_receiver_ *r,
                                                                       uint64_t header, uint32_t ready) {
    r->header = header;
    r->ready = ready;
    if (r->index == 0) r->lagging = ready == r->g.per_group;
    r->caught_up = r->g.prefetch_ahead && ready < r->g.per_group - r->index; /* large rings only */
}

/* (c) and rdy: the next message is published; afterwards r->slot holds it and r->header its length. */
static inline __attribute__((always_inline)) int cf_channel_acquire_next_(cf_channel *ch, int may_wait) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    if (r->g.word) { /* (c): the acquire load of the slot word orders the side entry's reads after it */
        if (r->acquired) return 0;
        uint64_t word = may_wait ? cf_channel_word_wait_(r->slot, 1, r->g.spin_limit) /* inline a while, as receive */
                                 : __atomic_load_n(cf_channel_word_(r->slot), __ATOMIC_ACQUIRE);
        if (CF_CHANNEL_UNLIKELY_(word == 0)) return cf_chan_rdyack_tagged_receiver_wait(ch, may_wait);
        r->header = word;
        return 0;
    }
    if (r->g.tagged) { /* (c): the acquire load of the tag orders the message reads after it */
        if (r->acquired) return 0;
        uint8_t tag = __atomic_load_n(cf_channel_tag_(r->slot), __ATOMIC_ACQUIRE);
        if (CF_CHANNEL_UNLIKELY_(tag == 0)) return cf_chan_rdyack_tagged_receiver_wait(ch, may_wait);
        r->header = tag;
        return 0;
    }
    if (r->acquired || r->ready) return 0;
    /* Right behind the sender: let it fill more of the group before pulling the line again. */
    if (r->caught_up) return cf_chan_rdyack_receiver_slip(ch, may_wait);
    uint64_t header = __atomic_load_n((uint64_t *)(void *)r->group, __ATOMIC_ACQUIRE);
    int32_t ready = (int32_t)((uint32_t)header - (uint32_t)r->received);
    if (CF_CHANNEL_UNLIKELY_(ready <= 0)) return cf_chan_rdyack_receiver_wait(ch, may_wait);
    cf_channel_announced_(r, header, (uint32_t)ready);
    return 0;
}

static inline __attribute__((always_inline)) size_t cf_channel_length_(const struct cf_channel_receiver_ *r) {
    if (r->g.tagged) return (size_t)(r->header & CF_CHANNEL_TAG_LENGTH_);
    uint32_t bits = r->g.length_bits;
    return (size_t)(r->header >> (32 + r->index * bits)) & (((uint64_t)1 << bits) - 1);
}

/* After a release: wake the sender if it announced it sleeps (the mirror of cf_channel_publish_wake_). */
static inline __attribute__((always_inline)) void cf_channel_release_wake_(cf_channel *ch, uint32_t symmetric) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (CF_CHANNEL_UNLIKELY_(symmetric | __atomic_load_n(&ch->to_sender.sender_sleeping, __ATOMIC_RELAXED)))
        cf_chan_rdyack_wake_sender(ch);
}

/* (d) and ack: the message has been used; at a group's end set ACK in its header, then publish the
 * position (in this order: docs/channel.md, ACK). */
static inline __attribute__((always_inline)) void cf_channel_release_(cf_channel *ch) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    cf_channel_acquired_(r, 0);
    if (r->g.word) {
        cf_channel_word_take_(r, r->slot);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return;
    }
    if (r->g.tagged) { /* (d) and ack: the slot's tag back to empty, a release after the use */
        __atomic_store_n(cf_channel_tag_(r->slot), (uint8_t)0, __ATOMIC_RELEASE);
        r->slot = cf_channel_tagged_next_(&r->g, r->slot);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return;
    }
    r->ready--;
    if (++r->index == r->g.per_group) {
        __atomic_store_n((uint64_t *)(void *)r->group, r->header | CF_CHANNEL_ACK_, __ATOMIC_RELEASE);
        r->index = 0;
        r->group += r->g.group_stride;
        if (r->group == r->g.groups_end) r->group = r->g.groups;
        r->slot = r->group + r->g.payload_offset;
        if (r->g.prefetch_ahead && r->lagging) { /* the lines ahead are written: overlap their misses */
            char *ahead = r->group + r->g.prefetch_ahead;
            if (ahead >= r->g.groups_end) ahead -= r->g.groups_end - r->g.groups;
            __builtin_prefetch(ahead, 0, 3);
        }
    } else {
        r->slot += r->g.slot_stride;
    }
    __atomic_store_n(&r->received, r->received + 1, __ATOMIC_RELEASE);
    cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
}

/* Word rings: the receiver keeps the next message (acquire, or a receive into a buffer too small): r->header
 * keeps its slot word (direct or escaped: a later receive tells them apart by it), a direct value is copied into
 * the receiver's own `stash` (where a later receive takes it from, with any change made in place), and an escaped
 * one stays in its side entry. Returns where the message's bytes are, *len its length. */
static inline __attribute__((always_inline)) void *cf_channel_word_keep_(struct cf_channel_receiver_ *r,
                                                                        uint64_t word, size_t *len) {
    r->header = word;
    cf_channel_acquired_(r, 1);
    if (word != CF_CHANNEL_WORD_ESCAPED_) {
        r->stash = word ^ CF_CHANNEL_WORD_EMPTY;
        *len = 8;
        return &r->stash;
    }
    struct cf_channel_escape_ *e = cf_channel_escape_of_(&r->g, r->slot);
    *len = (size_t)e->length;
    return &e->bytes;
}

static inline __attribute__((always_inline)) int cf_channel_acquire_(cf_channel *ch, void **message, size_t *len,
                                                                    int may_wait) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !message || !len)) return -EINVAL;
    int rc = cf_channel_acquire_next_(ch, may_wait);
    if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
    if (ch->receiver.g.word) {
        *message = cf_channel_word_keep_(&ch->receiver, ch->receiver.header, len);
        return 0;
    }
    cf_channel_acquired_(&ch->receiver, 1);
    *message = ch->receiver.slot;
    *len = cf_channel_length_(&ch->receiver);
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_release_checked_(cf_channel *ch) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !ch->receiver.acquired)) return -EINVAL;
    cf_channel_release_(ch);
    return 0;
}

/* Tagged and word receives: the slot's flag -- its tag (word == 0) or its word (word == 1, a constant at
 * every call) -- once it is full (c), as the fast path's one load, or through acquire_next_ when the
 * message is already acquired or the slot still empty. */
static inline __attribute__((always_inline)) int cf_channel_slot_full_(cf_channel *ch, char *slot, int word,
                                                                      int may_wait, uint64_t *flag) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    uint64_t f;
    if (CF_CHANNEL_UNLIKELY_(r->acquired ||
                             (f = word ? __atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE)
                                       : __atomic_load_n(cf_channel_tag_(slot), __ATOMIC_ACQUIRE)) == 0)) {
        int rc = cf_channel_acquire_next_(ch, may_wait);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        f = r->header;
    }
    *flag = f;
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_receive_(cf_channel *ch, void *buffer, size_t capacity,
                                                                    size_t *len, int may_wait) {
    /* Word rings, the common case first and alone (as in the send): nothing acquired, room for it, a plain
     * value in the slot (c) (waited for inline a while); the slot back to EMPTY (d). Escapes, errors and
     * longer waits: the general path. */
    if (CF_CHANNEL_LIKELY_(ch && len && buffer && capacity >= 8 && ch->receiver.fast)) {
        struct cf_channel_receiver_ *r = &ch->receiver;
        char *slot = r->slot;
        uint64_t word = cf_channel_word_wait_(slot, 1, r->g.spin_limit);
        if (CF_CHANNEL_LIKELY_(cf_channel_word_plain_(word))) {
            cf_channel_word_take_(r, slot); /* the value is in a register */
            cf_channel_release_wake_(ch, 0); /* g.direct: asymmetric fences */
            word ^= CF_CHANNEL_WORD_EMPTY;
            memcpy(buffer, &word, 8);
            *len = 8;
            return 0;
        }
    }
    if (CF_CHANNEL_UNLIKELY_(!ch || !len || (!buffer && capacity))) return -EINVAL;
    struct cf_channel_receiver_ *r = &ch->receiver;
    if (r->g.word) { /* the whole word receive: slot load (c), the value (or the side entry), EMPTY (d) */
        char *slot = r->slot;
        uint64_t word;
        int rc = cf_channel_slot_full_(ch, slot, 1, may_wait, &word);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        /* As in the tagged receive: the channel's fields are read before the copy into the caller's buffer. */
        uint32_t acquired = r->acquired;
        if (CF_CHANNEL_LIKELY_(word != CF_CHANNEL_WORD_ESCAPED_)) {
            *len = 8;
            if (CF_CHANNEL_UNLIKELY_(capacity < 8)) {
                cf_channel_word_keep_(r, word, len); /* stays in the channel: the next receive or acquire sees it */
                return -EMSGSIZE;
            }
            /* kept (acquired, or an earlier receive too small): the stash, which the caller may have changed */
            uint64_t value = acquired ? r->stash : word ^ CF_CHANNEL_WORD_EMPTY;
            memcpy(buffer, &value, 8);
        } else {
            const struct cf_channel_escape_ *e = cf_channel_escape_of_(&r->g, slot);
            size_t n = (size_t)e->length;
            *len = n;
            if (CF_CHANNEL_UNLIKELY_(n > capacity)) {
                cf_channel_word_keep_(r, word, len);
                return -EMSGSIZE;
            }
            if (n >= 8) memcpy(buffer, &e->bytes, 8); /* the entry's length is at most 8 */
            else cf_channel_copy_short_(buffer, &e->bytes, n);
        }
        cf_channel_word_take_(r, slot);
        if (CF_CHANNEL_UNLIKELY_(acquired)) cf_channel_acquired_(r, 0);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return 0;
    }
    if (r->g.tagged) { /* the whole tagged receive: tag load (c) = rdy and length, copy, tag store (d) */
        char *slot = r->slot;
        uint64_t tag;
        int rc = cf_channel_slot_full_(ch, slot, 0, may_wait, &tag);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        size_t n = tag & CF_CHANNEL_TAG_LENGTH_;
        *len = n;
        if (CF_CHANNEL_UNLIKELY_(n > capacity)) {
            r->header = tag;
            cf_channel_acquired_(r, 1); /* stays in the channel: the next receive or acquire sees it again */
            return -EMSGSIZE;
        }
        /* The next slot and the acquired flag are read before the copy into the caller's buffer (which the
         * compiler must assume may alias the channel's fields); (d), the tag's release store, after it. */
        char *next = cf_channel_tagged_next_(&r->g, slot);
        uint32_t acquired = r->acquired;
        if (CF_CHANNEL_LIKELY_(n == 8)) memcpy(buffer, slot, 8);
        else cf_channel_copy_(buffer, slot, n);
        __atomic_store_n(cf_channel_tag_(slot), (uint8_t)0, __ATOMIC_RELEASE);
        r->slot = next;
        cf_channel_enter_line_(&r->g, next, CF_CHANNEL_TAGGED_PAYLOAD_);
        if (CF_CHANNEL_UNLIKELY_(acquired)) cf_channel_acquired_(r, 0);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return 0;
    }
    int rc = cf_channel_acquire_next_(ch, may_wait);
    if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
    size_t n = cf_channel_length_(r);
    *len = n;
    if (CF_CHANNEL_UNLIKELY_(n > capacity)) {
        cf_channel_acquired_(r, 1); /* stays in the channel: the next receive or acquire sees it again */
        return -EMSGSIZE;
    }
    cf_channel_copy_(buffer, r->slot, n);
    cf_channel_release_(ch);
    return 0;
}

#endif /* internals */

#endif /* CACHEFLOW_INTERNAL_CHANNEL_FAST_H */
