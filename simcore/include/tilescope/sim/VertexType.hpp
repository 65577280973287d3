#pragma once
// Vertex types known to a graph: loaded from runtime-compiled codelet libraries.

#include "tilescope/sim/CodeletAbi.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::sim {

/// One field of a vertex type as the codelet declares it.
struct FieldDescriptor {
    std::string name;
    abi::Direction direction = abi::Direction::Input;
    ElementType elementType = ElementType::Float;
    abi::FieldShape shape = abi::FieldShape::Scalar;
    bool itemIsVector = false;
    /// What the codelet's Vector declares of the data an edge connects to: its alignment in
    /// bytes (0: the element's) and whether it must lie in interleaved memory.
    std::uint32_t minAlign = 0;
    bool interleaved = false;

    bool isEdge() const { return direction != abi::Direction::State; }
    bool reads() const {
        return direction == abi::Direction::Input || direction == abi::Direction::InOut;
    }
    bool writes() const {
        return direction == abi::Direction::Output || direction == abi::Direction::InOut;
    }
};

/// A vertex class from a codelet library: how to construct, bind and run it, and its fields.
/// `library` keeps the shared object loaded while any graph uses the type.
struct VertexType {
    std::string name;
    abi::VertexTypeInfo info;
    std::vector<FieldDescriptor> fields;
    std::shared_ptr<void> library;
    std::string sourcePath;
    /// The shared object a runtime codelet was loaded from (empty for built-in types): an
    /// executable stores its bytes so another process can load the type without compiling.
    std::string libraryPath;

    /// Index of a field by name, or -1.
    int fieldIndex(std::string_view field) const;
};

/// The fields of a vertex class, found by constructing one instance and visiting its members.
std::vector<FieldDescriptor> describeFields(const abi::VertexTypeInfo& info);

/// The vertex types available to a graph (and its virtual graphs and clones), by name.
class VertexTypeRegistry {
public:
    /// Adds or replaces a type (adding the same codelet file twice is harmless).
    std::uint32_t add(VertexType type);
    /// The type's index, or -1 when unknown.
    int find(std::string_view name) const;
    const VertexType& at(std::uint32_t index) const { return *types_[index]; }
    std::size_t size() const { return types_.size(); }
    std::vector<std::string> names() const;

private:
    std::vector<std::shared_ptr<const VertexType>> types_;
    std::map<std::string, std::uint32_t, std::less<>> byName_;
};

} // namespace tilescope::sim
