// poprand::uniform and poprand::normal: a counter-based generator (each element hashes the seed,
// the seed modifier and its own index), so values do not depend on where elements live or on
// how many host threads run the tiles.

#include "poprand/RandomGen.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "poprand/codelets.hpp"
#include "tilescope/sim/BuiltinLibraries.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <cmath>
#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poprand {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// SplitMix64's output function: a bijective 64-bit mix with full avalanche.
inline std::uint64_t mix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// A uniform double in [0, 1) from draw `counter` of the stream `key`.
inline double uniform01(std::uint64_t key, std::uint64_t counter) {
    return static_cast<double>(mix(key ^ mix(counter)) >> 11) * 0x1.0p-53;
}

enum class Distribution { Uniform, Normal };

/// out[i] = a draw for element firstIndex + i. Uniform: [a, b) (integers of [a, b] for int);
/// normal: mean a, standard deviation b.
template <typename T, Distribution D> class RandomGen : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<unsigned>> seed;
    poplar::Output<poplar::Vector<T>> out;
    unsigned seedModifier = 0;
    unsigned firstIndex = 0;
    float a = 0, b = 1;
    bool compute() {
        const std::uint64_t key =
            mix(mix((std::uint64_t(seed[0]) << 32) | seed[1]) ^ std::uint64_t(seedModifier));
        for (std::size_t i = 0; i < out.size(); ++i) {
            const std::uint64_t index = std::uint64_t(firstIndex) + i;
            if constexpr (D == Distribution::Normal) {
                const double u1 = 1.0 - uniform01(key, 2 * index); // (0, 1]: log is finite
                const double u2 = uniform01(key, 2 * index + 1);
                const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
                out[i] = static_cast<T>(static_cast<float>(a + b * z));
            } else if constexpr (std::is_integral_v<T>) {
                const double span = double(b) - double(a) + 1.0;
                const double v = std::floor(double(a) + span * uniform01(key, index));
                out[i] = static_cast<T>(std::min(v, double(b)));
            } else {
                out[i] = static_cast<T>(
                    static_cast<float>(double(a) + (double(b) - a) * uniform01(key, index)));
            }
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<RandomGen*>(o);
        describeField(f, "seed", v.seed);
        describeField(f, "out", v.out);
        describeField(f, "seedModifier", v.seedModifier);
        describeField(f, "firstIndex", v.firstIndex);
        describeField(f, "a", v.a);
        describeField(f, "b", v.b);
    }
};

const char* vertexBase(Distribution d) {
    return d == Distribution::Normal ? "poprand::Normal" : "poprand::Uniform";
}

template <typename T, Distribution D> void registerFor(poplar::Graph& graph) {
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    tilescope::sim::registerBuiltinVertex<RandomGen<T, D>>(
        graph, poputil::templateVertex(vertexBase(D), type), &RandomGen<T, D>::visit);
}

Tensor generate(poplar::Graph& graph, const Tensor* seed, std::uint32_t seedModifier,
                const Tensor& reference, const poplar::Type& outType, double a, double b,
                Distribution d, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext) {
    const char* api = d == Distribution::Normal ? "normal" : "uniform";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(seed, seedModifier, reference, outType, a, b),
                              api);
    const bool intOut = outType == poplar::INT;
    if (outType != poplar::FLOAT && outType != poplar::HALF &&
        !(intOut && d == Distribution::Uniform))
        throw poputil::poplibs_error(std::string("poprand::") + api + ": output type " +
                                     outType.toString() + " is not supported (FLOAT, HALF" +
                                     (d == Distribution::Uniform ? ", INT)" : ")"));
    if (d == Distribution::Uniform ? !(a <= b) : !(b >= 0))
        throw poputil::poplibs_error(
            std::string("poprand::") + api + ": " +
            (d == Distribution::Uniform
                 ? "minVal " + std::to_string(a) + " exceeds maxVal " + std::to_string(b)
                 : "stdDev " + std::to_string(b) + " is negative"));
    if (reference.numElements() > 0xffffffffull)
        throw poputil::poplibs_error(std::string("poprand::") + api +
                                     ": reference has more than 2^32 elements");
    Tensor seedTensor;
    if (seed) {
        if (seed->elementType() != poplar::UNSIGNED_INT || seed->numElements() != 2)
            throw poputil::poplibs_error(
                std::string("poprand::") + api + ": seed tensor '" + seed->getName() +
                "' must be UNSIGNED_INT with 2 elements, "
                "got " +
                seed->elementType().toString() + " of shape " + seed->shapeToString());
        seedTensor = seed->flatten();
    } else {
        seedTensor = graph.addConstant<unsigned>(poplar::UNSIGNED_INT, {2}, 0u, {di, "seed"});
        graph.setTileMapping(seedTensor, 0);
        seedModifier = static_cast<std::uint32_t>(di.getId());
    }
    Tensor out = pl::createOutput(graph, outType, reference.shape(), reference, {di, "out"});
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const auto& target = graph.getTarget();
    const std::size_t workers = target.getNumWorkerContexts();
    const std::string vertexType = poputil::templateVertex(vertexBase(d), outType);
    const Tensor flat = out.flatten();
    const auto mapping = graph.getTileMapping(out);
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        std::size_t onTile = 0;
        for (const auto& i : mapping[tile])
            onTile += i.size();
        const std::size_t chunk = std::max<std::size_t>(1, (onTile + workers - 1) / workers);
        // One vertex per piece of at most `chunk` consecutive elements: each knows its first
        // element's index, which keys its draws.
        for (const auto& interval : mapping[tile]) {
            for (std::size_t begin = interval.begin(); begin < interval.end(); begin += chunk) {
                const std::size_t end = std::min<std::size_t>(interval.end(), begin + chunk);
                poplar::VertexRef v = graph.addVertex(cs, vertexType);
                graph.connect(v["seed"], seedTensor);
                graph.connect(v["out"], flat.slice(begin, end));
                graph.setInitialValue(v["seedModifier"], static_cast<unsigned>(seedModifier));
                graph.setInitialValue(v["firstIndex"], static_cast<unsigned>(begin));
                graph.setInitialValue(v["a"], static_cast<float>(a));
                graph.setInitialValue(v["b"], static_cast<float>(b));
                graph.setTileMapping(v, tile);
                graph.setPerfEstimate(v, pl::cycles::randomValues(target, outType, end - begin,
                                                                  d == Distribution::Normal));
            }
        }
    }
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(out.numElements() * (d == Distribution::Normal ? 10 : 2));
    di.addOutput(out);
    return out;
}

} // namespace

void addCodelets(poplar::Graph& graph) {
    registerFor<float, Distribution::Uniform>(graph);
    registerFor<poplar::half, Distribution::Uniform>(graph);
    registerFor<int, Distribution::Uniform>(graph);
    registerFor<float, Distribution::Normal>(graph);
    registerFor<poplar::half, Distribution::Normal>(graph);
}

Tensor uniform(poplar::Graph& graph, const Tensor* seed, std::uint32_t seedModifier,
               const Tensor& reference, const poplar::Type& outType, double minVal, double maxVal,
               poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    return generate(graph, seed, seedModifier, reference, outType, minVal, maxVal,
                    Distribution::Uniform, prog, debugContext);
}

Tensor normal(poplar::Graph& graph, const Tensor* seed, std::uint32_t seedModifier,
              const Tensor& reference, const poplar::Type& outType, double mean, double stdDev,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    return generate(graph, seed, seedModifier, reference, outType, mean, stdDev,
                    Distribution::Normal, prog, debugContext);
}

} // namespace poprand

// Lets a deserialised executable find these vertex types by name in another process.
TILESCOPE_REGISTER_BUILTIN_LIBRARY("poprand", &poprand::addCodelets)
