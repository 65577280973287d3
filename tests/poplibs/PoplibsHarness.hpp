#pragma once
// A small graph on a few simulated tiles for the PopLibs tests: host-written inputs, host-read
// outputs, one program, and results read back as doubles for comparison with host references.

#include <cmath>
#include <map>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <tilescope/capture/ProfileRecords.hpp> // Engine::compileRecords()
#include <vector>

namespace poplibstest {

/// Deterministic values in [lo, hi): a small linear congruential sequence.
inline std::vector<double> values(std::size_t n, double lo, double hi, unsigned seed = 1) {
    std::vector<double> out(n);
    std::uint32_t s = seed * 2654435761u + 12345u;
    for (auto& v : out) {
        s = s * 1664525u + 1013904223u;
        v = lo + (hi - lo) * (s >> 8) / double(1u << 24);
    }
    return out;
}

/// Small integers in [lo, hi], exactly representable in FLOAT and HALF.
inline std::vector<double> integers(std::size_t n, int lo, int hi, unsigned seed = 1) {
    auto v = values(n, 0, 1, seed);
    for (auto& x : v)
        x = lo + std::floor(x * (hi - lo + 1));
    return v;
}

/// The host product of row-major {M, K} and {K, N} matrices, summed in index order.
inline std::vector<double> matMulReference(const std::vector<double>& a,
                                           const std::vector<double>& b, std::size_t M,
                                           std::size_t K, std::size_t N) {
    std::vector<double> c(M * N, 0.0);
    for (std::size_t m = 0; m < M; ++m)
        for (std::size_t k = 0; k < K; ++k)
            for (std::size_t n = 0; n < N; ++n)
                c[m * N + n] += a[m * K + k] * b[k * N + n];
    return c;
}

class Harness {
public:
    explicit Harness(unsigned tiles = 8, unsigned ipus = 1)
        : device_(makeDevice(tiles, ipus)), graph(device_.getTarget()) {
        popops::addCodelets(graph);
        poplin::addCodelets(graph);
        popnn::addCodelets(graph);
    }

    /// A host-written input variable mapped linearly over the tiles.
    poplar::Tensor input(const poplar::Type& type, std::vector<std::size_t> shape,
                         std::vector<double> data, const std::string& name) {
        poplar::Tensor t = graph.addVariable(type, shape, name);
        poputil::mapTensorLinearly(graph, t, 1, 1);
        addInput(t, std::move(data), name);
        return t;
    }
    /// Registers an already mapped tensor as an input.
    void addInput(const poplar::Tensor& t, std::vector<double> data, const std::string& name) {
        graph.createHostWrite(name, t);
        inputs_.push_back({name, t.elementType(), std::move(data)});
    }
    /// Replaces the data an input is written with on the next run().
    void setInput(const std::string& name, std::vector<double> data) {
        for (auto& io : inputs_)
            if (io.name == name)
                io.data = std::move(data);
    }
    void output(const poplar::Tensor& t, const std::string& name) {
        graph.createHostRead(name, t);
        outputs_.push_back({name, t.elementType(), std::vector<double>(t.numElements())});
    }

    /// Compiles and runs `prog` once; returns every output by name.
    std::map<std::string, std::vector<double>> run(const poplar::OptionFlags& options = {}) {
        poplar::Engine engine(graph, prog, options);
        engine.load(device_);
        for (auto& io : inputs_)
            transfer(engine, io, true);
        engine.run(0);
        std::map<std::string, std::vector<double>> out;
        for (auto& io : outputs_) {
            transfer(engine, io, false);
            out[io.name] = io.data;
        }
        return out;
    }

    poplar::Graph& g() { return graph; }
    const poplar::Device& device() const { return device_; }

private:
    struct HostBuffer {
        std::string name;
        poplar::Type type;
        std::vector<double> data;
    };
    static poplar::Device makeDevice(unsigned tiles, unsigned ipus) {
        poplar::IPUModel model("ipu2");
        model.numIPUs = ipus;
        model.tilesPerIPU = tiles;
        return model.createDevice();
    }
    template <typename T> static void transferAs(poplar::Engine& e, HostBuffer& io, bool write) {
        std::vector<T> buf(io.data.size());
        if (write) {
            for (std::size_t i = 0; i < buf.size(); ++i)
                buf[i] = static_cast<T>(io.data[i]);
            e.writeTensor(io.name, buf.data(), buf.data() + buf.size());
        } else {
            e.readTensor(io.name, buf.data(), buf.data() + buf.size());
            for (std::size_t i = 0; i < buf.size(); ++i)
                io.data[i] = static_cast<double>(static_cast<float>(buf[i]));
        }
    }
    static void transfer(poplar::Engine& e, HostBuffer& io, bool write) {
        if (io.type == poplar::FLOAT)
            transferAs<float>(e, io, write);
        else if (io.type == poplar::HALF)
            transferAs<poplar::half>(e, io, write);
        else if (io.type == poplar::INT)
            transferAs<int>(e, io, write);
        else if (io.type == poplar::UNSIGNED_INT)
            transferAs<unsigned>(e, io, write);
        else // BOOL: one byte per element
            transferAs<unsigned char>(e, io, write);
    }

    poplar::Device device_;

public:
    poplar::Graph graph;
    poplar::program::Sequence prog;

private:
    std::vector<HostBuffer> inputs_;
    std::vector<HostBuffer> outputs_;
};

/// Rounds to the nearest HALF value (for references of HALF results).
inline double toHalf(double x) {
    return static_cast<float>(poplar::half(static_cast<float>(x)));
}

} // namespace poplibstest
