#pragma once
// Handles to graph objects: compute sets, vertices, vertex fields, data streams, functions.

#include "poplar/RemoteBuffer.hpp"
#include "poplar/StringRef.hpp"
#include "poplar/Type.hpp"

#include <cstddef>
#include <string>

namespace tilescope {
namespace sim {
struct GraphModel;
}
} // namespace tilescope

namespace poplar {

class Graph;

/// A set of vertices executed together by program::Execute.
class ComputeSet {
public:
    ComputeSet() = default;
    unsigned getId() const { return id_; }

private:
    friend class Graph;
    friend struct GraphAccess;
    ComputeSet(const tilescope::sim::GraphModel* g, unsigned id) : graph_(g), id_(id) {}
    const tilescope::sim::GraphModel* graph_ = nullptr;
    unsigned id_ = 0;
};

class FieldRef;

/// A vertex in a graph; index it with a field name to get a FieldRef.
class VertexRef {
public:
    VertexRef() = default;
    FieldRef operator[](StringRef fieldName) const;
    unsigned getId() const { return id_; }

private:
    friend class Graph;
    friend class FieldRef;
    VertexRef(tilescope::sim::GraphModel* g, unsigned id) : graph_(g), id_(id) {}
    tilescope::sim::GraphModel* graph_ = nullptr;
    unsigned id_ = 0;
};

/// A field of a vertex, or (with operator[]) one element of a list field.
class FieldRef {
public:
    FieldRef() = default;
    FieldRef(const VertexRef& v, StringRef field) : vertex_(v), field_(field) {}
    FieldRef operator[](std::size_t index) const {
        FieldRef f = *this;
        f.hasIndex_ = true;
        f.index_ = index;
        return f;
    }
    const VertexRef& vertex() const { return vertex_; }
    const std::string& name() const { return field_; }
    /// Whether this refers to one element of a list field, and which.
    bool hasIndex() const { return hasIndex_; }
    std::size_t getIndex() const { return index_; }

private:
    VertexRef vertex_;
    std::string field_;
    bool hasIndex_ = false;
    std::size_t index_ = 0;
};

inline FieldRef VertexRef::operator[](StringRef fieldName) const {
    return FieldRef(*this, fieldName);
}

/// A FIFO between host and device, created by Graph::addHostToDeviceFIFO or
/// addDeviceToHostFIFO and used in program::Copy.
class DataStream {
public:
    DataStream() = default;
    const std::string& handle() const { return handle_; }
    Type elementType() const { return type_; }
    std::size_t numElements() const { return numElements_; }
    unsigned getId() const { return id_; }
    const tilescope::sim::GraphModel* graph() const { return graph_; }

private:
    friend class Graph;
    DataStream(const tilescope::sim::GraphModel* g, unsigned id, std::string handle, Type type,
               std::size_t n)
        : graph_(g), id_(id), handle_(std::move(handle)), type_(type), numElements_(n) {}
    const tilescope::sim::GraphModel* graph_ = nullptr;
    unsigned id_ = 0;
    std::string handle_;
    Type type_;
    std::size_t numElements_ = 0;
};

/// A program that can be called several times with program::Call; its code exists once.
class Function {
public:
    Function() = default;
    unsigned getId() const { return id_; }
    const tilescope::sim::GraphModel* graph() const { return graph_; }

private:
    friend class Graph;
    Function(const tilescope::sim::GraphModel* g, unsigned id) : graph_(g), id_(id) {}
    const tilescope::sim::GraphModel* graph_ = nullptr;
    unsigned id_ = 0;
};

/// Read access to ComputeSet internals for program::Execute.
struct GraphAccess {
    static const tilescope::sim::GraphModel* graph(const ComputeSet& cs) { return cs.graph_; }
};

} // namespace poplar
