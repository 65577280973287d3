#pragma once
// Poplar's exception classes. Every error the simulator raises is a poplar_error subclass whose
// message names the tensor, vertex, field, tile, stream or option at fault.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace poplar {

/// Base class of all Poplar errors; `type` is the class name, as in Poplar.
struct poplar_error : std::runtime_error {
    std::string type;
    explicit poplar_error(const std::string& message) : poplar_error("poplar_error", message) {}

protected:
    poplar_error(const char* typeName, const std::string& message)
        : std::runtime_error(message), type(typeName) {}
};

#define TILESCOPE_POPLAR_ERROR(name)                                                               \
    struct name : poplar_error {                                                                   \
        explicit name(const std::string& message) : poplar_error(#name, message) {}                \
    }

/// A vertex field, connection or edge is wrong (unconnected field, element type mismatch).
TILESCOPE_POPLAR_ERROR(graph_connection_error);
/// addCodelets failed: the compiler's diagnostics are in the message.
TILESCOPE_POPLAR_ERROR(graph_program_compilation_error);
/// A tile number, tensor index or slice is out of range.
TILESCOPE_POPLAR_ERROR(index_error);
/// A tensor element or vertex has no tile, or a mapping is malformed.
TILESCOPE_POPLAR_ERROR(invalid_tile_mapping);
/// An engine or target option is unknown or has a bad value.
TILESCOPE_POPLAR_ERROR(invalid_option);
/// A data stream is unknown, unconnected or connected to a buffer of the wrong size.
TILESCOPE_POPLAR_ERROR(stream_connection_error);
/// addVertex names a vertex type no codelet defines.
TILESCOPE_POPLAR_ERROR(unknown_vertex_type);
/// A field name is not a field of the vertex type.
TILESCOPE_POPLAR_ERROR(unknown_field);
/// A list field was connected by index before Graph::setFieldSize.
TILESCOPE_POPLAR_ERROR(no_size_specified);
/// Element types of two tensors or of a tensor and a field disagree.
TILESCOPE_POPLAR_ERROR(type_error);
/// Invalid shape arguments when creating or viewing a tensor.
TILESCOPE_POPLAR_ERROR(tensor_creation_error);
/// A program is malformed (bad predicate, copy shape mismatch, unknown handle).
TILESCOPE_POPLAR_ERROR(control_program_error);
/// A vertex's compute() returned false while the engine ran.
TILESCOPE_POPLAR_ERROR(application_runtime_error);
/// Text (for example POPLAR_ENGINE_OPTIONS) could not be parsed.
TILESCOPE_POPLAR_ERROR(parse_error);

#undef TILESCOPE_POPLAR_ERROR

/// A tile needs more memory than it has. `tile()` is the first tile over its limit and
/// `excessBytes()` how far over it is.
struct graph_memory_allocation_error : poplar_error {
    graph_memory_allocation_error(const std::string& message, unsigned tile,
                                  std::uint64_t excessBytes)
        : poplar_error("graph_memory_allocation_error", message), tile_(tile),
          excess_(excessBytes) {}
    unsigned tile() const { return tile_; }
    std::uint64_t excessBytes() const { return excess_; }

private:
    unsigned tile_;
    std::uint64_t excess_;
};

} // namespace poplar
