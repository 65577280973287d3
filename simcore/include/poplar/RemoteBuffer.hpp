#pragma once
// A remote buffer: memory outside the IPU that programs copy tensors to and from.

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

/// Memory outside the device (Streaming Memory) holding `getRepeats()` rows of `numElements()`
/// elements, created by Graph::addRemoteBuffer. program::Copy moves a tensor to or from the row
/// an offset tensor selects; Engine::copyToRemoteBuffer / copyFromRemoteBuffer reach it from
/// the host. Rows start zeroed.
class RemoteBuffer {
public:
    RemoteBuffer() = default;
    std::string handle() const { return handle_; }
    Type elementType() const { return type_; }
    std::size_t numElements() const { return numElements_; }
    std::size_t getRepeats() const { return repeats_; }
    bool isRearrangeOnHost() const { return rearrangeOnHost_; }
    bool isOptimisedForMemory() const { return optimiseMemory_; }
    bool operator==(const RemoteBuffer& b) const { return graph_ == b.graph_ && id_ == b.id_; }
    bool operator!=(const RemoteBuffer& b) const { return !(*this == b); }

    /// The simulator's index of the buffer in its graph.
    unsigned getId() const { return id_; }
    const tilescope::sim::GraphModel* graph() const { return graph_; }

private:
    friend class Graph;
    RemoteBuffer(const tilescope::sim::GraphModel* g, unsigned id, const std::string& handle,
                 Type type, std::size_t numElements, std::size_t repeats, bool rearrangeOnHost,
                 bool optimiseMemory)
        : graph_(g), id_(id), handle_(handle), type_(type), numElements_(numElements),
          repeats_(repeats), rearrangeOnHost_(rearrangeOnHost), optimiseMemory_(optimiseMemory) {}
    const tilescope::sim::GraphModel* graph_ = nullptr;
    unsigned id_ = 0;
    std::string handle_;
    Type type_;
    std::size_t numElements_ = 0;
    std::size_t repeats_ = 0;
    bool rearrangeOnHost_ = false;
    bool optimiseMemory_ = false;
};

} // namespace poplar
