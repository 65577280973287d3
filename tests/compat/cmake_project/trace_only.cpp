// Linked with the pvti target alone.
#include <iostream>

#include <pvti/pvti.hpp>

int main() {
  pvti::TraceChannel channel = {"cmake_project"};
  {
    pvti::Tracepoint tracepoint(&channel, "scope");
  }
  std::cout << "traced" << std::endl;
  return 0;
}
