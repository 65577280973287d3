#pragma once
// A replicated graph on a few simulated tiles per replica for the replication tests: each
// replica's input comes from a REPLICATE stream (one host buffer, a part per replica), its
// outputs go to device-to-host streams read back per replica as doubles.

#include <cstddef>
#include <map>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <tilescope/sim/ElementConversion.hpp>
#include <vector>

namespace replicationtest {

inline poplar::Device makeDevice(unsigned ipus, unsigned tilesPerIpu = 4) {
    poplar::IPUModel model("ipu2");
    model.numIPUs = ipus;
    model.tilesPerIPU = tilesPerIpu;
    return model.createDevice();
}

/// Device bytes of `values` as `type`.
inline std::vector<std::byte> encode(const poplar::Type& type, const std::vector<double>& values) {
    const unsigned size = tilescope::sim::elementSize(type.native());
    std::vector<std::byte> out(values.size() * size);
    for (std::size_t i = 0; i < values.size(); ++i)
        tilescope::sim::storeElement(type.native(), out.data() + i * size, values[i]);
    return out;
}

inline std::vector<double> decode(const poplar::Type& type, const std::vector<std::byte>& bytes) {
    const unsigned size = tilescope::sim::elementSize(type.native());
    std::vector<double> out(bytes.size() / size);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = tilescope::sim::loadElementAsDouble(type.native(), bytes.data() + i * size);
    return out;
}

class Replicated {
public:
    Replicated(unsigned replicas, unsigned tilesPerIpu = 4)
        : replicas(replicas), device_(makeDevice(replicas, tilesPerIpu)),
          graph(device_.getTarget(), poplar::replication_factor(replicas)) {
        popops::addCodelets(graph);
    }

    /// A variable mapped linearly over the replica's tiles, filled from a REPLICATE stream:
    /// `perReplica[r]` is replica r's data.
    poplar::Tensor input(const poplar::Type& type, std::vector<std::size_t> shape,
                         std::vector<std::vector<double>> perReplica, const std::string& name) {
        poplar::Tensor t = graph.addVariable(type, shape, name);
        poputil::mapTensorLinearly(graph, t, 1, 1);
        auto stream = graph.addHostToDeviceFIFO(name, type, t.numElements());
        prog.add(poplar::program::Copy(stream, t));
        std::vector<std::byte> buffer;
        for (const auto& values : perReplica) {
            auto bytes = encode(type, values);
            buffer.insert(buffer.end(), bytes.begin(), bytes.end());
        }
        inputs_[name] = std::move(buffer);
        return t;
    }

    /// A variable mapped linearly, filled from a BROADCAST stream: every replica receives
    /// `values`.
    poplar::Tensor broadcastInput(const poplar::Type& type, std::vector<std::size_t> shape,
                                  const std::vector<double>& values, const std::string& name) {
        poplar::Tensor t = graph.addVariable(type, shape, name);
        poputil::mapTensorLinearly(graph, t, 1, 1);
        auto stream = graph.addHostToDeviceFIFO(name, type, t.numElements(),
                                                poplar::ReplicatedStreamMode::BROADCAST);
        prog.add(poplar::program::Copy(stream, t));
        inputs_[name] = encode(type, values);
        return t;
    }

    /// Streams `t` to the host after the program; run() returns it per replica.
    void output(const poplar::Tensor& t, const std::string& name) {
        auto stream = graph.addDeviceToHostFIFO(name + "/out", t.elementType(), t.numElements());
        prog.add(poplar::program::Copy(t, stream));
        outputs_.push_back({name, t.elementType(), t.numElements()});
    }

    /// Compiles and runs once; every output by name, then by replica.
    std::map<std::string, std::vector<std::vector<double>>>
    run(const poplar::OptionFlags& options = {}) {
        poplar::Engine engine(graph, prog, options);
        return runOn(engine);
    }

    std::map<std::string, std::vector<std::vector<double>>> runOn(poplar::Engine& engine) {
        engine.load(device_);
        for (auto& [name, buffer] : inputs_)
            engine.connectStream(name, buffer.data(), buffer.data() + buffer.size());
        std::map<std::string, std::vector<std::byte>> outBuffers;
        for (const auto& o : outputs_) {
            auto& b = outBuffers[o.name];
            b.resize(o.elements * tilescope::sim::elementSize(o.type.native()) * replicas);
            engine.connectStream(o.name + "/out", b.data(), b.data() + b.size());
        }
        engine.run(0);
        std::map<std::string, std::vector<std::vector<double>>> out;
        for (const auto& o : outputs_) {
            const auto all = decode(o.type, outBuffers[o.name]);
            for (unsigned r = 0; r < replicas; ++r)
                out[o.name].emplace_back(all.begin() + r * o.elements,
                                         all.begin() + (r + 1) * o.elements);
        }
        return out;
    }

    const poplar::Device& device() const { return device_; }

    unsigned replicas;

private:
    struct Output {
        std::string name;
        poplar::Type type;
        std::size_t elements;
    };
    poplar::Device device_;

public:
    poplar::Graph graph;
    poplar::program::Sequence prog;

private:
    std::map<std::string, std::vector<std::byte>> inputs_;
    std::vector<Output> outputs_;
};

} // namespace replicationtest
