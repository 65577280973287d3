#include "pvti/pvti.hpp"

#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/report/HostTraceTypes.hpp"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <link.h>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace pvti {

using tilescope::capture::HostTracer;

static_assert(detail::kDisabledChannel == HostTracer::kDisabledChannel,
              "pvti.hpp's inline fast path must agree with the tracer");
static_assert(sizeof(detail::EventRecord) == 16, "a record is two 8-byte stores");

namespace detail {

PVTI_DETAIL_THREAD_LOCAL ThreadCursor tCursor PVTI_DETAIL_TLS_MODEL = {nullptr, nullptr, 0, 0, 0};
PVTI_DETAIL_THREAD_LOCAL LabelSlot* tLabelSlots PVTI_DETAIL_TLS_MODEL = nullptr;

void recordSlow(std::uint16_t channel, std::uint32_t label, std::uint8_t kind) {
    const std::uint64_t ticks = ticksNow();
    HostTracer::instance().appendSlow(channel, label, kind, ticks);
}

void attachMetadata(std::uint16_t channel, std::uint32_t label, const Metadata& metadata) {
    HostTracer& tracer = HostTracer::instance();
    const std::uint32_t id =
        tracer.addMetadata(metadata.type, metadata.data.data(), metadata.data.size());
    if (id == 0)
        return;
    // The record's ticks carry the label id of the event it belongs to (see kMetadataRecord).
    ThreadCursor& c = tCursor;
    if (c.used < c.capacity && c.generation == currentGeneration()) {
        EventRecord& r = c.records[c.used];
        r.ticks = label;
        r.label = id;
        r.channel = channel;
        r.kind = kMetadataRecord;
        r.reserved = 0;
        ++c.used;
        c.published->store(c.used, std::memory_order_release);
        return;
    }
    tracer.appendSlow(channel, id, kMetadataRecord, label);
}

namespace {

// True when [text, text + length) lies in a loaded object's read-only segment: a string literal,
// whose content cannot change, so its address identifies it for as long as the object is loaded.
bool inReadOnlySegment(const char* text, std::size_t length) {
    struct Query {
        std::uintptr_t begin, end;
        bool readOnly;
    } q{reinterpret_cast<std::uintptr_t>(text), reinterpret_cast<std::uintptr_t>(text) + length + 1,
        false};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            auto& query = *static_cast<Query*>(data);
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const auto& ph = info->dlpi_phdr[i];
                if (ph.p_type != PT_LOAD)
                    continue;
                const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
                if (query.begin >= start && query.end <= start + ph.p_memsz) {
                    query.readOnly = (ph.p_flags & PF_W) == 0;
                    return 1;
                }
            }
            return 0;
        },
        &q);
    return q.readOnly;
}

LabelSlot* labelSlots() {
    thread_local std::unique_ptr<LabelSlot[]> owner;
    if (!tLabelSlots) {
        owner = std::make_unique<LabelSlot[]>(kLabelSlots); // value-initialised: empty
        tLabelSlots = owner.get();
    }
    return tLabelSlots;
}

// Dynamic labels seen by this thread, by content, for the session `generation`.
struct TextLabels {
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> ids;
    std::uint32_t generation = 0;
};

} // namespace

std::uint32_t labelSlow(const char* text, std::size_t length) {
    const std::size_t size = length == kNulTerminated ? std::strlen(text) : length;
    if (!inReadOnlySegment(text, size)) // a buffer that may be reused for another text
        return labelOfText(text, size);
    HostTracer& tracer = HostTracer::instance();
    const std::uint32_t generation = currentGeneration();
    const std::uint32_t id = tracer.literalLabel(text, size);
    LabelSlot& slot =
        labelSlots()[(reinterpret_cast<std::uintptr_t>(text) >> 3) & (kLabelSlots - 1)];
    slot = {text, length, id, generation};
    return id;
}

std::uint32_t labelOfText(const char* text, std::size_t length) {
    thread_local TextLabels cache;
    const std::uint32_t generation = currentGeneration();
    if (cache.generation != generation) {
        cache.ids.clear();
        cache.generation = generation;
    }
    const std::string_view key(text, length);
    if (auto it = cache.ids.find(key); it != cache.ids.end())
        return it->second;
    const std::uint32_t id = HostTracer::instance().label(key);
    // Bounded: a thread that makes a new label per event keeps only the most recent thousands.
    if (cache.ids.size() >= 4096)
        cache.ids.clear();
    cache.ids.emplace(key, id);
    return id;
}

} // namespace detail

namespace {

// Every TraceChannel alive, in the order made (listTraceChannel). Never destroyed: channels with
// static storage in other objects may be destroyed after this file's statics.
struct ChannelRegistry {
    std::mutex mutex;
    std::vector<TraceChannel*> channels;
};

ChannelRegistry& channelRegistry() {
    static auto* registry = new ChannelRegistry();
    return *registry;
}

} // namespace

TraceChannel traceDrivers("Drivers");
TraceChannel tracePoplar("Poplar");
TraceChannel traceFramework("Framework");

void TraceChannel::enlist() {
    auto& registry = channelRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.channels.push_back(this);
}

void TraceChannel::delist() {
    auto& registry = channelRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto& channels = registry.channels;
    channels.erase(std::remove(channels.begin(), channels.end(), this), channels.end());
}

void enableTraceChannel(TraceChannel* channel) {
    channel->enabled_.store(true, std::memory_order_relaxed);
}

void disableTraceChannel(TraceChannel* channel) {
    channel->enabled_.store(false, std::memory_order_relaxed);
}

bool checkTraceChannel(TraceChannel* channel) {
    return channel->id() != detail::kDisabledChannel;
}

std::vector<TraceChannel*> listTraceChannel() {
    auto& registry = channelRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    return registry.channels;
}

std::string getCurrentTraceFilename() {
    return HostTracer::instance().file().string();
}

void closeTrace() {
    HostTracer::instance().close();
}

std::uint16_t TraceChannel::resolve() const {
    HostTracer& tracer = HostTracer::instance();
    const std::uint32_t gen = HostTracer::generation();
    const std::uint16_t id = tracer.channel(name);
    id_.store(id, std::memory_order_relaxed);
    resolvedIn_.store(gen, std::memory_order_release);
    return id;
}

Metadata createJsonMetadata(const std::string& json) {
    try {
        const nlohmann::json parsed = nlohmann::json::parse(json);
        (void)parsed; // only checked here; the text is stored as the user wrote it
    } catch (const nlohmann::json::parse_error& e) {
        // nlohmann's text starts with "[json.exception.parse_error.N] "; the rest says where.
        std::string what = e.what();
        if (const auto close = what.find("] ");
            what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
            what.erase(0, close + 2);
        throw std::invalid_argument("pvti::createJsonMetadata: the metadata is not valid JSON (" +
                                    what + ")");
    }
    return Metadata(tilescope::report::kJsonMetadataType,
                    std::vector<std::uint8_t>(json.begin(), json.end()));
}

Graph::Graph(const std::string& name, const std::string& unit)
    : id_(HostTracer::instance().addGraph(name, unit)) {}

Series Graph::addSeries(const std::string& name) {
    return Series(HostTracer::instance().addSeries(id_, name));
}

void Series::add(double value) {
    HostTracer::instance().sample(id_, value);
}

} // namespace pvti
