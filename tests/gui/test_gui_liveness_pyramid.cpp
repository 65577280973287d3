// LivenessGroupSeries' min/max pyramid and windows on series small enough to check by hand.
#include "liveness/LivenessGroupSeries.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

using namespace tilescope::gui;

namespace {

/// Lowest and highest of v[first..last], by brute force.
std::pair<double, double> bruteRange(const std::vector<std::uint64_t>& v, std::int64_t first,
                                     std::int64_t last) {
    const auto [lo, hi] = std::minmax_element(v.begin() + first, v.begin() + last + 1);
    return {double(*lo), double(*hi)};
}

} // namespace

TEST_CASE("The group series pyramid holds each bucket's lowest and highest step") {
    const std::vector<std::uint64_t> a{5, 1, 7, 3, 2, 9, 4, 4, 0, 6};
    const std::vector<std::uint64_t> b{0, 0, 0, 0, 0, 0, 0, 0, 0, 100};
    const auto s = LivenessGroupSeries::fromSteps(
        {QStringLiteral("IPU 0"), QStringLiteral("IPU 1")}, {10, 20}, {a, b});
    REQUIRE(s.groups() == 2);
    REQUIRE(s.stepCount() == 10);
    REQUIRE(s.peakTotal() == 120); // IPU 1: 20 always-live + 100 at the last step
    // Level 0: buckets of 4 steps (the last one short); level 1: one bucket of 16.
    REQUIRE(LivenessGroupSeries::bucketSteps(0) == 4);
    REQUIRE(LivenessGroupSeries::bucketSteps(1) == 16);
    REQUIRE(s.levels() == 2);
    using B = LivenessGroupSeries::Bucket;
    REQUIRE(s.bucket(0, 0, 0) == B{1, 7});
    REQUIRE(s.bucket(0, 0, 1) == B{2, 9});
    REQUIRE(s.bucket(0, 0, 2) == B{0, 6});
    REQUIRE(s.bucket(1, 0, 0) == B{0, 9});
    REQUIRE(s.bucket(0, 1, 1) == B{0, 0});
    REQUIRE(s.bucket(0, 1, 2) == B{0, 100});
    REQUIRE(s.bucket(1, 1, 0) == B{0, 100});

    // Exact ranges, across bucket edges and within one.
    REQUIRE(s.range(0, 1, 6).minNotAlwaysLive == 1);
    REQUIRE(s.range(0, 1, 6).maxNotAlwaysLive == 9);
    REQUIRE(s.range(0, 6, 7).minNotAlwaysLive == 4);
    REQUIRE(s.range(0, 6, 7).maxNotAlwaysLive == 4);
    REQUIRE(s.range(0, 8, 9).minNotAlwaysLive == 0);
    REQUIRE(s.range(1, 0, 8).maxNotAlwaysLive == 0);
    REQUIRE(s.range(1, 0, 99).maxNotAlwaysLive == 100); // clamped to the steps

    // A column of under two steps reads the steps; from two steps, buckets at most two
    // columns wide.
    REQUIRE(s.levelForColumn(1) == -1);
    REQUIRE(s.levelForColumn(2) == 0);
    REQUIRE(s.levelForColumn(7.9) == 0);
    REQUIRE(s.levelForColumn(8) == 1);
    REQUIRE(s.levelForColumn(1000) == 1); // the coarsest stored

    // Five columns of two steps: level 0 buckets, so each column spans its bucket.
    const auto cols = s.window(0, 10, 5);
    REQUIRE(cols.size() == 5);
    REQUIRE(cols[0].firstStep == 0);
    REQUIRE(cols[0].lastStep == 1);
    REQUIRE(cols[0].minNotAlwaysLive[0] == 1);
    REQUIRE(cols[0].maxNotAlwaysLive[0] == 7);
    REQUIRE(cols[2].maxNotAlwaysLive[0] == 9);
    REQUIRE(cols[4].maxNotAlwaysLive[1] == 100);
    // Zoomed in (one step per column) the columns are the steps.
    const auto steps = s.window(3, 7, 100);
    REQUIRE(steps.size() == 4);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        REQUIRE(steps[i].firstStep == std::int64_t(3 + i));
        REQUIRE(steps[i].maxNotAlwaysLive[0] == double(a[3 + i]));
        REQUIRE(steps[i].minNotAlwaysLive[0] == double(a[3 + i]));
    }
}

TEST_CASE("Group series windows read at most two buckets per column and never hide a peak") {
    std::mt19937_64 random(7);
    std::vector<std::uint64_t> v(100000);
    for (auto& x : v)
        x = random() % 1000000;
    v[61234] = 5000000; // a one-step peak
    const auto s = LivenessGroupSeries::fromSteps({QStringLiteral("tiles")}, {0}, {v});
    for (int width : {37, 500, 1351, 4000}) {
        for (const auto& [first, end] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {0, 100000}, {61000, 62000}, {60000, 61300}, {61230, 61240}}) {
            INFO("width " << width << " steps " << first << "-" << end);
            const auto cols = s.window(first, end, width);
            REQUIRE(cols.size() == std::size_t(std::min<std::int64_t>(width, end - first)));
            const double stepsPerColumn = double(end - first) / double(cols.size());
            const int level = s.levelForColumn(stepsPerColumn);
            if (level >= 0)
                REQUIRE(LivenessGroupSeries::bucketSteps(level) <= 2 * stepsPerColumn);
            // Fewer than two buckets per column (plus the partial ones at its edges).
            if (level + 1 < s.levels())
                REQUIRE(stepsPerColumn /
                            double(level < 0 ? 1 : LivenessGroupSeries::bucketSteps(level)) <
                        2);
            double highest = 0;
            for (const auto& c : cols) {
                // An envelope of the column's own steps...
                const auto [lo, hi] = bruteRange(v, c.firstStep, c.lastStep);
                REQUIRE(c.minNotAlwaysLive[0] <= lo);
                REQUIRE(c.maxNotAlwaysLive[0] >= hi);
                // ...and exact through range().
                REQUIRE(s.range(0, c.firstStep, c.lastStep).minNotAlwaysLive == lo);
                REQUIRE(s.range(0, c.firstStep, c.lastStep).maxNotAlwaysLive == hi);
                highest = std::max(highest, c.maxNotAlwaysLive[0]);
            }
            REQUIRE(highest == bruteRange(v, first, end - 1).second);
        }
    }
}
