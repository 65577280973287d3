#include "tilescope/report/TileSeries.hpp"

#include "tilescope/report/ReportError.hpp"

#include <algorithm>
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
    std::size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
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
    Cursor c{static_cast<const unsigned char*>(data), static_cast<const unsigned char*>(data) + size};
    const unsigned char tag = *c.p++;
    if (tag < 1 || tag > 4)
        bad("unknown encoding tag");
    const std::uint64_t count = c.varint();
    if (count > kMaxElements)
        bad("element count out of range");
    return {static_cast<TileSeries::Encoding>(tag), static_cast<std::size_t>(count), c};
}

template <typename Sink>
void walk(const Header& h, Sink&& sink) {
    Cursor c = h.payload;
    const std::size_t bytesLeft = static_cast<std::size_t>(c.end - c.p);
    switch (h.encoding) {
    case TileSeries::Encoding::Packed32: {
        if (bytesLeft != h.count * 4)
            bad("packed32 payload size mismatch");
        for (std::size_t i = 0; i < h.count; ++i) {
            std::uint32_t v;
            std::memcpy(&v, c.p + i * 4, 4);
            sink(i, v);
        }
        return;
    }
    case TileSeries::Encoding::Packed64: {
        if (bytesLeft != h.count * 8)
            bad("packed64 payload size mismatch");
        for (std::size_t i = 0; i < h.count; ++i) {
            std::uint64_t v;
            std::memcpy(&v, c.p + i * 8, 8);
            sink(i, v);
        }
        return;
    }
    case TileSeries::Encoding::RunLength: {
        std::size_t i = 0;
        while (c.p != c.end) {
            const std::uint64_t run = c.varint();
            const std::uint64_t v = c.varint();
            if (run == 0 || run > h.count - i)
                bad("run length out of range");
            for (std::uint64_t k = 0; k < run; ++k)
                sink(i++, v);
        }
        if (i != h.count)
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
            sink(idx, v);
            next = idx + 1;
        }
        return;
    }
    }
}

} // namespace

void TileSeries::encode(std::span<const std::uint64_t> values, std::string& out) {
    const std::size_t n = values.size();
    std::uint64_t maxValue = 0;
    std::size_t rleBytes = 0, sparseBytes = 0;
    std::size_t lastNonZero = 0;
    bool anyNonZero = false;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i + 1;
        while (j < n && values[j] == values[i])
            ++j;

        rleBytes += varintSize(j - i) + varintSize(values[i]);
        maxValue = std::max(maxValue, values[i]);
        i = j;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (values[i] != 0) {
            const std::size_t delta = anyNonZero ? i - lastNonZero - 1 : i;
            sparseBytes += varintSize(delta) + varintSize(values[i]);
            lastNonZero = i;
            anyNonZero = true;
        }
    }
    const std::size_t packedBytes = n * (maxValue > 0xffffffffu ? 8 : 4);
    const std::size_t best = std::min({packedBytes, rleBytes, sparseBytes});

    out.reserve(out.size() + 1 + varintSize(n) + best);
    if (best == sparseBytes) {
        out.push_back(static_cast<char>(Encoding::Sparse));
        putVarint(out, n);
        std::size_t next = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (values[i] != 0) {
                putVarint(out, i - next);
                putVarint(out, values[i]);
                next = i + 1;
            }
        }
    } else if (best == rleBytes) {
        out.push_back(static_cast<char>(Encoding::RunLength));
        putVarint(out, n);
        for (std::size_t i = 0; i < n;) {
            std::size_t j = i + 1;
            while (j < n && values[j] == values[i])
                ++j;
            putVarint(out, j - i);
            putVarint(out, values[i]);
            i = j;
        }
    } else if (maxValue > 0xffffffffu) {
        out.push_back(static_cast<char>(Encoding::Packed64));
        putVarint(out, n);
        const std::size_t at = out.size();
        out.resize(at + n * 8);
        std::memcpy(out.data() + at, values.data(), n * 8); // little-endian host (x86-64, aarch64)
    } else {
        out.push_back(static_cast<char>(Encoding::Packed32));
        putVarint(out, n);
        const std::size_t at = out.size();
        out.resize(at + n * 4);
        char* dst = out.data() + at;
        for (std::size_t i = 0; i < n; ++i) {
            const auto v = static_cast<std::uint32_t>(values[i]);
            std::memcpy(dst + i * 4, &v, 4);
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
