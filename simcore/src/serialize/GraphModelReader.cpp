// Reading the executable format: every count, index and size is checked before use, so bad
// input is a poplar_error, never a crash.

#include "ByteStream.hpp"
#include "ReplicationEntry.hpp"
#include "VertexTypeStore.hpp"
#include "tilescope/sim/GraphModelSerializer.hpp"
#include "tilescope/sim/OperationRegistry.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace tilescope::sim {

namespace {

using capture::ProgramKind;

class ModelReader {
public:
    ModelReader(ByteReader& r, GraphModel& m) : r_(r), m_(m) {}

    ElementType elementType() {
        const auto t = r_.u8();
        if (t > static_cast<std::uint8_t>(ElementType::UnsignedLongLong))
            r_.fail("unknown element type " + std::to_string(t));
        return static_cast<ElementType>(t);
    }

    TensorView view() {
        TensorView v;
        v.type = elementType();
        const auto rank = r_.count(8);
        for (std::size_t i = 0; i < rank; ++i)
            v.shape.push_back(static_cast<std::size_t>(r_.u64()));
        const auto numRanges = r_.count(20);
        std::uint64_t elements = 0;
        for (std::size_t i = 0; i < numRanges; ++i) {
            ElementRange range;
            range.variable = r_.u32();
            range.begin = r_.u64();
            range.end = r_.u64();
            if (range.variable >= m_.variables.size() || range.begin > range.end ||
                range.end > m_.variables[range.variable].numElements)
                r_.fail("a tensor refers to elements [" + std::to_string(range.begin) + ", " +
                        std::to_string(range.end) + ") of variable " +
                        std::to_string(range.variable) + ", which do not exist");
            elements += range.size();
            v.ranges.push_back(range);
        }
        v.name = r_.str();
        if (elements != views::product(v.shape))
            r_.fail("tensor '" + v.name + "' has " + std::to_string(elements) +
                    " elements but its shape needs " + std::to_string(views::product(v.shape)));
        return v;
    }

    std::optional<TensorView> optionalView() {
        if (!r_.boolean())
            return std::nullopt;
        return view();
    }

    void target() {
        r_.context("the target");
        auto& t = m_.target;
        t.architecture = r_.str();
        t.deviceType = r_.str();
        t.numIpus = r_.u32();
        t.tilesPerIpu = r_.u32();
        t.bytesPerTile = r_.u64();
        t.interleavedBytesPerTile = r_.u64();
        t.memoryElementBytes = r_.u64();
        t.numWorkerContexts = r_.u32();
        t.tileClockHz = r_.f64();
        t.exchangeBytesPerCycle = r_.u32();
        t.dataPathWidthBits = r_.u32();
        t.hostLinkBytesPerSecond = r_.f64();
        t.interIpuBytesPerSecond = r_.f64();
        t.tilesPerColumn = r_.u32();
        t.compileIpuCode = r_.boolean();
        t.minIpuSyncDelay = r_.u32();
        t.relativeSyncDelay = r_.boolean();
        if (t.numIpus == 0 || t.tilesPerIpu == 0 || t.numWorkerContexts == 0 || t.numIpus > 4096 ||
            t.tilesPerIpu > (1u << 20))
            r_.fail("implausible target (" + std::to_string(t.numIpus) + " IPUs of " +
                    std::to_string(t.tilesPerIpu) + " tiles)");
    }

    /// Re-registers the stored operations in this process; returns old id -> new id.
    void operations() {
        r_.context("operations");
        const auto n = r_.count(41);
        for (std::size_t i = 0; i < n; ++i) {
            const auto oldId = r_.u64();
            const auto oldParent = r_.u64();
            std::string path = r_.str();
            std::string layer = r_.str();
            auto it = opIds_.find(oldParent);
            auto& registry = OperationRegistry::instance();
            const auto id = registry.add(it == opIds_.end() ? 0 : it->second, std::move(path),
                                         std::move(layer));
            const auto numValues = r_.count(16);
            for (std::size_t v = 0; v < numValues; ++v) {
                std::string key = r_.str();
                std::string value = r_.str();
                registry.setValue(id, std::move(key), std::move(value));
            }
            const bool hasFlops = r_.boolean();
            const auto flops = r_.u64();
            if (hasFlops)
                registry.addFlops(id, flops);
            opIds_[oldId] = id;
        }
    }

    std::uint64_t operation() {
        const auto old = r_.u64();
        auto it = opIds_.find(old);
        return it == opIds_.end() ? 0 : it->second;
    }

    void variables() {
        r_.context("variables");
        const auto n = r_.count(40);
        m_.variables.resize(n);
        for (auto& v : m_.variables) {
            v.name = r_.str();
            v.type = elementType();
            const auto rank = r_.count(8);
            for (std::size_t i = 0; i < rank; ++i)
                v.shape.push_back(static_cast<std::size_t>(r_.u64()));
            v.numElements = r_.u64();
            if (v.numElements != views::product(v.shape))
                r_.fail("variable '" + v.name + "' has " + std::to_string(v.numElements) +
                        " elements but its shape needs " + std::to_string(views::product(v.shape)));
            const auto mapped = r_.count(4);
            if (mapped != v.numElements)
                r_.fail("variable '" + v.name + "' has a tile mapping of " +
                        std::to_string(mapped) + " elements, not " + std::to_string(v.numElements));
            v.tileOf.resize(mapped);
            for (auto& tile : v.tileOf) {
                tile = static_cast<std::int32_t>(r_.u32());
                if (tile != kUnmapped &&
                    (tile < 0 || static_cast<unsigned>(tile) >= m_.target.numTiles()))
                    r_.fail("variable '" + v.name + "' is mapped to tile " + std::to_string(tile) +
                            " of " + std::to_string(m_.target.numTiles()));
            }
            v.isConstant = r_.boolean();
            v.initialValue = r_.bytes();
            if (!v.initialValue.empty() &&
                v.initialValue.size() != v.numElements * elementSize(v.type))
                r_.fail("variable '" + v.name + "' has an initial value of " +
                        std::to_string(v.initialValue.size()) + " bytes");
            v.operation = operation();
        }
    }

    void vertices() {
        r_.context("vertices");
        const auto n = r_.count(29);
        m_.vertices.resize(n);
        for (auto& v : m_.vertices) {
            v.type = r_.u32();
            if (v.type >= m_.vertexTypes.size())
                r_.fail("a vertex has type " + std::to_string(v.type) + " of " +
                        std::to_string(m_.vertexTypes.size()));
            const auto& type = m_.vertexTypes.at(v.type);
            v.computeSet = r_.u32();
            v.tile = static_cast<std::int32_t>(r_.u32());
            if (v.tile != kUnmapped &&
                (v.tile < 0 || static_cast<unsigned>(v.tile) >= m_.target.numTiles()))
                r_.fail("a vertex of type '" + type.name + "' is on tile " +
                        std::to_string(v.tile));
            const auto numFields = r_.count(18);
            if (numFields != type.fields.size())
                r_.fail("a vertex of type '" + type.name + "' has " + std::to_string(numFields) +
                        " fields, its type " + std::to_string(type.fields.size()));
            v.fields.resize(numFields);
            for (auto& f : v.fields) {
                const auto items = r_.count(1);
                for (std::size_t i = 0; i < items; ++i)
                    f.items.push_back(r_.boolean() ? std::make_shared<const TensorView>(view())
                                                   : nullptr);
                f.sized = r_.boolean();
                f.stateValue = r_.bytes();
                f.stateCount = r_.u64();
            }
            const bool hasEstimate = r_.boolean();
            const auto estimate = r_.u64();
            if (hasEstimate)
                v.perfEstimate = estimate;
        }
    }

    void computeSets() {
        r_.context("compute sets");
        const auto n = r_.count(24);
        m_.computeSets.resize(n);
        for (auto& cs : m_.computeSets) {
            cs.name = r_.str();
            const auto count = r_.count(4);
            for (std::size_t i = 0; i < count; ++i) {
                const auto v = r_.u32();
                if (v >= m_.vertices.size())
                    r_.fail("compute set '" + cs.name + "' lists vertex " + std::to_string(v) +
                            " of " + std::to_string(m_.vertices.size()));
                cs.vertices.push_back(v);
            }
            cs.operation = operation();
        }
        for (const auto& v : m_.vertices)
            if (v.computeSet >= m_.computeSets.size())
                r_.fail("a vertex is in compute set " + std::to_string(v.computeSet) + " of " +
                        std::to_string(m_.computeSets.size()));
    }

    void handlesAndStreams() {
        r_.context("host handles");
        const auto numHandles = r_.count(27);
        for (std::size_t i = 0; i < numHandles; ++i) {
            HostHandleInfo h;
            h.handle = r_.str();
            h.tensor = view();
            h.hostToDevice = r_.boolean();
            m_.hostHandles.push_back(std::move(h));
        }
        r_.context("data streams");
        const auto numStreams = r_.count(18);
        for (std::size_t i = 0; i < numStreams; ++i) {
            StreamInfo s;
            s.handle = r_.str();
            s.type = elementType();
            s.numElements = r_.u64();
            s.hostToDevice = r_.boolean();
            m_.streams.push_back(std::move(s));
        }
        r_.context("remote buffers");
        const auto numBuffers = r_.count(25);
        for (std::size_t i = 0; i < numBuffers; ++i) {
            RemoteBufferInfo b;
            b.handle = r_.str();
            b.type = elementType();
            b.numElements = r_.u64();
            b.repeats = r_.u64();
            // The engine allocates repeats x numElements elements when it loads.
            constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 40;
            if (b.numElements == 0 || b.repeats == 0 || b.numElements > kMaxElements ||
                b.repeats > kMaxElements / b.numElements)
                r_.fail("remote buffer '" + b.handle + "' has an implausible size (" +
                        std::to_string(b.repeats) + " rows of " + std::to_string(b.numElements) +
                        " elements)");
            m_.remoteBuffers.push_back(std::move(b));
        }
    }

    /// The program node table. Children are shared pointers, so a corrupt table that makes a
    /// node its own descendant is refused (and the links cut, so nothing leaks).
    std::vector<ProgramNodePtr> nodes() {
        r_.context("programs");
        const auto n = r_.count(60);
        std::vector<ProgramNodePtr> nodes(n);
        for (auto& p : nodes)
            p = std::make_shared<ProgramNode>();
        try {
            readNodes(nodes);
            checkAcyclic(nodes);
        } catch (...) {
            for (auto& p : nodes)
                p->children.clear();
            throw;
        }
        return nodes;
    }

    void checkAcyclic(const std::vector<ProgramNodePtr>& nodes) {
        std::unordered_map<const ProgramNode*, int> state; // 1: on the path, 2: done
        for (const auto& root : nodes) {
            if (state[root.get()] == 2)
                continue;
            // Iterative DFS: (node, next child index).
            std::vector<std::pair<const ProgramNode*, std::size_t>> stack = {{root.get(), 0}};
            state[root.get()] = 1;
            while (!stack.empty()) {
                auto& [node, next] = stack.back();
                if (next == node->children.size()) {
                    state[node] = 2;
                    stack.pop_back();
                    continue;
                }
                const auto* child = node->children[next++].get();
                const int s = state[child];
                if (s == 1)
                    r_.fail("program '" + child->name + "' contains itself");
                if (s == 0) {
                    state[child] = 1;
                    stack.emplace_back(child, 0);
                }
            }
        }
    }

    void readNodes(std::vector<ProgramNodePtr>& nodes) {
        const auto n = nodes.size();
        for (auto& p : nodes) {
            const auto kind = r_.u8();
            if (kind > static_cast<std::uint8_t>(ProgramKind::CrossReplica))
                r_.fail("unknown program kind " + std::to_string(kind));
            p->kind = static_cast<ProgramKind>(kind);
            p->name = r_.str();
            const auto numChildren = r_.count(4);
            for (std::size_t c = 0; c < numChildren; ++c) {
                const auto child = r_.u32();
                if (child >= n)
                    r_.fail("program '" + p->name + "' refers to program " + std::to_string(child) +
                            " of " + std::to_string(n));
                p->children.push_back(nodes[child]);
            }
            if (p->kind == ProgramKind::Block && p->children.size() != 1)
                r_.fail("Block program '" + p->name + "' must scope exactly one program, it has " +
                        std::to_string(p->children.size()));
            const auto numCases = r_.count(8);
            for (std::size_t c = 0; c < numCases; ++c)
                p->caseValues.push_back(r_.i64());
            p->repeatCount = r_.u64();
            p->predicate = optionalView();
            p->source = optionalView();
            p->destination = optionalView();
            p->computeSet = r_.u32();
            p->stream = r_.u32();
            p->function = r_.u32();
            p->title = r_.str();
            p->globalSync = r_.boolean();
            p->operation = operation();
            p->graph = r_.boolean() ? &m_ : nullptr;
            p->remote = r_.boolean();
            p->offset = optionalView();
            p->cycleCounter = optionalView();
            p->cycleStamp = r_.boolean();
            if (p->kind == ProgramKind::Execute && p->computeSet >= m_.computeSets.size())
                r_.fail("program '" + p->name + "' executes compute set " +
                        std::to_string(p->computeSet) + " of " +
                        std::to_string(m_.computeSets.size()));
            const auto numStreams = p->remote ? m_.remoteBuffers.size() : m_.streams.size();
            if (p->kind == ProgramKind::StreamCopy && p->stream >= numStreams)
                r_.fail("program '" + p->name + "' copies " +
                        (p->remote ? "remote buffer " : "stream ") + std::to_string(p->stream) +
                        " of " + std::to_string(numStreams));
            if ((p->remote || p->offset) && p->kind != ProgramKind::StreamCopy)
                r_.fail("program '" + p->name + "' is a " +
                        std::string(capture::programKindName(p->kind)) +
                        " with a remote buffer copy's fields");
            if ((p->cycleCounter || p->cycleStamp) && p->kind != ProgramKind::Sequence)
                r_.fail("program '" + p->name + "' is a " +
                        std::string(capture::programKindName(p->kind)) +
                        " with a cycle counter (only cycleCount/cycleStamp sequences have one)");
            if (p->kind == ProgramKind::CrossReplica)
                collective(*p);
            if (p->cycleCounter && (p->cycleCounter->type != ElementType::UnsignedInt ||
                                    views::product(p->cycleCounter->shape) != 2))
                r_.fail("program '" + p->name +
                        "' writes its cycle count to a tensor that is not UNSIGNED_INT[2]");
        }
    }

    /// A cross-replica program's collective, from the fields the writer put it in (the kind
    /// as the compute set, the reduction as the stream, the group as function and repeat
    /// count, the reduction cycles per tile as the case values), checked.
    void collective(ProgramNode& p) {
        const std::string what = "cross-replica program '" + p.name + "'";
        if (p.computeSet > static_cast<std::uint32_t>(CollectiveKind::AllToAll) ||
            p.stream > static_cast<std::uint32_t>(ReduceOp::Local))
            r_.fail(what + " has an unknown collective " + std::to_string(p.computeSet) +
                    " or reduction " + std::to_string(p.stream));
        if (!p.source || !p.destination || p.predicate)
            r_.fail(what + " needs a source and a destination tensor and no predicate");
        if (p.repeatCount > std::numeric_limits<unsigned>::max())
            r_.fail(what + " has a group stride of " + std::to_string(p.repeatCount));
        p.collective = static_cast<CollectiveKind>(p.computeSet);
        p.reduceOp = static_cast<ReduceOp>(p.stream);
        p.grouping = {p.function, static_cast<unsigned>(p.repeatCount)};
        try {
            p.grouping.check(m_.replicationFactor);
        } catch (const std::invalid_argument& e) {
            r_.fail(what + ": " + e.what());
        }
        const auto groupSize = p.grouping.groupSize(m_.replicationFactor);
        const auto in = views::product(p.source->shape);
        if (p.source->type != p.destination->type ||
            views::product(p.destination->shape) !=
                collectiveOutputElements(p.collective, in, groupSize) ||
            (p.collective == CollectiveKind::AllToAll && in % groupSize != 0))
            r_.fail(what + " has a destination that does not fit its collective");
        if (!p.caseValues.empty() && p.caseValues.size() != m_.target.numTiles())
            r_.fail(what + " has reduction cycles for " + std::to_string(p.caseValues.size()) +
                    " tiles of " + std::to_string(m_.target.numTiles()));
        for (auto c : p.caseValues) {
            if (c < 0)
                r_.fail(what + " has negative reduction cycles");
            p.reduceCyclesPerTile.push_back(static_cast<std::uint64_t>(c));
        }
        p.caseValues.clear();
        p.computeSet = p.stream = p.function = 0;
        p.repeatCount = 0;
    }

    std::uint32_t nodeIndex(const std::vector<ProgramNodePtr>& nodes) {
        const auto i = r_.u32();
        if (i >= nodes.size())
            r_.fail("program " + std::to_string(i) + " of " + std::to_string(nodes.size()));
        return i;
    }

private:
    ByteReader& r_;
    GraphModel& m_;
    std::unordered_map<std::uint64_t, std::uint64_t> opIds_;
};

} // namespace

SerializedGraph readSerializedGraph(std::istream& in, const std::string& what) {
    constexpr std::size_t kHeaderBytes = sizeof kExecutableMagic + 4 + 4 + 8 + 8;
    std::string header(kHeaderBytes, '\0');
    in.read(header.data(), static_cast<std::streamsize>(kHeaderBytes));
    header.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    if (header.size() < sizeof kExecutableMagic ||
        std::memcmp(header.data(), kExecutableMagic, sizeof kExecutableMagic) != 0)
        throw poplar::poplar_error(what + ": not a TileScope executable (" +
                                   (header.empty()
                                        ? std::string("the input is empty")
                                        : "the first bytes are not the executable magic number") +
                                   "); executables are written by poplar::Executable::serialize");
    ByteReader h(header, what);
    char magic[sizeof kExecutableMagic];
    h.raw(magic, sizeof magic);
    const auto version = h.u32();
    if (version != kExecutableFormatVersion)
        throw poplar::poplar_error(
            what + ": executable format version " + std::to_string(version) +
            " is not supported (this library reads version " +
            std::to_string(kExecutableFormatVersion) + " only" +
            (version < kExecutableFormatVersion
                 ? std::string("; the file was written by an older TileScope, whose matMul "
                               "vertices read their operands in another layout (and before "
                               "version 4, without the target's sync model)")
                 : std::string("; the file was written by a newer TileScope")) +
            "); recompile the graph with compileGraph and serialize it again");
    const auto abiVersion = h.u32();
    if (abiVersion != abi::kVersion)
        throw poplar::poplar_error(what + ": the executable's codelets use codelet ABI " +
                                   std::to_string(abiVersion) + ", this library " +
                                   std::to_string(abi::kVersion) + "; recompile the graph");
    h.context("the payload size");
    const auto size = h.u64();
    const auto sum = h.u64();

    // Read in bounded chunks: a corrupt size must not allocate gigabytes before failing.
    std::string payload;
    char buf[1 << 16];
    while (payload.size() < size && in) {
        const auto want = std::min<std::uint64_t>(sizeof buf, size - payload.size());
        in.read(buf, static_cast<std::streamsize>(want));
        payload.append(buf, static_cast<std::size_t>(in.gcount()));
    }
    if (payload.size() < size)
        throw poplar::poplar_error(what + ": truncated input: the executable holds " +
                                   std::to_string(size) + " bytes after its header, only " +
                                   std::to_string(payload.size()) + " could be read");
    if (fnv1a(payload) != sum)
        throw poplar::poplar_error(what + ": the executable is corrupt (checksum mismatch)");

    SerializedGraph out;
    out.model = std::make_shared<GraphModel>();
    auto& m = *out.model;
    ByteReader r(payload, what);
    ModelReader mr(r, m);
    r.context("options");
    const auto numOptions = r.count(16);
    std::optional<ReplicationEntry> replication;
    for (std::size_t i = 0; i < numOptions; ++i) {
        std::string k = r.str();
        std::string v = r.str();
        if (k == kReplicationOption)
            replication = parseReplicationEntry(r, v);
        else
            out.options.emplace_back(std::move(k), std::move(v));
    }
    if (replication)
        m.replicationFactor = replication->replicas;
    mr.target();
    mr.operations();
    readVertexTypes(r, m);
    mr.variables();
    mr.vertices();
    mr.computeSets();
    mr.handlesAndStreams();
    if (replication)
        applyReplicationEntry(r, *replication, m);
    const auto nodes = mr.nodes();
    r.context("functions");
    const auto numFunctions = r.count(12);
    for (std::size_t i = 0; i < numFunctions; ++i) {
        FunctionInfo f;
        f.name = r.str();
        f.body = nodes[mr.nodeIndex(nodes)];
        m.functions.push_back(std::move(f));
    }
    for (const auto& n : nodes)
        if (n->kind == ProgramKind::Call && n->function >= m.functions.size())
            r.fail("program '" + n->name + "' calls function " + std::to_string(n->function) +
                   " of " + std::to_string(m.functions.size()));
    r.context("the program list");
    const auto numPrograms = r.count(4);
    for (std::size_t i = 0; i < numPrograms; ++i)
        out.programs.push_back(nodes[mr.nodeIndex(nodes)]);
    if (r.remaining() != 0)
        r.fail(std::to_string(r.remaining()) + " unexpected bytes after the program list");
    return out;
}

} // namespace tilescope::sim
