// alignSequences: every position once and in order, only equal keys matched, an optimal result
// where the exact method applies, and the expected result on long repetitive sequences with
// known edits (where the anchored method applies).

#include "tilescope/report/SequenceAlignment.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

using namespace tilescope::report;
using Keys = std::vector<std::int32_t>;

namespace {

/// Checks the alignment is well formed; returns the number of matched pairs.
std::size_t checkAlignment(const Keys& a, const Keys& b, const std::vector<AlignedPair>& pairs) {
    std::size_t nextA = 0, nextB = 0, matched = 0;
    for (const auto& p : pairs) {
        REQUIRE((p.source || p.target));
        if (p.source) {
            REQUIRE(*p.source == nextA);
            ++nextA;
        }
        if (p.target) {
            REQUIRE(*p.target == nextB);
            ++nextB;
        }
        if (p.source && p.target) {
            REQUIRE(a[*p.source] == b[*p.target]);
            ++matched;
        }
    }
    REQUIRE(nextA == a.size());
    REQUIRE(nextB == b.size());
    return matched;
}

std::size_t lcsLength(const Keys& a, const Keys& b) {
    std::vector<std::size_t> row(b.size() + 1, 0), prev(b.size() + 1, 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j)
            row[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], row[j - 1]);
        std::swap(row, prev);
    }
    return prev[b.size()];
}

Keys loop(std::int32_t bodyLength, std::size_t iterations) {
    Keys k;
    for (std::size_t i = 0; i < iterations; ++i)
        for (std::int32_t s = 0; s < bodyLength; ++s)
            k.push_back(s);
    return k;
}

} // namespace

TEST_CASE("identical, empty and disjoint sequences") {
    const Keys a{1, 2, 3, 2, 1};
    CHECK(checkAlignment(a, a, alignSequences(a, a)) == a.size());
    CHECK(alignSequences({}, {}).empty());
    const auto added = alignSequences({}, a);
    CHECK(checkAlignment({}, a, added) == 0);
    CHECK(added.size() == a.size());
    const Keys b{7, 8};
    const auto disjoint = alignSequences(a, b);
    CHECK(checkAlignment(a, b, disjoint) == 0);
    CHECK(disjoint.size() == 7);
    // Removed items come before added ones within a gap.
    CHECK(disjoint.front().source);
    CHECK(disjoint.back().target);
}

TEST_CASE("small sequences get a longest common subsequence") {
    const Keys a{0, 1, 2, 0, 1, 1, 0}, b{2, 1, 0, 1, 0, 2};
    CHECK(checkAlignment(a, b, alignSequences(a, b)) == lcsLength(a, b));
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        Keys x(rng() % 40), y(rng() % 40);
        for (auto& k : x)
            k = static_cast<std::int32_t>(rng() % 4);
        for (auto& k : y)
            k = static_cast<std::int32_t>(rng() % 4);
        CHECK(checkAlignment(x, y, alignSequences(x, y)) == lcsLength(x, y));
    }
}

TEST_CASE("long loops with known edits align as a person would") {
    // 4000 iterations of a 50-step body: 200,000 executed steps, no key unique.
    const Keys source = loop(50, 4000);

    SECTION("one more iteration") {
        const Keys target = loop(50, 4001);
        const auto pairs = alignSequences(source, target);
        CHECK(checkAlignment(source, target, pairs) == source.size());
        CHECK(pairs.size() == target.size());
    }
    SECTION("a step inserted in every iteration") {
        Keys target;
        for (std::size_t i = 0; i < 4000; ++i)
            for (std::int32_t s = 0; s < 50; ++s) {
                target.push_back(s);
                if (s == 20)
                    target.push_back(99);
            }
        const auto pairs = alignSequences(source, target);
        CHECK(checkAlignment(source, target, pairs) == source.size());
        CHECK(pairs.size() == target.size());
    }
    SECTION("a step removed in one iteration and another replaced") {
        Keys target = source;
        target.erase(target.begin() + 50 * 1234 + 7);
        target[50 * 3000 + 9] = 77;
        const auto pairs = alignSequences(source, target);
        CHECK(checkAlignment(source, target, pairs) == source.size() - 2);
    }
    SECTION("an extra step kind in the middle, with a unique key") {
        Keys target = source;
        target.insert(target.begin() + 100'000, 1000);
        const auto pairs = alignSequences(source, target);
        CHECK(checkAlignment(source, target, pairs) == source.size());
    }
}
