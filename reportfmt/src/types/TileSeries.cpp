#include "tilescope/report/TileSeries.hpp"

#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace tilescope::report {
namespace {

void putVarint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

std::size_t varintSize(std::uint64_t v) {
    return static_cast<std::size_t>((std::bit_width(v | 1) + 6) / 7);
}

char* putVarint(char* p, std::uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<char>(v);
    return p;
}

[[noreturn]] void bad(const char* what) {
    throw ReportError("", std::string("damaged per-tile series: ") + what);
}

/// Bounds-checked cursor over a blob.
struct Cursor {
    const unsigned char* p;
    const unsigned char* end;

    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p == end)
                bad("truncated varint");
            const unsigned char b = *p++;
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        bad("varint too long");
    }
};

struct Header {
    TileSeries::Encoding encoding;
    std::size_t count;
    Cursor payload;
};

// Upper bound on elements a blob may claim: far above any machine (16 IPUs x 1472 tiles is 23,552),
// low enough that a forged count cannot make the reader allocate gigabytes.
constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 26;

Header readHeader(const void* data, std::size_t size) {
    if (data == nullptr || size < 2)
        bad("blob too short");
    Cursor c{static_cast<const unsigned char*>(data),
             static_cast<const unsigned char*>(data) + size};
    const unsigned char tag = *c.p++;
    if (tag < 1 || tag > 4)
        bad("unknown encoding tag");
    const std::uint64_t count = c.varint();
    if (count > kMaxElements)
        bad("element count out of range");
    // Packed payloads have an exact size: checked here, before any caller allocates for `count`.
    const auto left = static_cast<std::uint64_t>(c.end - c.p);
    if ((tag == 1 && left != count * 4) || (tag == 2 && left != count * 8))
        bad("packed payload size mismatch");
    return {static_cast<TileSeries::Encoding>(tag), static_cast<std::size_t>(count), c};
}

template <typename Word, typename Sink>
void walkPacked(const Header& h, std::size_t first, std::size_t end, Sink& sink) {
    for (std::size_t i = first; i < end; ++i) {
        Word v;
        std::memcpy(&v, h.payload.p + i * sizeof(Word), sizeof(Word));
        sink(i, v);
    }
}

/// Calls `sink(i, value)` for the elements i in [first, end) of a blob (end <= h.count), in order
/// of i for the packed and run-length forms and only for the non-zero ones in the sparse form.
/// Reading stops at `end`, so the rest of a blob is checked only when `end` is its last element.
/// Packed sizes were checked by readHeader.
template <typename Sink>
void walkRange(const Header& h, std::size_t first, std::size_t end, Sink&& sink) {
    Cursor c = h.payload;
    switch (h.encoding) {
    case TileSeries::Encoding::Packed32:
        walkPacked<std::uint32_t>(h, first, end, sink);
        return;
    case TileSeries::Encoding::Packed64:
        walkPacked<std::uint64_t>(h, first, end, sink);
        return;
    case TileSeries::Encoding::RunLength: {
        const bool toLast = end == h.count;
        std::size_t i = 0;
        while (c.p != c.end && (i < end || toLast)) {
            const std::uint64_t run = c.varint();
            const std::uint64_t v = c.varint();
            if (run == 0 || run > h.count - i)
                bad("run length out of range");
            const std::size_t runEnd = i + static_cast<std::size_t>(run);
            for (std::size_t k = std::max(i, first); k < std::min(runEnd, end); ++k)
                sink(k, v);
            i = runEnd;
        }
        if (i < end)
            bad("runs do not cover all elements");
        return;
    }
    case TileSeries::Encoding::Sparse: {
        std::size_t next = 0;
        while (c.p != c.end) {
            const std::uint64_t delta = c.varint();
            const std::uint64_t v = c.varint();
            if (delta > h.count - next)
                bad("sparse index out of range");
            const std::size_t idx = next + static_cast<std::size_t>(delta);
            if (idx >= h.count)
                bad("sparse index out of range");
            if (idx >= end)
                return;
            if (idx >= first)
                sink(idx, v);
            next = idx + 1;
        }
        return;
    }
    }
}

template <typename Sink> void walk(const Header& h, Sink&& sink) {
    walkRange(h, 0, h.count, sink);
}

} // namespace

void TileSeries::encode(std::span<const std::uint64_t> values, std::string& out) {
    // One pass sizes the forms, then the chosen one is written straight into its exact space:
    // this is on the writer's hot path (two series per executed step).
    const std::size_t n = values.size();
    std::uint64_t allBits = 0; // OR of all values: above 32 bits iff the maximum is
    std::size_t rleBytes = 0, runStart = 0, nonZero = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t v = values[i];
        allBits |= v;
        nonZero += v != 0;
        if (i > 0 && v != values[i - 1]) {
            rleBytes += varintSize(i - runStart) + varintSize(values[i - 1]);
            runStart = i;
        }
    }
    if (n > 0)
        rleBytes += varintSize(n - runStart) + varintSize(values[n - 1]);
    const bool wide = allBits > 0xffffffffu;
    const std::size_t packedBytes = n * (wide ? 8 : 4);
    // Sparse costs at least 2 bytes per non-zero value: size it exactly only when it can win.
    std::size_t sparseBytes = SIZE_MAX;
    if (2 * nonZero <= std::min(packedBytes, rleBytes)) {
        sparseBytes = 0;
        for (std::size_t i = 0, next = 0; i < n; ++i) {
            if (values[i] != 0) {
                sparseBytes += varintSize(i - next) + varintSize(values[i]);
                next = i + 1;
            }
        }
    }
    const std::size_t best = std::min({packedBytes, rleBytes, sparseBytes});

    const std::size_t at = out.size();
    out.resize(at + 1 + varintSize(n) + best);
    char* p = out.data() + at + 1;
    p = putVarint(p, n);
    if (best == sparseBytes) {
        out[at] = static_cast<char>(Encoding::Sparse);
        std::size_t next = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (values[i] != 0) {
                p = putVarint(p, i - next);
                p = putVarint(p, values[i]);
                next = i + 1;
            }
        }
    } else if (best == rleBytes) {
        out[at] = static_cast<char>(Encoding::RunLength);
        for (std::size_t i = 0; i < n;) {
            std::size_t j = i + 1;
            while (j < n && values[j] == values[i])
                ++j;
            p = putVarint(p, j - i);
            p = putVarint(p, values[i]);
            i = j;
        }
    } else if (wide) {
        out[at] = static_cast<char>(Encoding::Packed64);
        std::memcpy(p, values.data(), n * 8); // little-endian host (x86-64, aarch64)
    } else {
        out[at] = static_cast<char>(Encoding::Packed32);
        for (std::size_t i = 0; i < n; ++i) {
            const auto v = static_cast<std::uint32_t>(values[i]);
            std::memcpy(p + i * 4, &v, 4);
        }
    }
}

std::string TileSeries::encodeRuns(std::span<const Run> runs) {
    std::vector<Run> merged;
    merged.reserve(runs.size());
    std::uint64_t total = 0;
    for (const Run& r : runs) {
        if (r.count == 0)
            continue;
        total += r.count;
        if (!merged.empty() && merged.back().value == r.value)
            merged.back().count += r.count;
        else
            merged.push_back(r);
    }
    std::string out;
    out.push_back(static_cast<char>(Encoding::RunLength));
    putVarint(out, total);
    for (const Run& r : merged) {
        putVarint(out, r.count);
        putVarint(out, r.value);
    }
    return out;
}

std::string TileSeries::encode(std::span<const std::uint64_t> values) {
    std::string out;
    encode(values, out);
    return out;
}

void TileSeries::decode(const void* data, std::size_t size, std::vector<std::uint64_t>& out) {
    const Header h = readHeader(data, size);
    out.assign(h.count, 0);
    walk(h, [&](std::size_t i, std::uint64_t v) { out[i] = v; });
}

std::vector<std::uint64_t> TileSeries::decode(const void* data, std::size_t size) {
    std::vector<std::uint64_t> out;
    decode(data, size, out);
    return out;
}

void TileSeries::decodeRange(const void* data, std::size_t size, std::size_t first, std::size_t n,
                             std::vector<std::uint64_t>& out) {
    const Header h = readHeader(data, size);
    out.assign(n, 0);
    const std::size_t end = std::min(h.count, first + n);
    if (first >= end)
        return;
    walkRange(h, first, end, [&](std::size_t i, std::uint64_t v) { out[i - first] = v; });
}

void TileSeries::accumulate(const void* data, std::size_t size, std::vector<std::uint64_t>& acc) {
    const Header h = readHeader(data, size);
    if (h.count != acc.size())
        bad("element count differs from the report's tile count");
    walk(h, [&](std::size_t i, std::uint64_t v) { acc[i] += v; });
}

std::size_t TileSeries::count(const void* data, std::size_t size) {
    return readHeader(data, size).count;
}

} // namespace tilescope::report
