#pragma once
// Output formats of Graph::serialize.

namespace poplar {

/// Binary: TileScope's executable format (the graph model and programs; see simcore/README.md).
/// JSON: a readable description of variables, tile mapping, vertices and compute sets.
enum class SerializationFormat { Binary, JSON };

} // namespace poplar
