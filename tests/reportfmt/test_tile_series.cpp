// TileSeries: the per-tile blob codec. Every encoding must be chosen when it is the smallest,
// every blob must decode to what was encoded, and damaged or forged blobs must raise ReportError
// (never crash, never allocate without bound).

#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <catch2/catch.hpp>
#include <random>

using tilescope::report::ReportError;
using tilescope::report::TileSeries;
using Values = std::vector<std::uint64_t>;
using Encoding = TileSeries::Encoding;

namespace {

Encoding tagOf(const std::string& blob) {
    REQUIRE(!blob.empty());
    return static_cast<Encoding>(static_cast<unsigned char>(blob[0]));
}

Values decode(const std::string& blob) {
    return TileSeries::decode(blob.data(), blob.size());
}

std::string bytes(std::initializer_list<unsigned> b) {
    std::string s;
    for (unsigned x : b)
        s.push_back(static_cast<char>(x));
    return s;
}

/// Random vectors shaped like real per-tile data: constant, sparse, small, wide and mixed.
Values randomValues(std::mt19937_64& rng) {
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 3000)(rng);
    Values v(n);
    switch (rng() % 5) {
    case 0:
        std::fill(v.begin(), v.end(), rng() % 1000);
        break;
    case 1:
        for (auto& x : v)
            x = rng() % 50 == 0 ? rng() : 0;
        break;
    case 2:
        for (auto& x : v)
            x = rng() % 70000;
        break;
    case 3:
        for (auto& x : v)
            x = rng();
        break;
    default:
        for (std::size_t i = 0; i < n; ++i)
            v[i] = (i / (1 + rng() % 64)) % 3 == 0 ? 0 : rng() % 4096;
    }
    return v;
}

} // namespace

TEST_CASE("each encoding is chosen when it is the smallest") {
    SECTION("equal values use run length") {
        const Values v(1472, 123456);
        const auto blob = TileSeries::encode(v);
        CHECK(tagOf(blob) == Encoding::RunLength);
        CHECK(blob.size() < 10);
        CHECK(decode(blob) == v);
    }
    SECTION("mostly zeros use sparse") {
        Values v(23552, 0);
        v[0] = 7;
        v[100] = 1u << 20;
        v[23551] = 3;
        const auto blob = TileSeries::encode(v);
        CHECK(tagOf(blob) == Encoding::Sparse);
        CHECK(decode(blob) == v);
    }
    SECTION("distinct 32-bit values are packed in 4 bytes") {
        Values v(1000);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = 0x80000000u + i * 7919;
        const auto blob = TileSeries::encode(v);
        CHECK(tagOf(blob) == Encoding::Packed32);
        CHECK(blob.size() == 1 + 2 + 4 * v.size());
        CHECK(decode(blob) == v);
    }
    SECTION("values over 32 bits are packed in 8 bytes") {
        Values v(100);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = (std::uint64_t{1} << 63) + i * 0x123456789ull;
        const auto blob = TileSeries::encode(v);
        CHECK(tagOf(blob) == Encoding::Packed64);
        CHECK(blob.size() == 1 + 1 + 8 * v.size());
        CHECK(decode(blob) == v);
    }
    SECTION("an empty series round-trips") {
        const auto blob = TileSeries::encode(Values{});
        CHECK(TileSeries::count(blob.data(), blob.size()) == 0);
        CHECK(decode(blob).empty());
    }
}

TEST_CASE("random vectors round-trip through every entry point") {
    std::mt19937_64 rng(20261121);
    for (int i = 0; i < 500; ++i) {
        const Values v = randomValues(rng);
        const auto blob = TileSeries::encode(v);
        REQUIRE(decode(blob) == v);
        REQUIRE(TileSeries::count(blob.data(), blob.size()) == v.size());

        // The appending form leaves what the buffer held before and writes the same bytes.
        std::string buffer = "prefix";
        TileSeries::encode(v, buffer);
        REQUIRE(buffer == "prefix" + blob);

        Values acc(v.size(), 1);
        TileSeries::accumulate(blob.data(), blob.size(), acc);
        for (std::size_t k = 0; k < v.size(); ++k)
            REQUIRE(acc[k] == v[k] + 1);

        // No form is larger than plain 8-byte packing plus the header.
        REQUIRE(blob.size() <= 1 + 10 + 8 * v.size());
    }
}

TEST_CASE("runs encode to the run-length form with zero runs skipped and neighbours merged") {
    const TileSeries::Run runs[] = {{2, 5}, {0, 9}, {3, 5}, {4, 0}, {1, std::uint64_t{1} << 40}};
    const auto blob = TileSeries::encodeRuns(runs);
    CHECK(tagOf(blob) == Encoding::RunLength);
    Values expected = {5, 5, 5, 5, 5, 0, 0, 0, 0, 1ull << 40};
    CHECK(decode(blob) == expected);
    // Merged into three runs: (5 x 5), (4 x 0), (1 x 2^40).
    CHECK(blob.size() == 1 + 1 + (1 + 1) + (1 + 1) + (1 + 6));
}

TEST_CASE("damaged blobs are rejected with ReportError") {
    SECTION("too short, or no data at all") {
        CHECK_THROWS_AS(TileSeries::decode(nullptr, 0), ReportError);
        CHECK_THROWS_AS(decode(""), ReportError);
        CHECK_THROWS_AS(decode(bytes({1})), ReportError);
    }
    SECTION("unknown encoding tags") {
        for (unsigned tag : {0u, 5u, 0x7fu, 0xffu})
            CHECK_THROWS_AS(decode(bytes({tag, 1, 0, 0, 0, 0})), ReportError);
    }
    SECTION("packed payload of the wrong size") {
        CHECK_THROWS_AS(decode(bytes({1, 2, 1, 0, 0, 0})), ReportError);          // 1 of 2
        CHECK_THROWS_AS(decode(bytes({1, 1, 1, 0, 0, 0, 0})), ReportError);       // one extra
        CHECK_THROWS_AS(decode(bytes({2, 1, 1, 0, 0, 0, 0, 0, 0})), ReportError); // 7 of 8
    }
    SECTION("run-length runs that are empty, overflow or fall short") {
        CHECK_THROWS_AS(decode(bytes({3, 2, 0, 5, 2, 5})), ReportError); // zero-length run
        CHECK_THROWS_AS(decode(bytes({3, 2, 3, 5})), ReportError);       // 3 elements of 2
        CHECK_THROWS_AS(decode(bytes({3, 4, 3, 5})), ReportError);       // 3 of 4
        CHECK_THROWS_AS(decode(bytes({3, 4, 4})), ReportError);          // value missing
    }
    SECTION("sparse indexes beyond the count") {
        CHECK_THROWS_AS(decode(bytes({4, 3, 3, 1})), ReportError);
        CHECK_THROWS_AS(decode(bytes({4, 3, 1, 1, 1, 1})), ReportError);
        CHECK(decode(bytes({4, 3, 1, 9, 0, 8})) == Values{0, 9, 8});
    }
    SECTION("varints that never end") {
        CHECK_THROWS_AS(decode(bytes({1, 0x80, 0x80})), ReportError);
        CHECK_THROWS_AS(
            decode(bytes({3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})),
            ReportError);
    }
    SECTION("every truncation of a packed or run-length blob") {
        Values v(300);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = i / 7 * 1000;
        for (const auto& blob : {TileSeries::encode(v), TileSeries::encode(Values(300, 9))}) {
            REQUIRE((tagOf(blob) == Encoding::RunLength || tagOf(blob) == Encoding::Packed32));
            for (std::size_t n = 0; n < blob.size(); ++n)
                REQUIRE_THROWS_AS(TileSeries::decode(blob.data(), n), ReportError);
        }
    }
    SECTION("accumulating into a vector of another length") {
        const auto blob = TileSeries::encode(Values(16, 1));
        Values acc(15, 0);
        CHECK_THROWS_AS(TileSeries::accumulate(blob.data(), blob.size(), acc), ReportError);
    }
}

TEST_CASE("forged element counts are refused before any allocation") {
    // Packed32 claiming 2^40 elements, and 2^63, with a 4-byte payload.
    CHECK_THROWS_AS(decode(bytes({1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 1, 0, 0, 0})),
                    ReportError);
    CHECK_THROWS_AS(
        decode(bytes({3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 1, 1})),
        ReportError);
    CHECK_THROWS_AS(TileSeries::count(bytes({3, 0xff, 0xff, 0xff, 0xff, 0x7f}).data(), 6),
                    ReportError);
    // Largest admitted count with a payload that cannot hold it.
    CHECK_THROWS_AS(decode(bytes({1, 0x80, 0x80, 0x80, 0x20, 1, 2, 3, 4})), ReportError);
}

TEST_CASE("random damage never escapes as anything but ReportError") {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 3000; ++i) {
        const Values v = randomValues(rng);
        std::string blob = TileSeries::encode(v);
        const int flips = 1 + static_cast<int>(rng() % 4);
        for (int f = 0; f < flips; ++f)
            blob[rng() % blob.size()] ^= static_cast<char>(1u << (rng() % 8));
        try {
            const Values out = decode(blob);
            REQUIRE(out.size() == TileSeries::count(blob.data(), blob.size()));
        } catch (const ReportError& e) {
            REQUIRE(std::string(e.what()).find("damaged per-tile series") != std::string::npos);
        }
    }
}
