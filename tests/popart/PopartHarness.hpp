#pragma once
// Helpers of the PopART tests: a small IPU Model device, and a one-batch inference run of a
// Builder model returning its anchors as float vectors.

#include <map>
#include <memory>
#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>
#include <string>
#include <vector>

namespace popart_test {

inline std::shared_ptr<popart::DeviceInfo> smallDevice(unsigned tiles = 8) {
    return popart::DeviceManager::createDeviceManager().createIpuModelDevice(
        {{"numIPUs", "1"}, {"tilesPerIPU", std::to_string(tiles)}});
}

/// Deterministic values in [lo, hi).
inline std::vector<float> values(std::size_t n, float lo, float hi, unsigned seed = 1) {
    std::vector<float> out(n);
    uint32_t s = seed * 2654435761u + 12345u;
    for (auto& v : out) {
        s = s * 1664525u + 1013904223u;
        v = lo + (hi - lo) * float(s >> 8) / float(1u << 24);
    }
    return out;
}

/// Runs `model` once (one batch) with FLOAT inputs and returns every anchor as floats.
inline std::map<std::string, std::vector<float>>
infer(const std::string& model, const std::map<std::string, std::vector<float>>& inputs,
      const std::vector<std::string>& anchors) {
    popart::DataFlow flow(1, anchors, popart::AnchorReturnType("ALL"));
    auto session = popart::InferenceSession::createFromOnnxModel(model, flow, smallDevice());
    session->prepareDevice();
    session->weightsFromHost();
    std::map<std::string, std::vector<float>> out;
    std::vector<std::unique_ptr<popart::NDArrayWrapper<float>>> arrays;
    std::map<popart::TensorId, popart::IArray*> in, anc;
    std::map<std::string, std::vector<float>> inCopy = inputs;
    for (auto& i : inCopy) {
        arrays.emplace_back(new popart::NDArrayWrapper<float>(
            i.second.data(), popart::Shape{int64_t(i.second.size())}));
        in[i.first] = arrays.back().get();
    }
    for (const auto& a : anchors) {
        out[a].resize(std::size_t(session->getInfo(a).nelms()));
        arrays.emplace_back(new popart::NDArrayWrapper<float>(
            out[a].data(), popart::Shape{int64_t(out[a].size())}));
        anc[a] = arrays.back().get();
    }
    popart::StepIO io(in, anc);
    session->run(io);
    return out;
}

} // namespace popart_test
