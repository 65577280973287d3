// A single-file program in the SDK's style: the vertex under #ifdef __POPC__, the host program in
// the #else branch, and graph.addCodelets(__FILE__). The simcore tests load it as a codelet file.
#ifdef __POPC__

#include <poplar/Vertex.hpp>
using namespace poplar;

class Double : public Vertex {
    InOut<Vector<int>> data;

public:
    bool compute() {
        for (auto& x : data)
            x *= 2;
        return true;
    }
};

#else

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

int main() {
    poplar::Device device = poplar::IPUModel().createDevice();
    poplar::Graph graph(device.getTarget());
    graph.addCodelets(__FILE__);
    return 0;
}

#endif
