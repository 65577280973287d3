// A file whose host part is not behind #else: the codelet compile sees it too, so the Poplar
// host headers must compile there and be harmless.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

class Negate : public Vertex {
public:
    InOut<Vector<float>> data;
    bool compute() {
        for (auto& x : data)
            x = -x;
        return true;
    }
};

int hostHelper(Graph& graph) {
    graph.addCodelets(__FILE__);
    return 0;
}
