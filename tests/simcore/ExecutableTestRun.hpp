#pragma once
// Runs the executable tests' graph and prints its results as text (poplar only: the loader that
// links no PopLibs library uses it too).

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace exectest {

/// Runs program 0 then 1 and prints every result, so runs can be compared as text.
inline std::string runAndPrint(poplar::Engine& engine) {
    std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8}, out(8);
    std::vector<int> scaled(4);
    float sum = 0;
    engine.load(poplar::IPUModel().createDevice());
    engine.connectStream("in", in.data(), in.data() + in.size());
    engine.connectStream("out", out.data(), out.data() + out.size());
    engine.run(0);
    std::ostringstream s;
    s << "out:";
    for (float v : out)
        s << ' ' << v;
    engine.readTensor("sum", &sum, &sum + 1);
    engine.readTensor("scaled", scaled.data(), scaled.data() + scaled.size());
    s << "\nsum: " << sum << "\nscaled:";
    for (int v : scaled)
        s << ' ' << v;
    const std::vector<int> next = {10, 20, 30, 40};
    engine.writeTensor("ints", next.data(), next.data() + next.size());
    engine.run(1);
    engine.readTensor("scaled", scaled.data(), scaled.data() + scaled.size());
    s << "\nscaled after program 1:";
    for (int v : scaled)
        s << ' ' << v;
    s << "\n";
    return s.str();
}

} // namespace exectest
