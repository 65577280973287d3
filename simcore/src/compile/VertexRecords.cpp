#include "VertexRecords.hpp"

#include "tilescope/sim/ElementType.hpp"

#include <map>
#include <string>
#include <utility>

namespace tilescope::sim {

using capture::CompileRecords;

namespace {

VertexMemory vertexMemory(const GraphModel& m, const VertexInfo& v, const CostModel& c) {
    VertexMemory mem;
    mem.descriptors = c.vertexDescriptorBytes;
    const auto& type = m.vertexTypes.at(v.type);
    for (std::size_t f = 0; f < type.fields.size(); ++f) {
        const auto& fd = type.fields[f];
        const auto& b = v.fields[f];
        if (!fd.isEdge()) {
            if (fd.shape == abi::FieldShape::Scalar) {
                mem.state += elementSize(fd.elementType);
            } else {
                mem.state += c.vectorEdgeStateBytes;
                mem.fieldData += b.stateCount * elementSize(fd.elementType);
            }
        } else if (fd.shape == abi::FieldShape::Scalar) {
            mem.state += c.scalarEdgeStateBytes;
        } else if (fd.shape == abi::FieldShape::Vector) {
            mem.state += c.vectorEdgeStateBytes;
        } else { // a list: its item pointers and sizes live outside the vertex state
            mem.state += c.vectorEdgeStateBytes;
            mem.fieldData += b.items.size() * c.listItemBytes;
        }
    }
    mem.state = (mem.state + 3) / 4 * 4;
    return mem;
}

// Poplar copies a tile's on-tile part of a Copy program with one of its copy vertices. Its
// reports list them as poplar_rt types (ShortMemcpy, Memcpy64Bit, DstStridedCopyDA32,
// StridedCopyDA32, ...); which one Poplar picks is not published. TileScope takes the memcpy for
// one contiguous piece and the strided copy for several. The pieces themselves are described by
// copy descriptors (ProgramLowering), so an instance holds only its two edges.
constexpr const char* kOnePieceCopyVertex = "poplar_rt::ShortMemcpy";
constexpr const char* kPiecesCopyVertex = "poplar_rt::DstStridedCopyDA32";

void recordCopyVertices(const GraphModel& m, const CostModel& costs,
                        const std::vector<OnTileCopySet>& copySets, CompileRecords& rec,
                        TileVertexData& data) {
    if (copySets.empty())
        return;
    const std::uint32_t numTiles = m.target.numTiles();
    VertexMemory instance;
    instance.descriptors = costs.vertexDescriptorBytes;
    instance.state = 2 * costs.vectorEdgeStateBytes;
    std::map<std::string, std::uint32_t> typeIndex;
    const auto typeOf = [&](const char* name) {
        auto [it, added] =
            typeIndex.try_emplace(name, static_cast<std::uint32_t>(rec.vertexTypes.size()));
        if (added) {
            capture::VertexTypeRecord vt;
            vt.name = name;
            vt.codeBytes = m.target.compileIpuCode
                               ? costs.vertexCodeBaseBytes + 2 * costs.vertexCodeBytesPerField
                               : 0;
            vt.stateBytes = instance.state;
            vt.instancesPerTile.assign(numTiles, 0);
            rec.vertexTypes.push_back(std::move(vt));
        }
        return it->second;
    };
    for (const auto& set : copySets) {
        std::map<std::uint32_t, std::size_t> instances; // type -> index in vertexInstances
        for (std::uint32_t tile = 0; tile < numTiles; ++tile) {
            const auto pieces = set.piecesPerTile[tile];
            if (pieces == 0)
                continue;
            const auto type = typeOf(pieces == 1 ? kOnePieceCopyVertex : kPiecesCopyVertex);
            auto [it, added] = instances.try_emplace(type, rec.vertexInstances.size());
            if (added) {
                capture::VertexInstancesRecord vi;
                vi.computeSet = set.computeSet;
                vi.vertexType = type;
                vi.perTile.assign(numTiles, 0);
                rec.vertexInstances.push_back(std::move(vi));
            }
            auto& vi = rec.vertexInstances[it->second];
            ++vi.count;
            ++vi.perTile[tile];
            ++rec.computeSets[set.computeSet].numVertices;
            if (rec.vertexTypes[type].instancesPerTile[tile]++ == 0)
                data.typesOnTile[tile].push_back(type);
            data.memory[tile].state += instance.state;
            data.memory[tile].descriptors += instance.descriptors;
            ++rec.numVertices;
            rec.numEdges += 2;
        }
    }
}

} // namespace

TileVertexData recordVertices(const GraphModel& m, const CostModel& costs,
                              const std::vector<OnTileCopySet>& copySets, CompileRecords& rec) {
    const std::uint32_t numTiles = m.target.numTiles();
    TileVertexData data;
    data.typesOnTile.resize(numTiles);
    data.memory.resize(numTiles);
    rec.vertexTypes.resize(m.vertexTypes.size());
    for (std::uint32_t t = 0; t < m.vertexTypes.size(); ++t) {
        auto& vt = rec.vertexTypes[t];
        const auto& type = m.vertexTypes.at(t);
        vt.name = type.name;
        vt.codeBytes =
            m.target.compileIpuCode
                ? costs.vertexCodeBaseBytes + costs.vertexCodeBytesPerField * type.fields.size()
                : 0;
        vt.instancesPerTile.assign(numTiles, 0);
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> instances; // (cs, type)
    for (const auto& v : m.vertices) {
        const auto tile = static_cast<std::uint32_t>(v.tile);
        auto& vt = rec.vertexTypes[v.type];
        if (vt.instancesPerTile[tile]++ == 0)
            data.typesOnTile[tile].push_back(v.type);
        auto [it, added] =
            instances.try_emplace({v.computeSet, v.type}, rec.vertexInstances.size());
        if (added)
            rec.vertexInstances.push_back({v.computeSet, v.type, 0, capture::PerTile(numTiles, 0)});
        ++rec.vertexInstances[it->second].count;
        ++rec.vertexInstances[it->second].perTile[tile];
        const auto mem = vertexMemory(m, v, costs);
        vt.stateBytes = std::max(vt.stateBytes, mem.state);
        data.memory[tile].state += mem.state;
        data.memory[tile].descriptors += mem.descriptors;
        data.memory[tile].fieldData += mem.fieldData;
        ++rec.numVertices;
        const auto& type = m.vertexTypes.at(v.type);
        for (std::size_t f = 0; f < type.fields.size(); ++f)
            if (type.fields[f].isEdge())
                rec.numEdges += v.fields[f].items.size();
    }
    recordCopyVertices(m, costs, copySets, rec, data);
    return data;
}

} // namespace tilescope::sim
