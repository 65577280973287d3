#include "ChromeTraceImporter.hpp"

#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>

namespace tilescope::report::detail {
namespace {

// pid/tid may be numbers or strings, or missing (0).
const std::string& idText(const TraceScalar& s) {
    static const std::string zero = "0";
    return s.type == TraceScalar::Type::None ? zero : s.text;
}

} // namespace

std::optional<std::int64_t> microsToNanos(std::string_view text) {
    constexpr std::int64_t limit = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
    const char* p = text.data();
    const char* const end = p + text.size();
    const bool negative = p != end && *p == '-';
    p += negative ? 1 : 0;
    bool exact = p != end;
    std::int64_t whole = 0;
    for (; exact && p != end && *p >= '0' && *p <= '9'; ++p) {
        whole = whole * 10 + (*p - '0');
        exact = whole <= limit; // beyond: out of range, which the double path reports
    }
    std::int64_t ns = 0;
    int decimals = 0;
    if (exact && p != end && *p == '.')
        for (++p; p != end && *p >= '0' && *p <= '9'; ++p)
            if (decimals < 3) {
                ns = ns * 10 + (*p - '0');
                ++decimals;
            }
    if (exact && p == end) { // no exponent
        for (; decimals < 3; ++decimals)
            ns *= 10;
        return negative ? -(whole * 1000 + ns) : whole * 1000 + ns;
    }
    const double nanos = parseJsonNumber(text) * 1000.0;
    if (!std::isfinite(nanos) || std::fabs(nanos) > 9.0e18)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(nanos));
}

namespace {

/// A pid or tid written as a small non-negative integer ("tid":7), or -1.
std::int64_t smallId(const TraceScalar& s) {
    if (s.type != TraceScalar::Type::Number || s.text.empty() || s.text.size() > 9)
        return -1;
    std::int64_t v = 0;
    for (const char c : s.text) {
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

} // namespace

SlotHints SlotResolver::resolve(const ScannedTraceEvent& e) {
    SlotHints h;
    // Most producers write pid and tid as small integers: one integer key, no string to build.
    // A thread written both ways gets two slots, which lead to the same thread (slots are hints).
    if (const std::int64_t pid = smallId(e.pid), tid = smallId(e.tid); pid >= 0 && tid >= 0) {
        const auto key = static_cast<std::uint64_t>(pid) << 32 | static_cast<std::uint64_t>(tid);
        auto [it, added] = numericThreads_.try_emplace(key, nextThread_);
        nextThread_ += added ? 1 : 0;
        h.thread = it->second;
        h.name = nameSlot(e);
        return h;
    }
    const std::string& pid = idText(e.pid);
    const std::string& tid = idText(e.tid);
    key_.assign(pid);
    key_.push_back('\0');
    key_.append(tid);
    if (last_ && last_->first == key_) {
        h.thread = last_->second;
    } else {
        auto it = threads_.find(key_);
        if (it == threads_.end())
            it = threads_.emplace(key_, nextThread_++).first;
        last_ = &*it;
        h.thread = it->second;
    }
    h.name = nameSlot(e);
    return h;
}

std::int32_t SlotResolver::nameSlot(const ScannedTraceEvent& e) {
    if (e.name.type != TraceScalar::Type::String)
        return -1;
    auto [it, added] = names_.try_emplace(e.name.text, std::int32_t(names_.size()));
    return it->second;
}

TraceEventImporter::TraceEventImporter(HostTraceWriter& writer, std::string inputName,
                                       std::size_t maxHeldEvents, bool writeEvents)
    : w_(writer), input_(std::move(inputName)), maxHeld_(std::max<std::size_t>(maxHeldEvents, 1)),
      writeEvents_(writeEvents) {}

// Every thread's held events, sorted, become one run each in the scratch file.
void TraceEventImporter::spillAll() {
    for (auto& [key, th] : threads_) {
        if (th.events.empty())
            continue;
        if (!th.sorted)
            std::sort(th.events.begin(), th.events.end(), Before{});
        th.runs.push_back(spill_.append(th.events));
        std::vector<Pending>().swap(th.events);
    }
    held_ = 0;
}

TraceEventImporter::~TraceEventImporter() = default;

void TraceEventImporter::add(const ScannedTraceEvent& e, const SlotHints& hints) {
    event_ = &e;
    hints_ = hints;
    if (e.ph.type == TraceScalar::Type::None)
        fail("an event has no \"ph\" (phase)");
    const std::string& ph = requireString(e.ph, "ph");
    if (ph.size() != 1)
        return; // multi-letter phases are not part of the format; ignored like unknown ones
    switch (ph[0]) {
    case 'M':
        return metadata(e);
    case 'C':
        return counter(e);
    case 'B':
    case 'E':
    case 'X':
        return interval(e, ph[0]);
    case 'i':
    case 'I':
        return interval(e, 'i');
    case 'b': // nestable async
    case 'S': // legacy async
        return async(e, 'B');
    case 'e':
    case 'F':
        return async(e, 'E');
    case 'n':
    case 'T':
    case 'p':
        return async(e, 'i');
    case 's':
    case 't':
    case 'f':
        return flow(e);
    default:
        return; // object and sample phases carry nothing the host trace shows
    }
}

void TraceEventImporter::fail(const std::string& what) const {
    throw ReportError(input_, fmt::format("at byte {}: {}", event_->endOffset, what));
}

const std::string& TraceEventImporter::requireString(const TraceScalar& s,
                                                     const char* field) const {
    if (s.type != TraceScalar::Type::String)
        fail(fmt::format("event field \"{}\" must be a string", field));
    return s.text;
}

std::int64_t TraceEventImporter::requireTime(const TraceScalar& s, const char* field) const {
    if (s.type == TraceScalar::Type::String) { // "ts":"12.5", as some producers write
        double value = 0;
        const char* const b = s.text.data();
        const char* const e = b + s.text.size();
        const auto [next, ec] = std::from_chars(b, e, value);
        if (s.text.empty() || next != e ||
            (ec != std::errc() && ec != std::errc::result_out_of_range))
            fail(fmt::format("event field \"{}\" must be a number (microseconds)", field));
    } else if (s.type != TraceScalar::Type::Number) {
        fail(fmt::format("event field \"{}\" must be a number (microseconds)", field));
    }
    const auto ns = microsToNanos(s.text);
    if (!ns)
        fail(fmt::format("event field \"{}\" is out of range ({})", field, s.text));
    return *ns;
}

std::int64_t TraceEventImporter::processRow(const std::string& pid) {
    auto it = processes_.find(pid);
    if (it != processes_.end())
        return it->second;
    std::int64_t numeric = 0;
    std::from_chars(pid.data(), pid.data() + pid.size(), numeric);
    const std::int64_t row = w_.addProcess(numeric, "process " + pid, 0);
    processes_.emplace(pid, row);
    return row;
}

TraceEventImporter::Thread& TraceEventImporter::thread(const std::string& pid,
                                                       const std::string& tid) {
    if (lastThread_ && lastThread_->first.first == pid && lastThread_->first.second == tid)
        return lastThread_->second;
    auto it = threads_.find({pid, tid});
    if (it == threads_.end()) {
        std::int64_t numeric = 0;
        std::from_chars(tid.data(), tid.data() + tid.size(), numeric);
        Thread t;
        t.row = w_.addThread(processRow(pid), numeric, "thread " + tid);
        t.label = fmt::format("pid {} tid {}", pid, tid);
        it = threads_.emplace(std::pair{pid, tid}, std::move(t)).first;
    }
    lastThread_ = &*it;
    return it->second;
}

TraceEventImporter::Thread& TraceEventImporter::hintedThread(const ScannedTraceEvent& e) {
    const auto slot = static_cast<std::size_t>(hints_.thread);
    if (hints_.thread >= 0 && slot < threadsBySlot_.size() && threadsBySlot_[slot])
        return *threadsBySlot_[slot];
    Thread& th = thread(idText(e.pid), idText(e.tid)); // map nodes never move
    if (hints_.thread >= 0) {
        if (slot >= threadsBySlot_.size())
            threadsBySlot_.resize(slot + 1, nullptr);
        threadsBySlot_[slot] = &th;
    }
    return th;
}

std::int32_t TraceEventImporter::hintedName(const ScannedTraceEvent& e) {
    const std::string& text = requireString(e.name, "name");
    const auto slot = static_cast<std::size_t>(hints_.name);
    if (hints_.name >= 0 && slot < namesBySlot_.size() && namesBySlot_[slot] >= 0)
        return namesBySlot_[slot];
    auto [it, added] = names_.try_emplace(text, std::int32_t(nameIds_.size()));
    if (added)
        nameIds_.push_back(w_.intern(text));
    if (hints_.name >= 0) {
        if (slot >= namesBySlot_.size())
            namesBySlot_.resize(slot + 1, -1);
        namesBySlot_[slot] = it->second;
    }
    return it->second;
}

std::int32_t TraceEventImporter::channel(const TraceScalar& cat) {
    static const std::string fallback = "default";
    const std::string& name =
        cat.type == TraceScalar::Type::String && !cat.text.empty() ? cat.text : fallback;
    if (lastChannel_ && lastChannel_->first == name) // runs of events share a category
        return lastChannel_->second;
    auto [it, added] = channels_.try_emplace(name, std::int32_t(channelIds_.size()));
    if (added)
        channelIds_.push_back(w_.addChannel(name));
    lastChannel_ = &*it;
    return it->second;
}

void TraceEventImporter::metadata(const ScannedTraceEvent& e) {
    const std::string& pid = idText(e.pid);
    const std::string& what = requireString(e.name, "name");
    std::string value;
    for (std::size_t i = 0; i < e.argCount; ++i)
        if (e.args[i].key == "name" && e.args[i].value.type == TraceScalar::Type::String)
            value = e.args[i].value.text;
    if (what == "process_name" && !value.empty())
        w_.renameProcess(processRow(pid), value);
    else if (what == "thread_name" && !value.empty())
        w_.renameThread(thread(pid, idText(e.tid)).row, value);
    else if (what == "tilescope_counter_unit")
        for (std::size_t i = 0; i < e.argCount; ++i)
            if (e.args[i].key == "unit" && e.args[i].value.type == TraceScalar::Type::String)
                units_[{pid, value}] = e.args[i].value.text;
}

void TraceEventImporter::counter(const ScannedTraceEvent& e) {
    const std::string& pid = idText(e.pid);
    const std::string& graphName = requireString(e.name, "name");
    const std::int64_t t = requireTime(e.ts, "ts");
    auto g = graphs_.find({pid, graphName});
    if (g == graphs_.end()) {
        // A unit given after the first sample is lost; units come first in files we export.
        const auto unit = units_.find({pid, graphName});
        g = graphs_
                .emplace(std::pair{pid, graphName},
                         w_.addGraph(processRow(pid), graphName,
                                     unit == units_.end() ? "" : unit->second))
                .first;
    }
    for (std::size_t i = 0; i < e.argCount; ++i) {
        const auto& [k, v] = e.args[i];
        if (v.type != TraceScalar::Type::Number)
            fail(fmt::format("counter \"{}\" argument \"{}\" must be a number", graphName, k));
        auto s = seriesIndex_.find({g->second, k});
        if (s == seriesIndex_.end()) {
            s = seriesIndex_.emplace(std::pair{g->second, k}, series_.size()).first;
            series_.push_back({w_.addSeries(g->second, k), {}, true});
        }
        Series& series = series_[s->second];
        if (!series.samples.empty() && t < series.samples.back().t) {
            series.sorted = false;
            ++stats.repairs.reordered;
            if (wouldNote(e.startOffset))
                note(e.startOffset, nullptr,
                     fmt::format("counter \"{}\" sample at {} ns comes after one at {} ns",
                                 graphName, t, series.samples.back().t));
        }
        series.samples.push_back({t, v.numberValue()});
    }
}

void TraceEventImporter::interval(const ScannedTraceEvent& e, char ph) {
    const std::int64_t t = requireTime(e.ts, "ts");
    Thread& th = hintedThread(e);
    std::int64_t dur = 0;
    if (ph == 'X') {
        dur = e.dur.type == TraceScalar::Type::None ? 0 : requireTime(e.dur, "dur");
        if (dur < 0)
            fail("event field \"dur\" is negative");
        if (t > std::numeric_limits<std::int64_t>::max() - dur)
            fail("event field \"dur\" is out of range");
    }
    const std::int32_t name = ph == 'E' ? -1 : hintedName(e);
    const std::int32_t ch = ph == 'E' ? -1 : channel(e.cat);
    if (e.argCount > 0)
        keepArgs(e);
    hold(th, e, ph, t, dur, name, ch);
    if (++held_ >= maxHeld_)
        spillAll();
}

// An interval event's scalar args as a JSON object, kept as its metadata (compound values are
// not kept by the scanner, so they are left out).
void TraceEventImporter::keepArgs(const ScannedTraceEvent& e) {
    nlohmann::json args = nlohmann::json::object();
    for (std::size_t i = 0; i < e.argCount; ++i) {
        const auto& [key, value] = e.args[i];
        switch (value.type) {
        case TraceScalar::Type::String:
            args[key] = value.text;
            break;
        case TraceScalar::Type::Number: {
            // As written when it is a whole number (exact beyond 2^53), else as a double.
            std::int64_t whole = 0;
            const char* end = value.text.data() + value.text.size();
            if (std::from_chars(value.text.data(), end, whole).ptr == end)
                args[key] = whole;
            else
                args[key] = value.numberValue();
            break;
        }
        case TraceScalar::Type::Bool:
            args[key] = value.text == "true";
            break;
        case TraceScalar::Type::Null:
            args[key] = nullptr;
            break;
        default:
            break;
        }
    }
    if (!args.empty())
        args_[e.startOffset] = args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Holds an event of a thread (or async track) until finish(), noting when it came out of order.
void TraceEventImporter::hold(Thread& th, const ScannedTraceEvent& e, char ph, std::int64_t t,
                              std::int64_t dur, std::int32_t name, std::int32_t ch) {
    const std::int64_t r = rank(ph, dur);
    if (th.any && (t < th.lastTs || (t == th.lastTs && r < th.lastRank))) {
        th.sorted = false;
        ++stats.repairs.reordered;
        if (wouldNote(e.startOffset)) // a shuffled file has a repair per event: format once
            note(e.startOffset, &th,
                 fmt::format("event at {} ns comes after one at {} ns (reordered)", t, th.lastTs));
    }
    th.any = true;
    th.lastTs = t;
    th.lastRank = r;
    th.events.push_back(
        {t, dur, std::uint64_t{e.startOffset} << 8 | static_cast<unsigned char>(ph), name, ch});
}

// Async and flow events only decorate the timeline: one without a usable time (Chrome writes
// async ends with "ts": null) is dropped and counted, never a reason to refuse the file.
bool TraceEventImporter::dropUntimed(const ScannedTraceEvent& e) {
    if (e.ts.type == TraceScalar::Type::Number ||
        (e.ts.type == TraceScalar::Type::String && microsToNanos(e.ts.text)))
        return false;
    ++stats.repairs.untimed;
    note(e.startOffset, nullptr,
         fmt::format("{} event without a usable \"ts\" (dropped)",
                     e.ph.type == TraceScalar::Type::String ? "\"" + e.ph.text + "\"" : "an"));
    return true;
}

void TraceEventImporter::async(const ScannedTraceEvent& e, char ph) {
    if (dropUntimed(e))
        return;
    const std::int64_t t = requireTime(e.ts, "ts");
    const std::string& pid = idText(e.pid);
    const std::string category =
        e.cat.type == TraceScalar::Type::String && !e.cat.text.empty() ? e.cat.text : "default";
    const std::string& id = e.id.text; // a string or a number as written; missing: ""
    auto [it, added] = asyncTracks_.try_emplace({pid, category, id});
    AsyncTrack& track = it->second;
    if (added) {
        track.pid = pid;
        track.category = category;
        track.asyncId = id;
        track.seq.label = fmt::format("async pid {} cat {} id {}", pid, category, id);
    }
    // An "e" may name the slice it closes; one without a name closes the innermost.
    const std::int32_t name =
        e.name.type == TraceScalar::Type::String ? hintedName(e) : (ph == 'E' ? -1 : hintedName(e));
    if (track.name.empty() && ph == 'B')
        track.name = e.name.text;
    hold(track.seq, e, ph, t, 0, name, -1);
}

void TraceEventImporter::flow(const ScannedTraceEvent& e) {
    if (dropUntimed(e))
        return;
    const std::int64_t t = requireTime(e.ts, "ts");
    Thread& th = hintedThread(e);
    const std::string category =
        e.cat.type == TraceScalar::Type::String ? e.cat.text : std::string();
    const std::int32_t name = e.name.type == TraceScalar::Type::String ? hintedName(e) : -1;
    flows_[{category, e.id.text}].push_back({t, e.startOffset, th.row, name});
}

void TraceEventImporter::note(std::size_t offset, const Thread* th, std::string why) {
    if (first_ && first_->offset <= offset)
        return;
    first_ = FirstRepair{offset, th ? th->label : std::string(), std::move(why)};
}

void TraceEventImporter::noteDocumentRepair(std::size_t offset, std::string why) {
    note(offset, nullptr, std::move(why));
}

void TraceEventImporter::finish() {
    nestAndWriteThreads();
    for (auto& [key, track] : asyncTracks_) {
        nestAsync(track);
        std::vector<Pending>().swap(track.seq.events);
    }
    writeFlows();
    for (Series& s : series_) {
        if (!s.sorted)
            std::stable_sort(s.samples.begin(), s.samples.end(),
                             [](const Sample& a, const Sample& b) { return a.t < b.t; });
        for (const Sample& x : s.samples)
            w_.addSample(s.id, x.t, x.value);
        stats.samples += s.samples.size();
        std::vector<Sample>().swap(s.samples);
    }
}

// A flow's points (s, then t steps, then f) in time order become arrows between consecutive
// points; a flow with a single point has no arrow and is dropped.
void TraceEventImporter::writeFlows() {
    for (auto& [key, points] : flows_) {
        std::sort(points.begin(), points.end(), [](const FlowPoint& a, const FlowPoint& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.offset < b.offset;
        });
        if (points.size() < 2) {
            ++stats.repairs.danglingFlows;
            note(points.front().offset, nullptr,
                 fmt::format("flow \"{}\" has a single event (dropped)", key.second));
            continue;
        }
        std::int32_t name = -1;
        for (const auto& p : points)
            if (name < 0)
                name = p.name;
        const std::int64_t nameId =
            name >= 0 ? nameIds_[static_cast<std::size_t>(name)] : w_.intern("flow");
        for (std::size_t i = 1; i < points.size(); ++i) {
            w_.addFlow(nameId, points[i - 1].threadRow, points[i - 1].ts, points[i].threadRow,
                       points[i].ts);
            ++stats.flows;
        }
    }
}

} // namespace tilescope::report::detail
