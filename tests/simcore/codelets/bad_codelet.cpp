// A codelet with a type error: addCodelets must report the compiler's message.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Broken : public Vertex {
public:
    Output<float> out;
    bool compute() {
        *out = undeclared_identifier_in_codelet;
        return true;
    }
};
