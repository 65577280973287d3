// tilescope-bench-stencil: a 2-D 5-point Jacobi stencil (zero outside the grid) over a grid split
// into blocks across all tiles of one simulated Mk2 IPU (1,472 tiles), with a halo exchange every
// iteration and a Repeat of K iterations per Engine::run, for a small grid (8 x 8 floats per tile)
// and a large one (128 x 128 floats per tile). Three ways of writing it, as HPC programs for the IPU
// do: "halo" (the main figures) keeps each tile's block with a one-cell halo ring in its own
// padded tensor, fills the rings with one Copy of the neighbours' edge rows and columns (columns
// are thousands of one-element regions) and runs one vertex per block row; "window" runs one
// vertex per tile whose input is the block plus halo cut from the global grid, so the exchange is
// the vertex's remote input; "copies" is "halo" with one Copy program per halo side of each tile,
// as programs ported from MPI codes often have. For each grid and way it prints the host seconds
// per simulated iteration, the simulated cycles per iteration and `sim_over_native`: host time of
// the simulated iterations over host time of the same stencil on the same grid in a plain C++ loop
// with the same thread count. The simulated grid must equal the native one bit for bit (else exit
// 1). `tiny_step_us` is the host time of a step in which every tile adds one number.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <stdexcept>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <thread>
#include <tilescope/capture/ProfileRecords.hpp> // Engine::executionRecords()
#include <unistd.h>
#include <vector>

using Clock = std::chrono::steady_clock;

namespace {

// The update is written the same way in the codelet and in the native loop, so both round
// identically: ((north + south) + west) + east, times 0.25.
const char* const kCodelet = R"(
#include <poplar/Vertex.hpp>
using namespace poplar;

// One tile's block of a Jacobi sweep: `out` is rows x cols interior cells, `in` the same cells
// with a one-cell halo on every side, (rows + 2) x (cols + 2) row-major. Worker w takes the rows
// w, w + 6, ...
class JacobiBlock : public MultiVertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  unsigned rows;
  unsigned cols;

  bool compute(unsigned worker) {
    const unsigned width = cols + 2;
    for (unsigned r = worker; r < rows; r += numWorkers()) {
      const float *above = &in[r * width];
      const float *centre = above + width;
      const float *below = centre + width;
      float *o = &out[r * cols];
      for (unsigned c = 0; c < cols; ++c)
        o[c] = 0.25f * (((above[c + 1] + below[c + 1]) + centre[c]) + centre[c + 2]);
    }
    return true;
  }
};

// One row of a tile's padded block: `out` is the row's cols interior cells, `above`, `centre`
// and `below` the padded rows (cols + 2 cells each).
class JacobiRow : public Vertex {
public:
  Input<Vector<float>> above;
  Input<Vector<float>> centre;
  Input<Vector<float>> below;
  Output<Vector<float>> out;

  bool compute() {
    const unsigned cols = out.size();
    for (unsigned c = 0; c < cols; ++c)
      out[c] = 0.25f * (((above[c + 1] + below[c + 1]) + centre[c]) + centre[c + 2]);
    return true;
  }
};

// The least work a tile can do in a step: one addition.
class Increment : public Vertex {
public:
  InOut<float> x;

  bool compute() {
    *x += 1.0f;
    return true;
  }
};
)";

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// The codelet file in the temporary directory, under one name so that the codelet cache holds
/// one library for it; written under a private name and renamed, so concurrent runs never read a
/// partly written file.
std::string codeletFile() {
    const auto dir = std::filesystem::temp_directory_path();
    const auto path = dir / "tilescope-bench-stencil-codelets.cpp";
    const auto scratch = dir / ("tilescope-bench-stencil-" + std::to_string(::getpid()) + ".tmp");
    std::ofstream(scratch) << kCodelet;
    std::filesystem::rename(scratch, path);
    return path.string();
}

/// tiles = tileRows x tileCols with the two as close as possible (1472 = 32 x 46).
std::pair<unsigned, unsigned> tileGrid(unsigned tiles) {
    unsigned r = static_cast<unsigned>(std::sqrt(double(tiles)));
    while (tiles % r)
        --r;
    return {r, tiles / r};
}

/// Deterministic values in [0, 1).
std::vector<float> initialGrid(std::size_t n) {
    std::vector<float> v(n);
    std::uint32_t s = 12345u;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = float(s >> 8) / float(1u << 24);
    }
    return v;
}

/// One Jacobi sweep over the interior of a padded (rows + 2) x (cols + 2) grid whose border is
/// zero, rows split over the arena's threads.
void nativeSweep(tbb::task_arena& arena, const float* src, float* dst, std::size_t rows,
                 std::size_t cols) {
    const std::size_t width = cols + 2;
    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(1, rows + 1),
                          [&](const tbb::blocked_range<std::size_t>& range) {
                              for (auto r = range.begin(); r != range.end(); ++r) {
                                  const float* above = src + (r - 1) * width;
                                  const float* centre = above + width;
                                  const float* below = centre + width;
                                  float* o = dst + r * width;
                                  for (std::size_t c = 1; c <= cols; ++c)
                                      o[c] = 0.25f * (((above[c] + below[c]) + centre[c - 1]) +
                                                      centre[c + 1]);
                              }
                          });
    });
}

struct Settings {
    unsigned tiles = 1472;
    unsigned iterations = 20; ///< sweeps per Engine::run (even: the Repeat body is two sweeps)
    unsigned runs = 5;
    unsigned threads = 0; ///< 0: all hardware threads, for the simulator and the native loop
    bool window = true;   ///< also run the "window" way
    bool copies = true;   ///< also run the "copies" way
    std::string codelets; ///< path of the codelet source file
};

/// A grid of rows x cols cells in tileRows x tileCols blocks of block x block cells.
struct Grid {
    unsigned tileRows = 0, tileCols = 0, block = 0;
    std::size_t rows() const { return std::size_t(tileRows) * block; }
    std::size_t cols() const { return std::size_t(tileCols) * block; }
    unsigned tile(unsigned ti, unsigned tj) const { return ti * tileCols + tj; }
};

/// What a simulated run gives: the grid after all sweeps (rows x cols), host seconds of the
/// runs, simulated cycles of the last run and host seconds to build and compile.
struct Simulated {
    std::vector<float> grid;
    double runSeconds = 0, buildSeconds = 0;
    std::uint64_t cycles = 0;
};

poplar::Device ipu(const Settings& s) {
    poplar::IPUModel model("ipu2");
    model.tilesPerIPU = s.tiles;
    return model.createDevice();
}

/// Writes the initial grid, runs the engine s.runs times and reads the result through `read`
/// (rows x cols values in the order `fromDevice` maps to the grid).
template <typename Write, typename Read>
Simulated runEngine(const Settings& s, poplar::Engine& engine, Write write, Read read,
                    Clock::time_point buildStart) {
    Simulated out;
    write();
    out.buildSeconds = secondsSince(buildStart);
    const auto start = Clock::now();
    for (unsigned r = 0; r < s.runs; ++r)
        engine.run(0);
    out.runSeconds = secondsSince(start);
    out.grid = read();
    out.cycles = engine.executionRecords().runs.back().totalCycles;
    return out;
}

/// The "halo" way: padded blocks, one Copy filling every halo ring, one vertex per block row.
/// With `copyPerHalo`, the "copies" way: the same with one Copy program per halo side of each
/// tile (thousands of small programs per iteration).
Simulated runHalo(const Settings& s, const Grid& g, const std::vector<float>& initial,
                  bool copyPerHalo) {
    const auto buildStart = Clock::now();
    poplar::Device device = ipu(s);
    poplar::Graph graph(device.getTarget());
    graph.addCodelets(s.codelets);
    const std::size_t b = g.block, p = b + 2;
    const std::vector<std::size_t> shape{g.tileRows, g.tileCols, p, p};
    poplar::Tensor a = graph.addVariable(poplar::FLOAT, shape, "a");
    poplar::Tensor bt = graph.addVariable(poplar::FLOAT, shape, "b");
    for (unsigned ti = 0; ti < g.tileRows; ++ti)
        for (unsigned tj = 0; tj < g.tileCols; ++tj) {
            graph.setTileMapping(a[ti][tj], g.tile(ti, tj));
            graph.setTileMapping(bt[ti][tj], g.tile(ti, tj));
        }
    // Halo rings of x from the neighbours' edge rows and columns; rings on the grid's border stay
    // zero.
    auto exchange = [&](poplar::Tensor x) {
        std::vector<poplar::Tensor> from, to;
        for (unsigned ti = 0; ti < g.tileRows; ++ti)
            for (unsigned tj = 0; tj < g.tileCols; ++tj) {
                poplar::Tensor mine = x[ti][tj];
                if (ti > 0) {
                    from.push_back(x[ti - 1][tj][b].slice(1, b + 1));
                    to.push_back(mine[0].slice(1, b + 1));
                }
                if (ti + 1 < g.tileRows) {
                    from.push_back(x[ti + 1][tj][1].slice(1, b + 1));
                    to.push_back(mine[b + 1].slice(1, b + 1));
                }
                if (tj > 0) {
                    from.push_back(x[ti][tj - 1].slice({1, b}, {b + 1, b + 1}).flatten());
                    to.push_back(mine.slice({1, 0}, {b + 1, 1}).flatten());
                }
                if (tj + 1 < g.tileCols) {
                    from.push_back(x[ti][tj + 1].slice({1, 1}, {b + 1, 2}).flatten());
                    to.push_back(mine.slice({1, b + 1}, {b + 1, b + 2}).flatten());
                }
            }
        poplar::program::Sequence copies;
        if (!copyPerHalo) {
            copies.add(poplar::program::Copy(poplar::concat(from), poplar::concat(to)));
            return copies;
        }
        for (std::size_t i = 0; i < from.size(); ++i)
            copies.add(poplar::program::Copy(from[i], to[i]));
        return copies;
    };
    auto sweep = [&](poplar::Tensor src, poplar::Tensor dst, const std::string& name) {
        poplar::ComputeSet cs = graph.addComputeSet(name);
        for (unsigned ti = 0; ti < g.tileRows; ++ti)
            for (unsigned tj = 0; tj < g.tileCols; ++tj)
                for (std::size_t r = 0; r < b; ++r) {
                    auto v = graph.addVertex(cs, "JacobiRow",
                                             {{"above", src[ti][tj][r]},
                                              {"centre", src[ti][tj][r + 1]},
                                              {"below", src[ti][tj][r + 2]},
                                              {"out", dst[ti][tj][r + 1].slice(1, b + 1)}});
                    graph.setPerfEstimate(v, 20 + 5 * b, 4 * b);
                    graph.setTileMapping(v, g.tile(ti, tj));
                }
        return poplar::program::Execute(cs);
    };
    poplar::program::Sequence body{exchange(a), sweep(a, bt, "a_to_b"), exchange(bt),
                                   sweep(bt, a, "b_to_a")};
    poplar::program::Repeat loop(s.iterations / 2, body);
    graph.createHostWrite("a", a);
    graph.createHostWrite("b", bt);
    graph.createHostRead("a", a);
    poplar::OptionFlags options{{"tilescope.hostThreads", std::to_string(s.threads)}};
    poplar::Engine engine(graph, loop, options);
    engine.load(device);

    // Grid cell (r, c) lives in block (r / b, c / b) at padded (r % b + 1, c % b + 1).
    auto padded = [&](std::size_t r, std::size_t c) {
        return (((r / b) * g.tileCols + c / b) * p + r % b + 1) * p + c % b + 1;
    };
    std::vector<float> hostCopy(std::size_t(g.tileRows) * g.tileCols * p * p, 0.0f);
    auto write = [&] {
        for (std::size_t r = 0; r < g.rows(); ++r)
            for (std::size_t c = 0; c < g.cols(); ++c)
                hostCopy[padded(r, c)] = initial[r * g.cols() + c];
        engine.writeTensor("a", hostCopy.data(), hostCopy.data() + hostCopy.size());
        engine.writeTensor("b", hostCopy.data(), hostCopy.data() + hostCopy.size());
    };
    auto read = [&] {
        engine.readTensor("a", hostCopy.data(), hostCopy.data() + hostCopy.size());
        std::vector<float> grid(g.rows() * g.cols());
        for (std::size_t r = 0; r < g.rows(); ++r)
            for (std::size_t c = 0; c < g.cols(); ++c)
                grid[r * g.cols() + c] = hostCopy[padded(r, c)];
        return grid;
    };
    return runEngine(s, engine, write, read, buildStart);
}

/// The "window" way: the global grid with a zero border, one vertex per tile reading its block
/// plus halo as one (partly remote) input.
Simulated runWindow(const Settings& s, const Grid& g, const std::vector<float>& initial) {
    const auto buildStart = Clock::now();
    poplar::Device device = ipu(s);
    poplar::Graph graph(device.getTarget());
    graph.addCodelets(s.codelets);
    const std::size_t b = g.block, rows = g.rows() + 2, cols = g.cols() + 2;
    poplar::Tensor a = graph.addVariable(poplar::FLOAT, {rows, cols}, "a");
    poplar::Tensor bt = graph.addVariable(poplar::FLOAT, {rows, cols}, "b");
    for (unsigned ti = 0; ti < g.tileRows; ++ti)
        for (unsigned tj = 0; tj < g.tileCols; ++tj) {
            // The block, and the border cells next to it on the grid's edge.
            const std::size_t r0 = ti ? ti * b + 1 : 0, c0 = tj ? tj * b + 1 : 0;
            const std::size_t r1 = ti + 1 == g.tileRows ? rows : (ti + 1) * b + 1;
            const std::size_t c1 = tj + 1 == g.tileCols ? cols : (tj + 1) * b + 1;
            graph.setTileMapping(a.slice({r0, c0}, {r1, c1}), g.tile(ti, tj));
            graph.setTileMapping(bt.slice({r0, c0}, {r1, c1}), g.tile(ti, tj));
        }
    auto sweep = [&](poplar::Tensor src, poplar::Tensor dst, const std::string& name) {
        poplar::ComputeSet cs = graph.addComputeSet(name);
        for (unsigned ti = 0; ti < g.tileRows; ++ti)
            for (unsigned tj = 0; tj < g.tileCols; ++tj) {
                const std::size_t r0 = ti * b + 1, c0 = tj * b + 1;
                auto v = graph.addVertex(
                    cs, "JacobiBlock",
                    {{"in", src.slice({r0 - 1, c0 - 1}, {r0 + b + 1, c0 + b + 1}).flatten()},
                     {"out", dst.slice({r0, c0}, {r0 + b, c0 + b}).flatten()}});
                graph.setInitialValue(v["rows"], unsigned(b));
                graph.setInitialValue(v["cols"], unsigned(b));
                // About 5 cycles per cell per worker, 6 workers.
                graph.setPerfEstimate(v, 20 + 5 * ((b * b + 5) / 6), 4 * b * b);
                graph.setTileMapping(v, g.tile(ti, tj));
            }
        return poplar::program::Execute(cs);
    };
    poplar::program::Sequence body{sweep(a, bt, "a_to_b"), sweep(bt, a, "b_to_a")};
    poplar::program::Repeat loop(s.iterations / 2, body);
    graph.createHostWrite("a", a);
    graph.createHostWrite("b", bt);
    graph.createHostRead("a", a);
    poplar::OptionFlags options{{"tilescope.hostThreads", std::to_string(s.threads)}};
    poplar::Engine engine(graph, loop, options);
    engine.load(device);

    std::vector<float> hostCopy(rows * cols, 0.0f);
    auto write = [&] {
        for (std::size_t r = 0; r < g.rows(); ++r)
            std::copy_n(&initial[r * g.cols()], g.cols(), &hostCopy[(r + 1) * cols + 1]);
        engine.writeTensor("a", hostCopy.data(), hostCopy.data() + hostCopy.size());
        engine.writeTensor("b", hostCopy.data(), hostCopy.data() + hostCopy.size());
    };
    auto read = [&] {
        engine.readTensor("a", hostCopy.data(), hostCopy.data() + hostCopy.size());
        std::vector<float> grid(g.rows() * g.cols());
        for (std::size_t r = 0; r < g.rows(); ++r)
            std::copy_n(&hostCopy[(r + 1) * cols + 1], g.cols(), &grid[r * g.cols()]);
        return grid;
    };
    return runEngine(s, engine, write, read, buildStart);
}

/// Host microseconds per step of a compute set with one one-addition vertex on every tile:
/// the fixed cost of simulating a step, whatever the tile count.
double tinyStepMicroseconds(const Settings& s) {
    poplar::Device device = ipu(s);
    poplar::Graph graph(device.getTarget());
    graph.addCodelets(s.codelets);
    poplar::Tensor x = graph.addVariable(poplar::FLOAT, {s.tiles}, "x");
    poplar::ComputeSet cs = graph.addComputeSet("increment");
    for (unsigned t = 0; t < s.tiles; ++t) {
        graph.setTileMapping(x[t], t);
        auto v = graph.addVertex(cs, "Increment", {{"x", x[t]}});
        graph.setPerfEstimate(v, 10);
        graph.setTileMapping(v, t);
    }
    const unsigned steps = 1000;
    poplar::program::Repeat loop(steps, poplar::program::Execute(cs));
    graph.createHostRead("x", x);
    poplar::OptionFlags options{{"tilescope.hostThreads", std::to_string(s.threads)}};
    poplar::Engine engine(graph, loop, options);
    engine.load(device);
    engine.run(0); // warm up
    const auto start = Clock::now();
    engine.run(0);
    const double seconds = secondsSince(start);
    std::vector<float> values(s.tiles);
    engine.readTensor("x", values.data(), values.data() + values.size());
    for (auto v : values)
        if (v != 2.0f * steps)
            throw std::runtime_error("the increment program gave " + std::to_string(v) +
                                     " instead of " + std::to_string(2.0f * steps));
    return seconds / steps * 1e6;
}

/// Runs the native loop for as many sweeps as the simulator ran; returns the grid and seconds.
std::pair<std::vector<float>, double> runNative(const Settings& s, const Grid& g,
                                                const std::vector<float>& initial) {
    const std::size_t rows = g.rows(), cols = g.cols(), width = cols + 2;
    std::vector<float> x((rows + 2) * width, 0.0f);
    for (std::size_t r = 0; r < rows; ++r)
        std::copy_n(&initial[r * cols], cols, &x[(r + 1) * width + 1]);
    std::vector<float> y = x;
    tbb::task_arena arena(s.threads ? int(s.threads) : tbb::task_arena::automatic);
    const auto start = Clock::now();
    for (unsigned i = 0; i < s.runs * s.iterations; i += 2) {
        nativeSweep(arena, x.data(), y.data(), rows, cols);
        nativeSweep(arena, y.data(), x.data(), rows, cols);
    }
    const double seconds = secondsSince(start);
    std::vector<float> grid(rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        std::copy_n(&x[(r + 1) * width + 1], cols, &grid[r * cols]);
    return {std::move(grid), seconds};
}

void checkEqual(const std::vector<float>& native, const std::vector<float>& simulated,
                std::size_t cols, const char* way) {
    if (std::memcmp(native.data(), simulated.data(), native.size() * sizeof(float)) == 0)
        return;
    std::size_t i = 0;
    while (std::memcmp(&native[i], &simulated[i], sizeof(float)) == 0)
        ++i;
    throw std::runtime_error(std::string("the ") + way + " grid differs from the native one at (" +
                             std::to_string(i / cols) + ", " + std::to_string(i % cols) +
                             "): " + std::to_string(simulated[i]) + " instead of " +
                             std::to_string(native[i]));
}

nlohmann::json figures(const Settings& s, const Simulated& sim, double nativeSeconds) {
    const double sweeps = double(s.runs) * s.iterations;
    return {{"build_and_compile_s", sim.buildSeconds},
            {"host_s_per_iteration", sim.runSeconds / sweeps},
            {"native_s_per_iteration", nativeSeconds / sweeps},
            {"sim_cycles_per_iteration", double(sim.cycles) / s.iterations},
            {"sim_over_native", sim.runSeconds / nativeSeconds},
            {"grids_equal", true}};
}

/// Both ways (or only "halo") on blocks of `block` x `block` floats per tile, checked against
/// the native loop.
nlohmann::json runGrid(const Settings& s, unsigned block) {
    Grid g;
    std::tie(g.tileRows, g.tileCols) = tileGrid(s.tiles);
    g.block = block;
    const auto initial = initialGrid(g.rows() * g.cols());
    const auto [native, nativeSeconds] = runNative(s, g, initial);
    nlohmann::json out = {
        {"rows", g.rows()}, {"cols", g.cols()}, {"floats_per_tile", block * block}};
    const auto halo = runHalo(s, g, initial, false);
    checkEqual(native, halo.grid, g.cols(), "halo");
    out.update(figures(s, halo, nativeSeconds));
    if (s.window) {
        const auto window = runWindow(s, g, initial);
        checkEqual(native, window.grid, g.cols(), "window");
        out["window"] = figures(s, window, nativeSeconds);
    }
    if (s.copies) {
        const auto copies = runHalo(s, g, initial, true);
        checkEqual(native, copies.grid, g.cols(), "copies");
        out["copies"] = figures(s, copies, nativeSeconds);
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"A 5-point Jacobi stencil with halo exchange on one simulated Mk2 IPU against "
                 "the same stencil in a plain C++ loop; prints JSON"};
    Settings s;
    unsigned smallBlock = 8, largeBlock = 128;
    bool haloOnly = false;
    app.add_option("--tiles", s.tiles, "tiles of the IPU")->check(CLI::Range(1, 1472));
    app.add_option("--small-block", smallBlock, "edge of a tile's block, small grid")
        ->check(CLI::Range(1, 1024));
    app.add_option("--large-block", largeBlock, "edge of a tile's block, large grid (0: skip)")
        ->check(CLI::Range(0, 1024));
    app.add_option("--iterations", s.iterations, "stencil sweeps per Engine::run (even)")
        ->check(CLI::Range(2, 100000));
    app.add_option("--runs", s.runs, "Engine::run calls per grid")->check(CLI::Range(1, 100000));
    app.add_option("--threads", s.threads, "host threads (0: all)");
    app.add_flag("--halo-only", haloOnly, "skip the \"window\" and \"copies\" ways");
    CLI11_PARSE(app, argc, argv);
    s.window = s.copies = !haloOnly;
    if (s.iterations % 2) {
        std::cerr << "--iterations must be even: the Repeat body is two sweeps (a to b, b to a)\n";
        return 2;
    }
    try {
        s.codelets = codeletFile();
        nlohmann::json out;
        out["tiles"] = s.tiles;
        out["iterations_per_run"] = s.iterations;
        out["runs"] = s.runs;
        out["threads"] = s.threads ? s.threads : std::thread::hardware_concurrency();
        out["tiny_step_us"] = tinyStepMicroseconds(s);
        out["small"] = runGrid(s, smallBlock);
        out["small_host_s_per_iteration"] = out["small"]["host_s_per_iteration"];
        out["small_sim_over_native"] = out["small"]["sim_over_native"];
        if (largeBlock) {
            out["large"] = runGrid(s, largeBlock);
            out["large_host_s_per_iteration"] = out["large"]["host_s_per_iteration"];
            out["large_sim_over_native"] = out["large"]["sim_over_native"];
        }
        std::cout << out.dump(2) << std::endl;
    } catch (const std::exception& e) {
        std::cerr << "tilescope-bench-stencil: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
