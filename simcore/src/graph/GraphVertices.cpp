// The vertex side of poplar::Graph (split from Graph.cpp): compute sets, vertices and their tile
// mapping, fields and their values, perf estimates.
#include "DeviceBytes.hpp"
#include "poplar/Graph.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <climits>
#include <cstdint>
#include <limits>

namespace poplar {

namespace sim = tilescope::sim;

namespace {

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

/// The one-dimensional view of a tensor's elements an edge holds, copied once.
std::shared_ptr<const sim::TensorView> flatView(const Tensor& tensor) {
    auto view = std::make_shared<sim::TensorView>(tensor.view());
    view->shape = {sim::views::product(view->shape)};
    return view;
}

} // namespace

void Graph::setTileMapping(VertexRef v, unsigned tile) {
    if (v.getId() >= model_->vertices.size())
        throw poplar_error("setTileMapping: invalid vertex reference " + std::to_string(v.getId()));
    const auto global = static_cast<std::int32_t>(
        checkTile(tile, [&] { return vertexDescription(*model_, v.getId()); }));
    model_->vertices[v.getId()].tile = global;
    const auto pending = model_->vertexConstants.find(static_cast<std::uint32_t>(v.getId()));
    if (pending != model_->vertexConstants.end()) {
        for (const auto var : pending->second)
            model_->variables[var].tileOf.assign(model_->variables[var].numElements, global);
        model_->vertexConstants.erase(pending);
    }
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
    // Built only for an error message.
    const auto where = [&, fd = fd] {
        return "field '" + fd->name + "' of " + vertexDescription(*model_, field.vertex().getId());
    };
    if (!fd->isEdge())
        throw graph_connection_error("Cannot connect a tensor to " + where() +
                                     ": it is vertex state; use Graph::setInitialValue");
    if (tensor.view().type != fd->elementType)
        throw type_error("Cannot connect tensor '" + tensor.getName() + "' of type " +
                         tensor.elementType().toString() + " to " + where() + " of type " +
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
                throw graph_connection_error("Connecting a single tensor to list " + where() +
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
                                     tensor.shapeToString() + " to scalar " + where() +
                                     ": it needs exactly one element");
    if (fd->shape == sim::abi::FieldShape::List) {
        const std::size_t i = field.getIndex();
        if (!binding->sized)
            throw no_size_specified("Cannot connect item " + std::to_string(i) + " of " + where() +
                                    " before its size is set with Graph::setFieldSize");
        if (i >= binding->items.size())
            throw index_error("Item " + std::to_string(i) + " is out of range for " + where() +
                              " of size " + std::to_string(binding->items.size()));
        binding->items[i] = flatView(tensor);
    } else {
        if (field.hasIndex())
            throw graph_connection_error("Cannot index " + where() + ": it is not a list field");
        binding->items.assign(1, flatView(tensor));
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
    const std::string value = c.valueKind == Kind::Floating   ? std::to_string(c.floatValue)
                              : c.valueKind == Kind::Unsigned ? std::to_string(c.unsignedValue)
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
            const bool fits =
                negative ? c.signedValue >= lowest
                         : (c.valueKind == Kind::Unsigned
                                ? c.unsignedValue
                                : static_cast<unsigned long long>(c.signedValue)) <= highest;
            if (!fits)
                throw type_error("Cannot set " + where + " of type " + typeName + " to the value " +
                                 value + ": it is out of the type's range");
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
} // namespace poplar
