// GCL's and PopLibs' cross-replica collectives against host references: every collective with
// 2, 4 and 8 replicas, FLOAT and HALF (BOOL for the logical operators), odd sizes.
#include "ReplicationHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <gcl/Collectives.hpp>
#include <popops/Collectives.hpp>
#include <tilescope/capture/ProfileRecords.hpp>
#include <tilescope/sim/CostModel.hpp>

using namespace replicationtest;
using gcl::CollectiveOperator;

namespace {

/// Replica r's data: small integers (exact in HALF), different per replica.
std::vector<std::vector<double>> replicaData(unsigned replicas, std::size_t n, int lo, int hi) {
    std::vector<std::vector<double>> data(replicas, std::vector<double>(n));
    for (unsigned r = 0; r < replicas; ++r)
        for (std::size_t i = 0; i < n; ++i)
            data[r][i] = lo + static_cast<int>((i * 7 + r * 13 + i * r * 3) % (hi - lo + 1));
    return data;
}

double reduce(CollectiveOperator op, const std::vector<std::vector<double>>& data, std::size_t i,
              unsigned replica) {
    double acc = op == CollectiveOperator::SQUARE_ADD ? data[0][i] * data[0][i] : data[0][i];
    for (std::size_t r = 1; r < data.size(); ++r) {
        const double x = data[r][i];
        switch (op) {
        case CollectiveOperator::ADD:
        case CollectiveOperator::MEAN:
            acc += x;
            break;
        case CollectiveOperator::SQUARE_ADD:
            acc += x * x;
            break;
        case CollectiveOperator::MUL:
            acc *= x;
            break;
        case CollectiveOperator::MIN:
            acc = std::min(acc, x);
            break;
        case CollectiveOperator::MAX:
            acc = std::max(acc, x);
            break;
        case CollectiveOperator::LOGICAL_AND:
            acc = (acc != 0 && x != 0) ? 1 : 0;
            break;
        case CollectiveOperator::LOGICAL_OR:
            acc = (acc != 0 || x != 0) ? 1 : 0;
            break;
        case CollectiveOperator::LOCAL:
            return data[replica][i];
        }
    }
    return op == CollectiveOperator::MEAN ? acc / data.size() : acc;
}

void checkClose(const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i);
        REQUIRE(got[i] == Approx(want[i]).margin(1e-6));
    }
}

} // namespace

TEST_CASE("allReduceCrossReplica equals the host reduction for every operator", "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    const auto type = GENERATE(poplar::FLOAT, poplar::HALF);
    const auto op =
        GENERATE(CollectiveOperator::ADD, CollectiveOperator::MEAN, CollectiveOperator::MUL,
                 CollectiveOperator::MIN, CollectiveOperator::MAX, CollectiveOperator::SQUARE_ADD,
                 CollectiveOperator::LOCAL);
    const std::size_t n = 37; // odd: fragments of the ring are uneven
    INFO(replicas << " replicas, " << type.toString() << ", operator " << int(op));
    Replicated h(replicas);
    const int lo = op == CollectiveOperator::MUL ? -2 : -8;
    const int hi = op == CollectiveOperator::MUL ? 2 : 8;
    const auto data = replicaData(replicas, n, lo, hi);
    auto x = h.input(type, {n}, data, "x");
    auto y = gcl::allReduceCrossReplica(h.graph, x, op, h.prog, "allReduce");
    REQUIRE(y.shape() == x.shape());
    h.output(y, "y");
    const auto out = h.run();
    for (unsigned r = 0; r < replicas; ++r) {
        std::vector<double> want(n);
        for (std::size_t i = 0; i < n; ++i)
            want[i] = reduce(op, data, i, r);
        INFO("replica " << r);
        checkClose(out.at("y")[r], want);
    }
}

TEST_CASE("logical all-reduces combine BOOL data across replicas", "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    const auto op = GENERATE(CollectiveOperator::LOGICAL_AND, CollectiveOperator::LOGICAL_OR);
    const std::size_t n = 13;
    Replicated h(replicas);
    const auto data = replicaData(replicas, n, 0, 1);
    auto x = h.input(poplar::BOOL, {n}, data, "x");
    auto y = gcl::allReduceCrossReplica(h.graph, x, op, h.prog);
    h.output(y, "y");
    const auto out = h.run();
    for (unsigned r = 0; r < replicas; ++r) {
        std::vector<double> want(n);
        for (std::size_t i = 0; i < n; ++i)
            want[i] = reduce(op, data, i, r);
        checkClose(out.at("y")[r], want);
    }
}

TEST_CASE("in-place and to-destination all-reduces and popops::replicatedAllReduce agree",
          "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    const std::size_t rows = 3, cols = 7;
    Replicated h(replicas);
    const auto data = replicaData(replicas, rows * cols, -5, 5);
    auto a = h.input(poplar::FLOAT, {rows, cols}, data, "a");
    auto b = h.input(poplar::HALF, {rows, cols}, data, "b");
    auto c = h.input(poplar::FLOAT, {rows, cols}, data, "c");
    gcl::allReduceInPlaceCrossReplica(h.graph, a, CollectiveOperator::ADD, h.prog);
    auto viaPopops = popops::replicatedAllReduce(h.graph, b, popops::CollectiveOperator::ADD,
                                                 h.prog, "popopsAllReduce");
    auto dest = h.graph.clone(c, "dest");
    gcl::allReduceToDestinationCrossReplica(h.graph, c, dest, CollectiveOperator::MAX, h.prog);
    h.output(a, "a");
    h.output(viaPopops, "b");
    h.output(dest, "dest");
    const auto out = h.run();
    for (unsigned r = 0; r < replicas; ++r) {
        std::vector<double> sum(rows * cols), max(rows * cols);
        for (std::size_t i = 0; i < sum.size(); ++i) {
            sum[i] = reduce(CollectiveOperator::ADD, data, i, r);
            max[i] = reduce(CollectiveOperator::MAX, data, i, r);
        }
        checkClose(out.at("a")[r], sum);
        checkClose(out.at("b")[r], sum);
        checkClose(out.at("dest")[r], max);
    }
}

TEST_CASE("reduceScatterCrossReplica gives replica r part r of the reduction", "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    const auto type = GENERATE(poplar::FLOAT, poplar::HALF);
    const std::size_t n = 29; // not a multiple of any replica count: the last part is padded
    Replicated h(replicas);
    const auto data = replicaData(replicas, n, -8, 8);
    auto x = h.input(type, {n}, data, "x");
    auto y = gcl::reduceScatterCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog);
    const std::size_t part = (n + replicas - 1) / replicas;
    REQUIRE(y.shape() == std::vector<std::size_t>{part});
    h.output(y, "y");
    const auto out = h.run();
    for (unsigned r = 0; r < replicas; ++r) {
        std::vector<double> want(part, 0.0);
        for (std::size_t i = 0; i < part && r * part + i < n; ++i)
            want[i] = reduce(CollectiveOperator::ADD, data, r * part + i, r);
        INFO("replica " << r);
        checkClose(out.at("y")[r], want);
    }
}

TEST_CASE("allGatherCrossReplica gives every replica every replica's data", "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    const auto type = GENERATE(poplar::FLOAT, poplar::HALF);
    const std::size_t rows = 3, cols = 5;
    Replicated h(replicas);
    const auto data = replicaData(replicas, rows * cols, -8, 8);
    auto x = h.input(type, {rows, cols}, data, "x");
    auto y = gcl::allGatherCrossReplica(h.graph, x, h.prog);
    REQUIRE(y.shape() == std::vector<std::size_t>{replicas, rows, cols});
    auto z = popops::replicatedAllGather(h.graph, x, h.prog);
    h.output(y, "y");
    h.output(z, "z");
    const auto out = h.run();
    std::vector<double> want;
    for (const auto& d : data)
        want.insert(want.end(), d.begin(), d.end());
    for (unsigned r = 0; r < replicas; ++r) {
        checkClose(out.at("y")[r], want);
        checkClose(out.at("z")[r], want);
    }
}

TEST_CASE("several tensors of different types all-reduce at once", "[replication]") {
    Replicated h(4);
    const auto data = replicaData(4, 11, -3, 3);
    auto a = h.input(poplar::FLOAT, {11}, data, "a");
    auto b = h.input(poplar::HALF, {11}, data, "b");
    auto outs = gcl::allReduceCrossReplica(h.graph, std::vector<poplar::Tensor>{a, b},
                                           CollectiveOperator::ADD, h.prog);
    REQUIRE(outs.size() == 2);
    h.output(outs[0], "a");
    h.output(outs[1], "b");
    const auto out = h.run();
    std::vector<double> want(11);
    for (std::size_t i = 0; i < 11; ++i)
        want[i] = reduce(CollectiveOperator::ADD, data, i, 0);
    for (unsigned r = 0; r < 4; ++r) {
        checkClose(out.at("a")[r], want);
        checkClose(out.at("b")[r], want);
    }
}

TEST_CASE("a collective's steps are the ring's syncs, IPU-Link exchanges and reductions",
          "[replication]") {
    const unsigned replicas = 4;
    Replicated h(replicas);
    auto x = h.input(poplar::FLOAT, {1000}, replicaData(replicas, 1000, -8, 8), "x");
    gcl::allReduceInPlaceCrossReplica(h.graph, x, CollectiveOperator::ADD, h.prog, "ring");
    poplar::Engine engine(h.graph, h.prog);
    const auto& records = engine.compileRecords();
    CHECK(records.target.replicas == replicas);
    CHECK(records.target.numIpus == 1);
    std::size_t syncs = 0, links = 0, reduces = 0;
    std::uint64_t linkCycles = 0;
    for (const auto& s : records.steps) {
        if (s.name.rfind("ring/", 0) != 0)
            continue;
        if (s.kind == tilescope::capture::StepKind::Sync)
            ++syncs;
        if (s.kind == tilescope::capture::StepKind::GlobalExchange) {
            ++links;
            linkCycles =
                *std::max_element(s.estimatedCyclesPerTile.begin(), s.estimatedCyclesPerTile.end());
        }
        if (s.kind == tilescope::capture::StepKind::OnTileExecute)
            ++reduces;
    }
    // Reduce-scatter and all-gather each take replicas - 1 steps round the ring.
    CHECK(syncs == 2 * (replicas - 1));
    CHECK(links == 2 * (replicas - 1));
    CHECK(reduces == replicas - 1);
    // Each step moves a quarter of the 4,000 bytes over one 32 GB/s IPU-Link at 1.33 GHz:
    // 1,000 bytes take ceil(1000 / 32e9 * 1.33e9) = 42 cycles after the link's fixed cost.
    tilescope::sim::CostModel costs;
    CHECK(linkCycles == costs.exchangeOverheadCycles + costs.globalExchangeLatencyCycles + 42);
}
