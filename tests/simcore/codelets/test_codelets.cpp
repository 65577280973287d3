// Codelets used by the simcore tests. Written in the shapes real codelet files take: comments and
// strings that mention classes, namespaces, templates, member functions, initialisers.

#include <cmath>
#include <poplar/Vertex.hpp>

using namespace poplar;

/* class NotAVertex : public Vertex { Input<float> ignored; }; -- inside a comment */

static const char* kBanner = "class Fake : public Vertex { Output<int> nope; };";

// Adds one to every element, in place.
class AddOne : public Vertex {
public:
    InOut<Vector<float>> data;
    bool compute() {
        for (auto& x : data)
            x += 1.0f;
        return kBanner != nullptr;
    }
};

namespace test {

// Copies with a scale: a vertex in a namespace, with state and a member function.
struct ScaledCopy : public poplar::Vertex {
    poplar::Input<poplar::Vector<int>> in;
    poplar::Output<poplar::Vector<int>> out;
    int scale{2}, offset = 0;

    int apply(int x) const { return x * scale + offset; }
    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i)
            out[i] = apply(in[i]);
        return true;
    }
};

} // namespace test

// Always fails: the engine must report it.
class Refuse : public Vertex {
public:
    Input<float> in;
    bool compute() { return std::isnan(*in); }
};

// Templates are only usable once instantiated; the scanner skips them.
template <typename T> class Generic : public Vertex {
public:
    Input<T> in;
    bool compute() { return true; }
};

// Cheap to run, with a cycle estimate set by the graph or by an estimator.
class Touch : public MultiVertex {
public:
    InOut<Vector<unsigned>> hits;
    bool compute(unsigned worker) {
        if (worker < hits.size())
            hits[worker] += 1;
        return true;
    }
};
