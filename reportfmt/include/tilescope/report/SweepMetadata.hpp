#pragma once
// Metadata keys of a profile report that record how the run was configured from outside the
// program: a what-if sweep's variant and the PopLibs option defaults given by environment. The
// metadata table is a key/value table, so these keys add no format version.

namespace tilescope::report {

/// The sweep variant's name (`tilescope-cli sweep`), from TILESCOPE_SWEEP_VARIANT.
inline constexpr const char* kSweepVariantKey = "sweep_variant";
/// The variant's settings as a JSON object {"KEY": "VALUE", ...} in the sweep's own key syntax
/// (`engine:`, `poplibs:`, `arg:`, `env:`), from TILESCOPE_SWEEP_SETTINGS.
inline constexpr const char* kSweepSettingsKey = "sweep_settings";
/// TILESCOPE_POPLIBS_OPTIONS as the run saw it, normalised JSON: {"matmul": {"name": "value"}}.
inline constexpr const char* kPoplibsOptionDefaultsKey = "poplibs_option_defaults";

} // namespace tilescope::report
