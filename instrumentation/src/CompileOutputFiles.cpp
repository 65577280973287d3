#include "tilescope/capture/CompileOutputFiles.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

namespace tilescope::capture {
namespace {

using nlohmann::json;

json targetJson(const TargetRecord& t) {
    return {{"type", t.type},           {"architecture", t.architecture},
            {"numIpus", t.numIpus},     {"tilesPerIpu", t.tilesPerIpu},
            {"numTiles", t.numTiles()}, {"bytesPerTile", t.bytesPerTile},
            {"clockHz", t.clockHz}};
}

std::string category(const VariableRecord& v) {
    return v.isConstant ? "constant" : v.alwaysLive ? "always-live" : "not-always-live";
}

json graphJson(const CompileRecords& r) {
    json programs = json::array();
    for (const auto& p : r.programs) {
        json node = {{"id", p.id},
                     {"kind", std::string(programKindName(p.kind))},
                     {"name", p.name},
                     {"children", p.children},
                     {"steps", p.steps}};
        if (p.computeSet >= 0)
            node["computeSet"] = p.computeSet;
        if (p.repeatCount >= 0)
            node["repeatCount"] = p.repeatCount;
        programs.push_back(std::move(node));
    }
    json entries = json::array();
    for (const auto& e : r.entryPoints)
        entries.push_back({{"name", e.name}, {"program", e.program}});
    json computeSets = json::array();
    for (const auto& c : r.computeSets)
        computeSets.push_back({{"name", c.name}, {"numVertices", c.numVertices}});
    json vertexTypes = json::array();
    for (const auto& v : r.vertexTypes)
        vertexTypes.push_back(
            {{"name", v.name}, {"codeBytes", v.codeBytes}, {"stateBytes", v.stateBytes}});
    json steps = json::array();
    for (const auto& s : r.steps) {
        const auto cycles = s.estimatedCyclesPerTile.empty()
                                ? 0
                                : *std::max_element(s.estimatedCyclesPerTile.begin(),
                                                    s.estimatedCyclesPerTile.end());
        steps.push_back({{"kind", std::string(stepKindName(s.kind))},
                         {"name", s.name},
                         {"program", s.program},
                         {"estimatedCycles", cycles}});
    }
    return {{"target", targetJson(r.target)},
            {"entryPoints", entries},
            {"programs", programs},
            {"computeSets", computeSets},
            {"vertexTypes", vertexTypes},
            {"numVertices", r.numVertices},
            {"numEdges", r.numEdges},
            {"steps", steps},
            {"tilesOutOfMemory", r.tilesOutOfMemory}};
}

json tileMemoryJson(const CompileRecords& r) {
    json tiles = json::array();
    for (std::uint32_t t = 0; t < r.target.numTiles(); ++t) {
        json byCategory = json::object();
        for (std::size_t c = 0; c < kNumMemoryCategories; ++c) {
            const auto bytes = r.memory.categoryOnTile(static_cast<MemoryCategory>(c), t);
            if (bytes)
                byCategory[std::string(memoryCategoryName(static_cast<MemoryCategory>(c)))] = bytes;
        }
        tiles.push_back(
            {{"tile", t}, {"totalBytes", r.memory.tileTotal(t)}, {"bytes", byCategory}});
    }
    return {{"bytesPerTile", r.target.bytesPerTile}, {"tiles", tiles}};
}

void writeFile(const std::filesystem::path& file, const std::string& bytes, const char* option) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out)
        throw OutputFileError(std::string(option) + ": cannot write '" + file.string() + "'");
}

/// One member of a System V / GNU ar archive: a 60-byte header, the data, padding to even size.
void appendMember(std::string& archive, const std::string& name, const std::string& data) {
    char header[61];
    std::snprintf(header, sizeof header, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", (name + "/").c_str(),
                  "0", "0", "0", "644", data.size());
    archive.append(header, 60);
    archive += data;
    if (data.size() % 2)
        archive += '\n';
}

} // namespace

std::string loweredVarsJson(const CompileRecords& r) {
    std::vector<std::tuple<std::uint32_t, std::uint64_t, std::size_t, std::uint64_t>> parts;
    for (std::size_t v = 0; v < r.variables.size(); ++v)
        for (const auto& p : r.variables[v].placements)
            if (p.bytes)
                parts.emplace_back(p.tile, p.address, v, p.bytes);
    std::sort(parts.begin(), parts.end());
    json variables = json::array();
    for (const auto& [tile, address, v, bytes] : parts) {
        const auto& var = r.variables[v];
        variables.push_back({{"name", var.name},
                             {"elementType", var.elementType},
                             {"shape", var.shape},
                             {"category", category(var)},
                             {"tile", tile},
                             {"address", address},
                             {"size", bytes}});
    }
    return json{{"target", targetJson(r.target)}, {"variables", variables}}.dump(1) + "\n";
}

void writeLoweredVarDump(const std::filesystem::path& file, const CompileRecords& records) {
    writeFile(file, loweredVarsJson(records), "debug.loweredVarDumpFile");
}

void writeGraphArchive(const std::filesystem::path& file, const CompileRecords& records) {
    std::string archive = "!<arch>\n";
    appendMember(archive, "graph.json", graphJson(records).dump(1) + "\n");
    appendMember(archive, "memory.json", tileMemoryJson(records).dump(1) + "\n");
    appendMember(archive, "variables.json", loweredVarsJson(records));
    writeFile(file, archive, "target.saveArchive");
}

} // namespace tilescope::capture
