// tilescope-bench-transformer: the host time of building, compiling and running the demo
// transformer encoder block (simcore/examples/TransformerBlock.hpp, HALF, by default 1,472 tiles
// and the example's shape) with autoReport on, phase by phase, and of the graph API calls alone.
//
// Phases come from the simulator's own host trace (pvti): the benchmark traces itself into a
// temporary .pvti and sums each event name (graph snapshot, the compiler's passes, compute-set
// costs and exchange messages, load, run, report writing). Graph construction (PopLibs planning
// plus addVertex / connect / setTileMapping) is timed around the user's code; the graph API on
// its own is timed per call on a graph of the demo's vertex count, one Cast vertex per slice.
//
// Every time is also given as a ratio to a reference workload measured in the same run: a fixed
// single-threaded mix of what graph building and compiling do on the host (small allocations,
// hashing, sorting of 64-bit keys, a pass over a large array), independent of the simulator's
// code, so the ratio moves only when the simulator does, and a busy machine slows both sides
// alike. It runs between the phases; its median is the reference. Wall time is given, and the
// process CPU time (all threads), which a busy machine inflates less than wall time.

#include "TransformerBlock.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <pvti/pvti.hpp>
#include <string>
#include <tilescope/capture/HostTracer.hpp>
#include <tilescope/capture/ProfileRecords.hpp>
#include <tilescope/report/HostTraceStatistics.hpp>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// The reference workload; returns a checksum so that none of it can be optimised away.
std::uint64_t referenceWorkload() {
    constexpr std::size_t kRecords = std::size_t{1} << 18;
    std::uint64_t s = 88172645463325252ull, sum = 0;
    const auto next = [&s] {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    };
    // Small allocations, one per record, as vertices and their field bindings are.
    std::vector<std::vector<std::uint32_t>> records(kRecords);
    for (auto& r : records) {
        r.resize(1 + next() % 8);
        for (auto& x : r)
            x = static_cast<std::uint32_t>(next());
    }
    // Hash lookups, as names and types are interned.
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    for (std::size_t i = 0; i < kRecords; ++i)
        index[next() % (kRecords / 2)] += records[i].front();
    // Sorting, as exchange pieces are.
    std::vector<std::uint64_t> keys(4 * kRecords);
    for (auto& k : keys)
        k = next();
    std::sort(keys.begin(), keys.end());
    // A streaming pass, as over per-element tile mappings.
    std::vector<std::int32_t> tiles(16 * kRecords);
    for (std::size_t i = 0; i < tiles.size(); ++i)
        tiles[i] = static_cast<std::int32_t>(i / 1000);
    for (int pass = 0; pass < 4; ++pass)
        for (auto t : tiles)
            sum += static_cast<std::uint64_t>(t == pass);
    for (const auto& [k, v] : index)
        sum += k ^ v;
    return sum + keys[keys.size() / 2] + records.back().back();
}

/// Seconds of CPU the process has used (all its threads).
double processCpuSeconds() {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Wall and process CPU seconds of one stretch of work.
struct Times {
    double wall = 0, cpu = 0;
};

/// Times from construction (or the last lap) to now.
class Stopwatch {
public:
    Times lap() {
        const auto wall = Clock::now();
        const double cpu = processCpuSeconds();
        const Times t{std::chrono::duration<double>(wall - wall_).count(), cpu - cpu_};
        wall_ = wall;
        cpu_ = cpu;
        return t;
    }

private:
    Clock::time_point wall_ = Clock::now();
    double cpu_ = processCpuSeconds();
};

/// The reference workload's runs; its median (wall and CPU) is the reference.
struct Reference {
    std::vector<double> wall, cpu;
    std::uint64_t checksum = 0;
    Times measure() {
        Stopwatch watch;
        checksum += referenceWorkload();
        const Times t = watch.lap();
        wall.push_back(t.wall);
        cpu.push_back(t.cpu);
        return t;
    }
    static double median(std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    }
};

/// Deterministic HALF values in [-scale, scale) for a host write.
std::vector<std::uint16_t> halfValues(const poplar::Target& target, std::size_t n, float scale,
                                      unsigned seed) {
    std::vector<float> v(n);
    std::uint32_t s = seed * 2654435761u + 7u;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = scale * (float((s >> 8) & 0xffff) / 32768.0f - 1.0f);
    }
    std::vector<std::uint16_t> h(n);
    poplar::copyFloatToDeviceHalf(target, v.data(), h.data(), n);
    return h;
}

/// The graph API alone: `vertices` Cast vertices over slices of two tensors mapped linearly,
/// as an elementwise operation adds them. Returns nanoseconds per call of each function.
nlohmann::json graphApi(const poplar::Target& target, std::size_t vertices) {
    using poplar::HALF;
    constexpr std::size_t kElementsPerVertex = 16;
    poplar::Graph graph(target);
    popops::addCodelets(graph);
    const unsigned tiles = target.getNumTiles();
    const std::size_t n = vertices * kElementsPerVertex;
    const auto start = Clock::now();
    poplar::Tensor in = graph.addVariable(HALF, {n}, "in");
    poplar::Tensor out = graph.addVariable(HALF, {n}, "out");
    const double addVariable = secondsSince(start);
    const auto perTile = (vertices + tiles - 1) / tiles;
    auto t0 = Clock::now();
    for (std::size_t v = 0; v < vertices; v += perTile) {
        const auto tile = static_cast<unsigned>(v / perTile);
        const auto lo = v * kElementsPerVertex;
        const auto hi = std::min(vertices, v + perTile) * kElementsPerVertex;
        graph.setTileMapping(in.slice(lo, hi), tile);
        graph.setTileMapping(out.slice(lo, hi), tile);
    }
    const double mapTensors = secondsSince(t0);
    const std::size_t tensorMappings = 2 * ((vertices + perTile - 1) / perTile);
    poplar::ComputeSet cs = graph.addComputeSet("cast");
    std::vector<poplar::VertexRef> refs;
    refs.reserve(vertices);
    t0 = Clock::now();
    for (std::size_t v = 0; v < vertices; ++v)
        refs.push_back(graph.addVertex(cs, "popops::Cast<half,half>"));
    const double addVertex = secondsSince(t0);
    t0 = Clock::now();
    for (std::size_t v = 0; v < vertices; ++v) {
        const auto lo = v * kElementsPerVertex;
        graph.connect(refs[v]["src"], in.slice(lo, lo + kElementsPerVertex));
        graph.connect(refs[v]["dst"], out.slice(lo, lo + kElementsPerVertex));
    }
    const double connect = secondsSince(t0);
    t0 = Clock::now();
    for (std::size_t v = 0; v < vertices; ++v)
        graph.setTileMapping(refs[v], static_cast<unsigned>(v / perTile));
    const double mapVertices = secondsSince(t0);
    const auto nsPer = [](double s, std::size_t calls) { return 1e9 * s / double(calls); };
    return {{"vertices", vertices},
            {"addVariable_s", addVariable},
            {"addVertex_ns", nsPer(addVertex, vertices)},
            {"connect_ns", nsPer(connect, 2 * vertices)},
            {"setTileMapping_vertex_ns", nsPer(mapVertices, vertices)},
            {"setTileMapping_tensor_ns", nsPer(mapTensors, tensorMappings)},
            {"total_s", addVariable + mapTensors + addVertex + connect + mapVertices}};
}

/// Total seconds per event name over the whole host trace.
std::map<std::string, double> tracedSeconds(const fs::path& file) {
    tilescope::report::HostTraceReader reader(file.string());
    const auto span = reader.timeSpan();
    if (!span)
        throw std::runtime_error("the host trace " + file.string() + " holds no events");
    const auto tree = tilescope::report::buildCallTree(reader, span->first, span->second);
    std::map<std::string, double> out;
    for (const auto& s : tree.byName)
        out[reader.name(s.nameId)] = double(s.totalNs) * 1e-9;
    return out;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Host time of building, compiling and running the demo transformer block, phase "
                 "by phase, against a reference workload; prints one JSON object"};
    unsigned tiles = 1472;
    encoder::Sizes s{256, 512, 8, 2048};
    fs::path dir =
        fs::temp_directory_path() / ("tilescope-bench-transformer-" + std::to_string(::getpid()));
    app.add_option("--tiles", tiles, "tiles of the IPU")->check(CLI::Range(1, 1472));
    app.add_option("--seq", s.seq, "sequence length")->check(CLI::PositiveNumber);
    app.add_option("--dmodel", s.model, "model width")->check(CLI::PositiveNumber);
    app.add_option("--heads", s.heads, "attention heads")->check(CLI::PositiveNumber);
    app.add_option("--ff", s.ff, "feed-forward width")->check(CLI::PositiveNumber);
    app.add_option("--dir", dir, "scratch folder for the report and host trace (removed after)");
    CLI11_PARSE(app, argc, argv);
    if (s.model % s.heads != 0) {
        std::cerr << "tilescope-bench-transformer: --dmodel (" << s.model
                  << ") must be a multiple of --heads (" << s.heads << ")\n";
        return 2;
    }

    try {
        fs::remove_all(dir);
        fs::create_directories(dir);
        tilescope::capture::TraceOptions traceOptions;
        traceOptions.enable = true;
        traceOptions.directory = dir / "trace";
        auto& tracer = tilescope::capture::HostTracer::restart(traceOptions);
        Reference reference;
        reference.measure();
        reference.measure();

        // The demo's phases, in order; the reference workload runs between some of them.
        std::vector<std::pair<std::string, Times>> measured;
        Stopwatch watch;
        const auto phase = [&](const char* name) { measured.emplace_back(name, watch.lap()); };
        const auto referenceBetween = [&] {
            reference.measure();
            watch.lap(); // not part of the demo
        };
        poplar::IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        model.compileIPUCode = true; // as the demo: code memory as on hardware
        poplar::Device device = model.createDevice();
        const poplar::Target& target = device.getTarget();
        auto graph = std::make_unique<poplar::Graph>(target);
        popops::addCodelets(*graph);
        poplin::addCodelets(*graph);
        popnn::addCodelets(*graph);
        phase("device and codelets");
        poplar::program::Sequence prog;
        encoder::buildBlock(*graph, s, prog);
        phase("graph construction");
        referenceBetween();

        const poplar::OptionFlags options{{"autoReport.all", "true"},
                                          {"autoReport.directory", (dir / "report").string()}};
        auto engine = std::make_unique<poplar::Engine>(*graph, prog, options);
        phase("engine construction");
        referenceBetween();
        engine->load(device);
        const std::pair<const char*, std::size_t> writes[] = {{"x", s.seq * s.model},
                                                              {"wq", s.model * s.model},
                                                              {"wk", s.model * s.model},
                                                              {"wv", s.model * s.model},
                                                              {"wo", s.model * s.model},
                                                              {"w1", s.model * s.ff},
                                                              {"b1", s.ff},
                                                              {"w2", s.ff * s.model}};
        unsigned seed = 1;
        for (const auto& [handle, n] : writes) {
            const auto values = halfValues(target, n, 0.05f, seed++);
            engine->writeTensor(handle, values.data(), values.data() + values.size());
        }
        engine->run(0);
        phase("load and run");
        const auto& compiled = engine->compileRecords();
        const std::uint64_t vertices = compiled.numVertices, edges = compiled.numEdges;
        const std::uint64_t cycles = engine->executionRecords().runs.at(0).totalCycles;
        engine.reset();
        graph.reset();
        phase("teardown");
        referenceBetween();
        tracer.close();

        const auto traced = tracedSeconds(tracer.file());
        const auto api = graphApi(target, std::size_t(vertices));
        reference.measure();

        const double ref = Reference::median(reference.wall);
        const double refCpu = Reference::median(reference.cpu);
        nlohmann::json phases, phasesCpu;
        Times host;
        for (const auto& [name, t] : measured) {
            phases[name] = t.wall;
            phasesCpu[name] = t.cpu;
            host.wall += t.wall;
            host.cpu += t.cpu;
        }
        for (const char* name :
             {"compile: graph snapshot", "compile: checks", "compile: lowering",
              "compile: compute set cost", "compile: exchange messages", "compile: liveness",
              "compile: records", "compile: memory layout", "compile", "writeCompileProfile",
              "Engine::load", "Engine::run", "writeExecutionProfile"}) {
            // A simulator built before a pass had its tracepoint leaves that phase out.
            if (const auto it = traced.find(name); it != traced.end())
                phases[name] = it->second;
        }
        nlohmann::json ratios, cpuRatios;
        for (const auto& [name, seconds] : phases.items())
            ratios[name] = seconds.get<double>() / ref;
        for (const auto& [name, seconds] : phasesCpu.items())
            cpuRatios[name] = seconds.get<double>() / refCpu;
        const auto minmax = std::minmax_element(reference.wall.begin(), reference.wall.end());
        nlohmann::json out = {
            {"shape",
             {{"tiles", tiles},
              {"seq", s.seq},
              {"d_model", s.model},
              {"heads", s.heads},
              {"ff", s.ff}}},
            {"vertices", vertices},
            {"edges", edges},
            {"run_cycles", cycles},
            {"reference_s", ref},
            {"reference_cpu_s", refCpu},
            {"reference_spread", *minmax.second / *minmax.first},
            {"reference_checksum", reference.checksum},
            {"host_s", host.wall},
            {"host_cpu_s", host.cpu},
            {"host_over_reference", host.wall / ref},
            {"host_cpu_over_reference", host.cpu / refCpu},
            {"build_over_reference", phases["graph construction"].get<double>() / ref},
            {"compile_over_reference", phases.value("compile", 0.0) / ref},
            {"phases_s", phases},
            {"phases_over_reference", ratios},
            {"phases_cpu_s", phasesCpu},
            {"phases_cpu_over_reference", cpuRatios},
            {"graph_api", api},
            {"graph_api_over_reference", api["total_s"].get<double>() / ref},
        };
        std::cout << out.dump(2) << std::endl;
        fs::remove_all(dir);
    } catch (const std::exception& e) {
        std::cerr << "tilescope-bench-transformer: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
