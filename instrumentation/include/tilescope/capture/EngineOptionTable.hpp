#pragma once
// Every engine option TileScope accepts: the Poplar SDK's documented engine options (checked as
// the SDK checks them) plus TileScope's own, each with whether the simulator honours it.

#include <string_view>
#include <vector>

namespace tilescope::capture {

/// How an option's value is checked.
enum class OptionKind {
    Bool,           ///< "true" or "false"
    Unsigned,       ///< a non-negative integer
    String,         ///< any non-empty text (a file or directory name)
    Choice,         ///< one of `choices` ("a|b|c")
    UnsignedOrWord, ///< a non-negative integer or the word in `choices` (e.g. "auto")
};

/// One engine option. `applies` is false for options accepted so that programs written for the
/// SDK run unchanged, but which have no effect in the simulator; `reason` says why in one line
/// (it is what the README lists). `defaultValue` is stored in reports when the option is not
/// given (nullptr: not stored).
struct EngineOptionSpec {
    const char* name;
    OptionKind kind;
    const char* choices;
    bool applies;
    const char* defaultValue;
    const char* reason;
};

/// All options, sorted by name.
const std::vector<EngineOptionSpec>& engineOptionTable();
/// The option called `name`, or nullptr.
const EngineOptionSpec* findEngineOption(std::string_view name);

} // namespace tilescope::capture
