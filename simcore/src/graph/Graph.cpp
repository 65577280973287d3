#include "poplar/Graph.hpp"

#include "DeviceBytes.hpp"
#include "poplar/Program.hpp"
#include "tilescope/sim/CodeletCompiler.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>

namespace poplar {

namespace sim = tilescope::sim;

namespace {

std::string shapeString(ArrayRef<std::size_t> shape) {
    std::string s = "{";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "}";
}

} // namespace

Graph::Graph(const Target& target) : model_(std::make_shared<sim::GraphModel>()), target_(target) {
    model_->target = target.spec();
}

namespace {

/// One replica's target: `target`'s IPUs divided among `factor` replicas.
Target replicaTarget(const Target& target, unsigned factor, const char* what) {
    if (factor == 0 || target.getNumIPUs() % factor != 0)
        throw poplar_error(std::string(what) + ": a replication factor of " +
                           std::to_string(factor) + " does not divide the target's " +
                           std::to_string(target.getNumIPUs()) +
                           " IPU(s); each replica needs a whole number of IPUs (create the device "
                           "with numIPUs a multiple of the replication factor)");
    auto spec = target.spec();
    spec.numIpus = target.getNumIPUs() / factor;
    return Target(spec, target.getTargetType());
}

} // namespace

Graph::Graph(const Target& target, replication_factor r)
    : Graph(replicaTarget(target, r.value, "Graph")) {
    model_->replicationFactor = r.value;
}

unsigned Graph::getReplicationFactor() const {
    return model_->replicationFactor;
}

Graph Graph::createReplicatedGraph(unsigned replicationFactor) {
    Target replica = replicaTarget(target_, replicationFactor, "Graph::createReplicatedGraph");
    if (replicationFactor == 1)
        return *this;
    if (model_->replicationFactor != 1 || tileOffset_ != 0 ||
        target_.getNumTiles() != model_->target.numTiles())
        throw poplar_error("Graph::createReplicatedGraph: only a top-level graph that is not "
                           "replicated yet can be replicated");
    if (!model_->variables.empty() || !model_->vertices.empty() || !model_->streams.empty())
        throw poplar_error("Graph::createReplicatedGraph: the graph already has tensors, vertices "
                           "or streams; the simulator replicates a graph before anything is added "
                           "to it (create the replicated graph first, or use "
                           "Graph(target, replication_factor))");
    model_->replicationFactor = replicationFactor;
    model_->target = replica.spec();
    Graph g = *this;
    g.target_ = replica;
    target_ = replica; // the parent now builds the same replica
    return g;
}

Tensor Graph::addReplicationIndexConstant(const DebugContext& debugContext) {
    const DebugContext context =
        debugContext.getPathName().empty()
            ? DebugContext(DebugNameAndId("replicationIndex", debugContext.getId()))
            : debugContext;
    Tensor t = addConstant<unsigned>(UNSIGNED_INT, {}, 0u, context);
    model_->variables[t.view().ranges[0].variable].replicationIndex = true;
    return t;
}

Tensor Graph::getNonReplicatedTensor(const Tensor& t) const {
    if (model_->replicationFactor != 1)
        throw poplar_error("Graph::getNonReplicatedTensor: the view of every replica's copy of '" +
                           t.getName() +
                           "' as one tensor is not supported by the TileScope simulator; read "
                           "each replica's data with a replicated stream or a collective");
    return t;
}

unsigned Graph::checkTile(unsigned tile, const std::string& what) const {
    if (tile >= target_.getNumTiles())
        throw index_error("Tile " + std::to_string(tile) + " is out of range for " + what +
                          ": the graph has " + std::to_string(target_.getNumTiles()) +
                          " tiles (0 to " + std::to_string(target_.getNumTiles() - 1) + ")");
    return tileOffset_ + tile;
}

Tensor Graph::addVariable(const Type& type, ArrayRef<std::size_t> shape,
                          const DebugContext& debugContext) {
    sim::VariableInfo var;
    var.name = debugContext.getPathName().empty()
                   ? "variable" + std::to_string(model_->variables.size())
                   : debugContext.getPathName();
    var.operation = debugContext.getId();
    var.type = type.native();
    var.shape = shape.vec();
    var.numElements = sim::views::product(var.shape);
    var.tileOf.assign(var.numElements, sim::kUnmapped);
    const auto id = static_cast<std::uint32_t>(model_->variables.size());
    sim::TensorView view;
    view.type = var.type;
    view.shape = var.shape;
    view.name = var.name;
    view.append({id, 0, var.numElements});
    model_->variables.push_back(std::move(var));
    return Tensor(std::move(view));
}

Tensor Graph::addVariable(const Type& type, ArrayRef<std::size_t> shape,
                          VariableMappingMethod mappingMethod, const DebugContext& debugContext) {
    Tensor t = addVariable(type, shape, debugContext);
    if (mappingMethod == VariableMappingMethod::LINEAR) {
        // Spread evenly in grains of one data-path-wide vector, as Poplar's LINEAR does.
        const std::size_t n = t.numElements();
        const std::size_t grain = target_.getVectorWidth(type);
        const std::size_t tiles = target_.getNumTiles();
        const std::size_t grains = (n + grain - 1) / grain;
        const std::size_t perTile = (grains + tiles - 1) / tiles * grain;
        auto& var = model_->variables[t.view().ranges[0].variable];
        for (std::size_t i = 0; i < n; ++i)
            var.tileOf[i] = static_cast<std::int32_t>(tileOffset_ + (perTile ? i / perTile : 0));
    }
    return t;
}

Tensor Graph::addConstantBytes(const Type& type, ArrayRef<std::size_t> shape,
                               std::vector<unsigned char> bytes, std::size_t count,
                               const DebugContext& debugContext) {
    Tensor t = addVariable(type, shape, debugContext);
    auto& var = model_->variables[t.view().ranges[0].variable];
    var.isConstant = true;
    const std::size_t n = var.numElements;
    if (count == 1 && n != 1) { // a scalar fills the whole constant
        std::vector<unsigned char> filled;
        filled.reserve(n * bytes.size());
        for (std::size_t i = 0; i < n; ++i)
            filled.insert(filled.end(), bytes.begin(), bytes.end());
        bytes = std::move(filled);
    } else if (count != n) {
        throw tensor_creation_error("Constant '" + var.name + "' of shape " + shapeString(shape) +
                                    " needs " + std::to_string(n) + " values, got " +
                                    std::to_string(count));
    }
    var.initialValue = deviceBytes(bytes);
    return t;
}

Tensor Graph::clone(const Tensor& t, const DebugContext& debugContext, TensorCloneMethod method) {
    return clone(t.elementType(), t, debugContext, method);
}

namespace {

/// A clone's debug context: the caller's, else "<t's name>/clone" under the caller's operation.
DebugContext cloneContext(const Tensor& t, const DebugContext& debugContext) {
    return debugContext.getPathName().empty()
               ? DebugContext(DebugNameAndId(t.getName() + "/clone", debugContext.getId()))
               : debugContext;
}

/// Maps each of the `copies` consecutive blocks of `c` (a new variable) as `t` is mapped.
void mapCopiesLike(tilescope::sim::GraphModel& model, const Tensor& c, const Tensor& t,
                   std::size_t copies) {
    if (copies == 0 || t.numElements() == 0)
        return;
    auto& dst = model.variables[c.view().ranges[0].variable];
    std::size_t i = 0;
    for (std::size_t copy = 0; copy < copies; ++copy)
        for (const auto& r : t.view().ranges)
            for (auto e = r.begin; e < r.end; ++e)
                dst.tileOf[i++] = model.variables[r.variable].tileOf[e];
}

} // namespace

Tensor Graph::clone(const Type& type, const Tensor& t, const DebugContext& debugContext,
                    TensorCloneMethod method) {
    Tensor c = addVariable(type, t.shape(), cloneContext(t, debugContext));
    mapCopiesLike(*model_, c, t, 1);
    // Poplar's clone keeps the original's element order in memory (unless asked for a new order
    // or the original has aliases): a clone of a product's result (rows grouped innermost) or of
    // a transposed view is laid out like it, so element-wise work on both reads the same
    // contiguous regions. The clone's elements are placed in the order of the original's, and
    // the returned view maps them back to the original's shape.
    const auto& ranges = t.view().ranges;
    const auto before = [](const sim::ElementRange& a, const sim::ElementRange& b) {
        return std::tie(a.variable, a.begin) < std::tie(b.variable, b.begin);
    };
    const bool inOrder = std::is_sorted(ranges.begin(), ranges.end(), before);
    if (inOrder || method == TensorCloneMethod::CREATE_NEW_ORDER || t.containsAliases())
        return c;
    std::vector<std::size_t> order(ranges.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return before(ranges[a], ranges[b]); });
    std::vector<std::uint64_t> placedAt(ranges.size());
    std::uint64_t next = 0;
    for (std::size_t i : order) {
        placedAt[i] = next;
        next += ranges[i].size();
    }
    const std::uint32_t id = c.view().ranges[0].variable;
    auto& var = model_->variables[id];
    std::vector<std::int32_t> tiles(var.numElements);
    sim::TensorView view;
    view.type = c.view().type;
    view.shape = c.view().shape;
    view.name = c.view().name;
    std::uint64_t flat = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        for (std::uint64_t e = 0; e < ranges[i].size(); ++e)
            tiles[placedAt[i] + e] = var.tileOf[flat + e];
        view.append({id, placedAt[i], placedAt[i] + ranges[i].size()});
        flat += ranges[i].size();
    }
    var.tileOf = std::move(tiles);
    return Tensor(std::move(view));
}

Tensor Graph::cloneN(const Tensor& t, std::size_t N, const DebugContext& debugContext,
                     TensorCloneMethod method) {
    return cloneN(t.elementType(), t, N, debugContext, method);
}

Tensor Graph::cloneN(const Type& type, const Tensor& t, std::size_t N,
                     const DebugContext& debugContext, TensorCloneMethod) {
    std::vector<std::size_t> shape = t.shape();
    shape.insert(shape.begin(), N);
    Tensor c = addVariable(type, shape, cloneContext(t, debugContext));
    mapCopiesLike(*model_, c, t, N);
    return c;
}

void Graph::setTensorInitialValue(const Tensor& t, const std::vector<unsigned char>& bytes,
                                  std::size_t count) {
    const std::size_t n = t.numElements();
    if (count != n && count != 1)
        throw tensor_creation_error("setInitialValue: tensor '" + t.getName() + "' has " +
                                    std::to_string(n) + " elements, got " + std::to_string(count) +
                                    " values");
    const unsigned size = sim::elementSize(t.view().type);
    std::size_t i = 0;
    for (const auto& r : t.view().ranges) {
        auto& var = model_->variables[r.variable];
        if (var.initialValue.empty())
            var.initialValue.assign(var.numElements * size, std::byte{0});
        for (auto e = r.begin; e < r.end; ++e, ++i) {
            const std::size_t src = count == 1 ? 0 : i;
            std::memcpy(var.initialValue.data() + e * size, bytes.data() + src * size, size);
        }
    }
}

void Graph::setTileMapping(const Tensor& t, unsigned tile) {
    const unsigned global = checkTile(tile, "tensor '" + t.getName() + "'");
    for (const auto& r : t.view().ranges) {
        auto& var = model_->variables.at(r.variable);
        std::fill(var.tileOf.begin() + static_cast<std::ptrdiff_t>(r.begin),
                  var.tileOf.begin() + static_cast<std::ptrdiff_t>(r.end),
                  static_cast<std::int32_t>(global));
    }
}

void Graph::setTileMapping(const Tensor& t, const TileToTensorMapping& mapping) {
    if (mapping.size() > target_.getNumTiles())
        throw index_error("Tile mapping for tensor '" + t.getName() + "' has " +
                          std::to_string(mapping.size()) + " tiles but the graph has " +
                          std::to_string(target_.getNumTiles()));
    const std::size_t n = t.numElements();
    for (unsigned tile = 0; tile < mapping.size(); ++tile)
        for (const auto& interval : mapping[tile]) {
            if (interval.end() > n || interval.begin() > interval.end())
                throw index_error("Tile mapping interval " + std::to_string(interval.begin()) +
                                  ".." + std::to_string(interval.end()) + " on tile " +
                                  std::to_string(tile) + " is out of range for tensor '" +
                                  t.getName() + "' of " + std::to_string(n) + " elements");
            if (interval.size())
                setTileMapping(t.flatten().slice(interval.begin(), interval.end()), tile);
        }
}

Graph::TileToTensorMapping Graph::getTileMapping(const Tensor& t, bool requireComplete) const {
    TileToTensorMapping mapping(target_.getNumTiles());
    std::size_t i = 0;
    for (const auto& r : t.view().ranges) {
        const auto& var = model_->variables.at(r.variable);
        for (auto e = r.begin; e < r.end; ++e, ++i) {
            const std::int32_t global = var.tileOf[e];
            const std::int64_t local = static_cast<std::int64_t>(global) - tileOffset_;
            if (global == sim::kUnmapped || local < 0 ||
                local >= static_cast<std::int64_t>(mapping.size())) {
                if (requireComplete)
                    throw invalid_tile_mapping("Element " + std::to_string(i) + " of tensor '" +
                                               t.getName() +
                                               "' is not mapped to a tile of "
                                               "this graph");
                continue;
            }
            auto& intervals = mapping[static_cast<std::size_t>(local)];
            if (!intervals.empty() && intervals.back().end() == i)
                intervals.back() = Interval(intervals.back().begin(), i + 1);
            else
                intervals.emplace_back(i, i + 1);
        }
    }
    return mapping;
}

void Graph::addCodelets(StringRef src, CodeletFileType type, StringRef compileFlags) {
    sim::CodeletFileKind kind = sim::CodeletFileKind::Source;
    switch (type) {
    case CodeletFileType::Auto:
        kind = sim::CodeletFileKind::Auto;
        break;
    case CodeletFileType::Object:
        kind = sim::CodeletFileKind::Object;
        break;
    case CodeletFileType::CppSource:
    case CodeletFileType::PreprocessedCppSource:
        break;
    default:
        throw graph_program_compilation_error(
            "addCodelets: '" + std::string(src) +
            "': only C++ codelet sources and popc objects are supported (C, assembly and include "
            "files are not)");
    }
    for (auto& t : sim::CodeletCompiler::load(std::string(src), kind, std::string(compileFlags),
                                              target_.getTargetArchString()))
        model_->vertexTypes.add(std::move(t));
}

void Graph::addCodelets(ArrayRef<std::string> xs, StringRef compileFlags) {
    for (const auto& x : xs)
        addCodelets(x, CodeletFileType::Auto, compileFlags);
}

void Graph::createHostWrite(StringRef handle, const Tensor& t, bool) {
    for (const auto& h : model_->hostHandles)
        if (h.handle == handle && h.hostToDevice)
            throw poplar_error("createHostWrite: handle '" + std::string(handle) +
                               "' is already used");
    model_->hostHandles.push_back({std::string(handle), t.view(), true});
}

void Graph::createHostRead(StringRef handle, const Tensor& t, bool) {
    for (const auto& h : model_->hostHandles)
        if (h.handle == handle && !h.hostToDevice)
            throw poplar_error("createHostRead: handle '" + std::string(handle) +
                               "' is already used");
    model_->hostHandles.push_back({std::string(handle), t.view(), false});
}

namespace {

/// Declares a FIFO stream in `m`; its id. Throws when `handle` is taken (`what` names the call).
unsigned addStream(sim::GraphModel& m, StringRef handle, const Type& elementType,
                   std::size_t numElements, bool hostToDevice, const char* what) {
    for (const auto& s : m.streams)
        if (s.handle == handle)
            throw poplar_error(std::string(what) + ": a stream named '" + std::string(handle) +
                               "' already exists");
    const auto id = static_cast<unsigned>(m.streams.size());
    m.streams.push_back({std::string(handle), elementType.native(), numElements, hostToDevice});
    return id;
}

} // namespace

DataStream Graph::addHostToDeviceFIFO(StringRef handle, const Type& elementType,
                                      std::size_t numElements, ReplicatedStreamMode mode,
                                      const OptionFlags&) {
    const unsigned id =
        addStream(*model_, handle, elementType, numElements, true, "addHostToDeviceFIFO");
    model_->streams[id].broadcast = mode == ReplicatedStreamMode::BROADCAST;
    return DataStream(model_.get(), id, std::string(handle), elementType, numElements);
}

DataStream Graph::addDeviceToHostFIFO(StringRef handle, const Type& elementType,
                                      std::size_t numElements, const OptionFlags&) {
    const unsigned id =
        addStream(*model_, handle, elementType, numElements, false, "addDeviceToHostFIFO");
    return DataStream(model_.get(), id, std::string(handle), elementType, numElements);
}

RemoteBuffer Graph::addRemoteBuffer(StringRef handle, const Type& elementType,
                                    std::size_t numElements, std::size_t repeats,
                                    bool rearrangeOnHost, bool optimiseMemory) {
    const std::string name(handle);
    for (const auto& b : model_->remoteBuffers)
        if (b.handle == name)
            throw poplar_error("addRemoteBuffer: a remote buffer named '" + name +
                               "' already exists");
    if (numElements == 0 || repeats == 0)
        throw poplar_error("addRemoteBuffer: remote buffer '" + name + "' needs at least one " +
                           "element and one repeat (got " + std::to_string(numElements) +
                           " elements, " + std::to_string(repeats) + " repeats)");
    const auto id = static_cast<unsigned>(model_->remoteBuffers.size());
    model_->remoteBuffers.push_back({name, elementType.native(), numElements, repeats});
    return RemoteBuffer(model_.get(), id, name, elementType, numElements, repeats, rearrangeOnHost,
                        optimiseMemory);
}

Graph Graph::createVirtualGraph(unsigned lowerTile, unsigned upperTile) {
    if (lowerTile >= upperTile || upperTile > target_.getNumTiles())
        throw index_error("createVirtualGraph: tiles [" + std::to_string(lowerTile) + ", " +
                          std::to_string(upperTile) + ") are not a non-empty range within the " +
                          std::to_string(target_.getNumTiles()) + " tiles of the graph");
    Graph g = *this;
    g.tileOffset_ = tileOffset_ + lowerTile;
    auto spec = target_.spec();
    spec.numIpus = 1;
    spec.tilesPerIpu = upperTile - lowerTile;
    g.target_ = Target(spec, target_.getTargetType());
    return g;
}

Graph Graph::createVirtualGraph(unsigned numTilesPerIPU) {
    return createVirtualGraph(0, numTilesPerIPU);
}

Function Graph::addFunction(const program::Program& program) {
    const auto id = static_cast<unsigned>(model_->functions.size());
    model_->functions.push_back({"function" + std::to_string(id), program.node()});
    return Function(model_.get(), id);
}

} // namespace poplar
