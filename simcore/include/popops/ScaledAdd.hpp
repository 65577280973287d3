#pragma once
// popops::scaledAddTo and scaledSubtractFrom: A = scaleA * A +/- scaleB * B in place, with
// scales given as numbers or as scalar tensors.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// How scaleA applies in the forms taking one: DEFAULT gives scaleA * A + scaleB * B,
/// X_MINUS_AX_PLUS_BY gives A - scaleA * A + scaleB * B.
enum class ScaledAddSpecialisation { DEFAULT, X_MINUS_AX_PLUS_BY };

/// A += scaleB * B, element-wise; A and B have the same shape and element type (FLOAT or HALF).
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A -= scaleB * B, element-wise.
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});

// The SDK's other forms. Scale tensors are single FLOAT or HALF elements read at run time; a B
// of another floating type than A is cast to A's type first.

/// A += scaleB * B.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A -= scaleB * B.
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});
/// A = scaleA * A + scaleB * B.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// As above with the formulation chosen by `speciality`.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A = scaleA * A + scaleB * B with constant scales.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// As above with the formulation chosen by `speciality`.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A = scaleA * A - scaleB * B.
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA,
                        poplar::Tensor B, poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});
/// A = scaleA * A - scaleB * B with constant scales.
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                        float scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});

} // namespace popops
