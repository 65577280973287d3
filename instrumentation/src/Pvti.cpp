#include "pvti/pvti.hpp"

#include "tilescope/capture/HostTracer.hpp"

#include <cstring>

namespace pvti {

using tilescope::capture::HostTracer;

static_assert(detail::kDisabledChannel == HostTracer::kDisabledChannel,
              "pvti.hpp's inline fast path must agree with the tracer");

std::uint16_t TraceChannel::resolve() const {
    HostTracer& tracer = HostTracer::instance();
    const std::uint32_t gen = HostTracer::generation();
    const std::uint16_t id = tracer.channel(name);
    id_.store(id, std::memory_order_relaxed);
    resolvedIn_.store(gen, std::memory_order_release);
    return id;
}

void Tracepoint::start(const char* label, std::size_t length) {
    HostTracer& tracer = HostTracer::instance();
    label_ = tracer.label({label, length});
    tracer.begin(channel_, label_);
}

void Tracepoint::finish() {
    HostTracer::instance().end(channel_, label_);
}

namespace {

template <typename Record> void mark(TraceChannel* channel, std::string_view label, Record record) {
    const std::uint16_t id = channel->id();
    if (id == HostTracer::kDisabledChannel)
        return;
    HostTracer& tracer = HostTracer::instance();
    (tracer.*record)(id, tracer.label(label));
}

} // namespace

void Tracepoint::begin(TraceChannel* channel, const std::string& traceLabel) {
    mark(channel, traceLabel, &HostTracer::begin);
}
void Tracepoint::begin(TraceChannel* channel, const char* traceLabel) {
    mark(channel, traceLabel, &HostTracer::begin);
}
void Tracepoint::end(TraceChannel* channel, const std::string& traceLabel) {
    mark(channel, traceLabel, &HostTracer::end);
}
void Tracepoint::end(TraceChannel* channel, const char* traceLabel) {
    mark(channel, traceLabel, &HostTracer::end);
}
void Tracepoint::event(TraceChannel* channel, const std::string& traceLabel) {
    mark(channel, traceLabel, &HostTracer::instant);
}
void Tracepoint::event(TraceChannel* channel, const char* traceLabel) {
    mark(channel, traceLabel, &HostTracer::instant);
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
