#include "EventBlockCodec.hpp"

#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>

namespace tilescope::report::detail {
namespace {

constexpr std::uint8_t kImplicitIds = 1, kExplicitIds = 2;
constexpr std::uint64_t kLongDuration = 3;
constexpr std::uint64_t kMaxShortDuration = (std::uint64_t{1} << 62) - 1;

std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>((v >> 1) ^ (~(v & 1) + 1));
}

void putVarint(std::vector<std::uint8_t>& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
}

std::uint8_t* putVarint(std::uint8_t* out, std::uint64_t v) {
    while (v >= 0x80) {
        *out++ = static_cast<std::uint8_t>(v | 0x80);
        v >>= 7;
    }
    *out++ = static_cast<std::uint8_t>(v);
    return out;
}

std::uint64_t delta(std::int64_t now, std::int64_t before) {
    return zigzag(static_cast<std::int64_t>(static_cast<std::uint64_t>(now) -
                                            static_cast<std::uint64_t>(before)));
}

/// Reads varints from a blob, every byte bounds-checked; errors name the file and block.
class Reader {
public:
    Reader(std::span<const std::uint8_t> blob, const std::string& path, std::int64_t block)
        : p_(blob.data()), end_(blob.data() + blob.size()), path_(path), block_(block) {}

    [[noreturn]] void fail(std::string_view what) const {
        throw ReportError(path_, fmt::format("file is damaged (event block {}: {})", block_, what));
    }
    bool atEnd() const { return p_ == end_; }
    std::uint8_t byte() {
        if (p_ == end_)
            fail("truncated");
        return *p_++;
    }
    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (p_ == end_)
                fail("truncated");
            const std::uint8_t b = *p_++;
            if (shift == 63 && b > 1)
                fail("varint out of range");
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        fail("varint longer than 10 bytes");
    }

private:
    const std::uint8_t* p_;
    const std::uint8_t* end_;
    const std::string& path_;
    std::int64_t block_;
};

} // namespace

std::uint8_t* EventBlockEncoder::room() {
    if (capacity_ - size_ < kMaxEventBytes) {
        const std::size_t capacity = std::max<std::size_t>(2 * capacity_, 1024);
        auto grown = std::make_unique<std::uint8_t[]>(capacity);
        if (size_)
            std::copy(body_.get(), body_.get() + size_, grown.get());
        body_ = std::move(grown);
        capacity_ = capacity;
    }
    return body_.get() + size_;
}

void EventBlockEncoder::add(std::int64_t channelId, std::int64_t nameId, EventKind kind,
                            std::int64_t startNs, std::int64_t endNs, std::int64_t id) {
    std::uint8_t* out = room();
    if (explicitIds_) {
        out = putVarint(out, delta(id, prevId_));
        prevId_ = id;
    }
    out = putVarint(out, delta(startNs, prevStart_));
    prevStart_ = startNs;
    std::int64_t last = startNs;
    if (kind == EventKind::Complete) {
        const std::uint64_t d =
            static_cast<std::uint64_t>(endNs) - static_cast<std::uint64_t>(startNs);
        if (d <= kMaxShortDuration) {
            out = putVarint(out, d << 2);
        } else {
            *out++ = kLongDuration;
            out = putVarint(out, d);
        }
        last = endNs;
    } else {
        *out++ = static_cast<std::uint8_t>(kind);
    }
    out = putVarint(out, zigzag(nameId));
    out = putVarint(out, zigzag(channelId));
    size_ = static_cast<std::size_t>(out - body_.get());
    minStart_ = events_ == 0 ? startNs : std::min(minStart_, startNs);
    maxEnd_ = events_ == 0 ? last : std::max(maxEnd_, last);
    ++events_;
}

const std::vector<std::uint8_t>& EventBlockEncoder::finish() {
    if (events_ == 0)
        throw std::logic_error("an event block must hold at least one event");
    blob_.clear();
    blob_.push_back(explicitIds_ ? kExplicitIds : kImplicitIds);
    putVarint(blob_, events_);
    blob_.insert(blob_.end(), body_.get(), body_.get() + size_);
    return blob_;
}

void EventBlockEncoder::clear() {
    size_ = 0;
    events_ = 0;
    prevStart_ = prevId_ = minStart_ = maxEnd_ = 0;
}

void decodeEventBlock(std::span<const std::uint8_t> blob, std::int64_t firstEventId,
                      std::int64_t expectedEvents, std::int64_t threadId, std::int32_t depth,
                      std::vector<HostEvent>& out, const std::string& path, std::int64_t blockId) {
    Reader in(blob, path, blockId);
    const std::uint8_t layout = in.byte();
    if (layout != kImplicitIds && layout != kExplicitIds)
        in.fail(fmt::format("unknown layout {}", layout));
    const std::uint64_t count = in.varint();
    if (count == 0 || expectedEvents < 0 || count != static_cast<std::uint64_t>(expectedEvents))
        in.fail(fmt::format("holds {} events, its row says {}", count, expectedEvents));
    // Each event takes at least 4 bytes: a count beyond that is damage, not a reason to allocate.
    if (count > blob.size() / 4)
        in.fail(fmt::format("{} events cannot fit in {} bytes", count, blob.size()));
    out.reserve(out.size() + count);
    std::uint64_t id = 0, start = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        HostEvent e;
        if (layout == kExplicitIds) {
            id += static_cast<std::uint64_t>(unzigzag(in.varint()));
            e.id = static_cast<std::int64_t>(id);
        } else {
            e.id = static_cast<std::int64_t>(static_cast<std::uint64_t>(firstEventId) + i);
        }
        start += static_cast<std::uint64_t>(unzigzag(in.varint()));
        e.startNs = static_cast<std::int64_t>(start);
        const std::uint64_t code = in.varint();
        std::uint64_t duration = code >> 2;
        switch (code & 3) {
        case 0:
            e.kind = EventKind::Complete;
            break;
        case 1:
        case 2:
            if (code > 2)
                in.fail(fmt::format("unknown event code {}", code));
            e.kind = static_cast<EventKind>(code);
            break;
        default:
            if (code != kLongDuration)
                in.fail(fmt::format("unknown event code {}", code));
            e.kind = EventKind::Complete;
            duration = in.varint();
            break;
        }
        if (e.kind == EventKind::Complete) {
            const std::uint64_t room =
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - start;
            if (duration > room)
                in.fail("an event ends past the largest time");
            e.endNs = static_cast<std::int64_t>(start + duration);
        } else if (e.kind == EventKind::Instant) {
            e.endNs = e.startNs;
        }
        e.nameId = unzigzag(in.varint());
        e.channelId = unzigzag(in.varint());
        e.threadId = threadId;
        e.depth = depth;
        out.push_back(e);
    }
    if (!in.atEnd())
        in.fail("trailing bytes after its events");
}

} // namespace tilescope::report::detail
