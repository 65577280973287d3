#include "TileAllocationCodec.hpp"

#include "tilescope/report/ReportError.hpp"

#include <cstdint>
#include <optional>

namespace tilescope::report::detail {
namespace {

void put(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

std::uint64_t optionalPlusOne(const std::optional<std::int64_t>& v) {
    return v && *v >= 0 ? static_cast<std::uint64_t>(*v) + 1 : 0;
}

[[noreturn]] void damaged(const char* what) {
    throw ReportError("", std::string("damaged tile memory map: ") + what);
}

class Reader {
public:
    explicit Reader(std::string_view blob) : p_(blob.data()), end_(blob.data() + blob.size()) {}
    std::uint64_t next() {
        std::uint64_t v = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            if (p_ == end_)
                damaged("it ends inside a number");
            const auto byte = static_cast<unsigned char>(*p_++);
            v |= std::uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return v;
        }
        damaged("a number is longer than 64 bits");
    }
    std::optional<std::int64_t> nextOptional() {
        const auto v = next();
        if (v > std::uint64_t(INT64_MAX))
            damaged("an id or step is out of range");
        if (v == 0)
            return std::nullopt;
        return static_cast<std::int64_t>(v - 1);
    }
    bool atEnd() const { return p_ == end_; }
    std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }

private:
    const char* p_;
    const char* end_;
};

} // namespace

std::string encodeTileAllocations(const std::vector<TileAllocation>& allocations) {
    std::string out;
    out.reserve(allocations.size() * 12 + 4);
    put(out, allocations.size());
    for (const auto& a : allocations) {
        put(out, a.address);
        put(out, a.bytes);
        put(out, static_cast<std::uint64_t>(a.regionId));
        put(out, static_cast<std::uint64_t>(a.categoryId));
        put(out, optionalPlusOne(a.variableId));
        put(out, optionalPlusOne(a.firstStep));
        put(out, optionalPlusOne(a.lastStep));
    }
    return out;
}

std::vector<TileAllocation> decodeTileAllocations(std::string_view blob) {
    Reader r(blob);
    const auto count = r.next();
    // Each allocation takes at least seven bytes: a count beyond that is damage, not a request
    // to reserve memory.
    if (count > r.left() / 7)
        damaged("it lists more allocations than it holds");
    std::vector<TileAllocation> out(static_cast<std::size_t>(count));
    for (auto& a : out) {
        a.address = r.next();
        a.bytes = r.next();
        const auto region = r.next(), category = r.next();
        if (region > 255 || category > 255)
            damaged("a region or category id is out of range");
        a.regionId = static_cast<std::int64_t>(region);
        a.categoryId = static_cast<std::int64_t>(category);
        a.variableId = r.nextOptional();
        a.firstStep = r.nextOptional();
        a.lastStep = r.nextOptional();
    }
    if (!r.atEnd())
        damaged("it has bytes after its last allocation");
    return out;
}

} // namespace tilescope::report::detail
