#include "tilescope/sim/BuiltinLibraries.hpp"

#include "poplar/Graph.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <dlfcn.h>
#include <filesystem>
#include <mutex>
#include <utility>

namespace tilescope::sim {

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<std::pair<std::string, AddCodeletsFunction>> libraries;
};

Registry& registry() {
    static Registry r;
    return r;
}

std::vector<std::string> missing(const poplar::Graph& graph,
                                 const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const auto& n : names)
        if (graph.model()->vertexTypes.find(n) < 0)
            out.push_back(n);
    return out;
}

void addRegistered(poplar::Graph& graph) {
    std::vector<std::pair<std::string, AddCodeletsFunction>> libs;
    {
        std::lock_guard lock(registry().mutex);
        libs = registry().libraries;
    }
    for (const auto& [name, add] : libs)
        add(graph);
}

/// dlopens the PopLibs libraries; each registers itself as its static initialisers run.
void loadPoplibs() {
    namespace fs = std::filesystem;
    fs::path dir;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&registerBuiltinLibrary), &info) && info.dli_fname)
        dir = fs::path(info.dli_fname).parent_path();
    for (const char* lib : {"popops", "poplin", "popnn", "poprand"}) {
        const std::string file = std::string("lib") + lib + ".so";
        void* h = nullptr;
        if (!dir.empty())
            h = dlopen((dir / file).c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (!h)
            h = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
        (void)h; // kept loaded: its vertex types are used for the rest of the process
    }
}

} // namespace

void registerBuiltinLibrary(const char* name, AddCodeletsFunction addCodelets) {
    std::lock_guard lock(registry().mutex);
    for (const auto& l : registry().libraries)
        if (l.first == name)
            return;
    registry().libraries.emplace_back(name, addCodelets);
}

std::vector<std::string> addBuiltinVertexTypes(poplar::Graph& graph,
                                               const std::vector<std::string>& names) {
    addRegistered(graph);
    auto left = missing(graph, names);
    if (left.empty())
        return left;
    loadPoplibs();
    addRegistered(graph);
    return missing(graph, names);
}

} // namespace tilescope::sim
