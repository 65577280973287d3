// Vertex codelets written exactly as for Poplar: vector and scalar edges, a vector list on all
// workers of a MultiVertex, lists of edges, vertex state and half-precision input.

#include <poplar/Vertex.hpp>

using namespace poplar;

// Sums its input vector.
class SumVertex : public Vertex {
public:
    Input<Vector<float>> in;
    Output<float> out;

    bool compute() {
        float sum = 0;
        for (unsigned i = 0; i < in.size(); ++i)
            sum += in[i];
        *out = sum;
        return true;
    }
};

// Multiplies every row of a list by `scale`; the six workers share the rows.
class ScaleRows : public MultiVertex {
public:
    InOut<VectorList<float, DELTANELEMENTS>> rows;
    float scale;

    bool compute(unsigned workerId) {
        for (unsigned r = workerId; r < rows.size(); r += numWorkers())
            for (auto& x : rows[r])
                x *= scale;
        return true;
    }
};

// For each input vector, counts the elements above that vector's threshold.
class CountAbove : public Vertex {
public:
    Vector<Input<Vector<float>>> in;
    Vector<Output<unsigned>> counts;
    Vector<float> thresholds;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            unsigned n = 0;
            for (float x : in[i])
                n += x > thresholds[i] ? 1 : 0;
            counts[i] = n;
        }
        return true;
    }
};

/* Widens half-precision values, scaling them on the way. */
class HalfToFloat : public Vertex {
public:
    Input<Vector<half>> in;
    Output<Vector<float>> out;
    float factor = 1.0f;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i)
            out[i] = float(in[i]) * factor;
        return true;
    }
};
