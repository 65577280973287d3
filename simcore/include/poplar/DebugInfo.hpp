#pragma once
// poplar::DebugInfo: one operation of the program (a PopLibs call, a user layer).

#include "poplar/DebugContext.hpp"
#include "poplar/ProfileValue.hpp"

#include <string>

namespace poplar {

/// An operation. Constructing one registers it under a new id with the context's path and a layer
/// name ("PopLibs", or a user's own layer); contexts made from it (`{debugInfo, "weights"}`) carry
/// that id, so the variables, compute sets and programs created under them are attributed to the
/// operation in profiles written with autoReport.outputDebugInfo. The record outlives the object:
/// a DebugInfo usually goes out of scope long before the engine compiles the graph.
class DebugInfo {
public:
    DebugInfo(const DebugContext& debugContext, const std::string& layer);
    virtual ~DebugInfo() = default;
    DebugInfo(const DebugInfo&) = delete;
    DebugInfo& operator=(const DebugInfo&) = delete;

    DebugId getId() const { return id_; }
    const std::string& getPathName() const { return path_; }

    /// Attaches a named value (a string, number, boolean, or a map or vector of values); returns
    /// false (and keeps the first value) if the name is taken.
    bool setValue(std::string name, ProfileValue value);

private:
    DebugId id_ = 0;
    std::string path_;
};

inline DebugNameAndId::DebugNameAndId(const DebugInfo& debugInfo, StringRef name)
    : path_(DebugContext::join(debugInfo.getPathName(), name)), id_(debugInfo.getId()) {}

} // namespace poplar
