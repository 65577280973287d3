#pragma once
// The inline fast path of pvti tracepoints (ABI details, not API: everything here is in
// pvti::detail and may change between releases). An enabled tracepoint reads the clock and stores
// one 16-byte record into the calling thread's current chunk; only a full chunk, a thread's first
// event, a new session or a label not seen before on this thread go out of line (libpvti).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#if !((defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)))
#include <chrono>
#endif

namespace tilescope {
namespace capture {
namespace detail {
/// Session generation, bumped when the tracing session restarts (defined in HostTracer.cpp).
extern std::atomic<std::uint32_t> traceGeneration;
} // namespace detail
} // namespace capture
} // namespace tilescope

// Thread-locals read inline by user code: `__thread` has no dynamic initialisation (so no TLS
// wrapper call), and initial-exec makes the access one segment-relative load.
#if defined(__GNUC__) || defined(__clang__)
#define PVTI_DETAIL_THREAD_LOCAL __thread
#define PVTI_DETAIL_TLS_MODEL __attribute__((tls_model("initial-exec")))
#define PVTI_DETAIL_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define PVTI_DETAIL_THREAD_LOCAL thread_local
#define PVTI_DETAIL_TLS_MODEL
#define PVTI_DETAIL_LIKELY(x) (x)
#endif

namespace pvti {
namespace detail {

/// Channel id of a channel that is not traced (HostTracer::kDisabledChannel).
const std::uint16_t kDisabledChannel = 0xffff;

/// What a record marks. A kind field keeps the record extensible (counters, for example).
/// kMetadataRecord carries tracepoint metadata for the record after it on the same thread: its
/// `label` is the metadata's id in the session and its `ticks` the label id of that event.
enum EventKindCode { kBeginEvent = 0, kEndEvent = 1, kInstantEvent = 2, kMetadataRecord = 3 };

/// One record in a thread's chunk: a timestamp and ids only (labels are interned). 16 bytes.
struct EventRecord {
    std::uint64_t ticks;
    std::uint32_t label;
    std::uint16_t channel;
    std::uint8_t kind;
    std::uint8_t reserved;
};

/// The producer's view of its current chunk. `capacity` is 0 when the thread has no chunk (its
/// first event, or while its events are being dropped), which sends every event out of line.
struct ThreadCursor {
    EventRecord* records;
    std::atomic<std::uint32_t>* published; // the chunk's record count, read by the writer thread
    std::uint32_t used;
    std::uint32_t capacity;
    std::uint32_t generation; // session the chunk belongs to
};

/// A per-thread label cache slot: the id of a label text in read-only memory (a string literal),
/// keyed by its address. `length` is kNulTerminated for labels passed as `const char*`.
struct LabelSlot {
    const char* text;
    std::size_t length;
    std::uint32_t id;
    std::uint32_t generation;
};
const std::size_t kNulTerminated = ~static_cast<std::size_t>(0);
const std::size_t kLabelSlots = 256;

extern PVTI_DETAIL_THREAD_LOCAL ThreadCursor tCursor PVTI_DETAIL_TLS_MODEL;
extern PVTI_DETAIL_THREAD_LOCAL LabelSlot* tLabelSlots PVTI_DETAIL_TLS_MODEL;

/// Out of line: a new chunk (or the thread's registration, or dropping when over the bound).
void recordSlow(std::uint16_t channel, std::uint32_t label, std::uint8_t kind);
/// Out of line: interns a label text; caches it by address when the text is read-only.
std::uint32_t labelSlow(const char* text, std::size_t length);
/// Dynamic labels: interned once per distinct text (looked up by content).
std::uint32_t labelOfText(const char* text, std::size_t length);

inline std::uint32_t currentGeneration() {
    return tilescope::capture::detail::traceGeneration.load(std::memory_order_relaxed);
}

inline std::uint64_t ticksNow() {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_ia32_rdtsc();
#else
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// Appends one record to the calling thread's chunk (the enabled fast path).
inline void record(std::uint16_t channel, std::uint32_t label, std::uint8_t kind) {
    ThreadCursor& c = tCursor;
    const std::uint32_t n = c.used;
    if (PVTI_DETAIL_LIKELY(n < c.capacity && c.generation == currentGeneration())) {
        EventRecord& r = c.records[n];
        r.ticks = ticksNow();
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        // label, channel and kind in one 8-byte store (the fields' little-endian layout)
        const std::uint64_t ids = static_cast<std::uint64_t>(label) |
                                  (static_cast<std::uint64_t>(channel) << 32) |
                                  (static_cast<std::uint64_t>(kind) << 48);
        std::memcpy(reinterpret_cast<unsigned char*>(&r) + sizeof r.ticks, &ids, sizeof ids);
#else
        r.label = label;
        r.channel = channel;
        r.kind = kind;
        r.reserved = 0;
#endif
        c.used = n + 1;
        c.published->store(n + 1, std::memory_order_release);
        return;
    }
    recordSlow(channel, label, kind);
}

/// Label id of a text, from this thread's cache when the same address was seen before.
inline std::uint32_t labelId(const char* text, std::size_t length) {
    if (LabelSlot* slots = tLabelSlots) {
        const LabelSlot& s =
            slots[(reinterpret_cast<std::uintptr_t>(text) >> 3) & (kLabelSlots - 1)];
        if (s.text == text && s.length == length && s.generation == currentGeneration())
            return s.id;
    }
    return labelSlow(text, length);
}

} // namespace detail
} // namespace pvti
