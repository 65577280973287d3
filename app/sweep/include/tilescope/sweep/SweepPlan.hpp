#pragma once
// What a what-if sweep runs: the variants (a grid of settings), each variant's name, command
// line and environment, and the folder they are written to.

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::sweep {

/// Bad sweep input (a malformed --vary, an unreadable variants file, an unwritable folder): the
/// message names what was wrong. The CLI exits 2 for it.
class SweepError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What a setting's key addresses. Keys are written `engine:NAME` (an engine option, merged into
/// POPLAR_ENGINE_OPTIONS), `poplibs:OPERATION.NAME` (a PopLibs operation option, merged into
/// TILESCOPE_POPLIBS_OPTIONS), `arg:NAME` (replaces `{NAME}` in the program's arguments) or
/// `env:NAME` (an environment variable). A key without a prefix is a PopLibs option when it
/// starts with a PopLibs operation name (`matmul.`, `convolution.`), else an engine option.
enum class SettingKind { EngineOption, PoplibsOption, Argument, Environment };

/// One setting of a variant: the key in its full form (with prefix) and the value.
struct Setting {
    SettingKind kind = SettingKind::EngineOption;
    std::string key;  ///< canonical: "engine:opt.x", "poplibs:matmul.partialsType", ...
    std::string name; ///< the key without prefix: "opt.x", "matmul.partialsType", "tiles"
    std::string value;
};

/// Parses a key as written by the user into its kind, canonical key and name.
Setting parseSetting(const std::string& key, const std::string& value);

/// One `--vary KEY=V1,V2,...` axis.
struct SweepAxis {
    std::string key;
    std::vector<std::string> values;
};
/// "KEY=V1,V2,..." (values must not be empty; no duplicates).
SweepAxis parseAxis(const std::string& text);

/// One variant: a stable, readable name (a folder name) and its settings in axis order.
struct Variant {
    std::string name;
    std::vector<Setting> settings;
};

/// Variants listed in a JSON file: an array whose elements are objects of settings
/// ({"KEY": "VALUE", ...}; numbers and booleans are taken as their JSON text) or
/// {"name": "NAME", "settings": {...}} to name a variant explicitly.
std::vector<Variant> readVariantsFile(const std::filesystem::path& file);

/// The variants of a sweep: each listed variant (or one empty variant when none are listed)
/// combined with every point of the cartesian product of the axes, in order (the last axis varies
/// fastest). Names are built from the settings ("availableMemoryProportion-0.3_tiles-64"): the
/// last part of each key and its value, characters outside [A-Za-z0-9.+-] replaced, full keys
/// used where two short ones would clash; a variant without settings is "default". Throws
/// SweepError for two variants with the same settings or name.
std::vector<Variant> expandVariants(const std::vector<SweepAxis>& axes,
                                    const std::vector<Variant>& listed);

/// Everything needed to run the variants of one sweep folder; stored as DIR/sweep.json so that a
/// Slurm task (and --resume) runs exactly what the sweep planned.
struct SweepPlan {
    std::filesystem::path directory;        ///< absolute
    std::filesystem::path workingDirectory; ///< where the program runs (the sweep's own)
    std::vector<std::string> command;       ///< program and arguments, `{NAME}` unsubstituted
    std::vector<Variant> variants;
    double timeoutSeconds = 0; ///< per variant; 0: none

    std::filesystem::path variantDirectory(const Variant& v) const { return directory / v.name; }
    const Variant* find(const std::string& name) const;
};

/// Checks the plan's command against the variants (every `arg:` setting's `{NAME}` must appear
/// in the arguments; a program is given).
void validatePlan(const SweepPlan& plan);

/// The command line and the environment additions of one variant. The environment gets
/// POPLAR_ENGINE_OPTIONS ({"autoReport.all": "true"}, then `inheritedEngineOptions` (the
/// caller's POPLAR_ENGINE_OPTIONS), then the variant's engine options, and autoReport.directory
/// set to the variant's folder), TILESCOPE_POPLIBS_OPTIONS (the inherited ones with the
/// variant's merged in), the `env:` settings, and TILESCOPE_SWEEP_VARIANT/_SETTINGS/_DIR that the
/// capture records in the report. Throws SweepError for an inherited variable that is not a
/// JSON object.
struct VariantLaunch {
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> environment;
};
VariantLaunch buildLaunch(const SweepPlan& plan, const Variant& variant,
                          const char* inheritedEngineOptions, const char* inheritedPoplibsOptions);

/// The variant's settings as a JSON object text {"KEY": "VALUE"} (canonical keys).
std::string settingsJson(const Variant& variant);

/// DIR/sweep.json.
void writePlan(const SweepPlan& plan);
SweepPlan readPlan(const std::filesystem::path& directory);

/// Creates DIR (and parents) and checks that a file can be written in it; SweepError naming DIR
/// and the reason otherwise.
void ensureWritableDirectory(const std::filesystem::path& directory);

} // namespace tilescope::sweep
