#include "poplar/Executable.hpp"

#include "EngineErrors.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/sim/BlockRecorder.hpp"
#include "tilescope/sim/EngineOptions.hpp"
#include "tilescope/sim/ExecutableImage.hpp"
#include "tilescope/sim/GraphCompiler.hpp"

#include <cstdlib>
#include <map>

namespace poplar {

namespace sim = tilescope::sim;

namespace {

pvti::TraceChannel compileChannel = {"poplar"};

/// Compiles a model with the compile-time options; throws the Engine's out-of-memory error
/// unless debug.allowOutOfMemory is set.
std::shared_ptr<const sim::CompiledGraph>
compileModel(std::shared_ptr<const sim::GraphModel> model,
             const std::vector<sim::ProgramNodePtr>& programs, const void* graphIdentity,
             const tilescope::capture::EngineOptions& options) {
    sim::CompileOptions co;
    co.instrument = options.instrument;
    co.blocks = sim::blockSettingsOf(options);
    co.graphIdentity = graphIdentity;
    pvti::Tracepoint compile(&compileChannel, "compile");
    std::shared_ptr<const sim::CompiledGraph> compiled =
        sim::GraphCompiler::compile(std::move(model), programs, co);
    if (!compiled->records.tilesOutOfMemory.empty() && !options.allowOutOfMemory)
        throw sim::outOfMemoryError(compiled->records);
    return compiled;
}

Executable compile(const Graph& graph, ArrayRef<program::Program> progs, const OptionFlags& opt,
                   const ProgressFunc& progress) {
    pvti::Tracepoint trace(&compileChannel, "compileGraph");
    if (progs.empty())
        throw poplar_error("compileGraph: at least one program is needed");
    sim::OptionList api(opt.begin(), opt.end());
    const auto options = sim::parseEngineOptions(api, std::getenv("POPLAR_ENGINE_OPTIONS"));
    // Keep what compiled this executable, POPLAR_ENGINE_OPTIONS included, for the file.
    std::map<std::string, std::string> kept(api.begin(), api.end());
    for (const auto& o : options.inForce)
        if (o.source != "default" && sim::isCompileTimeOption(o.name))
            kept[o.name] = o.value;

    auto image = std::make_shared<sim::ExecutableImage>();
    image->compileOptions.assign(kept.begin(), kept.end());
    for (const auto& p : progs)
        image->programs.push_back(p.node());
    if (progress)
        progress(0, 1);
    // A snapshot: later changes to the graph do not affect the executable.
    image->model = std::make_shared<const sim::GraphModel>(*graph.model());
    image->compiled = compileModel(image->model, image->programs, graph.model().get(), options);
    if (progress)
        progress(1, 1);
    return Executable(std::move(image));
}

} // namespace

Executable::Executable() = default;
Executable::Executable(Executable&& other) noexcept = default;
Executable& Executable::operator=(Executable&& other) noexcept = default;
Executable::~Executable() = default;
Executable::Executable(std::shared_ptr<const sim::ExecutableImage> image)
    : image_(std::move(image)) {}

void Executable::serialize(std::ostream& out) const {
    if (!image_)
        throw poplar_error("Executable::serialize: the executable is empty (default-constructed "
                           "or moved from)");
    sim::writeSerializedGraph(out, *image_->model, image_->programs, image_->compileOptions);
}

Executable Executable::deserialize(std::istream& in) {
    pvti::Tracepoint trace(&compileChannel, "Executable::deserialize");
    auto read = sim::readSerializedGraph(in, "Executable::deserialize");
    // The stored options alone decide how it was compiled, not this process's environment.
    const auto options = sim::parseEngineOptions(read.options, nullptr);
    auto image = std::make_shared<sim::ExecutableImage>();
    image->compileOptions = std::move(read.options);
    image->programs = std::move(read.programs);
    const void* identity = read.model.get();
    image->model = std::move(read.model);
    // Rebuilds the lowered schedule and memory layout from the stored model (deterministic, no
    // codelet compilation).
    image->compiled = compileModel(image->model, image->programs, identity, options);
    return Executable(std::move(image));
}

Executable compileGraph(const Graph& graph, ArrayRef<program::Program> progs,
                        const OptionFlags& opt, ProgressFunc progressCallBack,
                        const DebugContext&) {
    return compile(graph, progs, opt, progressCallBack);
}

Executable compileGraph(Graph&& graph, ArrayRef<program::Program> progs, const OptionFlags& opt,
                        ProgressFunc progressCallBack, const DebugContext&) {
    return compile(graph, progs, opt, progressCallBack);
}

} // namespace poplar

namespace tilescope::sim {

bool isCompileTimeOption(const std::string& name) {
    return name.rfind("opt.", 0) == 0 || name.rfind("target.", 0) == 0 ||
           name == "debug.instrument" || name == "debug.instrumentCompute" ||
           name == "debug.instrumentControlFlow" || name == "debug.instrumentExternalExchange" ||
           name == "debug.computeInstrumentationLevel" || name == "debug.allowOutOfMemory" ||
           name == "debug.retainDebugInformation" || name.rfind("profiler.blocks.", 0) == 0 ||
           name == "profiler.programs.filter";
}

} // namespace tilescope::sim
