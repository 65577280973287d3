#pragma once
// Everything a graph holds before compilation: variables and their tile mapping, vertices and their
// connections, compute sets, host handles, data streams and functions. poplar::Graph is a thin
// layer over it; the GraphCompiler reads it.

#include "tilescope/sim/CopyOnWriteVector.hpp"
#include "tilescope/sim/ProgramTree.hpp"
#include "tilescope/sim/TargetSpec.hpp"
#include "tilescope/sim/TensorView.hpp"
#include "tilescope/sim/VertexType.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::sim {

inline constexpr std::int32_t kUnmapped = -1;

/// A variable or constant: the storage tensors refer to.
struct VariableInfo {
    std::string name;
    ElementType type = ElementType::Float;
    std::vector<std::size_t> shape;
    std::uint64_t numElements = 0;
    std::vector<std::int32_t> tileOf; ///< per element; kUnmapped until set
    bool isConstant = false;
    std::vector<std::byte> initialValue; ///< empty: undefined at load
    std::uint64_t operation = 0;         ///< the DebugInfo it was created under, 0: none
    /// Graph::addReplicationIndexConstant: an UNSIGNED_INT constant holding, on each replica,
    /// that replica's index (its initial value is replica 0's).
    bool replicationIndex = false;
};

/// What one field of one vertex is connected to. Scalar and Vector fields have one item; List
/// fields have as many as setFieldSize gave (or the connection implied). Items are immutable and
/// shared (null: not connected), so the snapshot an Engine compiles copies pointers, not the
/// element runs of every connection.
struct FieldBinding {
    std::vector<std::shared_ptr<const TensorView>> items;
    bool sized = false;
    std::vector<std::byte> stateValue; ///< State fields: bytes set by setInitialValue
    std::uint64_t stateCount = 0;      ///< State vectors: element count
};

/// A vertex instance: its type (index in the registry), compute set, tile and field bindings.
struct VertexInfo {
    std::uint32_t type = 0;
    std::uint32_t computeSet = 0;
    std::int32_t tile = kUnmapped;
    std::vector<FieldBinding> fields; ///< parallel to the type's field list
    std::optional<std::uint64_t> perfEstimate;
};

/// A compute set: a name and the vertices Execute runs together.
struct ComputeSetInfo {
    std::string name;
    std::vector<std::uint32_t> vertices;
    std::uint64_t operation = 0; ///< the DebugInfo it was created under, 0: none
};

/// A createHostWrite / createHostRead handle.
struct HostHandleInfo {
    std::string handle;
    TensorView tensor;
    bool hostToDevice = true;
};

/// A FIFO data stream between host and device.
struct StreamInfo {
    std::string handle;
    ElementType type = ElementType::Float;
    std::uint64_t numElements = 0;
    bool hostToDevice = true;
    /// ReplicatedStreamMode::BROADCAST: every replica reads the same data (replica 0's
    /// connection); otherwise each replica has its own.
    bool broadcast = false;
};

/// A remote buffer: `repeats` rows of `numElements` elements in memory outside the device.
struct RemoteBufferInfo {
    std::string handle;
    ElementType type = ElementType::Float;
    std::uint64_t numElements = 0;
    std::uint64_t repeats = 1;
};

/// A program registered with Graph::addFunction; its code exists once however often it is called.
struct FunctionInfo {
    std::string name;
    ProgramNodePtr body;
};

struct GraphModel;

/// A per-vertex-type cycle estimator returning thread cycles for one vertex of the model.
/// Registered with Graph::registerPerfEstimator.
struct PerfEstimator {
    std::string vertexType;
    std::function<std::uint64_t(const GraphModel& model, std::uint32_t vertex)> estimate;
};

/// The shared state of a graph and all its virtual graphs and clones.
struct GraphModel {
    /// One replica's target: the device's IPUs divided among the replicas.
    TargetSpec target;
    /// Replicas the graph runs as (Graph's replication_factor); each has `target`'s IPUs.
    unsigned replicationFactor = 1;
    /// Shared with the snapshots Engines compile until the graph changes (copy on write).
    CopyOnWriteVector<VariableInfo> variables;
    CopyOnWriteVector<VertexInfo> vertices;
    std::vector<ComputeSetInfo> computeSets;
    std::vector<HostHandleInfo> hostHandles;
    std::vector<StreamInfo> streams;
    std::vector<RemoteBufferInfo> remoteBuffers;
    std::vector<FunctionInfo> functions;
    VertexTypeRegistry vertexTypes;
    std::vector<PerfEstimator> perfEstimators;
    /// Constants made for values given to Input fields in addVertex's connection list, by
    /// vertex, waiting to be mapped to the vertex's tile when the vertex is mapped.
    std::map<std::uint32_t, std::vector<std::uint32_t>> vertexConstants;
};

} // namespace tilescope::sim
