#pragma once
// The templates the generated registration unit of a codelet library uses to describe vertex
// classes through the codelet ABI (field traits, construction, compute()). Only the simulator's
// generated code and built-in vertices include this header; it is compiled as C++20.

#include "poplar/Vertex.hpp"
#include "tilescope/sim/CodeletAbi.hpp"

#include <cstring>
#include <new>
#include <type_traits>

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
        i.minAlign = A;
        i.interleaved = I;
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
        i.minAlign = A;
        i.interleaved = I;
        return i;
    }
};

/// Direction and element type of the items of a Vector<Input<...>> list.
template <typename T> struct EdgeItemTraits;
template <Direction D, typename T> struct EdgeItemTraits<poplar::detail::Edge<D, T>> {
    static constexpr Direction direction = D;
    static constexpr ElementType elementType = elementTypeOf<T>();
    static constexpr bool isVector = false;
    static constexpr unsigned minAlign = 0;
    static constexpr bool interleaved = false;
};
template <Direction D, typename T, poplar::VectorLayout L, unsigned A, bool I>
struct EdgeItemTraits<poplar::detail::Edge<D, poplar::Vector<T, L, A, I>>> {
    static constexpr Direction direction = D;
    static constexpr ElementType elementType = elementTypeOf<T>();
    static constexpr bool isVector = true;
    static constexpr unsigned minAlign = A;
    static constexpr bool interleaved = I;
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
            i.minAlign = EdgeItemTraits<T>::minAlign;
            i.interleaved = EdgeItemTraits<T>::interleaved;
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

/// A `const` member is vertex state the codelet only reads (set with Graph::setInitialValue);
/// the simulator writes it before any compute runs, as the device loads it from the graph.
template <typename T> struct FieldTraits<const T> {
    static constexpr bool known = FieldTraits<T>::known;
    static FieldInfo info(const T& member) { return FieldTraits<T>::info(const_cast<T&>(member)); }
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

/// The registration record of vertex class V. RunConstructor is false for classes that declare
/// a default constructor they never define (CodeletSourceScanner finds them).
template <typename V, bool RunConstructor = true>
VertexTypeInfo makeVertexTypeInfo(const char* name, void (*visit)(void*, FieldVisitor&)) {
    VertexTypeInfo info;
    info.name = name;
    info.size = sizeof(V);
    info.alignment = alignof(V);
    info.isMultiVertex = std::is_base_of_v<poplar::MultiVertex, V>;
    info.isSupervisor = std::is_base_of_v<poplar::SupervisorVertex, V>;
    static_assert(!(std::is_base_of_v<poplar::MultiVertex, V> &&
                    std::is_base_of_v<poplar::SupervisorVertex, V>),
                  "a supervisor vertex cannot also be a MultiVertex");
    if constexpr (!RunConstructor || !std::is_default_constructible_v<V>) {
        // As on the IPU, where no constructor runs and a vertex's state comes from the graph:
        // for classes whose constructor is declared but never defined, or that have none
        // (`const` fields without initialisers). Zeroed storage is the fields' empty state.
        static_assert(std::is_trivially_copyable_v<V> && std::is_trivially_destructible_v<V> &&
                          !std::is_polymorphic_v<V>,
                      "a vertex that is never constructed must be a plain class");
        info.construct = [](void* memory) { std::memset(memory, 0, sizeof(V)); };
        info.destroy = [](void*) {};
    } else {
        info.construct = [](void* memory) { ::new (memory) V(); };
        info.destroy = [](void* object) { static_cast<V*>(object)->~V(); };
    }
    info.compute = &runCompute<V>;
    info.visitFields = visit;
    return info;
}

} // namespace tilescope::sim::abi
