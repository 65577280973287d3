// The two-ring classification data of the MLP training examples (mlp_training and
// data_parallel_training train on the same points, so their results can be compared): points on
// an inner ring (class 0) and an outer ring (class 1) with noise, 2 features, 2 classes; and the
// deterministic pseudo-random numbers behind them and the initial weights. C++11, like the
// examples that include it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rings {

constexpr std::size_t kFeatures = 2, kClasses = 2;

/// n values uniform in [-scale, scale), the same for the same seed on every platform.
inline std::vector<float> pseudoRandom(std::size_t n, float scale, unsigned seed) {
    std::vector<float> v(n);
    std::uint32_t s = seed * 2654435761u + 3u;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = scale * (float((s >> 8) & 0xffff) / 32768.0f - 1.0f);
    }
    return v;
}

/// n points, alternating inner (class 0) and outer (class 1) ring: x is n x kFeatures.
inline void makeRings(std::size_t n, std::vector<float>& x, std::vector<int>& labels) {
    const auto noise = pseudoRandom(3 * n, 1.0f, 99);
    x.resize(n * kFeatures);
    labels.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        labels[i] = int(i % 2);
        const float angle = 3.14159265f * noise[3 * i];
        const float radius = (labels[i] ? 1.0f : 0.35f) + 0.12f * noise[3 * i + 1];
        x[i * 2] = radius * std::cos(angle);
        x[i * 2 + 1] = radius * std::sin(angle);
    }
}

} // namespace rings
