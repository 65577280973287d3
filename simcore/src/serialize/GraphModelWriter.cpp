// Writing the executable format (GraphModelSerializer.hpp; layout in simcore/README.md).

#include "ByteStream.hpp"
#include "ReplicationEntry.hpp"
#include "VertexTypeStore.hpp"
#include "tilescope/sim/GraphModelSerializer.hpp"
#include "tilescope/sim/OperationRegistry.hpp"

#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace tilescope::sim {

namespace {

void writeView(ByteWriter& w, const TensorView& v) {
    w.u8(static_cast<std::uint8_t>(v.type));
    w.u64(v.shape.size());
    for (auto d : v.shape)
        w.u64(d);
    w.u64(v.ranges.size());
    for (const auto& r : v.ranges) {
        w.u32(r.variable);
        w.u64(r.begin);
        w.u64(r.end);
    }
    w.str(v.name);
}

void writeOptionalView(ByteWriter& w, const std::optional<TensorView>& v) {
    w.boolean(v.has_value());
    if (v)
        writeView(w, *v);
}

void writeTarget(ByteWriter& w, const TargetSpec& t) {
    w.str(t.architecture);
    w.str(t.deviceType);
    w.u32(t.numIpus);
    w.u32(t.tilesPerIpu);
    w.u64(t.bytesPerTile);
    w.u64(t.interleavedBytesPerTile);
    w.u64(t.memoryElementBytes);
    w.u32(t.numWorkerContexts);
    w.f64(t.tileClockHz);
    w.u32(t.exchangeBytesPerCycle);
    w.u32(t.dataPathWidthBits);
    w.f64(t.hostLinkBytesPerSecond);
    w.f64(t.interIpuBytesPerSecond);
    w.u32(t.tilesPerColumn);
    w.boolean(t.compileIpuCode);
    w.u32(t.minIpuSyncDelay);
    w.boolean(t.relativeSyncDelay);
}

/// Every program node reachable from the programs and functions, numbered in visit order.
struct NodeTable {
    std::vector<const ProgramNode*> nodes;
    std::unordered_map<const ProgramNode*, std::uint32_t> index;

    std::uint32_t add(const ProgramNode* root) {
        std::vector<const ProgramNode*> stack = {root};
        while (!stack.empty()) {
            const auto* n = stack.back();
            stack.pop_back();
            if (!index.emplace(n, static_cast<std::uint32_t>(nodes.size())).second)
                continue;
            nodes.push_back(n);
            for (auto it = n->children.rbegin(); it != n->children.rend(); ++it)
                stack.push_back(it->get());
        }
        return index.at(root);
    }
};

/// The operations graph objects refer to, with their ancestors, in id order.
std::vector<OperationInfo> referencedOperations(const GraphModel& m, const NodeTable& nodes) {
    std::set<std::uint64_t> ids;
    for (const auto& v : m.variables)
        ids.insert(v.operation);
    for (const auto& cs : m.computeSets)
        ids.insert(cs.operation);
    for (const auto* n : nodes.nodes)
        ids.insert(n->operation);
    ids.erase(0);
    std::map<std::uint64_t, OperationInfo> found;
    std::vector<std::uint64_t> pending(ids.begin(), ids.end());
    while (!pending.empty()) {
        const auto id = pending.back();
        pending.pop_back();
        if (id == 0 || found.count(id))
            continue;
        if (auto op = OperationRegistry::instance().find(id)) {
            pending.push_back(op->parent);
            found.emplace(id, std::move(*op));
        }
    }
    std::vector<OperationInfo> out;
    for (auto& [id, op] : found)
        out.push_back(std::move(op));
    return out;
}

void writeOperations(ByteWriter& w, const std::vector<OperationInfo>& ops) {
    w.u64(ops.size());
    for (const auto& op : ops) {
        w.u64(op.id);
        w.u64(op.parent);
        w.str(op.path);
        w.str(op.layer);
        w.u64(op.values.size());
        for (const auto& [k, v] : op.values) {
            w.str(k);
            w.str(v);
        }
        w.boolean(op.flops.has_value());
        w.u64(op.flops.value_or(0));
    }
}

void writeVertices(ByteWriter& w, const GraphModel& m) {
    w.u64(m.vertices.size());
    for (std::uint32_t id = 0; id < m.vertices.size(); ++id) {
        const auto& v = m.vertices[id];
        w.u32(v.type);
        w.u32(v.computeSet);
        w.u32(static_cast<std::uint32_t>(v.tile));
        w.u64(v.fields.size());
        for (const auto& f : v.fields) {
            w.u64(f.items.size());
            for (const auto& item : f.items) {
                w.boolean(item != nullptr);
                if (item)
                    writeView(w, *item);
            }
            w.boolean(f.sized);
            w.blob(f.stateValue.data(), f.stateValue.size());
            w.u64(f.stateCount);
        }
        // A registered estimator is host code: store what it says for this vertex instead.
        std::optional<std::uint64_t> estimate = v.perfEstimate;
        if (!estimate) {
            const auto& typeName = m.vertexTypes.at(v.type).name;
            for (const auto& e : m.perfEstimators)
                if (e.vertexType == typeName) {
                    estimate = e.estimate(m, id);
                    break;
                }
        }
        w.boolean(estimate.has_value());
        w.u64(estimate.value_or(0));
    }
}

std::vector<std::int64_t> reduceCases(const ProgramNode& n) {
    return {n.reduceCyclesPerTile.begin(), n.reduceCyclesPerTile.end()};
}

void writeNodes(ByteWriter& w, const NodeTable& table) {
    w.u64(table.nodes.size());
    for (const auto* n : table.nodes) {
        w.u8(static_cast<std::uint8_t>(n->kind));
        w.str(n->name);
        w.u64(n->children.size());
        for (const auto& c : n->children)
            w.u32(table.index.at(c.get()));
        // A cross-replica program has no compute set, stream, function, cases or repeats; its
        // collective travels in those fields: the kind as the compute set, the reduction as
        // the stream, the group's size and stride as the function and repeat count, and the
        // per-tile reduction cycles as the case values.
        const bool collective = n->kind == capture::ProgramKind::CrossReplica;
        const auto& cases = collective ? reduceCases(*n) : n->caseValues;
        w.u64(cases.size());
        for (auto v : cases)
            w.i64(v);
        w.u64(collective ? n->grouping.stride : n->repeatCount);
        writeOptionalView(w, n->predicate);
        writeOptionalView(w, n->source);
        writeOptionalView(w, n->destination);
        w.u32(collective ? static_cast<std::uint32_t>(n->collective) : n->computeSet);
        w.u32(collective ? static_cast<std::uint32_t>(n->reduceOp) : n->stream);
        w.u32(collective ? n->grouping.size : n->function);
        w.str(n->title);
        w.boolean(n->globalSync);
        w.u64(n->operation);
        w.boolean(n->graph != nullptr);
        w.boolean(n->remote);
        writeOptionalView(w, n->offset);
        writeOptionalView(w, n->cycleCounter);
        w.boolean(n->cycleStamp);
    }
}

} // namespace

void writeSerializedGraph(std::ostream& out, const GraphModel& m,
                          const std::vector<ProgramNodePtr>& programs, const OptionList& options) {
    NodeTable table;
    std::vector<std::uint32_t> programIds, functionIds;
    for (const auto& f : m.functions)
        functionIds.push_back(table.add(f.body.get()));
    for (const auto& p : programs)
        programIds.push_back(table.add(p.get()));

    ByteWriter w;
    OptionList stored = options;
    if (auto entry = replicationEntryOf(m))
        stored.push_back(std::move(*entry));
    w.u64(stored.size());
    for (const auto& [k, v] : stored) {
        w.str(k);
        w.str(v);
    }
    writeTarget(w, m.target);
    writeOperations(w, referencedOperations(m, table));
    writeVertexTypes(w, m.vertexTypes);
    w.u64(m.variables.size());
    for (const auto& v : m.variables) {
        w.str(v.name);
        w.u8(static_cast<std::uint8_t>(v.type));
        w.u64(v.shape.size());
        for (auto d : v.shape)
            w.u64(d);
        w.u64(v.numElements);
        w.u64(v.tileOf.size());
        for (auto t : v.tileOf)
            w.u32(static_cast<std::uint32_t>(t));
        w.boolean(v.isConstant);
        w.blob(v.initialValue.data(), v.initialValue.size());
        w.u64(v.operation);
    }
    writeVertices(w, m);
    w.u64(m.computeSets.size());
    for (const auto& cs : m.computeSets) {
        w.str(cs.name);
        w.u64(cs.vertices.size());
        for (auto v : cs.vertices)
            w.u32(v);
        w.u64(cs.operation);
    }
    w.u64(m.hostHandles.size());
    for (const auto& h : m.hostHandles) {
        w.str(h.handle);
        writeView(w, h.tensor);
        w.boolean(h.hostToDevice);
    }
    w.u64(m.streams.size());
    for (const auto& s : m.streams) {
        w.str(s.handle);
        w.u8(static_cast<std::uint8_t>(s.type));
        w.u64(s.numElements);
        w.boolean(s.hostToDevice);
    }
    w.u64(m.remoteBuffers.size());
    for (const auto& b : m.remoteBuffers) {
        w.str(b.handle);
        w.u8(static_cast<std::uint8_t>(b.type));
        w.u64(b.numElements);
        w.u64(b.repeats);
    }
    writeNodes(w, table);
    w.u64(m.functions.size());
    for (std::size_t i = 0; i < m.functions.size(); ++i) {
        w.str(m.functions[i].name);
        w.u32(functionIds[i]);
    }
    w.u64(programIds.size());
    for (auto id : programIds)
        w.u32(id);

    ByteWriter header;
    header.raw(kExecutableMagic, sizeof kExecutableMagic);
    header.u32(kExecutableFormatVersion);
    header.u32(abi::kVersion);
    header.u64(w.data().size());
    header.u64(fnv1a(w.data()));
    out.write(header.data().data(), static_cast<std::streamsize>(header.data().size()));
    out.write(w.data().data(), static_cast<std::streamsize>(w.data().size()));
    if (!out)
        throw poplar::poplar_error("Executable::serialize: writing to the output stream failed");
}

} // namespace tilescope::sim
