// Reads the report the writer left, with libpva only (-lpva): the target, the graph's size and
// the runs, as a user's analysis script in C++ does.
#include <iostream>
#include <string>

#include <pva/pva.hpp>

int main(int argc, char **argv) {
  const std::string path = argc > 1 ? argv[1] : "report/profile.pop";
  pva::Report report = pva::openReport(path);
  std::cout << "tiles: " << report.compilation().target().numTiles() << std::endl;
  std::cout << "tiles per IPU: " << report.compilation().target().tilesPerIPU()
            << std::endl;
  std::cout << "compute sets: " << report.compilation().graph().numComputeSets()
            << std::endl;
  std::cout << "runs: " << report.execution().runs().size() << std::endl;
  return 0;
}
