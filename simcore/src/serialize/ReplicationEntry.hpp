#pragma once
// A replicated graph in the executable format: the reserved option entry (kReplicationOption)
// that carries its replica count, BROADCAST streams and replication index constants.

#include "ByteStream.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::sim {

/// The replication facts of a graph model as the entry holds them.
struct ReplicationEntry {
    unsigned replicas = 1;
    std::vector<std::uint64_t> broadcastStreams;
    std::vector<std::uint64_t> replicationIndexVariables;
};

/// The entry (key and value) of a model with more than one replica; none otherwise.
std::optional<std::pair<std::string, std::string>> replicationEntryOf(const GraphModel& m);

/// Parses an entry's value; fails through `r` naming what is malformed.
ReplicationEntry parseReplicationEntry(ByteReader& r, const std::string& value);

/// Marks the entry's streams and variables in `m` (read up to its streams); fails through `r`
/// when one does not exist or cannot be what the entry says.
void applyReplicationEntry(ByteReader& r, const ReplicationEntry& entry, GraphModel& m);

} // namespace tilescope::sim
