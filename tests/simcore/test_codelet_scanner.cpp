// The scanner that finds vertex classes and members in unchanged codelet source.

#include <catch2/catch.hpp>
#include <tilescope/sim/CodeletSourceScanner.hpp>

using tilescope::sim::scanVertexClasses;

TEST_CASE("the scanner finds vertex classes and their members", "[codelets]") {
    const auto classes = scanVertexClasses(R"(
#include <poplar/Vertex.hpp>
#define MACRO class Hidden : public Vertex { Input<int> x; };
using namespace poplar;
// class InComment : public Vertex {};
const char* s = "class InString : public Vertex {};";
class A : public Vertex {
public:
  Input<Vector<float, VectorLayout::ONE_PTR, 8>> in;
  Output<float> out;
  float a = 1.0f, b;
  Vector<Input<Vector<half>>> lists;
  static constexpr unsigned kConst = 3;
  using T = float;
  enum class Mode { X, Y } mode;
  struct Helper { int h; };
  A() = default;
  bool compute() { if (in.size() > 0) { *out = in[0]; } return true; }
  int f(int x) const;
private:
  int counter{0};
};
namespace ns { namespace inner {
struct B final : public poplar::MultiVertex { InOut<int> x; bool compute(unsigned) { return true; } };
} }
class NotVertex : public Base { Input<int> y; };
template <typename T> class C : public Vertex { Input<T> t; };
class Fwd;
)");
    REQUIRE(classes.size() == 3);
    CHECK(classes[0].qualifiedName == "A");
    CHECK(classes[0].members ==
          std::vector<std::string>{"in", "out", "a", "b", "lists", "counter"});
    CHECK_FALSE(classes[0].isTemplate);
    CHECK(classes[1].qualifiedName == "ns::inner::B");
    CHECK(classes[1].members == std::vector<std::string>{"x"});
    CHECK(classes[2].qualifiedName == "C");
    CHECK(classes[2].isTemplate);
}

TEST_CASE("the scanner names explicit instantiations as poputil::templateVertex does",
          "[codelets]") {
    const auto classes = scanVertexClasses(R"(
namespace ops {
template <typename T, bool Flag> class Fill : public poplar::Vertex {
  poplar::Output<poplar::Vector<T>> out;
  static constexpr bool kFlag = Flag;
  constexpr static int kOther = 1;
};
template class Fill<float, true>;
template class Fill<unsigned, false>;
template class Fill<poplar::half, true>;
}
template struct ops::Fill<unsigned short, true>;
extern template class NotHere<int>;
template <typename T> struct Unused : Vertex { Input<T> x; };
)");
    REQUIRE(classes.size() == 2);
    CHECK(classes[0].qualifiedName == "ops::Fill");
    CHECK(classes[0].isTemplate);
    CHECK(classes[0].members == std::vector<std::string>{"out"});
    std::vector<std::string> names, types;
    for (const auto& i : classes[0].instantiations) {
        names.push_back(i.name);
        types.push_back(i.type);
    }
    CHECK(names == std::vector<std::string>{"ops::Fill<float,true>",
                                            "ops::Fill<unsigned int,false>", "ops::Fill<half,true>",
                                            "ops::Fill<unsigned short,true>"});
    CHECK(types[1] == "ops::Fill<unsigned,false>");
    CHECK(classes[1].instantiations.empty());
}

TEST_CASE("the scanner reads past attributes before a vertex class's name", "[codelets]") {
    const auto classes = scanVertexClasses(R"code(
class [[poplar::constraint("elem(*src) != elem(*dst)")]] Copy : public poplar::Vertex {
  Input<Vector<float>> src;
  Output<Vector<float>> dst;
};
struct __attribute__((aligned(8))) alignas(8) Aligned : MultiVertex { InOut<int> x; };
)code");
    REQUIRE(classes.size() == 2);
    CHECK(classes[0].qualifiedName == "Copy");
    CHECK(classes[0].members == std::vector<std::string>{"src", "dst"});
    CHECK(classes[1].qualifiedName == "Aligned");
}

TEST_CASE("the scanner notes default constructors that are declared and never defined",
          "[codelets]") {
    const auto classes = scanVertexClasses(R"(
        class Declared : public poplar::Vertex {
        public:
            Declared();
            const float k;
            bool compute() { return true; }
        };
        class DefinedOutside : public poplar::Vertex {
        public:
            explicit DefinedOutside();
            int k;
            bool compute() { return true; }
        };
        DefinedOutside::DefinedOutside() : k(3) {}
        class DefinedInside : public poplar::Vertex {
        public:
            DefinedInside() {}
            DefinedInside(int) ;
            int k;
            bool compute() { return true; }
        };
        template <typename T> class Counted : public poplar::Vertex {
        public:
            Counted();
            poplar::InOut<unsigned> n;
            bool compute() { return true; }
        };
        template class Counted<float>;
    )");
    REQUIRE(classes.size() == 4);
    CHECK(classes[3].declaresUndefinedConstructor);
    CHECK(classes[0].declaresUndefinedConstructor);
    CHECK(classes[0].members == std::vector<std::string>{"k"});
    CHECK_FALSE(classes[1].declaresUndefinedConstructor);
    CHECK_FALSE(classes[2].declaresUndefinedConstructor);
}
