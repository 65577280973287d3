#pragma once
// The JSON side of the Chrome trace import: a strict, streaming reader of the trace-event document
// (array form or object form with "traceEvents") that hands over each event's fields and skips
// everything else. It replaces a general SAX parser because the import must reach a million
// events per second: it scans the mapped bytes in place, keeps the fields an importer reads (and
// numbers as written, for exact microsecond-to-nanosecond conversion) and allocates nothing once
// its buffers are warm. Every malformed input is a ReportError with the byte offset.

#include "MappedFile.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report::detail {

/// The double value of JSON number text already validated (saturates to +-HUGE_VAL or 0 out of
/// range); NaN when `text` is not a number.
double parseJsonNumber(std::string_view text);

/// A scalar field of an event. Compound values (objects, arrays) are validated and skipped; they
/// are recorded as `Compound` so that a field of the wrong type can be named.
struct TraceScalar {
    enum class Type : std::uint8_t { None, String, Number, Bool, Null, Compound };
    Type type = Type::None;
    std::string text; // string value, the number as written, or "true"/"false"

    void clear() {
        type = Type::None;
        text.clear();
    }
    /// The value of a Number (or of numeric text), parsed only when asked: the importer needs
    /// most numbers as exact integers of nanoseconds instead (microsToNanos), and parsing every
    /// one as a double was a tenth of the scanning thread's time.
    double numberValue() const { return parseJsonNumber(text); }
};

/// One trace event: the fields an importer reads, its scalar `args`, and where it ends.
struct ScannedTraceEvent {
    TraceScalar ph, name, cat, pid, tid, ts, dur, id; // id: async and flow events
    struct Arg {
        std::string key;
        TraceScalar value;
    };
    std::vector<Arg> args; // only the first `argCount` are valid (kept for their capacity)
    std::size_t argCount = 0;
    std::size_t startOffset = 0; // byte offset of the event's opening brace
    std::size_t endOffset = 0;   // byte offset just past the event's closing brace

    void clear();
};

/// A document that stops at the end of the input (a tracer killed mid-write); thrown inside the
/// scanner only, which turns it into a cut-off where the format allows one.
class TruncatedTraceInput : public ReportError {
public:
    using ReportError::ReportError;
};

/// Pulls events out of a mapped trace file in order. next() fills `out` and returns true per
/// event, false at the end of the event array (then finish() validates the rest).
class ChromeTraceScanner {
public:
    /// `shownPath` names the input in errors (the compressed file when `file` is its inflated
    /// copy); empty: the mapped file's path.
    explicit ChromeTraceScanner(MappedFile& file, std::string shownPath = {});
    /// Scans `size` bytes at `data` (kept alive by the caller); `path` names them in errors.
    ChromeTraceScanner(const char* data, std::size_t size, std::string path);

    bool next(ScannedTraceEvent& out);
    /// After next() returned false: checks the remainder of the document.
    void finish();
    /// True when the document stopped before its end (no closing bracket, or in the middle of
    /// an event, which is then dropped): a tracer killed mid-write. Accepted and counted.
    bool endedEarly() const { return endedEarly_; }
    /// Where the document was cut off (valid when endedEarly()).
    std::size_t endedEarlyAt() const { return endedEarlyAt_; }
    /// True when the cut fell inside an event, which was dropped.
    bool droppedPartialEvent() const { return droppedPartial_; }
    /// Commas just before the closing bracket of the event array (not JSON, written by some
    /// tools); accepted and counted. trailingCommaAt(): where the first one is.
    std::size_t trailingCommas() const { return trailingCommas_; }
    std::size_t trailingCommaAt() const { return trailingCommaAt_; }
    /// False when the document has no event array (known once next() returned false).
    bool foundEventArray() const { return foundArray_; }
    std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }

private:
    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] void failAt(const char* at, const std::string& what) const;
    void skipSpace();
    bool atEnd() {
        skipSpace();
        return p_ == end_;
    }
    char peek();
    void expect(char c);
    void readString(std::string& out);
    /// A key, in place when it has no escapes (else decoded into key_); valid until the next read.
    std::string_view readKey();
    void readNumber(TraceScalar& out);
    void readLiteral(const char* word, std::size_t n);
    void readScalar(TraceScalar& out);
    void skipValue(int depth);
    void readArgs(ScannedTraceEvent& event);
    /// Moves to the first event of the event array; false if there is none.
    bool findEventArray();

    MappedFile* file_; // null when scanning a buffer
    std::string path_;
    const char* begin_;
    const char* p_;
    const char* end_;
    const char* releasedUpTo_;
    std::string key_;
    enum class State { Start, InArray, AfterArray, Done } state_ = State::Start;
    bool objectForm_ = false;
    bool first_ = true;
    bool endedEarly_ = false;
    bool foundArray_ = false;
    bool droppedPartial_ = false;
    std::size_t endedEarlyAt_ = 0;
    std::size_t trailingCommas_ = 0;
    std::size_t trailingCommaAt_ = 0;

    void cutOff(const char* at, bool partialEvent);
};

} // namespace tilescope::report::detail
