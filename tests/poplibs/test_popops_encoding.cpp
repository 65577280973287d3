// popops::encodeOneHot and popops::iota against host references, and the text form of
// popops::Operation.

#include "PoplibsHarness.hpp"

#include <catch2/catch.hpp>
#include <poplar/exceptions.hpp>
#include <popops/Encoding.hpp>
#include <popops/OperationDef.hpp>
#include <sstream>

using namespace poplibstest;

TEST_CASE("encodeOneHot writes one-hot rows, masked and out-of-range rows stay off") {
    const std::size_t N = 9, C = 4;
    for (const auto& type : {poplar::FLOAT, poplar::HALF, poplar::INT, poplar::UNSIGNED_INT}) {
        for (const auto& indexType : {poplar::UNSIGNED_INT, poplar::INT}) {
            INFO("encoded " << type << ", indices " << indexType);
            const double masked = indexType == poplar::INT ? -1.0 : double(MASKED_LABEL_CODE);
            const std::vector<double> iv = {0, 3, 1, masked, 2, 2, 7, 0, 3};
            Harness h;
            auto indices = h.input(indexType, {N}, iv, "indices");
            auto encoded = h.graph.addVariable(type, {N, C}, "encoded");
            poputil::mapTensorLinearly(h.graph, encoded, 1, 1);
            popops::encodeOneHot(h.graph, indices, encoded, h.prog);
            auto custom = h.graph.addVariable(type, {N, C}, "custom");
            poputil::mapTensorLinearly(h.graph, custom, 1, 1);
            auto on = h.input(type, {}, {5}, "on");
            auto off = h.input(type, {1}, {2}, "off");
            popops::encodeOneHot(h.graph, indices, custom, h.prog, on, off);
            h.output(encoded, "encoded");
            h.output(custom, "custom");
            const auto r = h.run();
            for (std::size_t i = 0; i < N; ++i)
                for (std::size_t c = 0; c < C; ++c) {
                    const bool hot = iv[i] == double(c);
                    CHECK(r.at("encoded")[i * C + c] == (hot ? 1 : 0));
                    CHECK(r.at("custom")[i * C + c] == (hot ? 5 : 2));
                }
        }
    }
    Harness h;
    auto indices = h.input(poplar::UNSIGNED_INT, {3}, {0, 1, 2}, "indices");
    auto wrong = h.graph.addVariable(poplar::FLOAT, {4, 3}, "wrong");
    CHECK_THROWS_AS(popops::encodeOneHot(h.graph, indices, wrong, h.prog), poplar::poplar_error);
}

TEST_CASE("iota writes a range from the start value, INT and UNSIGNED_INT") {
    Harness h(4);
    auto u = h.graph.addVariable(poplar::UNSIGNED_INT, {21}, "u");
    poputil::mapTensorLinearly(h.graph, u, 1, 1);
    auto i = h.graph.addVariable(poplar::INT, {7}, "i");
    h.graph.setTileMapping(i.slice(0, 3), 3);
    h.graph.setTileMapping(i.slice(3, 7), 1);
    popops::iota(h.graph, u, 10u, h.prog);
    popops::iota(h.graph, i, -3, h.prog);
    h.output(u, "u");
    h.output(i, "i");
    const auto r = h.run();
    for (std::size_t k = 0; k < 21; ++k)
        CHECK(r.at("u")[k] == 10 + double(k));
    CHECK(r.at("i") == std::vector<double>{-3, -2, -1, 0, 1, 2, 3});
    CHECK_THROWS_AS(popops::iota(h.graph, h.graph.addVariable(poplar::FLOAT, {2}), 0, h.prog),
                    poplar::poplar_error);
}

TEST_CASE("popops::Operation prints and parses its name") {
    std::ostringstream os;
    os << popops::Operation::SQUARE_ADD << " " << popops::Operation::LOGICAL_OR;
    CHECK(os.str() == "SQUARE_ADD LOGICAL_OR");
    std::istringstream is("MAX BOGUS");
    popops::Operation op = popops::Operation::ADD;
    is >> op;
    CHECK(op == popops::Operation::MAX);
    is >> op;
    CHECK(is.fail());
    CHECK(op == popops::Operation::MAX);
}
