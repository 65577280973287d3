// popfloat as PopLibs programs use it: a gfloat format (bfloat16, and an 8-bit 1/5/2 format),
// a rounding mode, createCastOpParamsTensor, then castNativeToGfloat and castGfloatToNative.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popfloat/experimental/CastToGfloat.hpp>
#include <popfloat/experimental/codelets.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;
using popfloat::experimental::GfloatCast;
using popfloat::experimental::RoundType;
using popfloat::experimental::SpecType;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  popfloat::experimental::addCodelets(graph);

  const unsigned n = 6;
  Tensor x = graph.addVariable(FLOAT, {n}, "x");
  graph.setTileMapping(x, 0);
  graph.createHostWrite("x-write", x);

  Sequence prog;
  // bfloat16 (1/8/7), round to nearest even, result held in FLOAT.
  GfloatCast::FormatConfig bf16(7, 8, 127, true, true);
  GfloatCast bf16Cast(bf16, GfloatCast::RoundConfig(RoundType::RN, 0, FLOAT), false,
                      SpecType::FP32);
  bf16Cast.createCastOpParamsTensor(graph, prog);
  Tensor bf16Values = bf16Cast.castNativeToGfloat(graph, x, prog);
  graph.createHostRead("bf16-read", bf16Values);

  // 1/5/2 with denormals, infs and nans, rounded towards zero, packed into 8 bits and unpacked.
  GfloatCast::FormatConfig fp8(2, 5, 15, true, true, SpecType::FP32);
  GfloatCast fp8Cast(fp8, GfloatCast::RoundConfig(RoundType::RZ, 0, FLOAT), false,
                     SpecType::AUTO, SpecType::FP32);
  fp8Cast.createCastOpParamsTensor(graph, prog);
  Tensor packed = fp8Cast.castNativeToGfloat(graph, x, prog);
  Tensor unpacked = fp8Cast.castGfloatToNative(graph, packed, prog);
  graph.createHostRead("fp8-read", unpacked);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in = {1.0f, 3.14159f, -2.71828f, 1000.5f, 1e-6f, 65504.0f};
  engine.writeTensor("x-write", in.data(), in.data() + n);
  engine.run(0);
  std::vector<float> bf16Out(n), fp8Out(n);
  engine.readTensor("bf16-read", bf16Out.data(), bf16Out.data() + n);
  engine.readTensor("fp8-read", fp8Out.data(), fp8Out.data() + n);

  std::cout << "packed type: " << packed.elementType() << std::endl;
  std::cout << "bfloat16:";
  for (unsigned i = 0; i < n; ++i) {
    std::cout << " " << bf16Out[i];
  }
  std::cout << std::endl << "1/5/2 RZ:";
  for (unsigned i = 0; i < n; ++i) {
    std::cout << " " << fp8Out[i];
  }
  std::cout << std::endl;
  return 0;
}
