#include "ChromeTraceScanner.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

namespace tilescope::report::detail {
namespace {

constexpr int kMaxNesting = 512;
// Parsed pages are handed back to the kernel every this many bytes.
constexpr std::size_t kReleaseEvery = std::size_t{64} << 20;

// Bytes that can be copied straight out of a string: printable ASCII except '"' and '\\'.
constexpr std::array<bool, 256> makePlainTable() {
    std::array<bool, 256> t{};
    for (int c = 0x20; c < 0x80; ++c)
        t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
    return t;
}
constexpr std::array<bool, 256> kPlain = makePlainTable();

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

/// True when `key` is `word`: a fixed-size memcmp, which the compiler turns into one integer
/// compare (std::string == const char* measures the literal and calls memcmp for every key).
template <std::size_t N> bool is(std::string_view key, const char (&word)[N]) {
    return key.size() == N - 1 && std::memcmp(key.data(), word, N - 1) == 0;
}

/// The event field a key names, or null for fields the importer does not read.
TraceScalar* fieldNamed(ScannedTraceEvent& e, std::string_view key) {
    switch (key.size()) {
    case 2:
        return is(key, "ph") ? &e.ph : is(key, "ts") ? &e.ts : is(key, "id") ? &e.id : nullptr;
    case 3:
        return is(key, "pid")   ? &e.pid
               : is(key, "tid") ? &e.tid
               : is(key, "cat") ? &e.cat
               : is(key, "dur") ? &e.dur
                                : nullptr;
    case 4:
        return is(key, "name") ? &e.name : nullptr;
    default:
        return nullptr;
    }
}

} // namespace

double parseJsonNumber(std::string_view text) {
    double value = 0;
    const auto [next, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) // strtod saturates instead
        return std::strtod(std::string(text).c_str(), nullptr);
    if (ec != std::errc() || next != text.data() + text.size())
        return std::nan("");
    return value;
}

void ScannedTraceEvent::clear() {
    for (TraceScalar* f : {&ph, &name, &cat, &pid, &tid, &ts, &dur, &id})
        f->clear();
    argCount = 0;
    endOffset = 0;
}

ChromeTraceScanner::ChromeTraceScanner(MappedFile& file, std::string shownPath)
    : file_(&file), path_(shownPath.empty() ? file.path() : std::move(shownPath)),
      begin_(file.data()), p_(file.data()), end_(file.data() + file.size()),
      releasedUpTo_(file.data()) {}

ChromeTraceScanner::ChromeTraceScanner(const char* data, std::size_t size, std::string path)
    : file_(nullptr), path_(std::move(path)), begin_(data), p_(data), end_(data + size),
      releasedUpTo_(data) {}

void ChromeTraceScanner::cutOff(const char* at, bool partialEvent) {
    endedEarly_ = true;
    endedEarlyAt_ = static_cast<std::size_t>(at - begin_);
    droppedPartial_ = partialEvent;
    state_ = State::Done;
    p_ = end_;
}

void ChromeTraceScanner::fail(const std::string& what) const {
    failAt(p_, what);
}

void ChromeTraceScanner::failAt(const char* at, const std::string& what) const {
    if (at == end_) // the input stops inside the document
        throw TruncatedTraceInput(path_,
                                  fmt::format("malformed JSON at byte {}: {}", at - begin_, what));
    throw ReportError(path_, fmt::format("malformed JSON at byte {}: {}", at - begin_, what));
}

// skipSpace, peek and expect run for nearly every byte of a trace: defined inline here (their only
// callers are in this file) so that they are inlined instead of called through the shared
// library's PLT (a tenth of the scanning thread's time).
inline void ChromeTraceScanner::skipSpace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t'))
        ++p_;
}

inline char ChromeTraceScanner::peek() {
    skipSpace();
    if (p_ == end_)
        fail("unexpected end of input");
    return *p_;
}

inline void ChromeTraceScanner::expect(char c) {
    if (peek() != c)
        fail(fmt::format("expected '{}'", c));
    ++p_;
}

void ChromeTraceScanner::readString(std::string& out) {
    expect('"');
    out.clear();
    for (;;) {
        const char* run = p_;
        while (p_ != end_ && kPlain[static_cast<unsigned char>(*p_)])
            ++p_;
        out.append(run, static_cast<std::size_t>(p_ - run));
        if (p_ == end_)
            fail("unterminated string");
        const unsigned char c = static_cast<unsigned char>(*p_);
        if (c == '"') {
            ++p_;
            return;
        }
        if (c == '\\') {
            if (end_ - p_ < 2)
                failAt(end_, "unterminated string");
            const char e = p_[1];
            p_ += 2;
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                auto hex4 = [&]() -> std::uint32_t {
                    if (end_ - p_ < 4)
                        failAt(end_, "truncated \\u escape");
                    std::uint32_t v = 0;
                    const auto [next, ec] = std::from_chars(p_, p_ + 4, v, 16);
                    if (ec != std::errc() || next != p_ + 4)
                        fail("bad \\u escape");
                    p_ += 4;
                    return v;
                };
                std::uint32_t cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00) { // a surrogate pair must follow
                    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u')
                        fail("unpaired UTF-16 surrogate in \\u escape");
                    p_ += 2;
                    const std::uint32_t low = hex4();
                    if (low < 0xDC00 || low >= 0xE000)
                        fail("unpaired UTF-16 surrogate in \\u escape");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    fail("unpaired UTF-16 surrogate in \\u escape");
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                failAt(p_ - 1, "invalid escape in string");
            }
            continue;
        }
        if (c < 0x20)
            fail("control character in string (must be escaped)");
        // Non-ASCII: one well-formed UTF-8 sequence (no overlongs, surrogates or values past
        // U+10FFFF), so that names stored as SQLite text are valid.
        int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        if (len == 0 || c > 0xF4 || end_ - p_ < len)
            fail("invalid UTF-8 in string");
        const auto b1 = static_cast<unsigned char>(p_[1]);
        bool ok = (b1 & 0xC0) == 0x80;
        if (c == 0xE0)
            ok = ok && b1 >= 0xA0;
        else if (c == 0xED)
            ok = ok && b1 < 0xA0;
        else if (c == 0xF0)
            ok = ok && b1 >= 0x90;
        else if (c == 0xF4)
            ok = ok && b1 < 0x90;
        for (int i = 2; i < len; ++i)
            ok = ok && (static_cast<unsigned char>(p_[i]) & 0xC0) == 0x80;
        if (!ok)
            fail("invalid UTF-8 in string");
        out.append(p_, static_cast<std::size_t>(len));
        p_ += len;
    }
}

// An event's keys are short plain ASCII: read in place, without a copy, unless escaped.
std::string_view ChromeTraceScanner::readKey() {
    if (peek() == '"') {
        const char* const first = p_ + 1;
        const char* q = first;
        while (q != end_ && kPlain[static_cast<unsigned char>(*q)])
            ++q;
        if (q != end_ && *q == '"') {
            p_ = q + 1;
            return {first, static_cast<std::size_t>(q - first)};
        }
    }
    readString(key_);
    return key_;
}

void ChromeTraceScanner::readNumber(TraceScalar& out) {
    const char* start = p_;
    if (p_ != end_ && *p_ == '-')
        ++p_;
    if (p_ == end_)
        failAt(end_, "unexpected end of input");
    if (!isDigit(*p_))
        fail("invalid number");
    if (*p_ == '0')
        ++p_;
    else
        while (p_ != end_ && isDigit(*p_))
            ++p_;
    if (p_ != end_ && *p_ == '.') {
        ++p_;
        if (p_ == end_ || !isDigit(*p_))
            fail("invalid number: digits must follow '.'");
        while (p_ != end_ && isDigit(*p_))
            ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
        ++p_;
        if (p_ != end_ && (*p_ == '+' || *p_ == '-'))
            ++p_;
        if (p_ == end_ || !isDigit(*p_))
            fail("invalid number: digits must follow the exponent");
        while (p_ != end_ && isDigit(*p_))
            ++p_;
    }
    // The grammar above is JSON's, so the text is a valid number; its value is parsed on demand.
    out.type = TraceScalar::Type::Number;
    out.text.assign(start, static_cast<std::size_t>(p_ - start));
}

void ChromeTraceScanner::readLiteral(const char* word, std::size_t n) {
    const auto left = static_cast<std::size_t>(end_ - p_);
    if (left < n && std::string_view(p_, left) == std::string_view(word, left))
        failAt(end_, "unexpected end of input");
    if (left < n || std::string_view(p_, n) != word)
        fail("invalid literal");
    p_ += n;
}

void ChromeTraceScanner::readScalar(TraceScalar& out) {
    switch (peek()) {
    case '"':
        out.type = TraceScalar::Type::String;
        readString(out.text);
        return;
    case 't':
        readLiteral("true", 4);
        out.type = TraceScalar::Type::Bool;
        out.text = "true";
        return;
    case 'f':
        readLiteral("false", 5);
        out.type = TraceScalar::Type::Bool;
        out.text = "false";
        return;
    case 'n':
        readLiteral("null", 4);
        out.type = TraceScalar::Type::Null;
        out.text.clear();
        return;
    case '{':
    case '[':
        skipValue(1);
        out.type = TraceScalar::Type::Compound;
        out.text.clear();
        return;
    default:
        readNumber(out);
    }
}

void ChromeTraceScanner::skipValue(int depth) {
    if (depth > kMaxNesting)
        fail(fmt::format("values nested deeper than {} levels", kMaxNesting));
    const char c = peek();
    if (c == '{' || c == '[') {
        const char close = c == '{' ? '}' : ']';
        ++p_;
        if (peek() == close) {
            ++p_;
            return;
        }
        for (;;) {
            if (c == '{') {
                readKey();
                expect(':');
            }
            skipValue(depth + 1);
            const char sep = peek();
            ++p_;
            if (sep == close)
                return;
            if (sep != ',')
                failAt(p_ - 1, fmt::format("expected ',' or '{}'", close));
        }
    }
    TraceScalar scratch;
    readScalar(scratch);
}

void ChromeTraceScanner::readArgs(ScannedTraceEvent& event) {
    if (peek() != '{') {
        skipValue(1);
        return;
    }
    ++p_;
    if (peek() == '}') {
        ++p_;
        return;
    }
    for (;;) {
        if (event.argCount == event.args.size())
            event.args.emplace_back();
        auto& arg = event.args[event.argCount++];
        readString(arg.key);
        expect(':');
        readScalar(arg.value);
        const char sep = peek();
        ++p_;
        if (sep == '}')
            return;
        if (sep != ',')
            failAt(p_ - 1, "expected ',' or '}'");
    }
}

bool ChromeTraceScanner::findEventArray() {
    const char c = peek();
    if (c == '[') {
        ++p_;
        return true;
    }
    if (c != '{')
        return false;
    objectForm_ = true;
    ++p_;
    if (peek() == '}') {
        ++p_;
        return false;
    }
    for (;;) {
        readString(key_);
        expect(':');
        if (key_ == "traceEvents" && peek() == '[') {
            ++p_;
            return true;
        }
        skipValue(1);
        const char sep = peek();
        ++p_;
        if (sep == '}')
            return false;
        if (sep != ',')
            failAt(p_ - 1, "expected ',' or '}'");
    }
}

bool ChromeTraceScanner::next(ScannedTraceEvent& out) {
    if (state_ == State::Start) {
        if (!findEventArray()) {
            state_ = State::Done;
            return false;
        }
        state_ = State::InArray;
        foundArray_ = true;
    }
    if (state_ != State::InArray)
        return false;
    // A killed tracer leaves the array without its closing bracket, possibly mid-event.
    if (atEnd()) {
        cutOff(p_, false);
        return false;
    }
    if (first_) {
        if (peek() == ']') {
            ++p_;
            state_ = State::AfterArray;
            return false;
        }
        first_ = false;
    } else {
        const char sep = peek();
        ++p_;
        if (sep == ']') {
            state_ = State::AfterArray;
            return false;
        }
        if (sep != ',')
            failAt(p_ - 1, "expected ',' or ']' between trace events");
        if (atEnd()) {
            cutOff(p_, false);
            return false;
        }
        if (*p_ == ']') {
            if (trailingCommas_++ == 0)
                trailingCommaAt_ = offset() - 1;
            ++p_;
            state_ = State::AfterArray;
            return false;
        }
    }
    const char* const eventStart = p_;
    try {
        if (peek() != '{')
            fail("a trace event must be a JSON object");
        ++p_;
        out.clear();
        out.startOffset = offset() - 1;
        if (peek() == '}') {
            ++p_;
        } else {
            for (;;) {
                const std::string_view key = readKey();
                expect(':');
                if (is(key, "args"))
                    readArgs(out);
                else if (TraceScalar* field = fieldNamed(out, key))
                    readScalar(*field);
                else
                    skipValue(1);
                const char sep = peek();
                ++p_;
                if (sep == '}')
                    break;
                if (sep != ',')
                    failAt(p_ - 1, "expected ',' or '}' in a trace event");
            }
        }
    } catch (const TruncatedTraceInput&) {
        cutOff(eventStart, true);
        return false;
    }
    out.endOffset = offset();
    if (file_ && static_cast<std::size_t>(p_ - releasedUpTo_) >= kReleaseEvery) {
        file_->release(p_);
        releasedUpTo_ = p_;
    }
    return true;
}

void ChromeTraceScanner::finish() {
    if (state_ == State::AfterArray && objectForm_) {
        // Keys after the event array ("metadata", "systemTraceEvents", ...) are skipped; a
        // document cut off among them is accepted like one cut off among the events.
        const char* const afterArray = p_;
        try {
            for (;;) {
                const char sep = peek();
                ++p_;
                if (sep == '}')
                    break;
                if (sep != ',')
                    failAt(p_ - 1, "expected ',' or '}'");
                readString(key_);
                expect(':');
                skipValue(1);
            }
        } catch (const TruncatedTraceInput&) {
            cutOff(afterArray, false);
        }
    }
    state_ = State::Done;
    if (!atEnd())
        fail("unexpected content after the JSON document");
}

} // namespace tilescope::report::detail
