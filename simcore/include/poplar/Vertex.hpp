#pragma once
// Codelet-side API: the base classes and field types of vertex codelets. A codelet file written
// for Poplar (classes deriving from poplar::Vertex or poplar::MultiVertex with Input<>, Output<>,
// InOut<>, Vector<> and VectorList<> fields and a compute() member) compiles unchanged against this
// header; Graph::addCodelets compiles it at run time and binds the fields to tensor data.

#include "poplar/Half.hpp"
#include "tilescope/sim/CodeletAbi.hpp"

#include <cstddef>
#include <new>
#include <type_traits>

namespace tilescope::sim::abi {
struct FieldAccess;
} // namespace tilescope::sim::abi

namespace poplar {

/// How a Vector field is represented on the device. The simulator accepts every layout; the choice
/// only affects the vertex state size the compiler accounts for.
enum class VectorLayout { ONE_PTR, SPAN, SCALED_PTR32, SCALED_PTR64, SHORT_SPAN, COMPACT_PTR };
enum class VectorListLayout { COMPACT_DELTAN, DELTANELEMENTS, DELTAN };

inline constexpr auto ONE_PTR = VectorLayout::ONE_PTR;
inline constexpr auto SPAN = VectorLayout::SPAN;
inline constexpr auto SCALED_PTR32 = VectorLayout::SCALED_PTR32;
inline constexpr auto SCALED_PTR64 = VectorLayout::SCALED_PTR64;
inline constexpr auto SHORT_SPAN = VectorLayout::SHORT_SPAN;
inline constexpr auto COMPACT_PTR = VectorLayout::COMPACT_PTR;
inline constexpr auto COMPACT_DELTAN = VectorListLayout::COMPACT_DELTAN;
inline constexpr auto DELTANELEMENTS = VectorListLayout::DELTANELEMENTS;
inline constexpr auto DELTAN = VectorListLayout::DELTAN;

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
using EdgeRef = std::conditional_t<D == Direction::Input, const T&, T&>;
template <Direction D, typename T>
using EdgePtr = std::conditional_t<D == Direction::Input, const T*, T*>;

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

namespace tilescope::sim::abi {

template <typename T> constexpr bool isElement() {
    return std::is_same_v<T, float> || std::is_same_v<T, poplar::half> || std::is_same_v<T, int> ||
           std::is_same_v<T, unsigned> || std::is_same_v<T, short> ||
           std::is_same_v<T, unsigned short> || std::is_same_v<T, char> ||
           std::is_same_v<T, unsigned char> || std::is_same_v<T, signed char> ||
           std::is_same_v<T, bool> || std::is_same_v<T, long long> ||
           std::is_same_v<T, unsigned long long>;
}

template <typename T> constexpr ElementType elementTypeOf() {
    static_assert(isElement<T>(), "vertex field element type is not a Poplar type");
    if constexpr (std::is_same_v<T, float>)
        return ElementType::Float;
    else if constexpr (std::is_same_v<T, poplar::half>)
        return ElementType::Half;
    else if constexpr (std::is_same_v<T, int>)
        return ElementType::Int;
    else if constexpr (std::is_same_v<T, unsigned>)
        return ElementType::UnsignedInt;
    else if constexpr (std::is_same_v<T, short>)
        return ElementType::Short;
    else if constexpr (std::is_same_v<T, unsigned short>)
        return ElementType::UnsignedShort;
    else if constexpr (std::is_same_v<T, char>)
        return ElementType::Char;
    else if constexpr (std::is_same_v<T, unsigned char>)
        return ElementType::UnsignedChar;
    else if constexpr (std::is_same_v<T, signed char>)
        return ElementType::SignedChar;
    else if constexpr (std::is_same_v<T, bool>)
        return ElementType::Bool;
    else if constexpr (std::is_same_v<T, long long>)
        return ElementType::LongLong;
    else
        return ElementType::UnsignedLongLong;
}

/// Reaches the private storage of field objects for the generated registration code.
struct FieldAccess {
    template <typename F> static void* span(F& f) { return &f.span_; }
    template <typename F> static void* list(F& f) { return &f.list_; }
};

/// Describes the field traits of one member type.
template <typename T> struct FieldTraits {
    static constexpr bool known = isElement<T>();
    static FieldInfo info(T& member) {
        FieldInfo i;
        i.direction = Direction::State;
        i.elementType = elementTypeOf<T>();
        i.shape = FieldShape::Scalar;
        i.storage = &member;
        return i;
    }
};

template <Direction D, typename T> struct FieldTraits<poplar::detail::Edge<D, T>> {
    static constexpr bool known = true;
    static FieldInfo info(poplar::detail::Edge<D, T>& member) {
        FieldInfo i;
        i.direction = D;
        i.elementType = elementTypeOf<T>();
        i.shape = FieldShape::Scalar;
        i.storage = FieldAccess::span(member);
        return i;
    }
};

template <Direction D, typename T, poplar::VectorLayout L, unsigned A, bool I>
struct FieldTraits<poplar::detail::Edge<D, poplar::Vector<T, L, A, I>>> {
    static constexpr bool known = true;
    static FieldInfo info(poplar::detail::Edge<D, poplar::Vector<T, L, A, I>>& member) {
        FieldInfo i;
        i.direction = D;
        i.elementType = elementTypeOf<T>();
        i.shape = FieldShape::Vector;
        i.storage = FieldAccess::span(static_cast<poplar::detail::SpanView<D, T>&>(member));
        return i;
    }
};

template <Direction D, typename T, poplar::VectorListLayout L, unsigned A, bool I>
struct FieldTraits<poplar::detail::Edge<D, poplar::VectorList<T, L, A, I>>> {
    static constexpr bool known = true;
    static FieldInfo info(poplar::detail::Edge<D, poplar::VectorList<T, L, A, I>>& member) {
        FieldInfo i;
        i.direction = D;
        i.elementType = elementTypeOf<T>();
        i.shape = FieldShape::List;
        i.itemIsVector = true;
        i.storage = FieldAccess::list(member);
        return i;
    }
};

/// Direction and element type of the items of a Vector<Input<...>> list.
template <typename T> struct EdgeItemTraits;
template <Direction D, typename T> struct EdgeItemTraits<poplar::detail::Edge<D, T>> {
    static constexpr Direction direction = D;
    static constexpr ElementType elementType = elementTypeOf<T>();
    static constexpr bool isVector = false;
};
template <Direction D, typename T, poplar::VectorLayout L, unsigned A, bool I>
struct EdgeItemTraits<poplar::detail::Edge<D, poplar::Vector<T, L, A, I>>> {
    static constexpr Direction direction = D;
    static constexpr ElementType elementType = elementTypeOf<T>();
    static constexpr bool isVector = true;
};

template <typename T, poplar::VectorLayout L, unsigned A, bool I>
struct FieldTraits<poplar::Vector<T, L, A, I>> {
    static constexpr bool known = poplar::detail::IsEdge<T>::value || isElement<T>();
    static FieldInfo info(poplar::Vector<T, L, A, I>& member) {
        FieldInfo i;
        if constexpr (poplar::detail::IsEdge<T>::value) {
            i.direction = EdgeItemTraits<T>::direction;
            i.elementType = EdgeItemTraits<T>::elementType;
            i.itemIsVector = EdgeItemTraits<T>::isVector;
            i.shape = FieldShape::List;
            using Base = poplar::detail::VectorStorage<T, true>;
            i.storage = FieldAccess::list(static_cast<Base&>(member));
        } else {
            i.direction = Direction::State;
            i.elementType = elementTypeOf<T>();
            i.shape = FieldShape::Vector;
            using Base = poplar::detail::VectorStorage<T, false>;
            i.storage = FieldAccess::span(static_cast<Base&>(member));
        }
        return i;
    }
};

/// Reports one member of a vertex object; members of types the simulator cannot bind (pointers,
/// user structs) are skipped, as the device compiler would reject them as fields anyway.
template <typename T> void describeField(FieldVisitor& visitor, const char* name, T& member) {
    if constexpr (FieldTraits<T>::known) {
        FieldInfo i = FieldTraits<T>::info(member);
        i.name = name;
        visitor.field(i);
    }
}

template <typename V> bool runCompute(void* object, unsigned worker) {
    V& v = *static_cast<V*>(object);
    if constexpr (std::is_base_of_v<poplar::MultiVertex, V>) {
        if constexpr (std::is_void_v<decltype(v.compute(worker))>) {
            v.compute(worker);
            return true;
        } else {
            return static_cast<bool>(v.compute(worker));
        }
    } else {
        (void)worker;
        if constexpr (std::is_void_v<decltype(v.compute())>) {
            v.compute();
            return true;
        } else {
            return static_cast<bool>(v.compute());
        }
    }
}

template <typename V>
VertexTypeInfo makeVertexTypeInfo(const char* name, void (*visit)(void*, FieldVisitor&)) {
    VertexTypeInfo info;
    info.name = name;
    info.size = sizeof(V);
    info.alignment = alignof(V);
    info.isMultiVertex = std::is_base_of<poplar::MultiVertex, V>::value;
    info.isSupervisor = std::is_base_of<poplar::SupervisorVertex, V>::value;
    static_assert(!(std::is_base_of<poplar::MultiVertex, V>::value &&
                    std::is_base_of<poplar::SupervisorVertex, V>::value),
                  "a supervisor vertex cannot also be a MultiVertex");
    info.construct = [](void* memory) { ::new (memory) V(); };
    info.destroy = [](void* object) { static_cast<V*>(object)->~V(); };
    info.compute = &runCompute<V>;
    info.visitFields = visit;
    return info;
}

} // namespace tilescope::sim::abi
