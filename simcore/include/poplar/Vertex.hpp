#pragma once
// Codelet-side API: the base classes and field types of vertex codelets. A codelet file written
// for Poplar (classes deriving from poplar::Vertex or poplar::MultiVertex with Input<>, Output<>,
// InOut<>, Vector<> and VectorList<> fields and a compute() member) compiles unchanged against this
// header; Graph::addCodelets compiles it at run time and binds the fields to tensor data. Plain
// C++11, as users' codelets may be; the registration templates the simulator generates code
// against live in tilescope/sim/CodeletRegistration.hpp.

#include "poplar/Half.hpp"
#include "tilescope/sim/CodeletAbi.hpp"

#include <cstddef>
#include <new>
#include <type_traits>

namespace tilescope {
namespace sim {
namespace abi {
struct FieldAccess;
} // namespace abi
} // namespace sim
} // namespace tilescope

namespace poplar {

/// How a Vector field is represented on the device. The simulator accepts every layout; the choice
/// only affects the vertex state size the compiler accounts for.
enum class VectorLayout { ONE_PTR, SPAN, SCALED_PTR32, SCALED_PTR64, SHORT_SPAN, COMPACT_PTR };
enum class VectorListLayout { COMPACT_DELTAN, DELTANELEMENTS, DELTAN };

constexpr VectorLayout ONE_PTR = VectorLayout::ONE_PTR;
constexpr VectorLayout SPAN = VectorLayout::SPAN;
constexpr VectorLayout SCALED_PTR32 = VectorLayout::SCALED_PTR32;
constexpr VectorLayout SCALED_PTR64 = VectorLayout::SCALED_PTR64;
constexpr VectorLayout SHORT_SPAN = VectorLayout::SHORT_SPAN;
constexpr VectorLayout COMPACT_PTR = VectorLayout::COMPACT_PTR;
constexpr VectorListLayout COMPACT_DELTAN = VectorListLayout::COMPACT_DELTAN;
constexpr VectorListLayout DELTANELEMENTS = VectorListLayout::DELTANELEMENTS;
constexpr VectorListLayout DELTAN = VectorListLayout::DELTAN;

/// Base class of single-worker vertices: `bool compute()` runs on one worker context.
class Vertex {};

/// Base class of vertices that run on every worker of the tile: `bool compute(unsigned workerId)`
/// is called once per worker with ids 0..numWorkers()-1.
class MultiVertex {
public:
    static constexpr unsigned numWorkers() { return 6; }
};

/// Base class of supervisor vertices: `bool compute()` runs once per tile on the supervisor
/// context (usually marked `__attribute__((target("supervisor")))`), while the tile's workers
/// wait; the simulator costs it as occupying every worker context.
class SupervisorVertex {};

namespace detail {
template <tilescope::sim::abi::Direction D, typename T> class Edge;
template <typename T> struct IsEdge : std::false_type {};
template <tilescope::sim::abi::Direction D, typename T>
struct IsEdge<Edge<D, T>> : std::true_type {};
template <typename T, bool EdgeItems> class VectorStorage;
} // namespace detail

/// A field holding a run of elements. Inside Input/Output/InOut it marks a vector edge; on its own,
/// Vector<Input<...>> is a list of edges (sized with Graph::setFieldSize) and Vector<T> of a
/// plain type is vertex state set with Graph::setInitialValue.
template <typename T, VectorLayout Layout = VectorLayout::SPAN, unsigned MinAlign = alignof(T),
          bool Interleaved = false>
class Vector : public detail::VectorStorage<T, detail::IsEdge<T>::value> {};

/// A list of element runs inside one edge field, e.g. Input<VectorList<float, DELTANELEMENTS>>.
template <typename T, VectorListLayout Layout = VectorListLayout::DELTANELEMENTS,
          unsigned MinAlign = alignof(T), bool Interleaved = false>
class VectorList {};

namespace detail {

using tilescope::sim::abi::Direction;
using tilescope::sim::abi::Span;
using tilescope::sim::abi::SpanList;

template <Direction D, typename T>
using EdgeRef = typename std::conditional<D == Direction::Input, const T&, T&>::type;
template <Direction D, typename T>
using EdgePtr = typename std::conditional<D == Direction::Input, const T*, T*>::type;

/// A run of elements seen through an edge: indexing, size and iteration.
template <Direction D, typename T> class SpanView {
public:
    SpanView() = default;
    explicit SpanView(const Span& s) : span_(s) {}
    EdgeRef<D, T> operator[](std::size_t i) const { return data()[i]; }
    std::size_t size() const { return span_.size; }
    EdgePtr<D, T> data() const { return static_cast<EdgePtr<D, T>>(span_.data); }
    EdgePtr<D, T> begin() const { return data(); }
    EdgePtr<D, T> end() const { return data() + span_.size; }

private:
    friend struct tilescope::sim::abi::FieldAccess;
    Span span_{};
};

/// Scalar edge: Input<float>, Output<int>, ...
template <Direction D, typename T> class Edge {
public:
    Edge() = default;
    explicit Edge(const Span& s) : span_(s) {}
    Edge(const Edge&) = default;

    EdgeRef<D, T> operator*() const { return *static_cast<EdgePtr<D, T>>(span_.data); }
    operator EdgeRef<D, T>() const { return **this; }
    EdgePtr<D, T> operator->() const { return static_cast<EdgePtr<D, T>>(span_.data); }

    // Assignment writes the element, as on the device (the field itself never moves).
    Edge& operator=(const Edge& other) {
        static_assert(D != Direction::Input, "cannot assign to an Input field");
        **this = static_cast<T>(*other);
        return *this;
    }
    template <typename U> Edge& operator=(const U& value) {
        static_assert(D != Direction::Input, "cannot assign to an Input field");
        **this = static_cast<T>(value);
        return *this;
    }
    template <typename U> Edge& operator+=(const U& v) { return *this = **this + v; }
    template <typename U> Edge& operator-=(const U& v) { return *this = **this - v; }
    template <typename U> Edge& operator*=(const U& v) { return *this = **this * v; }
    template <typename U> Edge& operator/=(const U& v) { return *this = **this / v; }

private:
    friend struct tilescope::sim::abi::FieldAccess;
    Span span_{};
};

/// Vector edge: Input<Vector<float>>, ...
template <Direction D, typename T, VectorLayout L, unsigned A, bool I>
class Edge<D, poplar::Vector<T, L, A, I>> : public SpanView<D, T> {
public:
    using SpanView<D, T>::SpanView;
    // `in->size()`, as the SDK's vector fields allow.
    const SpanView<D, T>* operator->() const { return this; }
};

/// Vector-list edge: Input<VectorList<float>>; element i is a run of elements.
template <Direction D, typename T, VectorListLayout L, unsigned A, bool I>
class Edge<D, poplar::VectorList<T, L, A, I>> {
public:
    SpanView<D, T> operator[](std::size_t i) const { return SpanView<D, T>(list_.items[i]); }
    std::size_t size() const { return list_.count; }
    const Edge* operator->() const { return this; }

private:
    friend struct tilescope::sim::abi::FieldAccess;
    SpanList list_{};
};

/// Vector<T> of a plain type: vertex state.
template <typename T> class VectorStorage<T, false> {
public:
    T& operator[](std::size_t i) const { return data()[i]; }
    std::size_t size() const { return span_.size; }
    T* data() const { return static_cast<T*>(span_.data); }
    T* begin() const { return data(); }
    T* end() const { return data() + span_.size; }

private:
    friend struct tilescope::sim::abi::FieldAccess;
    Span span_{};
};

/// Vector<Input<...>>: a list of edges.
template <typename EdgeT> class VectorStorage<EdgeT, true> {
public:
    EdgeT operator[](std::size_t i) const { return EdgeT(list_.items[i]); }
    std::size_t size() const { return list_.count; }

private:
    friend struct tilescope::sim::abi::FieldAccess;
    SpanList list_{};
};

} // namespace detail

template <typename T> using Input = detail::Edge<tilescope::sim::abi::Direction::Input, T>;
template <typename T> using Output = detail::Edge<tilescope::sim::abi::Direction::Output, T>;
template <typename T> using InOut = detail::Edge<tilescope::sim::abi::Direction::InOut, T>;

} // namespace poplar
