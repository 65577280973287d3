// Streaming import of Chrome trace-event JSON into a host trace. The file is memory-mapped and fed
// to nlohmann's SAX parser through an iterator that records how far it has read, which gives
// every error its byte offset and lets pages already parsed be dropped from memory.

#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ReportError.hpp"

#include <charconv>
#include <cmath>
#include <fcntl.h>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace tilescope::report {
namespace {

/// Iterator over the mapped bytes that publishes its position: the SAX callbacks and the error
/// messages read it.
struct CountingIterator {
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* p = nullptr;
    const char** cursor = nullptr;

    reference operator*() const { return *p; }
    CountingIterator& operator++() {
        *cursor = ++p;
        return *this;
    }
    CountingIterator operator++(int) {
        CountingIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const CountingIterator& o) const { return p == o.p; }
    bool operator!=(const CountingIterator& o) const { return p != o.p; }
};

/// A read-only mapping of the input file.
class MappedFile {
public:
    explicit MappedFile(const std::filesystem::path& path) : path_(path.string()) {
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            throw ReportError(path_, "cannot open: " + std::string(std::strerror(errno)));
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd_);
            throw ReportError(path_, "not a regular file");
        }
        size_ = static_cast<std::size_t>(st.st_size);
        if (size_ == 0) {
            ::close(fd_);
            throw ReportError(path_, "file is empty");
        }
        void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
        if (m == MAP_FAILED) {
            ::close(fd_);
            throw ReportError(path_, "cannot map: " + std::string(std::strerror(errno)));
        }
        data_ = static_cast<const char*>(m);
        ::madvise(m, size_, MADV_SEQUENTIAL);
    }
    ~MappedFile() {
        ::munmap(const_cast<char*>(data_), size_);
        ::close(fd_);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const char* data() const { return data_; }
    std::size_t size() const { return size_; }
    /// Drops the pages before `upTo` from this process's memory (they are not read again).
    void release(const char* upTo) {
        const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t end = static_cast<std::size_t>(upTo - data_) / page * page;
        if (end > released_) {
            ::madvise(const_cast<char*>(data_) + released_, end - released_, MADV_DONTNEED);
            released_ = end;
        }
    }

private:
    std::string path_;
    int fd_ = -1;
    const char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t released_ = 0;
};

/// Microseconds as written in the JSON ("12.345", "1.7e3") to whole nanoseconds, exactly when the
/// text has at most three decimals (doubles cannot hold epoch nanoseconds exactly).
std::optional<std::int64_t> microsToNanos(const std::string& text, double value) {
    const auto dot = text.find('.');
    if (text.find_first_of("eE") == std::string::npos) {
        std::int64_t whole = 0;
        const std::string intPart = text.substr(0, dot);
        auto [p, ec] = std::from_chars(intPart.data(), intPart.data() + intPart.size(), whole);
        if (ec == std::errc() && p == intPart.data() + intPart.size()) {
            std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
            frac = (frac + "000").substr(0, 3);
            const std::int64_t ns = std::stoll(frac);
            constexpr auto limit = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
            if (whole > limit || whole < -limit)
                return std::nullopt;
            return whole * 1000 + (text[0] == '-' ? -ns : ns);
        }
    }
    const double ns = value * 1000.0;
    if (!std::isfinite(ns) || std::fabs(ns) > 9.0e18)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(ns));
}

/// A JSON scalar of an event field.
struct Scalar {
    enum class Type { None, String, Number } type = Type::None;
    std::string text; // string value, or the number as written
    double number = 0;
};

struct Interval {
    bool open;          // a B waiting for its E
    std::int64_t start; // ns
    std::int64_t end;   // ns, for X
    std::int64_t name;
    std::int64_t channel;
};

struct ThreadState {
    std::int64_t row = 0;
    std::int64_t lastStart = std::numeric_limits<std::int64_t>::min();
    std::vector<Interval> stack;
};

/// Receives the parser's events: tracks where it is in the document and turns each trace event
/// object into writer calls.
class TraceEventHandler : public nlohmann::json_sax<nlohmann::json> {
public:
    TraceEventHandler(HostTraceWriter& writer, MappedFile& file, const std::string& inputName,
                      const char* const& cursor)
        : w_(writer), file_(file), input_(inputName), cursor_(cursor) {}

    ChromeTraceStats stats;

    // --- document structure ---
    bool start_object(std::size_t) override {
        ++depth_;
        if (inEventArray() && depth_ == eventDepth_) {
            event_.clear();
            argsDepth_ = 0;
        } else if (depth_ == eventDepth_ + 1 && inEventArray() && key_ == "args") {
            argsDepth_ = depth_;
        }
        if (depth_ == 1)
            topIsObject_ = true;
        return true;
    }
    bool end_object() override {
        if (inEventArray() && depth_ == eventDepth_)
            finishEvent();
        if (depth_ == argsDepth_)
            argsDepth_ = 0;
        --depth_;
        return true;
    }
    bool start_array(std::size_t) override {
        ++depth_;
        if (depth_ == 1) {
            eventArrayDepth_ = 1;
            eventDepth_ = 2;
        } else if (depth_ == 2 && topIsObject_ && key_ == "traceEvents") {
            eventArrayDepth_ = 2;
            eventDepth_ = 3;
        }
        return true;
    }
    bool end_array() override {
        if (depth_ == eventArrayDepth_)
            eventArrayDone_ = true;
        --depth_;
        return true;
    }
    bool key(string_t& k) override {
        key_ = k;
        return true;
    }

    // --- values ---
    bool null() override { return value({}); }
    bool boolean(bool b) override { return value({Scalar::Type::String, b ? "true" : "false", 0}); }
    bool number_integer(number_integer_t v) override {
        return value({Scalar::Type::Number, std::to_string(v), static_cast<double>(v)});
    }
    bool number_unsigned(number_unsigned_t v) override {
        return value({Scalar::Type::Number, std::to_string(v), static_cast<double>(v)});
    }
    bool number_float(number_float_t v, const string_t& s) override {
        return value({Scalar::Type::Number, s, v});
    }
    bool string(string_t& s) override { return value({Scalar::Type::String, s, 0}); }
    bool binary(binary_t&) override { return true; }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        // The array form may end without its closing bracket (a tracer killed mid-write): fine
        // when the input ends between two events.
        if (position >= file_.size() && eventArrayDepth_ == 1 && depth_ == 1 && !eventArrayDone_) {
            endedEarly_ = true;
            return false;
        }
        std::string what = e.what();
        if (auto p = what.find("parse error at line"); p != std::string::npos)
            what = what.substr(p);
        throw ReportError(input_, fmt::format("malformed JSON at byte {}: {}", position, what));
    }

    bool endedEarly() const { return endedEarly_; }

    void finish() {
        if (eventArrayDepth_ == 0)
            fail("no trace events: expected a JSON array of events or an object with "
                 "\"traceEvents\"");
        // Events still open when the trace ended were never finished.
        for (auto& [key, t] : threads_)
            for (std::size_t d = 0; d < t.stack.size(); ++d)
                if (t.stack[d].open) {
                    w_.addUnfinished(t.row, t.stack[d].channel, t.stack[d].name, t.stack[d].start,
                                     static_cast<std::int32_t>(d));
                    ++stats.events;
                }
    }

private:
    using Key = std::pair<std::string, std::string>; // pid, tid as written

    bool inEventArray() const { return eventArrayDepth_ > 0 && !eventArrayDone_; }

    [[noreturn]] void fail(const std::string& what) const {
        throw ReportError(input_, fmt::format("at byte {}: {}", cursor_ - file_.data(), what));
    }

    bool value(Scalar s) {
        if (!inEventArray())
            return true;
        if (depth_ == eventDepth_)
            event_[key_] = std::move(s);
        else if (argsDepth_ && depth_ == argsDepth_)
            args_.emplace_back(key_, std::move(s));
        return true;
    }

    const Scalar& field(const char* name) {
        static const Scalar none;
        const auto it = event_.find(name);
        return it == event_.end() ? none : it->second;
    }

    std::string requireString(const char* name) {
        const Scalar& s = field(name);
        if (s.type != Scalar::Type::String)
            fail(fmt::format("event field \"{}\" must be a string", name));
        return s.text;
    }

    std::int64_t requireTime(const char* name) {
        const Scalar& s = field(name);
        if (s.type != Scalar::Type::Number)
            fail(fmt::format("event field \"{}\" must be a number (microseconds)", name));
        const auto ns = microsToNanos(s.text, s.number);
        if (!ns)
            fail(fmt::format("event field \"{}\" is out of range ({})", name, s.text));
        return *ns;
    }

    // pid/tid may be numbers or strings.
    std::string idText(const char* name) {
        const Scalar& s = field(name);
        return s.type == Scalar::Type::None ? "0" : s.text;
    }

    std::int64_t processRow(const std::string& pid) {
        auto it = processes_.find(pid);
        if (it != processes_.end())
            return it->second;
        std::int64_t numeric = 0;
        std::from_chars(pid.data(), pid.data() + pid.size(), numeric);
        const std::int64_t row = w_.addProcess(numeric, "process " + pid, 0);
        processes_.emplace(pid, row);
        return row;
    }

    ThreadState& thread(const std::string& pid, const std::string& tid) {
        auto it = threads_.find({pid, tid});
        if (it != threads_.end())
            return it->second;
        std::int64_t numeric = 0;
        std::from_chars(tid.data(), tid.data() + tid.size(), numeric);
        ThreadState t;
        t.row = w_.addThread(processRow(pid), numeric, "thread " + tid);
        return threads_.emplace(Key{pid, tid}, std::move(t)).first->second;
    }

    std::int64_t channel(const Scalar& cat) {
        const std::string name =
            cat.type == Scalar::Type::String && !cat.text.empty() ? cat.text : "default";
        auto it = channels_.find(name);
        if (it != channels_.end())
            return it->second;
        return channels_.emplace(name, w_.addChannel(name)).first->second;
    }

    std::int64_t name(const std::string& text) {
        auto it = names_.find(text);
        if (it != names_.end())
            return it->second;
        return names_.emplace(text, w_.intern(text)).first->second;
    }

    // Closes the X intervals that ended by `t`; what remains encloses an event starting at `t`.
    static void popFinished(ThreadState& th, std::int64_t t) {
        while (!th.stack.empty() && !th.stack.back().open && th.stack.back().end <= t)
            th.stack.pop_back();
    }

    void ordered(ThreadState& th, std::int64_t start, const std::string& tid) {
        if (start < th.lastStart)
            fail(fmt::format("events of thread {} are not in time order ({} ns after {} ns); "
                             "sort each thread's events by time",
                             tid, start, th.lastStart));
        th.lastStart = start;
    }

    void finishEvent() {
        const std::vector<std::pair<std::string, Scalar>> args = std::move(args_);
        args_.clear();
        const std::string ph = requireString("ph");
        if (cursor_ - releasedUpTo_ >= (64 << 20)) { // keep resident memory bounded
            file_.release(cursor_);
            releasedUpTo_ = cursor_;
        }
        const std::string pid = idText("pid"), tid = idText("tid");
        if (ph == "M") {
            const std::string what = requireString("name");
            std::string value;
            for (const auto& [k, v] : args)
                if (k == "name" && v.type == Scalar::Type::String)
                    value = v.text;
            if (what == "process_name" && !value.empty())
                w_.renameProcess(processRow(pid), value);
            else if (what == "thread_name" && !value.empty())
                w_.renameThread(thread(pid, tid).row, value);
            else if (what == "tilescope_counter_unit")
                for (const auto& [k, v] : args)
                    if (k == "unit" && v.type == Scalar::Type::String)
                        units_[{pid, value}] = v.text;
            return;
        }
        if (ph == "C") {
            const std::string graphName = requireString("name");
            const std::int64_t t = requireTime("ts");
            auto g = graphs_.find({pid, graphName});
            if (g == graphs_.end()) {
                const auto unit = units_.find({pid, graphName});
                g = graphs_
                        .emplace(Key{pid, graphName},
                                 w_.addGraph(processRow(pid), graphName,
                                             unit == units_.end() ? "" : unit->second))
                        .first;
            }
            for (const auto& [k, v] : args) {
                if (v.type != Scalar::Type::Number)
                    fail(fmt::format("counter \"{}\" argument \"{}\" must be a number", graphName,
                                     k));
                auto s = series_.find({std::to_string(g->second), k});
                if (s == series_.end())
                    s = series_
                            .emplace(Key{std::to_string(g->second), k}, w_.addSeries(g->second, k))
                            .first;
                w_.addSample(s->second, t, v.number);
                ++stats.samples;
            }
            return;
        }
        if (ph != "B" && ph != "E" && ph != "X" && ph != "i" && ph != "I")
            return; // flow, async, object and sample phases carry no host-timeline intervals
        const std::int64_t t = requireTime("ts");
        ThreadState& th = thread(pid, tid);
        ordered(th, t, tid);
        popFinished(th, t);
        const std::int64_t ch = channel(field("cat"));
        if (ph == "B") {
            th.stack.push_back({true, t, 0, name(requireString("name")), ch});
        } else if (ph == "E") {
            if (th.stack.empty() || !th.stack.back().open)
                fail(fmt::format("an \"E\" event on thread {} has no open \"B\" event", tid));
            const Interval b = th.stack.back();
            th.stack.pop_back();
            w_.addEvent(th.row, b.channel, b.name, b.start, t,
                        static_cast<std::int32_t>(th.stack.size()));
            ++stats.events;
        } else if (ph == "X") {
            const std::int64_t dur =
                field("dur").type == Scalar::Type::None ? 0 : requireTime("dur");
            if (dur < 0)
                fail("event field \"dur\" is negative");
            const std::int64_t n = name(requireString("name"));
            w_.addEvent(th.row, ch, n, t, t + dur, static_cast<std::int32_t>(th.stack.size()));
            ++stats.events;
            if (dur > 0)
                th.stack.push_back({false, t, t + dur, n, ch});
        } else {
            w_.addInstant(th.row, ch, name(requireString("name")), t,
                          static_cast<std::int32_t>(th.stack.size()));
            ++stats.events;
        }
    }

    HostTraceWriter& w_;
    MappedFile& file_;
    std::string input_;
    const char* const& cursor_;
    const char* releasedUpTo_ = file_.data();

    int depth_ = 0;
    int eventArrayDepth_ = 0; // depth of the array holding the events (0: not seen)
    int eventDepth_ = -1;     // depth of an event object
    int argsDepth_ = 0;
    bool topIsObject_ = false;
    bool eventArrayDone_ = false;
    bool endedEarly_ = false;
    std::string key_;
    std::map<std::string, Scalar> event_;
    std::vector<std::pair<std::string, Scalar>> args_;

    std::map<std::string, std::int64_t> processes_;
    std::map<Key, ThreadState> threads_;
    std::unordered_map<std::string, std::int64_t> channels_, names_;
    std::map<Key, std::int64_t> graphs_, series_;
    std::map<Key, std::string> units_;
};

} // namespace

ChromeTraceStats importChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output) {
    MappedFile file(input);
    // Written next to the output and renamed at the end: a failed import leaves nothing behind.
    const std::filesystem::path partial = output.string() + ".partial";
    ChromeTraceStats stats;
    try {
        HostTraceWriter writer(partial);
        writer.setMetadata("imported_from", input.filename().string());
        const char* cursor = file.data();
        TraceEventHandler handler(writer, file, input.string(), cursor);
        CountingIterator begin{file.data(), &cursor}, end{file.data() + file.size(), &cursor};
        const bool ok = nlohmann::json::sax_parse(begin, end, &handler);
        if (!ok && !handler.endedEarly())
            throw ReportError(input.string(), "malformed JSON");
        handler.finish();
        writer.close();
        stats = handler.stats;
        stats.bytes = file.size();
    } catch (...) {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(partial.string() + suffix, ec);
        throw;
    }
    std::error_code ec;
    std::filesystem::rename(partial, output, ec);
    if (ec)
        throw ReportError(output.string(), "cannot write: " + ec.message());
    return stats;
}

} // namespace tilescope::report
