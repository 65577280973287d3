#pragma once
// The process-wide store of operations (poplar::DebugInfo records) that graph objects refer to by
// id. Graphs keep only ids; the compiler looks the operations up when it writes compile records.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::sim {

/// One registered operation. `parent` is the operation whose context it was created in (0: none).
struct OperationInfo {
    std::uint64_t id = 0;
    std::uint64_t parent = 0;
    std::string path;  ///< the debug context's path, e.g. "layer1/matMul"
    std::string layer; ///< "PopLibs" or a user layer name
    /// DebugInfo::setValue values in the order they were set, each as JSON text.
    std::vector<std::pair<std::string, std::string>> values;
    std::optional<std::uint64_t> flops; ///< estimated floating-point operations, when known

    /// The operation's own name: its "api" value when set (PopLibs), else the last path element.
    std::string name() const;
    /// All values as one JSON object, keys in the order they were set ("{}" when none).
    std::string debugJson() const;
};

/// Thread-safe registry of every DebugInfo created in the process. Ids start at 1.
class OperationRegistry {
public:
    static OperationRegistry& instance();

    std::uint64_t add(std::uint64_t parent, std::string path, std::string layer);
    /// Returns false if `name` already has a value. `json` is the value as JSON text.
    bool setValue(std::uint64_t id, std::string name, std::string json);
    /// Sets (adds to) the estimated FLOPs of an operation.
    void addFlops(std::uint64_t id, std::uint64_t flops);
    std::optional<OperationInfo> find(std::uint64_t id) const;

private:
    mutable std::mutex mutex_;
    std::vector<OperationInfo> operations_; ///< index = id - 1
};

} // namespace tilescope::sim
