#pragma once
// Control programs: sequences, compute-set execution, copies, loops, branches, calls, prints.

#include "poplar/DebugContext.hpp"
#include "poplar/GraphElements.hpp"
#include "poplar/SyncType.hpp"
#include "poplar/Tensor.hpp"

// SDK programs rely on poplar's main headers bringing in the standard headers they use.
#include <cassert>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// The simulator's program tree (tilescope/sim/ProgramTree.hpp) stays out of this header: it is
// C++17, and programs only hold a pointer to their node.
namespace tilescope {
namespace capture {
enum class ProgramKind : std::uint8_t;
}
namespace sim {
struct ProgramNode;
using ProgramNodePtr = std::shared_ptr<ProgramNode>;
} // namespace sim
} // namespace tilescope

namespace poplar {

namespace program {

/// A program. Copies refer to the same program (adding to a Sequence after it was added elsewhere
/// is seen by both places), as with Poplar's reference-counted programs.
class Program {
public:
    Program();
    bool isEmpty() const;
    /// The simulator's program node.
    const tilescope::sim::ProgramNodePtr& node() const { return node_; }

protected:
    explicit Program(tilescope::sim::ProgramNodePtr node) : node_(std::move(node)) {}
    static tilescope::sim::ProgramNodePtr makeNode(tilescope::capture::ProgramKind kind,
                                                   const DebugContext& debugContext);
    tilescope::sim::ProgramNodePtr node_;
};

class Sequence;

namespace detail {
/// Whether every type is a program (the condition of Sequence's variadic constructor).
template <typename... Ps> struct AllPrograms : std::true_type {};
template <typename P, typename... Ps>
struct AllPrograms<P, Ps...>
    : std::integral_constant<bool, std::is_base_of<Program, typename std::decay<P>::type>::value &&
                                       AllPrograms<Ps...>::value> {};
/// Whether the arguments are one Sequence (which the copy constructor handles instead).
template <typename... Ps> struct IsLoneSequence : std::false_type {};
template <typename P>
struct IsLoneSequence<P> : std::is_same<typename std::decay<P>::type, Sequence> {};
} // namespace detail

/// Runs its programs in order.
class Sequence : public Program {
public:
    /// Not explicit, so that `Sequence s = {};` compiles.
    Sequence() : Sequence(DebugContext()) {}
    explicit Sequence(const DebugContext& debugContext);
    Sequence(std::initializer_list<Program> programs, const DebugContext& debugContext = {});
    /// Sequence(a, b, c): the programs in order (a lone Sequence argument is a copy instead).
    template <typename... Ps,
              typename std::enable_if<(sizeof...(Ps) >= 1) && detail::AllPrograms<Ps...>::value &&
                                          !detail::IsLoneSequence<Ps...>::value,
                                      int>::type = 0>
    explicit Sequence(Ps&&... programs) : Sequence() {
        const int inOrder[] = {(add(programs), 0)...};
        (void)inOrder;
    }
    void add(const Program& p);
};

/// Runs the vertices of a compute set (preceded by the exchange their remote inputs need).
class Execute : public Program {
public:
    explicit Execute(ComputeSet cs, const DebugContext& debugContext = {});
};

/// Copies tensor to tensor (same type and number of elements, in row-major order: the shapes
/// may differ), a stream into a tensor, a tensor into a stream, or a remote buffer row into a
/// tensor and back. Mismatches throw control_program_error (size) or type_error naming both
/// ends. For a remote buffer, `offset` (UNSIGNED_INT, read when the copy runs) selects the
/// row; with n offsets the tensor holds n rows (n x numElements elements), row i moving to or
/// from buffer row offset[i]. Without an offset the tensor is row 0.
class Copy : public Program {
public:
    Copy(const RemoteBuffer& buffer, const Tensor& dst, const DebugContext& debugContext = {});
    Copy(const RemoteBuffer& buffer, const Tensor& dst, const Tensor& offset,
         const DebugContext& debugContext = {});
    Copy(const Tensor& src, const RemoteBuffer& buffer, const DebugContext& debugContext = {});
    Copy(const Tensor& src, const RemoteBuffer& buffer, const Tensor& offset,
         const DebugContext& debugContext = {});
    Copy(const Tensor& src, const Tensor& dst, bool dontOutline = false,
         const DebugContext& debugContext = {});
    Copy(const DataStream& stream, const Tensor& dst, bool optimiseMemory = false,
         const DebugContext& debugContext = {});
    Copy(const Tensor& src, const DataStream& stream, bool optimiseMemory = false,
         const DebugContext& debugContext = {});
};

/// Runs `body` `count` times.
class Repeat : public Program {
public:
    Repeat(unsigned count, const Program& body, const DebugContext& debugContext = {});
};

/// Runs `cond`, then `body` while the scalar `predicate` is non-zero (re-running `cond` before
/// each test).
class RepeatWhileTrue : public Program {
public:
    RepeatWhileTrue(const Program& cond, const Tensor& predicate, const Program& body,
                    const DebugContext& debugContext = {});
};

/// Like RepeatWhileTrue but loops while the predicate is zero.
class RepeatWhileFalse : public Program {
public:
    RepeatWhileFalse(const Program& cond, const Tensor& predicate, const Program& body,
                     const DebugContext& debugContext = {});
};

/// Runs `trueBody` if the scalar `predicate` is non-zero, else `falseBody`.
class If : public Program {
public:
    If(const Tensor& predicate, const Program& trueBody, const Program& falseBody,
       const DebugContext& debugContext = {});
    If(const Tensor& predicate, const Program& trueBody, const DebugContext& debugContext = {});
};

/// Runs the case whose value equals the scalar integral `control`, else the default.
class Switch : public Program {
public:
    Switch(const Tensor& control, const DebugContext& debugContext = {});
    Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
           const DebugContext& debugContext = {});
    Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
           const Program& defaultCase, const DebugContext& debugContext = {});
    /// Adds a case; throws control_program_error for a duplicate value.
    Switch& add(std::int32_t value, const Program& body);
};

/// Calls a function created with Graph::addFunction.
class Call : public Program {
public:
    explicit Call(Function f, const DebugContext& debugContext = {});
};

/// Prints the tensor's values when run, as "<title>: [v0 v1 ...]" (nested brackets by dimension).
class PrintTensor : public Program {
public:
    explicit PrintTensor(const Tensor& t, const DebugContext& debugContext = {});
    PrintTensor(StringRef title, const Tensor& t, const DebugContext& debugContext = {});
};

/// Marks the tensor's contents as undefined: liveness may reuse its memory until it is written.
class WriteUndef : public Program {
public:
    explicit WriteUndef(const Tensor& t, const DebugContext& debugContext = {});
};

/// A synchronisation of all tiles (INTERNAL) or of all IPUs and the host (EXTERNAL, GLOBAL).
class Sync : public Program {
public:
    explicit Sync(SyncType type, const DebugContext& debugContext = {});
};

/// Scopes a program for lightweight profiling. With the engine option `profiler.blocks.filter`
/// (a regular expression over block names) the engine records the first and last cycle of every
/// execution of each matching block on one tile per IPU (`profiler.blocks.tile`); blocks may
/// nest. A block no option selects runs its program at no cost. Read the records with
/// Engine::getReport().execution().blocks(tile).
class Block : public Program {
public:
    Block(const Program& p, const DebugContext& debugContext = {});
};

} // namespace program
} // namespace poplar
