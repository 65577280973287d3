#include "tilescope/sim/CodeletCompiler.hpp"

#include "poplar/exceptions.hpp"
#include "tilescope/sim/CodeletObjectFile.hpp"
#include "tilescope/sim/CodeletSourceScanner.hpp"
#include "tilescope/sim/CodeletUnit.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tilescope::sim {

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in)
        return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// 64-bit FNV-1a: stable across runs and platforms, which std::hash is not.
struct Fnv1a {
    std::uint64_t h = 1469598103934665603ull;
    void add(std::string_view s) {
        for (unsigned char c : s) {
            h ^= c;
            h *= 1099511628211ull;
        }
        h ^= 0xff; // separator so "ab"+"c" differs from "a"+"bc"
        h *= 1099511628211ull;
    }
    std::string hex() const {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        return buf;
    }
};

/// Runs a command, returning its exit status and combined stdout/stderr.
std::pair<int, std::string> runCommand(const std::vector<std::string>& argv, const fs::path& log) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return {-1, "could not start the codelet compiler '" + argv[0] + "': " + std::strerror(rc)};
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::string output = readFile(log);
    std::error_code ec;
    fs::remove(log, ec);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return {code, output};
}

class CollectingSink final : public abi::CodeletSink {
public:
    void addVertexType(const abi::VertexTypeInfo& info) override { infos.push_back(info); }
    std::vector<abi::VertexTypeInfo> infos;
};

std::mutex& loadMutex() {
    static std::mutex m;
    return m;
}

/// Loaded libraries by path, so adding the same codelets to several graphs dlopens once.
std::map<std::string, std::shared_ptr<void>>& loadedLibraries() {
    static std::map<std::string, std::shared_ptr<void>> libs;
    return libs;
}

std::string getenvOr(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

/// A codelet source file read and scanned.
struct ScannedSource {
    fs::path path;     // absolute
    std::string given; // as the user wrote it: what diagnostics name
    std::string text;
    std::vector<ScannedVertexClass> classes;
};

ScannedSource scanSource(const std::string& path) {
    std::error_code ec;
    ScannedSource s;
    s.path = fs::absolute(path, ec).lexically_normal();
    s.given = path;
    if (!fs::is_regular_file(s.path, ec))
        throw poplar::poplar_error("addCodelets: cannot read codelet file '" + path + "'");
    s.text = readFile(s.path);
    s.classes = scanVertexClasses(s.text);
    return s;
}

/// The compiler command (without units and output) and the units of one codelet library.
struct LibraryPlan {
    std::vector<std::string> argv;
    std::vector<std::string> units;     // the entry unit last
    std::vector<std::string> unitNames; // what diagnostics call each unit
};

LibraryPlan planLibrary(const std::vector<ScannedSource>& sources,
                        const CodeletBuildOptions& options, const std::string& target,
                        const std::string& include) {
    LibraryPlan plan;
    plan.argv.push_back(getenvOr("TILESCOPE_CODELET_CXX", "c++"));
    for (auto& a : options.compilerArguments(target))
        plan.argv.push_back(std::move(a));
    for (const char* a : {"-fPIC", "-shared", "-fvisibility=hidden"})
        plan.argv.push_back(a);
    std::vector<std::string> dirs;
    for (const auto& s : sources) {
        const std::string dir = s.path.parent_path().string();
        if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end())
            dirs.push_back(dir);
    }
    for (const auto& d : dirs)
        plan.argv.push_back("-I" + d);
    plan.argv.push_back("-I" + (fs::path(include) / "codelet").string());
    plan.argv.push_back("-I" + include);
    if (include == TILESCOPE_SOURCE_INCLUDE_DIR) { // the source tree: headers live per layer
        std::istringstream extra(TILESCOPE_SOURCE_EXTRA_INCLUDE_DIRS);
        for (std::string dir; std::getline(extra, dir, '|');)
            plan.argv.push_back("-I" + dir);
    }
    std::vector<std::string> registerFunctions;
    std::string description = "TileScope codelets for " + target + " from";
    for (std::size_t i = 0; i < sources.size(); ++i) {
        registerFunctions.push_back("tilescope_register_unit_" + std::to_string(i));
        plan.units.push_back(generateCodeletUnit(sources[i].given, sources[i].text,
                                                 sources[i].classes, registerFunctions.back()));
        plan.unitNames.push_back(sources[i].given);
        description += " " + sources[i].path.filename().string();
    }
    plan.units.push_back(generateEntryUnit(registerFunctions, description));
    plan.unitNames.push_back("<tilescope codelet entry point>");
    return plan;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    if (from.empty())
        return;
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

/// Compiles a planned library into `output`, with units written next to it under `tag`.
/// The IPU's codelet compiler is Clang; codelets may use its extensions (ext_vector_type and
/// its .x/.y lanes), which GCC rejects. Says so, and how to pick Clang, when that may be the
/// cause.
std::string clangOnlyHint(const LibraryPlan& plan) {
    const bool usesClangExtension =
        std::any_of(plan.units.begin(), plan.units.end(), [](const std::string& unit) {
            return unit.find("ext_vector_type") != std::string::npos;
        });
    if (!usesClangExtension || plan.argv.empty() ||
        plan.argv.front().find("clang") != std::string::npos)
        return {};
    return "note: the codelet uses ext_vector_type, a Clang extension (the IPU's codelet "
           "compiler is Clang); this host compiler (" +
           plan.argv.front() +
           ") does not support it. Set TILESCOPE_CODELET_CXX=clang++ to build codelets with "
           "Clang.\n";
}

/// Returns the compiler's messages; throws graph_program_compilation_error on failure.
std::string compileLibrary(const LibraryPlan& plan, const fs::path& workDir, const std::string& tag,
                           const fs::path& output, const std::string& what) {
    std::vector<std::string> argv = plan.argv;
    std::vector<fs::path> unitPaths;
    for (std::size_t i = 0; i < plan.units.size(); ++i) {
        unitPaths.push_back(workDir / (tag + "-" + std::to_string(i) + ".cpp"));
        std::ofstream(unitPaths.back()) << plan.units[i];
        argv.push_back(unitPaths.back().string());
    }
    argv.push_back("-o");
    argv.push_back(output.string());
    auto [code, text] = runCommand(argv, workDir / (tag + ".log"));
    std::error_code ec;
    for (std::size_t i = 0; i < unitPaths.size(); ++i) {
        fs::remove(unitPaths[i], ec);
        replaceAll(text, unitPaths[i].string(), plan.unitNames[i]);
    }
    if (code != 0) {
        fs::remove(output, ec);
        throw poplar::graph_program_compilation_error(what + " failed (exit status " +
                                                      std::to_string(code) + "):\n" + text +
                                                      clangOnlyHint(plan));
    }
    return text;
}

std::string uniqueTag(const std::string& base) {
    static std::atomic<unsigned> counter{0};
    return base + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
}

/// Loads a codelet library (once per process) and describes its vertex types. The caller holds
/// loadMutex().
std::vector<VertexType> loadLibraryLocked(const fs::path& library, const std::string& origin) {
    auto& libs = loadedLibraries();
    std::shared_ptr<void> handle;
    if (auto it = libs.find(library.string()); it != libs.end()) {
        handle = it->second;
    } else {
        void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h)
            throw poplar::poplar_error("addCodelets: cannot load '" + library.string() +
                                       "': " + dlerror());
        // Libraries stay loaded for the life of the process: vertex objects and their vtables
        // may outlive any one graph, and unloading buys nothing here.
        handle = std::shared_ptr<void>(h, [](void*) {});
        libs.emplace(library.string(), handle);
    }
    auto* registerFn =
        reinterpret_cast<abi::RegisterFunction>(dlsym(handle.get(), "tilescope_register_codelets"));
    if (!registerFn)
        throw poplar::poplar_error("addCodelets: '" + origin +
                                   "' has no tilescope_register_codelets entry point");
    CollectingSink sink;
    registerFn(abi::kVersion, sink);
    if (sink.infos.empty() && !dlsym(handle.get(), "tilescope_codelet_object"))
        throw poplar::poplar_error("addCodelets: '" + origin +
                                   "' was built for another version of TileScope; rebuild it");

    std::vector<VertexType> types;
    for (const auto& info : sink.infos) {
        VertexType t;
        t.name = info.name;
        t.info = info;
        t.info.name = nullptr; // the name lives in `t.name`
        t.fields = describeFields(info);
        t.library = handle;
        t.sourcePath = origin;
        t.libraryPath = library.string();
        types.push_back(std::move(t));
    }
    return types;
}

/// Hash of the headers a codelet compile reads from the installation.
void hashInstalledHeaders(Fnv1a& hash, const std::string& include) {
    for (const char* header :
         {"poplar/Vertex.hpp", "poplar/Half.hpp", "tilescope/sim/CodeletRegistration.hpp",
          "tilescope/sim/CodeletAbi.hpp", "tilescope/sim/ElementType.hpp"})
        hash.add(readFile(fs::path(include) / header));
    std::error_code ec;
    std::vector<fs::path> codeletHeaders;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(include) / "codelet", ec))
        codeletHeaders.push_back(e.path());
    std::sort(codeletHeaders.begin(), codeletHeaders.end());
    for (const auto& h : codeletHeaders)
        hash.add(readFile(h));
}

fs::path ensureCacheDirectory() {
    const fs::path cache = CodeletCompiler::cacheDirectory();
    std::error_code ec;
    fs::create_directories(cache, ec);
    if (ec)
        throw poplar::poplar_error("addCodelets: cannot create the codelet cache directory '" +
                                   cache.string() + "': " + ec.message());
    return cache;
}

std::vector<VertexType> loadSource(const std::string& path, const std::string& flags,
                                   const std::string& architecture) {
    CodeletBuildOptions options;
    parseCodeletCompileFlags(flags, options);
    ScannedSource source = scanSource(path);
    if (registeredVertexCount(source.classes) == 0)
        throw poplar::poplar_error("addCodelets: '" + path +
                                   "' declares no vertex class (a class deriving from "
                                   "poplar::Vertex, MultiVertex or SupervisorVertex, or an "
                                   "explicit instantiation of such a class template)");
    const std::string include = CodeletCompiler::includeDirectory();
    const LibraryPlan plan = planLibrary({source}, options, architecture, include);

    Fnv1a hash;
    hash.add(std::to_string(abi::kVersion));
    for (const auto& a : plan.argv)
        hash.add(a);
    for (const auto& u : plan.units)
        hash.add(u);
    hashInstalledHeaders(hash, include);
    const fs::path cache = ensureCacheDirectory();
    const fs::path library = cache / (source.path.stem().string() + "-" + hash.hex() + ".so");

    std::lock_guard lock(loadMutex());
    if (!fs::exists(library)) {
        // Build under a unique name and rename, so concurrent processes never load a partial file.
        const std::string tag = uniqueTag(hash.hex());
        const fs::path tmpLib = cache / (tag + ".so.tmp");
        compileLibrary(plan, cache, tag, tmpLib, "addCodelets: compiling '" + path + "'");
        std::error_code ec;
        fs::rename(tmpLib, library, ec);
        if (ec)
            throw poplar::poplar_error("addCodelets: cannot store '" + library.string() +
                                       "': " + ec.message());
    }
    return loadLibraryLocked(library, source.path.string());
}

std::vector<VertexType> loadObject(const std::string& path, const std::string& architecture) {
    const CodeletObjectFile file = CodeletObjectFile::read(path);
    std::string built;
    for (const auto& o : file.objects) {
        if (o.target != architecture) {
            built += (built.empty() ? "" : ", ") + o.target;
            continue;
        }
        Fnv1a hash;
        hash.add(o.bytes);
        const fs::path cache = ensureCacheDirectory();
        const fs::path library =
            cache / (fs::path(path).stem().string() + "-gp-" + hash.hex() + ".so");
        std::lock_guard lock(loadMutex());
        if (!fs::exists(library)) {
            const fs::path tmp = cache / (uniqueTag(hash.hex()) + ".so.tmp");
            std::ofstream(tmp, std::ios::binary) << o.bytes;
            std::error_code ec;
            fs::rename(tmp, library, ec);
            if (ec)
                throw poplar::poplar_error("addCodelets: cannot store '" + library.string() +
                                           "': " + ec.message());
        }
        return loadLibraryLocked(library, path);
    }
    throw poplar::graph_program_compilation_error(
        "addCodelets: '" + path + "' holds codelets for " + (built.empty() ? "no target" : built) +
        " but the graph's target is " + architecture + " (build it with popc --target " +
        architecture + ")");
}

} // namespace

std::vector<VertexType> CodeletCompiler::loadLibrary(const std::string& libraryPath,
                                                     const std::string& sourcePath) {
    std::lock_guard lock(loadMutex());
    return loadLibraryLocked(libraryPath, sourcePath);
}

std::string CodeletCompiler::includeDirectory() {
    if (const char* env = std::getenv("TILESCOPE_POPLAR_INCLUDE_DIR"); env && *env)
        return env;
    // Installed layout: <prefix>/<libdir>/libpoplar.so next to <prefix>/<includedir>.
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&CodeletCompiler::includeDirectory), &info) &&
        info.dli_fname) {
        const fs::path candidate =
            fs::path(info.dli_fname).parent_path() / TILESCOPE_LIBDIR_TO_INCLUDEDIR;
        if (fs::exists(candidate / "poplar" / "Vertex.hpp"))
            return fs::weakly_canonical(candidate).string();
    }
    return TILESCOPE_SOURCE_INCLUDE_DIR;
}

std::string CodeletCompiler::cacheDirectory() {
    if (const char* env = std::getenv("TILESCOPE_CODELET_CACHE"); env && *env)
        return env;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "tilescope" / "codelets").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".cache" / "tilescope" / "codelets").string();
    return (fs::temp_directory_path() / ("tilescope-codelets-" + std::to_string(getuid())))
        .string();
}

std::vector<VertexType> CodeletCompiler::load(const std::string& path, CodeletFileKind kind,
                                              const std::string& flags,
                                              const std::string& architecture) {
    if (kind == CodeletFileKind::Auto) {
        std::ifstream in(path, std::ios::binary);
        std::string head(64, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        kind = CodeletObjectFile::hasMagic(head) || fs::path(path).extension() == ".gp"
                   ? CodeletFileKind::Object
                   : CodeletFileKind::Source;
    }
    if (kind == CodeletFileKind::Object) {
        CodeletBuildOptions ignored; // flags are still checked, as for a source
        parseCodeletCompileFlags(flags, ignored);
        return loadObject(path, architecture);
    }
    return loadSource(path, flags, architecture);
}

std::string CodeletCompiler::buildObject(const std::vector<std::string>& sources,
                                         const CodeletBuildOptions& options,
                                         const std::string& output) {
    if (sources.empty())
        throw poplar::graph_program_compilation_error("no codelet source files given");
    std::vector<ScannedSource> scanned;
    std::size_t vertices = 0;
    for (const auto& s : sources) {
        scanned.push_back(scanSource(s));
        vertices += registeredVertexCount(scanned.back().classes);
    }
    if (vertices == 0)
        throw poplar::graph_program_compilation_error(
            "no vertex class in the sources (a class deriving from poplar::Vertex, MultiVertex "
            "or SupervisorVertex, or an explicit instantiation of such a class template)");
    const std::vector<std::string> targets =
        options.targets.empty() ? std::vector<std::string>{"ipu2"} : options.targets;
    const std::string include = includeDirectory();
    std::error_code ec;
    const fs::path workDir = fs::temp_directory_path(ec) / uniqueTag("tilescope-popc");
    fs::create_directories(workDir, ec);
    if (ec)
        throw poplar::poplar_error("cannot create a temporary directory: " + ec.message());
    CodeletObjectFile file;
    for (const auto& s : scanned)
        file.sources.push_back(s.path.string());
    std::string messages;
    try {
        for (const auto& target : targets) {
            const LibraryPlan plan = planLibrary(scanned, options, target, include);
            const fs::path lib = workDir / (target + ".so");
            messages += compileLibrary(plan, workDir, target, lib, "compiling for " + target);
            file.objects.push_back({target, readFile(lib)});
        }
    } catch (...) {
        fs::remove_all(workDir, ec);
        throw;
    }
    fs::remove_all(workDir, ec);
    file.write(output);
    return messages;
}

} // namespace tilescope::sim
