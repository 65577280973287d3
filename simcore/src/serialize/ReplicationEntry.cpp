// The reserved option entry of a replicated graph in the executable format (ReplicationEntry.hpp).
#include "ReplicationEntry.hpp"

#include "tilescope/sim/GraphModelSerializer.hpp"

#include <algorithm>

namespace tilescope::sim {

std::optional<std::pair<std::string, std::string>> replicationEntryOf(const GraphModel& m) {
    if (m.replicationFactor <= 1)
        return std::nullopt;
    std::string value = "replicas=" + std::to_string(m.replicationFactor) + ";broadcastStreams=";
    const char* sep = "";
    for (std::size_t i = 0; i < m.streams.size(); ++i)
        if (m.streams[i].broadcast) {
            value += sep + std::to_string(i);
            sep = ",";
        }
    value += ";replicationIndexVariables=";
    sep = "";
    for (std::size_t i = 0; i < m.variables.size(); ++i)
        if (m.variables[i].replicationIndex) {
            value += sep + std::to_string(i);
            sep = ",";
        }
    return std::make_pair(std::string(kReplicationOption), std::move(value));
}

namespace {

/// "a,b,c" as numbers ("" is none); fails naming `what` on anything else.
std::vector<std::uint64_t> parseIndexList(ByteReader& r, const std::string& text,
                                          const std::string& what) {
    std::vector<std::uint64_t> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const auto end = std::min(text.find(',', at), text.size());
        const auto item = text.substr(at, end - at);
        if (item.empty() || item.size() > 18 ||
            item.find_first_not_of("0123456789") != std::string::npos)
            r.fail("the replication entry's " + what + " list '" + text +
                   "' is not a list of "
                   "indices");
        out.push_back(std::stoull(item));
        at = end + 1;
    }
    return out;
}

} // namespace

ReplicationEntry parseReplicationEntry(ByteReader& r, const std::string& value) {
    // replicas=R;broadcastStreams=...;replicationIndexVariables=...
    const std::string keys[] = {"replicas=", "broadcastStreams=", "replicationIndexVariables="};
    std::string parts[3];
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const auto end = i < 2 ? value.find(';', at) : value.size();
        if (end == std::string::npos || value.compare(at, keys[i].size(), keys[i]) != 0)
            r.fail("the replication entry '" + value + "' is malformed");
        parts[i] = value.substr(at + keys[i].size(), end - at - keys[i].size());
        at = end + 1;
    }
    ReplicationEntry out;
    const auto replicas = parseIndexList(r, parts[0], "replicas");
    if (replicas.size() != 1 || replicas[0] < 2 || replicas[0] > 4096)
        r.fail("the replication entry '" + value + "' has no plausible replica count");
    out.replicas = static_cast<unsigned>(replicas[0]);
    out.broadcastStreams = parseIndexList(r, parts[1], "broadcastStreams");
    out.replicationIndexVariables = parseIndexList(r, parts[2], "replicationIndexVariables");
    return out;
}

void applyReplicationEntry(ByteReader& r, const ReplicationEntry& rep, GraphModel& m) {
    r.context("replication");
    for (auto s : rep.broadcastStreams) {
        if (s >= m.streams.size() || !m.streams[s].hostToDevice)
            r.fail("stream " + std::to_string(s) + " of " + std::to_string(m.streams.size()) +
                   " cannot be a BROADCAST host-to-device stream");
        m.streams[s].broadcast = true;
    }
    for (auto v : rep.replicationIndexVariables) {
        if (v >= m.variables.size() || m.variables[v].type != ElementType::UnsignedInt ||
            m.variables[v].numElements != 1)
            r.fail("variable " + std::to_string(v) + " of " + std::to_string(m.variables.size()) +
                   " cannot be a replication index constant");
        m.variables[v].replicationIndex = true;
    }
}

} // namespace tilescope::sim
