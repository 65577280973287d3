#pragma once
// Programs that build the same graphs as Graphcore's Poplar tutorials whose published profiles
// simcore/CALIBRATION.md compares against (graphcore/tutorials, tutorials/poplar/): written here
// from the tutorials' descriptions, not copied.

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace tilescope::calibration {

/// Shapes of tutorial 4's chained product (m1 x m2) x m3: m1 {m, k}, m2 {k, n}, m3 {n, p}.
struct ChainShapes {
    std::size_t m, k, n, p;
};
/// The shapes in tut4_ipu_model.cpp: m1 {900, 600}, m2 {600, 300}, m3 {300, 200}.
inline constexpr ChainShapes kTut4Source = {900, 600, 300, 200};
/// The shapes of the tutorial's PopVision screenshots (Poplar 2.0): m1 {800, 500}, m2 {500, 400},
/// m3 {400, 200} (the Liveness screenshot lists m1 at 1.5 MB, m2 781 kB, m3 313 kB).
inline constexpr ChainShapes kTut4Screenshots = {800, 500, 400, 200};

/// Tutorial 4: FLOAT m1, m2, m3 mapped linearly over the tiles, then m4 = matMul(m1, m2) (debug
/// name "m4") and m5 = matMul(m4, m3) ("m5"), appended to `prog`. The PopLibs codelets must have
/// been added to `graph`.
void buildChainedMatMuls(poplar::Graph& graph, poplar::program::Sequence& prog,
                         const ChainShapes& shapes);

/// The split chosen by tutorial 6's own planner: every split of a row into 1..cols-1 segments is
/// costed with the README's model (dot products at 2 MACs per cycle plus 5, the vector's segments
/// and the partials moved at the target's exchange rate, a reduction per row) and the cheapest
/// taken. `worstCost` receives the dearest split's cost ("Worst cost seen" in the README).
unsigned tutorial6Split(const poplar::Target& target, unsigned rows, unsigned cols,
                        unsigned* worstCost = nullptr);

/// Tutorial 6 (tut6_matrix_vector_opt): a FLOAT {rows, cols} matrix times a {cols} vector, the
/// rows cut into tutorial6Split() segments, one SegmentDotProduct vertex per segment and row spread
/// evenly over the tiles with its data, then one PartialSum vertex per row; the vector spread
/// over the tiles. The program is: stream the vector and the matrix in ("inputVector",
/// "inputMatrix"), the two compute sets, stream the result out ("out"). `codeletFile` is
/// codelets/matvec_split_codelets.cpp.
poplar::program::Sequence buildSplitMatrixVector(poplar::Graph& graph, unsigned rows, unsigned cols,
                                                 const std::string& codeletFile);

} // namespace tilescope::calibration
