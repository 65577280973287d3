#pragma once
// Naming poplar::Engines for their reports. Poplar writes the reports of a named engine to a
// subfolder of autoReport.directory named after it, so that a program with several engines (a
// training and a validation model) keeps one report each; PopART names its engines after its
// sessions ("training", "inference"). Poplar's public Engine API has no name argument in the
// SDK versions TileScope follows, so the frameworks built on this simulator set the name here.

#include <string>

namespace tilescope::sim {

/// Names the next poplar::Engine this thread constructs: with autoReport on, its profile.pop goes
/// to <autoReport.directory>/<name>/ and the report's engine name is `name`. An empty name (the
/// default) keeps the unnamed behaviour: the first reporting engine of the process writes to
/// autoReport.directory, later ones to its engineN subfolders.
void nameNextEngine(const std::string& name);

/// The profile.pop path of the last poplar::Engine this thread constructed (also one whose
/// construction failed after it started its report, such as out of memory); "" when that engine
/// wrote no report.
std::string lastEngineReportFile();

} // namespace tilescope::sim
