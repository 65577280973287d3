#pragma once
// A compiled graph and its programs, detached from the Graph: compile once with compileGraph,
// write it to a file with serialize, read it back (in any process) with deserialize and run it
// with Engine(Executable&&).

#include "poplar/ArrayRef.hpp"
#include "poplar/DebugContext.hpp"
#include "poplar/Graph.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/Program.hpp"

#include <functional>
#include <istream>
#include <memory>
#include <ostream>

namespace tilescope {
namespace sim {
struct ExecutableImage;
}
} // namespace tilescope

namespace poplar {

/// Called with (step, total) while a graph compiles.
using ProgressFunc = std::function<void(int, int)>;

/// A compiled executable. Movable, not copyable. serialize writes TileScope's versioned binary
/// format (the graph model, programs, compile options and the compiled codelet libraries, see
/// simcore/README.md); deserialize reads it back without the original Graph, codelet sources or a
/// compiler. Built-in PopLibs vertices are stored by name and found in the PopLibs libraries of
/// the reading process. A default-constructed (or moved-from) Executable is empty: an Engine
/// built from it throws poplar_error.
class Executable {
public:
    Executable();
    Executable(Executable&& other) noexcept;
    Executable& operator=(Executable&& other) noexcept;
    Executable(const Executable&) = delete;
    Executable& operator=(const Executable&) = delete;
    ~Executable();

    /// Writes the executable; throws poplar_error if a codelet library cannot be read or the
    /// stream fails.
    void serialize(std::ostream& out) const;
    /// Reads an executable written by serialize. Truncated, corrupt or foreign input throws
    /// poplar_error saying what is wrong.
    static Executable deserialize(std::istream& in);

    // --- TileScope extensions ---
    explicit Executable(std::shared_ptr<const tilescope::sim::ExecutableImage> image);
    const std::shared_ptr<const tilescope::sim::ExecutableImage>& image() const { return image_; }

private:
    std::shared_ptr<const tilescope::sim::ExecutableImage> image_;
};

/// Compiles `graph` with `progs` as an Engine would (same checks and errors, out-of-memory
/// included) and returns the executable. `opt` are engine options; the ones that affect
/// compilation are kept in the executable.
Executable compileGraph(const Graph& graph, ArrayRef<program::Program> progs,
                        const OptionFlags& opt = OptionFlags(),
                        ProgressFunc progressCallBack = ProgressFunc(),
                        const DebugContext& debugContext = DebugContext());
Executable compileGraph(Graph&& graph, ArrayRef<program::Program> progs,
                        const OptionFlags& opt = OptionFlags(),
                        ProgressFunc progressCallBack = ProgressFunc(),
                        const DebugContext& debugContext = DebugContext());

} // namespace poplar
