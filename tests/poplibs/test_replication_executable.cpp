// An executable of a replicated graph: Executable::serialize keeps the replicas, BROADCAST
// streams, replication index constants and collectives within groups, and the executable read
// back runs like the graph's own Engine; a damaged replication entry is refused.
#include "ReplicationHarness.hpp"

#include <catch2/catch.hpp>
#include <gcl/Collectives.hpp>
#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <sstream>

using namespace replicationtest;

namespace {

/// 4 replicas: x (each its own) plus the replica's index plus b (the same for all), summed
/// within CONSECUTIVE pairs, then exchanged all-to-all over every replica.
struct ReplicatedProgram {
    Replicated h{4};
    std::vector<std::vector<double>> data;

    ReplicatedProgram() {
        for (unsigned r = 0; r < 4; ++r) {
            data.emplace_back();
            for (unsigned i = 0; i < 12; ++i)
                data.back().push_back(r * 10.0 + i);
        }
        auto x = h.input(poplar::FLOAT, {4, 3}, data, "x");
        auto b = h.broadcastInput(poplar::FLOAT, {4, 3}, std::vector<double>(12, 0.5), "b");
        auto index = h.graph.addReplicationIndexConstant("index");
        h.graph.setTileMapping(index, 0);
        auto shift = popops::cast(h.graph, index, poplar::FLOAT, h.prog, "shift");
        auto y = popops::add(h.graph, x, b, h.prog, "y");
        popops::addInPlace(h.graph, y, shift, h.prog, "shifted");
        auto pairs =
            gcl::allReduceCrossReplica(h.graph, y, gcl::CollectiveOperator::ADD, h.prog,
                                       gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 2), "pairs");
        auto exchanged = gcl::allToAllCrossReplica(h.graph, pairs, h.prog, "exchanged");
        h.output(exchanged, "out");
    }

    std::string serialized() {
        std::ostringstream out;
        poplar::compileGraph(h.graph, {h.prog}).serialize(out);
        return out.str();
    }
};

/// `bytes` with `from` replaced by `to` (same length) and the payload checksum recomputed.
std::string patched(std::string bytes, const std::string& from, const std::string& to) {
    const auto at = bytes.find(from);
    REQUIRE(at != std::string::npos);
    REQUIRE(from.size() == to.size());
    bytes.replace(at, from.size(), to);
    std::uint64_t h = 1469598103934665603ull; // FNV-1a over the payload (after 32 header bytes)
    for (std::size_t i = 32; i < bytes.size(); ++i) {
        h ^= static_cast<unsigned char>(bytes[i]);
        h *= 1099511628211ull;
    }
    for (int i = 0; i < 8; ++i)
        bytes[24 + i] = static_cast<char>((h >> (8 * i)) & 0xff);
    return bytes;
}

} // namespace

TEST_CASE("an executable of a replicated graph runs like the graph's own Engine", "[replication]") {
    ReplicatedProgram p;
    const auto direct = p.h.run();
    // The host's answer: pair sums of x + 0.5 + index, then slice i of replica j is replica
    // i's slice j.
    for (unsigned j = 0; j < 4; ++j)
        for (unsigned i = 0; i < 4; ++i)
            for (unsigned c = 0; c < 3; ++c) {
                const unsigned first = i / 2 * 2;
                double want = 0;
                for (unsigned q = first; q < first + 2; ++q)
                    want += p.data[q][j * 3 + c] + 0.5 + q;
                INFO("replica " << j << " slice " << i << " column " << c);
                REQUIRE(direct.at("out")[j][i * 3 + c] == Approx(want));
            }

    std::istringstream in(p.serialized());
    poplar::Engine loaded(poplar::Executable::deserialize(in));
    CHECK(p.h.runOn(loaded) == direct);
}

TEST_CASE("a damaged replication entry in an executable is refused", "[replication]") {
    ReplicatedProgram p;
    const auto good = p.serialized();
    const auto refused = [&](const std::string& from, const std::string& to,
                             const std::string& words) {
        std::istringstream in(patched(good, from, to));
        std::string message = "no error";
        try {
            poplar::Executable::deserialize(in);
        } catch (const poplar::poplar_error& e) {
            message = e.what();
        }
        CHECK_THAT(message, Catch::Matchers::Contains(words));
    };
    refused("replicas=4", "replicas=x", "is not a list of indices");
    refused("replicas=4", "replicas=1", "no plausible replica count");
    // Three replicas: the pairs of the first collective no longer divide them.
    refused("replicas=4", "replicas=3", "do not divide the 3 replicas");
    refused("broadcastStreams=", "broadcastStreamZ=", "is malformed");
}
