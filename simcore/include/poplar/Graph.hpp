#pragma once
// The graph: tensors and their tile mapping, vertices and compute sets, codelets, host handles and
// data streams. Build it, then compile and run it with an Engine.

#include "poplar/ArrayRef.hpp"
#include "poplar/DebugContext.hpp"
#include "poplar/DebugInfo.hpp"
#include "poplar/Device.hpp"
#include "poplar/GraphElements.hpp"
#include "poplar/Interval.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/ReplicatedStreamMode.hpp"
#include "poplar/SerializationFormat.hpp"
#include "poplar/Target.hpp"
#include "poplar/Tensor.hpp"
#include "poplar/exceptions.hpp"
#include "tilescope/sim/ElementConversion.hpp"

// SDK programs rely on poplar's main headers bringing in the standard headers they use.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace tilescope {
namespace sim {
struct GraphModel;
}
} // namespace tilescope

namespace poplar {

namespace program {
class Program;
}

enum class VariableMappingMethod { NONE, LINEAR };

/// The number of replicas a graph is built for (Graph's constructor): the target's IPUs are
/// divided among them, and every replica runs the same program on its own data.
struct replication_factor {
    explicit replication_factor(unsigned factor) : value(factor) {}
    unsigned value;
};
enum class CodeletFileType {
    PreprocessedAsmSource,
    AsmSource,
    PreprocessedCSource,
    CSource,
    PreprocessedCppSource,
    CppSource,
    IncludeFile,
    Object,
    Auto
};
enum class TensorCloneMethod {
    PRESERVE_ORDER_AND_ALIASES,
    CREATE_NEW_ORDER,
    PRESERVE_ORDER_UNLESS_ALIASES,
    GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES
};

/// One connection of Graph::addVertex's initialiser list: a field and the tensor (or, for list
/// fields, tensors) it connects to, or an arithmetic value that becomes the initial value of a
/// scalar vertex state field (`{"n", 5u}`, `{"scale", 0.5f}`, as Graph::setInitialValue).
struct ConnectionDesc {
    /// How a value was given: its C++ type's kind, for the conversion to the field's type.
    enum class ValueKind { None, Bool, Signed, Unsigned, Floating };

    ConnectionDesc(StringRef field, Tensor t) : field(field), tensors{std::move(t)} {}
    ConnectionDesc(StringRef field, std::vector<Tensor> ts)
        : field(field), tensors(std::move(ts)), isList(true) {}
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
    ConnectionDesc(StringRef field, T value)
        : field(field), valueKind(std::is_same<T, bool>::value       ? ValueKind::Bool
                                  : std::is_floating_point<T>::value ? ValueKind::Floating
                                  : std::is_signed<T>::value         ? ValueKind::Signed
                                                                     : ValueKind::Unsigned),
          // Only the member of the value's kind is read; converting a floating value to an
          // integer could overflow, so integers of a floating value stay 0.
          floatValue(static_cast<double>(value)),
          signedValue(std::is_floating_point<T>::value ? 0 : static_cast<long long>(value)),
          unsignedValue(std::is_floating_point<T>::value ? 0
                                                         : static_cast<unsigned long long>(value)) {
    }

    std::string field;
    std::vector<Tensor> tensors;
    bool isList = false;
    ValueKind valueKind = ValueKind::None; ///< None: a tensor connection
    double floatValue = 0;
    long long signedValue = 0;
    unsigned long long unsignedValue = 0;
};

/// Cycle and flop estimate of one vertex instance, returned by a registered estimator.
struct VertexPerfEstimate {
    VertexPerfEstimate(std::uint64_t cycles = 0, std::uint64_t flops = 0)
        : cycles(cycles), flops(flops) {}
    std::uint64_t cycles;
    std::uint64_t flops;
};

/// What a perf estimator can ask of a vertex: the size of each field.
class VertexIntrospector {
public:
    class FieldData {
    public:
        explicit FieldData(std::vector<std::size_t> sizes) : sizes_(std::move(sizes)) {}
        /// Elements of a scalar or vector field; items of a list field.
        std::size_t size() const { return sizes_.size() == 1 ? sizes_[0] : sizes_.size(); }
        std::size_t getSizeAtIndex(std::size_t i) const { return sizes_.at(i); }

    private:
        std::vector<std::size_t> sizes_;
    };
    VertexIntrospector(const tilescope::sim::GraphModel& g, unsigned vertex)
        : graph_(g), vertex_(vertex) {}
    /// Throws unknown_field for a name the vertex type does not have.
    FieldData getFieldInfo(StringRef name) const;

private:
    const tilescope::sim::GraphModel& graph_;
    unsigned vertex_;
};

using PerfEstimateFunc =
    std::function<VertexPerfEstimate(const VertexIntrospector& v, const Target& target)>;

/// A graph for a target. Copies of a Graph, its virtual graphs (createVirtualGraph) and clones
/// share one underlying model, as in Poplar. A virtual graph numbers its tiles from 0.
class Graph {
public:
    using TileToTensorMapping = std::vector<std::vector<Interval>>;

    explicit Graph(const Target& target);
    explicit Graph(const Device& device) : Graph(device.getTarget()) {}
    /// A graph of `r.value` replicas, each on target.getNumIPUs() / r.value IPUs: getTarget()
    /// is one replica's target. Throws poplar_error unless the factor divides the IPU count.
    Graph(const Target& target, replication_factor r);
    Graph(const Device& device, replication_factor r) : Graph(device.getTarget(), r) {}

    const Target& getTarget() const { return target_; }

    // --- Tensors ---
    Tensor addVariable(const Type& type, ArrayRef<std::size_t> shape,
                       const DebugContext& debugContext = {});
    Tensor addVariable(const Type& type, ArrayRef<std::size_t> shape,
                       VariableMappingMethod mappingMethod, const DebugContext& debugContext = {});

    template <typename T>
    Tensor addConstant(const Type& type, ArrayRef<std::size_t> shape, ArrayRef<T> values,
                       const DebugContext& debugContext = {"<const>"}) {
        return addConstantBytes(type, shape, toBytes(type, values.data(), values.size()),
                                values.size(), debugContext);
    }
    template <typename T>
    Tensor addConstant(const Type& type, ArrayRef<std::size_t> shape, const T* values,
                       const DebugContext& debugContext = {"<const>"}) {
        std::size_t n = 1;
        for (auto d : shape)
            n *= d;
        return addConstantBytes(type, shape, toBytes(type, values, n), n, debugContext);
    }
    template <typename T, typename = typename std::enable_if<!std::is_pointer<T>::value>::type>
    Tensor addConstant(const Type& type, ArrayRef<std::size_t> shape, T value,
                       const DebugContext& debugContext = {"<const>"}) {
        return addConstantBytes(type, shape, toBytes(type, &value, 1), 1, debugContext);
    }

    /// A new variable with the same shape, type and tile mapping as `t`.
    Tensor clone(const Tensor& t, const DebugContext& debugContext = {},
                 TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
    Tensor clone(const Type& type, const Tensor& t, const DebugContext& debugContext = {},
                 TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
    /// N clones of `t` as one new variable of shape {N, t's shape...}: slice i is mapped as `t`.
    Tensor cloneN(const Tensor& t, std::size_t N, const DebugContext& debugContext = {},
                  TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
    Tensor cloneN(const Type& type, const Tensor& t, std::size_t N,
                  const DebugContext& debugContext = {},
                  TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

    template <typename T> void setInitialValue(const Tensor& t, T value) {
        setTensorInitialValue(t, toBytes(t.elementType(), &value, 1), 1);
    }
    template <typename T> void setInitialValue(const Tensor& t, ArrayRef<T> values) {
        setTensorInitialValue(t, toBytes(t.elementType(), values.data(), values.size()),
                              values.size());
    }

    // --- Tile mapping ---
    /// Maps every element of `t` to `tile`; throws index_error for a tile out of range.
    void setTileMapping(const Tensor& t, unsigned tile);
    void setTileMapping(const Tensor& t, const TileToTensorMapping& mapping);
    void setTileMapping(VertexRef v, unsigned tile);
    /// Per tile, the intervals of `t`'s flattened elements on it; with `requireComplete`
    /// throws invalid_tile_mapping if an element is unmapped.
    TileToTensorMapping getTileMapping(const Tensor& t, bool requireComplete = true) const;
    unsigned getTileMapping(VertexRef v) const;

    // --- Vertices ---
    ComputeSet addComputeSet(const DebugContext& debugContext = {});
    /// Adds a vertex of a type from a loaded codelet; throws unknown_vertex_type otherwise.
    VertexRef addVertex(ComputeSet cs, StringRef vertexType);
    VertexRef addVertex(ComputeSet cs, StringRef vertexType,
                        std::initializer_list<ConnectionDesc> connections);
    /// Connects a field (or, for FieldRef with an index, one item of a list field).
    void connect(FieldRef field, const Tensor& tensor);
    /// Connects every item of a list field, setting its size.
    void connect(FieldRef field, ArrayRef<Tensor> tensors);
    void setFieldSize(FieldRef field, std::size_t size);
    std::size_t getFieldSize(FieldRef field) const;
    template <typename T> void setInitialValue(FieldRef field, T value) {
        setFieldInitialValue(field, toBytesAs<T>(field, &value, 1), 1, false);
    }
    template <typename T> void setInitialValue(FieldRef field, ArrayRef<T> values) {
        setFieldInitialValue(field, toBytesAs<T>(field, values.data(), values.size()),
                             values.size(), true);
    }
    void setPerfEstimate(const VertexRef& v, std::uint64_t cycles, std::uint64_t flops = 0);
    /// The SDK's older name for setPerfEstimate (cycles only), still used by published programs.
    void setCycleEstimate(const VertexRef& v, std::uint64_t cycles) { setPerfEstimate(v, cycles); }
    void registerPerfEstimator(StringRef vertexTypeName, PerfEstimateFunc f);

    /// Compiles a codelet file with the host compiler and makes its vertex types available.
    /// Throws graph_program_compilation_error carrying the compiler's messages on failure.
    void addCodelets(StringRef src, CodeletFileType type = CodeletFileType::Auto,
                     StringRef compileFlags = "");
    // std::string and C strings would otherwise be ambiguous between StringRef and ArrayRef.
    void addCodelets(const std::string& src, CodeletFileType type = CodeletFileType::Auto,
                     StringRef compileFlags = "") {
        addCodelets(StringRef(src), type, compileFlags);
    }
    void addCodelets(const char* src, CodeletFileType type = CodeletFileType::Auto,
                     StringRef compileFlags = "") {
        addCodelets(StringRef(src), type, compileFlags);
    }
    void addCodelets(ArrayRef<std::string> xs, StringRef compileFlags = "");

    // --- Host interaction ---
    void createHostWrite(StringRef handle, const Tensor& t, bool rearrangeOnHost = false);
    void createHostRead(StringRef handle, const Tensor& t, bool rearrangeOnHost = false);
    DataStream addHostToDeviceFIFO(StringRef handle, const Type& elementType,
                                   std::size_t numElements,
                                   ReplicatedStreamMode mode = ReplicatedStreamMode::REPLICATE,
                                   const OptionFlags& options = {});
    DataStream addDeviceToHostFIFO(StringRef handle, const Type& elementType,
                                   std::size_t numElements, const OptionFlags& options = {});
    /// A remote buffer of `repeats` rows of `numElements` elements (see RemoteBuffer).
    /// `rearrangeOnHost` and `optimiseMemory` are recorded; they change no result.
    RemoteBuffer addRemoteBuffer(StringRef handle, const Type& elementType, std::size_t numElements,
                                 std::size_t repeats = 1, bool rearrangeOnHost = false,
                                 bool optimiseMemory = false);

    // --- Structure ---
    /// A graph over tiles [lowerTile, upperTile) of this one, numbered from 0.
    Graph createVirtualGraph(unsigned lowerTile, unsigned upperTile);
    Graph createVirtualGraph(unsigned numTilesPerIPU);
    /// Replicas this graph runs as (1 unless built with replication_factor or
    /// createReplicatedGraph).
    unsigned getReplicationFactor() const;
    /// This graph as `replicationFactor` replicas, each on getNumIPUs() / replicationFactor IPUs
    /// (the returned graph's target). Only a graph without tensors or vertices yet can be
    /// replicated in the simulator; otherwise, or when the factor does not divide the IPUs,
    /// throws poplar_error.
    Graph createReplicatedGraph(unsigned replicationFactor);
    /// A scalar UNSIGNED_INT constant holding, on each replica, that replica's index (0 to
    /// getReplicationFactor() - 1). Map it to a tile like any tensor.
    Tensor addReplicationIndexConstant(const DebugContext& debugContext = {});
    /// With one replica, `t` itself. The view of all replicas' copies of a tensor as one
    /// tensor is not simulated: with more replicas it throws poplar_error naming it.
    Tensor getNonReplicatedTensor(const Tensor& t) const;
    Function addFunction(const program::Program& program);

    // --- Output ---
    /// Writes the graph: Binary in the executable format (without compiling it; the programs
    /// given are included), JSON as a readable description of variables (shape, type, tile
    /// mapping), vertices (type, tile, connections) and compute sets.
    void serialize(std::ostream& out, SerializationFormat format) const;
    void serialize(std::ostream& out, ArrayRef<program::Program> progs,
                   SerializationFormat format) const;
    /// Graphviz DOT of variables and vertices, edges by connection direction, one cluster per
    /// compute set (view with `dot -Tsvg`).
    void outputVertexGraph(std::ostream& outputStream,
                           ArrayRef<program::Program> progs = ArrayRef<program::Program>()) const;
    /// Graphviz DOT of compute sets and the variables they read and write, with the control
    /// flow of `progs` when given.
    void outputComputeGraph(std::ostream& outputStream,
                            ArrayRef<program::Program> progs = ArrayRef<program::Program>()) const;

    /// The model the simulator compiles (shared by virtual graphs and copies).
    const std::shared_ptr<tilescope::sim::GraphModel>& model() const { return model_; }
    /// Global number of this graph's tile 0 (non-zero for virtual graphs).
    unsigned tileOffset() const { return tileOffset_; }

private:
    Tensor addConstantBytes(const Type& type, ArrayRef<std::size_t> shape,
                            std::vector<unsigned char> bytes, std::size_t count,
                            const DebugContext& debugContext);
    void setTensorInitialValue(const Tensor& t, const std::vector<unsigned char>& bytes,
                               std::size_t count);
    void setFieldInitialValue(FieldRef field, std::vector<unsigned char> bytes, std::size_t count,
                              bool isVector);
    void setFieldValue(FieldRef field, const ConnectionDesc& value);
    std::pair<tilescope::sim::ElementType, bool> stateFieldType(const FieldRef& field) const;
    /// The global tile of `tile`; throws index_error naming what() (built only then).
    unsigned checkTile(unsigned tile, const std::function<std::string()>& what) const;

    template <typename T>
    static std::vector<unsigned char> toBytes(const Type& type, const T* values, std::size_t n) {
        const unsigned size = tilescope::sim::elementSize(type.native());
        std::vector<unsigned char> out(n * size);
        for (std::size_t i = 0; i < n; ++i)
            tilescope::sim::storeElement(type.native(), out.data() + i * size, values[i]);
        return out;
    }
    template <typename T>
    std::vector<unsigned char> toBytesAs(const FieldRef& field, const T* values,
                                         std::size_t n) const {
        return toBytes(Type(stateFieldType(field).first), values, n);
    }

    std::shared_ptr<tilescope::sim::GraphModel> model_;
    Target target_;
    unsigned tileOffset_ = 0;
};

} // namespace poplar
