// GCL's communication groups and all-to-all against host references: every collective within
// CONSECUTIVE (with and without a stride) and ORTHOGONAL groups of 2, 4 and 8 replicas, the
// all-to-all over every replica and within groups, and the groups GCL refuses.
#include "ReplicationHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <gcl/Collectives.hpp>
#include <poplar/exceptions.hpp>
#include <popops/Collectives.hpp>
#include <tilescope/capture/ProfileRecords.hpp>

using namespace replicationtest;
using gcl::CollectiveOperator;
using gcl::CommGroup;
using gcl::CommGroupType;

namespace {

/// Replica r's data: small integers (exact in HALF), different per replica.
std::vector<std::vector<double>> replicaData(unsigned replicas, std::size_t n) {
    std::vector<std::vector<double>> data(replicas, std::vector<double>(n));
    for (unsigned r = 0; r < replicas; ++r)
        for (std::size_t i = 0; i < n; ++i)
            data[r][i] = static_cast<int>((i * 5 + r * 11 + i * r) % 17) - 8;
    return data;
}

/// The replicas of replica r's group in rank order, from GCL's and PopART's published
/// descriptions of the group types (not from the simulator's own grouping).
std::vector<unsigned> groupOf(const CommGroup& g, unsigned replicas, unsigned r) {
    std::vector<unsigned> members;
    for (unsigned q = 0; q < replicas; ++q) {
        bool same = true;
        if (g.type == CommGroupType::CONSECUTIVE) {
            const unsigned span = g.replicaGroupSize * g.replicaGroupStride;
            same = q / span == r / span && q % g.replicaGroupStride == r % g.replicaGroupStride;
        } else if (g.type == CommGroupType::ORTHOGONAL) {
            const unsigned groups = replicas / g.replicaGroupSize; // {0, m, 2m...}: m groups
            same = q % groups == r % groups;
        }
        if (same)
            members.push_back(q);
    }
    return members;
}

void checkClose(const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i);
        REQUIRE(got[i] == Approx(want[i]).margin(1e-6));
    }
}

/// The message of the poplar_error `f` throws ("no error" when it throws none).
template <typename F> std::string poplarError(F&& f) {
    try {
        f();
    } catch (const poplar::poplar_error& e) {
        return e.what();
    }
    return "no error";
}

std::string describe(const CommGroup& g) {
    const char* type = g.type == CommGroupType::ALL           ? "ALL"
                       : g.type == CommGroupType::CONSECUTIVE ? "CONSECUTIVE"
                                                              : "ORTHOGONAL";
    return std::string(type) + " " + std::to_string(g.replicaGroupSize) + " stride " +
           std::to_string(g.replicaGroupStride);
}

/// The groups tried for a replica count: every type and size that divides it.
std::vector<CommGroup> groupsFor(unsigned replicas) {
    std::vector<CommGroup> groups{CommGroup(CommGroupType::ALL, 0)};
    for (unsigned k = 1; k <= replicas; k *= 2) {
        groups.emplace_back(CommGroupType::CONSECUTIVE, k);
        groups.emplace_back(CommGroupType::ORTHOGONAL, k);
        for (unsigned s = 2; k * s <= replicas; s *= 2)
            groups.emplace_back(CommGroupType::CONSECUTIVE, k, s);
    }
    return groups;
}

} // namespace

TEST_CASE("collectives within communication groups equal the host's per group", "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    const auto type = GENERATE(poplar::FLOAT, poplar::HALF);
    const std::size_t n = 13; // odd: reduce-scatter parts are padded
    const auto data = replicaData(replicas, n);
    for (const auto& g : groupsFor(replicas)) {
        INFO(replicas << " replicas, " << type.toString() << ", group " << describe(g));
        Replicated h(replicas);
        auto x = h.input(type, {n}, data, "x");
        auto sum = gcl::allReduceCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog, g);
        auto max = gcl::allReduceCrossReplica(h.graph, x, CollectiveOperator::MAX, h.prog, g);
        auto scattered =
            gcl::reduceScatterCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog, g);
        auto gathered = gcl::allGatherCrossReplica(h.graph, x, h.prog, g);
        const unsigned k = static_cast<unsigned>(groupOf(g, replicas, 0).size());
        const std::size_t part = (n + k - 1) / k;
        REQUIRE(scattered.shape() == std::vector<std::size_t>{part});
        REQUIRE(gathered.shape() == std::vector<std::size_t>{k, n});
        h.output(sum, "sum");
        h.output(max, "max");
        h.output(scattered, "scattered");
        h.output(gathered, "gathered");
        const auto out = h.run();
        for (unsigned r = 0; r < replicas; ++r) {
            INFO("replica " << r);
            const auto members = groupOf(g, replicas, r);
            REQUIRE(members.size() == k);
            const auto rank = static_cast<std::size_t>(
                std::find(members.begin(), members.end(), r) - members.begin());
            std::vector<double> wantSum(n, 0.0), wantMax(n, -1e9), wantGather;
            for (unsigned q : members) {
                for (std::size_t i = 0; i < n; ++i) {
                    wantSum[i] += data[q][i];
                    wantMax[i] = std::max(wantMax[i], data[q][i]);
                }
                wantGather.insert(wantGather.end(), data[q].begin(), data[q].end());
            }
            std::vector<double> wantPart(part, 0.0);
            for (std::size_t i = 0; i < part && rank * part + i < n; ++i)
                wantPart[i] = wantSum[rank * part + i];
            checkClose(out.at("sum")[r], wantSum);
            checkClose(out.at("max")[r], wantMax);
            checkClose(out.at("scattered")[r], wantPart);
            checkClose(out.at("gathered")[r], wantGather);
        }
    }
}

TEST_CASE("allToAllCrossReplica gives slice i of rank j rank i's slice j", "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    const auto type = GENERATE(poplar::FLOAT, poplar::HALF, poplar::INT);
    const std::size_t cols = 3;
    for (const auto& g : groupsFor(replicas)) {
        const unsigned k = static_cast<unsigned>(groupOf(g, replicas, 0).size());
        INFO(replicas << " replicas, " << type.toString() << ", group " << describe(g));
        Replicated h(replicas);
        const auto data = replicaData(replicas, k * cols);
        auto x = h.input(type, {k, cols}, data, "x");
        auto y = gcl::allToAllCrossReplica(h.graph, x, h.prog, g, "exchange");
        REQUIRE(y.shape() == x.shape());
        h.output(y, "y");
        const auto out = h.run();
        for (unsigned r = 0; r < replicas; ++r) {
            INFO("replica " << r);
            const auto members = groupOf(g, replicas, r);
            const auto rank = static_cast<std::size_t>(
                std::find(members.begin(), members.end(), r) - members.begin());
            std::vector<double> want;
            for (unsigned from : members)
                want.insert(want.end(), data[from].begin() + rank * cols,
                            data[from].begin() + (rank + 1) * cols);
            checkClose(out.at("y")[r], want);
        }
    }
}

TEST_CASE("popops::allToAllPersonalizedExchange exchanges slices between every replica",
          "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    Replicated h(replicas);
    const auto data = replicaData(replicas, replicas);
    auto x = h.input(poplar::FLOAT, {replicas}, data, "x");
    auto y = popops::allToAllPersonalizedExchange(h.graph, x, h.prog);
    h.output(y, "y");
    const auto out = h.run();
    for (unsigned r = 0; r < replicas; ++r) {
        std::vector<double> want;
        for (unsigned from = 0; from < replicas; ++from)
            want.push_back(data[from][r]);
        checkClose(out.at("y")[r], want);
    }
}

TEST_CASE("a group's ring has the group's steps, an all-to-all is GCL's drop-off ring",
          "[replication]") {
    const unsigned replicas = 8;
    Replicated h(replicas);
    auto x = h.input(poplar::FLOAT, {8, 100}, replicaData(replicas, 800), "x");
    gcl::allReduceInPlaceCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog,
                                      CommGroup(CommGroupType::CONSECUTIVE, 2), "pairs");
    gcl::allReduceInPlaceCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog,
                                      CommGroup(CommGroupType::ORTHOGONAL, 4), "quads");
    gcl::allToAllCrossReplica(h.graph, x, h.prog, "exchange");
    poplar::Engine engine(h.graph, h.prog);
    std::map<std::string, std::vector<std::uint64_t>> exchangeBytes; // per ring step
    for (const auto& s : engine.compileRecords().steps)
        if (s.kind == tilescope::capture::StepKind::GlobalExchange) {
            const auto prefix = s.name.substr(0, s.name.find('/'));
            std::uint64_t bytes = 0;
            for (auto b : s.exchangeBytesPerTile)
                bytes += b;
            exchangeBytes[prefix].push_back(bytes);
        }
    // Reduce-scatter and all-gather round a ring of the group's size: 2 (k - 1) steps, each a
    // fragment of 1/k of the 3,200 bytes.
    CHECK(exchangeBytes["pairs"] == std::vector<std::uint64_t>(2, 1600));
    CHECK(exchangeBytes["quads"] == std::vector<std::uint64_t>(6, 800));
    // All-to-all over 8: step s carries the 8 - s blocks (of 400 bytes) still on their way.
    std::vector<std::uint64_t> dropOff;
    for (unsigned s = 1; s < replicas; ++s)
        dropOff.push_back((replicas - s) * 400);
    CHECK(exchangeBytes["exchange"] == dropOff);
}

TEST_CASE("communication groups that do not cut the replicas evenly are refused", "[replication]") {
    Replicated h(4);
    auto x = h.input(poplar::FLOAT, {4}, replicaData(4, 4), "x");
    auto refuses = [&](const CommGroup& g, const std::string& words) {
        INFO(describe(g));
        CHECK_THAT(poplarError([&] {
                       gcl::allReduceCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog, g);
                   }),
                   Catch::Matchers::Contains(words));
    };
    refuses(CommGroup(CommGroupType::CONSECUTIVE, 0), "at least one replica");
    refuses(CommGroup(CommGroupType::ORTHOGONAL, 0), "at least one replica");
    refuses(CommGroup(CommGroupType::CONSECUTIVE, 3), "do not divide the 4 replicas");
    refuses(CommGroup(CommGroupType::CONSECUTIVE, 8), "do not divide the 4 replicas");
    refuses(CommGroup(CommGroupType::CONSECUTIVE, 2, 4), "do not divide the 4 replicas");
    refuses(CommGroup(CommGroupType::ORTHOGONAL, 3), "does not divide the replicas");
    refuses(CommGroup(CommGroupType::ORTHOGONAL, 2, 2), "ORTHOGONAL groups take no stride");
    CHECK_THAT(poplarError([&] {
                   gcl::allReduceCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog,
                                              CommGroup(CommGroupType::CONSECUTIVE, 3));
               }),
               Catch::Matchers::Contains("gcl::allReduceCrossReplica: a CONSECUTIVE communication "
                                         "group of 3 replicas over 4 replicas"));
    // An all-to-all needs one slice per member of the group.
    CHECK_THAT(poplarError([&] {
                   gcl::allToAllCrossReplica(h.graph, x.reshape({2, 2}), h.prog);
               }),
               Catch::Matchers::Contains("needs a first dimension of 4"));
    CHECK_THAT(poplarError([&] {
                   popops::allToAllPersonalizedExchange(h.graph, x.reshape({1, 4}), h.prog);
               }),
               Catch::Matchers::Contains("needs a first dimension of 4"));
}
