#include "VertexTypeStore.hpp"

#include "poplar/Graph.hpp"
#include "tilescope/sim/BuiltinLibraries.hpp"
#include "tilescope/sim/CodeletCompiler.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace tilescope::sim {

namespace fs = std::filesystem;

namespace {

enum class TypeKind : std::uint8_t { Builtin, CodeletLibrary };
constexpr const char* kBuiltinSource = "<builtin>";

std::string hashHex(const std::vector<std::byte>& bytes) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx",
                  static_cast<unsigned long long>(fnv1a(bytes.data(), bytes.size())));
    return buf;
}

/// Puts a stored codelet library in the codelet cache (named by its content) and returns the path.
std::string materialise(const std::vector<std::byte>& bytes, const std::string& sourcePath,
                        ByteReader& r) {
    const fs::path cache = CodeletCompiler::cacheDirectory();
    const fs::path stem = fs::path(sourcePath).stem();
    const fs::path file = cache / ("exec-" + stem.string() + "-" + hashHex(bytes) + ".so");
    std::error_code ec;
    if (fs::exists(file, ec) && fs::file_size(file, ec) == bytes.size())
        return file.string();
    fs::create_directories(cache, ec);
    static std::atomic<unsigned> counter{0};
    const fs::path tmp =
        file.string() + "." + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        if (!out)
            r.fail("cannot write the codelet library of '" + sourcePath + "' to '" + tmp.string() +
                   "' (set TILESCOPE_CODELET_CACHE to a writable directory)");
    }
    // Rename so a concurrent process never loads a partial file.
    fs::rename(tmp, file, ec);
    if (ec)
        r.fail("cannot store the codelet library '" + file.string() + "': " + ec.message());
    return file.string();
}

const char* kindName(bool supervisor, bool multiVertex) {
    return supervisor ? "SupervisorVertex" : multiVertex ? "MultiVertex" : "Vertex";
}

} // namespace

void writeVertexTypes(ByteWriter& w, const VertexTypeRegistry& types) {
    std::map<std::string, std::uint32_t> libraryIndex;
    std::vector<const VertexType*> libraryOwners;
    for (std::uint32_t t = 0; t < types.size(); ++t) {
        const auto& type = types.at(t);
        if (type.sourcePath == kBuiltinSource)
            continue;
        if (type.libraryPath.empty())
            throw poplar::poplar_error("Executable::serialize: vertex type '" + type.name +
                                       "' was neither compiled from a codelet file nor built "
                                       "into a PopLibs library; it cannot be serialised");
        if (libraryIndex.emplace(type.libraryPath, libraryOwners.size()).second)
            libraryOwners.push_back(&type);
    }
    w.u64(libraryOwners.size());
    for (const auto* owner : libraryOwners) {
        std::ifstream in(owner->libraryPath, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        if (!in || bytes.str().empty())
            throw poplar::poplar_error("Executable::serialize: cannot read the compiled codelet "
                                       "library '" +
                                       owner->libraryPath + "' of '" + owner->sourcePath +
                                       "' (was the codelet cache cleared?)");
        w.str(owner->sourcePath);
        w.str(bytes.str());
    }
    w.u64(types.size());
    for (std::uint32_t t = 0; t < types.size(); ++t) {
        const auto& type = types.at(t);
        w.str(type.name);
        const bool builtin = type.sourcePath == kBuiltinSource;
        w.u8(static_cast<std::uint8_t>(builtin ? TypeKind::Builtin : TypeKind::CodeletLibrary));
        w.u32(builtin ? 0 : libraryIndex.at(type.libraryPath));
        w.u64(type.fields.size());
        for (const auto& f : type.fields)
            w.str(f.name);
        // How compute() runs; checked against the type loaded back.
        w.boolean(type.info.isSupervisor);
        w.boolean(type.info.isMultiVertex);
    }
}

void readVertexTypes(ByteReader& r, GraphModel& model) {
    r.context("codelet libraries");
    const auto numLibraries = r.count(16);
    std::vector<std::vector<VertexType>> libraries;
    for (std::size_t i = 0; i < numLibraries; ++i) {
        const std::string source = r.str();
        const auto bytes = r.bytes();
        const std::string path = materialise(bytes, source, r);
        try {
            libraries.push_back(CodeletCompiler::loadLibrary(path, source));
        } catch (const poplar::poplar_error& e) {
            r.fail(std::string("the stored codelet library of '") + source +
                   "' does not load here: " + e.what());
        }
    }

    struct Entry {
        std::string name;
        TypeKind kind;
        std::uint32_t library;
        std::vector<std::string> fields;
        bool isSupervisor = false;
        bool isMultiVertex = false;
    };
    r.context("vertex types");
    const auto numTypes = r.count(21);
    std::vector<Entry> entries;
    std::vector<std::string> builtinNames;
    for (std::size_t i = 0; i < numTypes; ++i) {
        Entry e;
        e.name = r.str();
        const auto kind = r.u8();
        if (kind > static_cast<std::uint8_t>(TypeKind::CodeletLibrary))
            r.fail("vertex type '" + e.name + "' has unknown kind " + std::to_string(kind));
        e.kind = static_cast<TypeKind>(kind);
        e.library = r.u32();
        if (e.kind == TypeKind::CodeletLibrary && e.library >= libraries.size())
            r.fail("vertex type '" + e.name + "' refers to codelet library " +
                   std::to_string(e.library) + " of " + std::to_string(libraries.size()));
        const auto numFields = r.count(8);
        for (std::size_t f = 0; f < numFields; ++f)
            e.fields.push_back(r.str());
        e.isSupervisor = r.boolean();
        e.isMultiVertex = r.boolean();
        if (e.kind == TypeKind::Builtin)
            builtinNames.push_back(e.name);
        entries.push_back(std::move(e));
    }

    std::unique_ptr<poplar::Graph> builtins;
    if (!builtinNames.empty()) {
        builtins = std::make_unique<poplar::Graph>(poplar::Target(model.target));
        const auto missing = addBuiltinVertexTypes(*builtins, builtinNames);
        if (!missing.empty())
            r.fail("built-in vertex type '" + missing.front() + "' (and " +
                   std::to_string(missing.size() - 1) +
                   " more) is not provided by any PopLibs library in this process; link the "
                   "PopLibs libraries the executable was built with (popops, poplin, popnn, "
                   "poprand)");
    }

    for (const auto& e : entries) {
        const VertexType* found = nullptr;
        if (e.kind == TypeKind::Builtin) {
            found = &builtins->model()->vertexTypes.at(
                static_cast<std::uint32_t>(builtins->model()->vertexTypes.find(e.name)));
        } else {
            for (const auto& t : libraries[e.library])
                if (t.name == e.name)
                    found = &t;
            if (!found)
                r.fail("the stored codelet library does not define vertex type '" + e.name + "'");
        }
        bool same = found->fields.size() == e.fields.size();
        for (std::size_t f = 0; same && f < e.fields.size(); ++f)
            same = found->fields[f].name == e.fields[f];
        if (!same)
            r.fail("vertex type '" + e.name +
                   "' has different fields here than when the executable was written");
        if (found->info.isSupervisor != e.isSupervisor ||
            found->info.isMultiVertex != e.isMultiVertex)
            r.fail("vertex type '" + e.name + "' was a " +
                   kindName(e.isSupervisor, e.isMultiVertex) +
                   " when the executable was written, here a " +
                   kindName(found->info.isSupervisor, found->info.isMultiVertex));
        if (model.vertexTypes.add(*found) != model.vertexTypes.size() - 1)
            r.fail("vertex type '" + e.name + "' is listed twice");
    }
}

} // namespace tilescope::sim
