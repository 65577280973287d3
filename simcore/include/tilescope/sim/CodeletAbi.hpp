#pragma once
// The binary interface between the simulator and a runtime-compiled codelet library. A codelet
// library is the user's codelet file compiled together with a generated registration unit; it
// exports `tilescope_register_codelets`, which describes every vertex class it holds through
// VertexTypeInfo. Only plain data and function pointers cross the boundary.

#include "tilescope/sim/ElementType.hpp"

#include <cstddef>
#include <cstdint>

namespace tilescope {
namespace sim {
namespace abi {

/// Bumped whenever a type in this header changes layout.
constexpr std::uint32_t kVersion = 3;

enum class Direction : std::uint8_t { Input, Output, InOut, State };

/// How many tensor regions a field refers to. Scalar and Vector fields hold one Span; List fields
/// (Vector<Input<...>>, Input<VectorList<...>>) hold a SpanList whose items are single elements or
/// vectors, as `itemIsVector` says.
enum class FieldShape : std::uint8_t { Scalar, Vector, List };

/// A run of elements the simulator hands to a vertex field.
struct Span {
    void* data = nullptr;
    std::uint32_t size = 0;
};

struct SpanList {
    const Span* items = nullptr;
    std::uint32_t count = 0;
};

/// One field of a vertex instance, reported by the generated visitor. `storage` points into the
/// vertex object: at a Span (Scalar, Vector), a SpanList (List), or for State scalars at the member
/// itself.
struct FieldInfo {
    const char* name = nullptr;
    Direction direction = Direction::Input;
    ElementType elementType = ElementType::Float;
    FieldShape shape = FieldShape::Scalar;
    bool itemIsVector = false;
    void* storage = nullptr;
    /// Vector<T, Layout, MinAlign, Interleaved> of an edge: the data it connects to must start at
    /// a multiple of `minAlign` bytes and, when `interleaved`, lie in interleaved memory (the
    /// vertex loads or stores it 128 bits at a time). 0 / false for other fields.
    std::uint32_t minAlign = 0;
    bool interleaved = false;
};

class FieldVisitor {
public:
    virtual void field(const FieldInfo& info) = 0;

protected:
    ~FieldVisitor() = default;
};

/// Everything the simulator needs to create, bind and run instances of one vertex class.
struct VertexTypeInfo {
    const char* name = nullptr;
    std::size_t size = 0;
    std::size_t alignment = 0;
    bool isMultiVertex = false;
    /// A SupervisorVertex: compute() runs once for the tile on the supervisor context.
    bool isSupervisor = false;
    void (*construct)(void* memory) = nullptr;
    void (*destroy)(void* object) = nullptr;
    /// Runs compute(); `worker` is the worker context for MultiVertex, 0 otherwise.
    bool (*compute)(void* object, unsigned worker) = nullptr;
    void (*visitFields)(void* object, FieldVisitor& visitor) = nullptr;
};

class CodeletSink {
public:
    virtual void addVertexType(const VertexTypeInfo& info) = 0;

protected:
    ~CodeletSink() = default;
};

/// Signature of the entry point a codelet library exports as `tilescope_register_codelets`.
using RegisterFunction = void (*)(std::uint32_t abiVersion, CodeletSink& sink);

} // namespace abi
} // namespace sim
} // namespace tilescope
