#include "poplar/Graph.hpp"

#include "poplar/Program.hpp"
#include "tilescope/sim/CodeletCompiler.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>

namespace poplar {

namespace sim = tilescope::sim;

namespace {

/// The header's host-side value bytes (unsigned char, as public headers are C++11) as the model's
/// device bytes.
std::vector<std::byte> deviceBytes(const std::vector<unsigned char>& bytes) {
    std::vector<std::byte> out(bytes.size());
    if (!bytes.empty())
        std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

std::string shapeString(ArrayRef<std::size_t> shape) {
    std::string s = "{";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "}";
}

std::string vertexDescription(const sim::GraphModel& m, unsigned id) {
    const auto& v = m.vertices.at(id);
    return "vertex " + std::to_string(id) + " of type '" + m.vertexTypes.at(v.type).name + "'";
}

/// The binding and descriptor of a named field; throws unknown_field.
std::pair<sim::FieldBinding*, const sim::FieldDescriptor*> findField(sim::GraphModel& m,
                                                                     const FieldRef& f) {
    const unsigned id = f.vertex().getId();
    if (id >= m.vertices.size())
        throw poplar_error("Invalid vertex reference " + std::to_string(id));
    auto& v = m.vertices[id];
    const auto& type = m.vertexTypes.at(v.type);
    const int index = type.fieldIndex(f.name());
    if (index < 0) {
        std::string known;
        for (const auto& fd : type.fields)
            known += (known.empty() ? "" : ", ") + fd.name;
        throw unknown_field("Vertex type '" + type.name + "' has no field '" + f.name() +
                            "' (fields: " + known + ")");
    }
    return {&v.fields[static_cast<std::size_t>(index)],
            &type.fields[static_cast<std::size_t>(index)]};
}

} // namespace

Graph::Graph(const Target& target) : model_(std::make_shared<sim::GraphModel>()), target_(target) {
    model_->target = target.spec();
}

namespace {

void refuseReplication(const char* where, unsigned factor) {
    throw poplar_error(std::string(where) + ": replication (a replication factor of " +
                       std::to_string(factor) +
                       ") is not supported by the TileScope simulator, which runs one replica; "
                       "build the graph with a replication factor of 1");
}

} // namespace

Graph::Graph(const Target& target, replication_factor r) : Graph(target) {
    if (r.value != 1)
        refuseReplication("Graph", r.value);
}

Graph Graph::createReplicatedGraph(unsigned replicationFactor) {
    if (replicationFactor != 1)
        refuseReplication("Graph::createReplicatedGraph", replicationFactor);
    return *this;
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
                    TensorCloneMethod) {
    Tensor c = addVariable(type, t.shape(), cloneContext(t, debugContext));
    mapCopiesLike(*model_, c, t, 1);
    return c;
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

void Graph::setTileMapping(VertexRef v, unsigned tile) {
    if (v.getId() >= model_->vertices.size())
        throw poplar_error("setTileMapping: invalid vertex reference " + std::to_string(v.getId()));
    const auto global =
        static_cast<std::int32_t>(checkTile(tile, vertexDescription(*model_, v.getId())));
    model_->vertices[v.getId()].tile = global;
    const auto pending = model_->vertexConstants.find(static_cast<std::uint32_t>(v.getId()));
    if (pending != model_->vertexConstants.end()) {
        for (const auto var : pending->second)
            model_->variables[var].tileOf.assign(model_->variables[var].numElements, global);
        model_->vertexConstants.erase(pending);
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

unsigned Graph::getTileMapping(VertexRef v) const {
    const auto& vertex = model_->vertices.at(v.getId());
    if (vertex.tile == sim::kUnmapped)
        throw invalid_tile_mapping(vertexDescription(*model_, v.getId()) +
                                   " is not mapped to a tile");
    return static_cast<unsigned>(vertex.tile) - tileOffset_;
}

ComputeSet Graph::addComputeSet(const DebugContext& debugContext) {
    const auto id = static_cast<unsigned>(model_->computeSets.size());
    model_->computeSets.push_back({debugContext.getPathName().empty()
                                       ? "computeSet" + std::to_string(id)
                                       : debugContext.getPathName(),
                                   {},
                                   debugContext.getId()});
    return ComputeSet(model_.get(), id);
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType) {
    if (GraphAccess::graph(cs) != model_.get() || cs.getId() >= model_->computeSets.size())
        throw poplar_error("addVertex: compute set " + std::to_string(cs.getId()) +
                           " does not belong to this graph");
    const int type = model_->vertexTypes.find(vertexType);
    if (type < 0) {
        std::string known;
        for (const auto& n : model_->vertexTypes.names())
            known += (known.empty() ? "" : ", ") + n;
        throw unknown_vertex_type("Unknown vertex type '" + std::string(vertexType) +
                                  "' (known types: " + (known.empty() ? "none" : known) +
                                  "); add its codelet with Graph::addCodelets");
    }
    sim::VertexInfo v;
    v.type = static_cast<std::uint32_t>(type);
    v.computeSet = cs.getId();
    const auto& desc = model_->vertexTypes.at(v.type);
    v.fields.resize(desc.fields.size());
    for (std::size_t f = 0; f < desc.fields.size(); ++f)
        if (desc.fields[f].isEdge() && desc.fields[f].shape != sim::abi::FieldShape::List)
            v.fields[f].items.resize(1);
    const auto id = static_cast<unsigned>(model_->vertices.size());
    model_->vertices.push_back(std::move(v));
    model_->computeSets[cs.getId()].vertices.push_back(id);
    return VertexRef(model_.get(), id);
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType,
                           std::initializer_list<ConnectionDesc> connections) {
    VertexRef v = addVertex(cs, vertexType);
    for (const auto& c : connections) {
        if (c.valueKind != ConnectionDesc::ValueKind::None)
            setFieldValue(v[c.field], c);
        else if (c.isList)
            connect(v[c.field], ArrayRef<Tensor>(c.tensors));
        else
            connect(v[c.field], c.tensors.front());
    }
    return v;
}

void Graph::connect(FieldRef field, const Tensor& tensor) {
    auto [binding, fd] = findField(*model_, field);
    const std::string where =
        "field '" + fd->name + "' of " + vertexDescription(*model_, field.vertex().getId());
    if (!fd->isEdge())
        throw graph_connection_error("Cannot connect a tensor to " + where +
                                     ": it is vertex state; use Graph::setInitialValue");
    if (tensor.view().type != fd->elementType)
        throw type_error("Cannot connect tensor '" + tensor.getName() + "' of type " +
                         tensor.elementType().toString() + " to " + where + " of type " +
                         std::string(sim::elementTypeName(fd->elementType)));
    const bool scalarItems = fd->shape == sim::abi::FieldShape::Scalar ||
                             (fd->shape == sim::abi::FieldShape::List && !fd->itemIsVector);
    if (fd->shape == sim::abi::FieldShape::List && !field.hasIndex()) {
        // A whole list at once: rows of a 2-D tensor, or elements for lists of scalars.
        std::vector<Tensor> items;
        if (scalarItems) {
            const Tensor flat = tensor.flatten();
            for (std::size_t i = 0; i < flat.numElements(); ++i)
                items.push_back(flat.slice(i, i + 1));
        } else {
            if (tensor.rank() != 2)
                throw graph_connection_error("Connecting a single tensor to list " + where +
                                             " needs a rank-2 tensor (one row per item), got " +
                                             tensor.shapeToString());
            for (std::size_t i = 0; i < tensor.dim(0); ++i)
                items.push_back(tensor[i]);
        }
        connect(field, ArrayRef<Tensor>(items));
        return;
    }
    if (scalarItems && tensor.numElements() != 1)
        throw graph_connection_error("Cannot connect tensor '" + tensor.getName() + "' of shape " +
                                     tensor.shapeToString() + " to scalar " + where +
                                     ": it needs exactly one element");
    if (fd->shape == sim::abi::FieldShape::List) {
        const std::size_t i = field.getIndex();
        if (!binding->sized)
            throw no_size_specified("Cannot connect item " + std::to_string(i) + " of " + where +
                                    " before its size is set with Graph::setFieldSize");
        if (i >= binding->items.size())
            throw index_error("Item " + std::to_string(i) + " is out of range for " + where +
                              " of size " + std::to_string(binding->items.size()));
        binding->items[i] = std::make_shared<const sim::TensorView>(tensor.flatten().view());
    } else {
        if (field.hasIndex())
            throw graph_connection_error("Cannot index " + where + ": it is not a list field");
        binding->items.assign(1, std::make_shared<const sim::TensorView>(tensor.flatten().view()));
    }
}

void Graph::connect(FieldRef field, ArrayRef<Tensor> tensors) {
    if (field.hasIndex())
        throw graph_connection_error("connect: a list of tensors needs the whole field, not item " +
                                     std::to_string(field.getIndex()) + " of '" + field.name() +
                                     "'");
    setFieldSize(field, tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i)
        connect(field[i], tensors[i]);
}

void Graph::setFieldSize(FieldRef field, std::size_t size) {
    auto [binding, fd] = findField(*model_, field);
    if (fd->shape != sim::abi::FieldShape::List)
        throw graph_connection_error("setFieldSize: field '" + fd->name + "' of " +
                                     vertexDescription(*model_, field.vertex().getId()) +
                                     " is not a list field");
    binding->items.resize(size);
    binding->sized = true;
}

std::size_t Graph::getFieldSize(FieldRef field) const {
    auto [binding, fd] = findField(*model_, field);
    (void)fd;
    return binding->items.size();
}

std::pair<sim::ElementType, bool> Graph::stateFieldType(const FieldRef& field) const {
    auto [binding, fd] = findField(*model_, field);
    (void)binding;
    if (fd->isEdge())
        throw graph_connection_error("setInitialValue: field '" + fd->name + "' of " +
                                     vertexDescription(*model_, field.vertex().getId()) +
                                     " is an edge; connect a tensor instead");
    return {fd->elementType, fd->shape != sim::abi::FieldShape::Scalar};
}

void Graph::setFieldInitialValue(FieldRef field, std::vector<unsigned char> bytes,
                                 std::size_t count, bool isVector) {
    auto [binding, fd] = findField(*model_, field);
    const bool fieldIsVector = fd->shape != sim::abi::FieldShape::Scalar;
    if (fieldIsVector != isVector)
        throw type_error("setInitialValue: field '" + fd->name + "' of " +
                         vertexDescription(*model_, field.vertex().getId()) + " is a " +
                         (fieldIsVector ? "vector; pass an ArrayRef" : "scalar; pass one value"));
    binding->stateValue = deviceBytes(bytes);
    binding->stateCount = count;
}

namespace {

/// The range of an integral element type, as [lowest, highest].
std::pair<long long, unsigned long long> integerRange(sim::ElementType t) {
    using L = std::numeric_limits<long long>;
    switch (t) {
    case sim::ElementType::Int:
        return {INT32_MIN, INT32_MAX};
    case sim::ElementType::UnsignedInt:
        return {0, UINT32_MAX};
    case sim::ElementType::Short:
        return {INT16_MIN, INT16_MAX};
    case sim::ElementType::UnsignedShort:
        return {0, UINT16_MAX};
    case sim::ElementType::Char:
        return {CHAR_MIN, CHAR_MAX};
    case sim::ElementType::SignedChar:
        return {SCHAR_MIN, SCHAR_MAX};
    case sim::ElementType::UnsignedChar:
        return {0, UCHAR_MAX};
    case sim::ElementType::Bool:
        return {0, 1};
    case sim::ElementType::LongLong:
        return {L::min(), static_cast<unsigned long long>(L::max())};
    default:
        return {0, std::numeric_limits<unsigned long long>::max()};
    }
}

} // namespace

void Graph::setFieldValue(FieldRef field, const ConnectionDesc& c) {
    using Kind = ConnectionDesc::ValueKind;
    auto [binding, fd] = findField(*model_, field);
    const std::string where =
        "field '" + fd->name + "' of " + vertexDescription(*model_, field.vertex().getId());
    const std::string value = c.valueKind == Kind::Floating ? std::to_string(c.floatValue)
                              : c.valueKind == Kind::Unsigned
                                  ? std::to_string(c.unsignedValue)
                                  : std::to_string(c.signedValue);
    const bool constantInput =
        fd->isEdge() && fd->reads() && !fd->writes() && fd->shape == sim::abi::FieldShape::Scalar;
    if (fd->isEdge() && !constantInput)
        throw graph_connection_error("Cannot set " + where + " to the value " + value +
                                     ": it is an edge that is not a scalar Input; connect a "
                                     "tensor");
    if (fd->shape != sim::abi::FieldShape::Scalar)
        throw graph_connection_error("Cannot set " + where + " to the value " + value +
                                     ": it is a vector of vertex state; use "
                                     "Graph::setInitialValue with an ArrayRef");
    const auto type = fd->elementType;
    const std::string typeName(sim::elementTypeName(type));
    std::vector<std::byte> bytes(sim::elementSize(type));
    if (c.valueKind == Kind::Floating) {
        if (!sim::isFloatingPoint(type))
            throw type_error("Cannot set " + where + " of type " + typeName +
                             " to the floating-point value " + value +
                             ": the field is integral; pass an integer");
        sim::storeElement(type, bytes.data(), c.floatValue);
    } else {
        const bool negative = c.valueKind != Kind::Unsigned && c.signedValue < 0;
        if (!sim::isFloatingPoint(type)) {
            const auto [lowest, highest] = integerRange(type);
            const bool fits = negative ? c.signedValue >= lowest
                                       : (c.valueKind == Kind::Unsigned
                                              ? c.unsignedValue
                                              : static_cast<unsigned long long>(c.signedValue)) <=
                                             highest;
            if (!fits)
                throw type_error("Cannot set " + where + " of type " + typeName +
                                 " to the value " + value + ": it is out of the type's range");
        }
        if (negative)
            sim::storeElement(type, bytes.data(), c.signedValue);
        else
            sim::storeElement(type, bytes.data(),
                              c.valueKind == Kind::Unsigned
                                  ? c.unsignedValue
                                  : static_cast<unsigned long long>(c.signedValue));
    }
    if (constantInput) {
        // As Poplar's ConnectionDesc(field, value): a scalar constant connected to the field,
        // on the vertex's tile (mapped now, or when the vertex is mapped).
        const std::vector<unsigned char> raw(reinterpret_cast<const unsigned char*>(bytes.data()),
                                             reinterpret_cast<const unsigned char*>(bytes.data()) +
                                                 bytes.size());
        Tensor k = addConstantBytes(Type(type), {}, raw, 1, {fd->name + "/value"});
        const auto var = k.view().ranges[0].variable;
        const auto vid = static_cast<std::uint32_t>(field.vertex().getId());
        const std::int32_t tile = model_->vertices[vid].tile;
        if (tile >= 0)
            model_->variables[var].tileOf.assign(model_->variables[var].numElements, tile);
        else
            model_->vertexConstants[vid].push_back(static_cast<std::uint32_t>(var));
        connect(field, k);
        return;
    }
    binding->stateValue = std::move(bytes);
    binding->stateCount = 1;
}

void Graph::setPerfEstimate(const VertexRef& v, std::uint64_t cycles, std::uint64_t) {
    model_->vertices.at(v.getId()).perfEstimate = cycles;
}

VertexIntrospector::FieldData VertexIntrospector::getFieldInfo(StringRef name) const {
    const auto& v = graph_.vertices.at(vertex_);
    const auto& type = graph_.vertexTypes.at(v.type);
    const int f = type.fieldIndex(name);
    if (f < 0)
        throw unknown_field("Vertex type '" + type.name + "' has no field '" + std::string(name) +
                            "'");
    const auto& b = v.fields[static_cast<std::size_t>(f)];
    std::vector<std::size_t> sizes;
    if (!type.fields[static_cast<std::size_t>(f)].isEdge())
        sizes.push_back(b.stateCount);
    for (const auto& item : b.items)
        sizes.push_back(item ? item->numElements() : 0);
    return FieldData(std::move(sizes));
}

void Graph::registerPerfEstimator(StringRef vertexTypeName, PerfEstimateFunc f) {
    const Target target = target_;
    sim::PerfEstimator e;
    e.vertexType = std::string(vertexTypeName);
    e.estimate = [target, f = std::move(f)](const sim::GraphModel& model, std::uint32_t vertex) {
        return f(VertexIntrospector(model, vertex), target).cycles;
    };
    model_->perfEstimators.push_back(std::move(e));
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

DataStream Graph::addHostToDeviceFIFO(StringRef handle, const Type& elementType,
                                      std::size_t numElements, ReplicatedStreamMode,
                                      const OptionFlags&) {
    for (const auto& s : model_->streams)
        if (s.handle == handle)
            throw poplar_error("addHostToDeviceFIFO: a stream named '" + std::string(handle) +
                               "' already exists");
    const auto id = static_cast<unsigned>(model_->streams.size());
    model_->streams.push_back({std::string(handle), elementType.native(), numElements, true});
    return DataStream(model_.get(), id, std::string(handle), elementType, numElements);
}

DataStream Graph::addDeviceToHostFIFO(StringRef handle, const Type& elementType,
                                      std::size_t numElements, const OptionFlags&) {
    for (const auto& s : model_->streams)
        if (s.handle == handle)
            throw poplar_error("addDeviceToHostFIFO: a stream named '" + std::string(handle) +
                               "' already exists");
    const auto id = static_cast<unsigned>(model_->streams.size());
    model_->streams.push_back({std::string(handle), elementType.native(), numElements, false});
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
    return RemoteBuffer(model_.get(), id, name, elementType, numElements, repeats,
                        rearrangeOnHost, optimiseMemory);
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
