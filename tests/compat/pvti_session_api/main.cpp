// libpvti's session API from C++ as the SDK documents it: channels switched off and on at run
// time (and one made off), the predefined channels, the channel list, the trace file's name,
// a graph without a unit, and closeTrace. Prints what the API answers; check.sh reads the trace.
#include <pvti/pvti.hpp>

#include <iostream>
#include <string>
#include <vector>

int main() {
  pvti::TraceChannel session("session");
  pvti::TraceChannel quiet("quiet", false);

  { pvti::Tracepoint t(&quiet, "quiet off"); }
  pvti::enableTraceChannel(&quiet);
  { pvti::Tracepoint t(&quiet, "quiet on"); }

  pvti::disableTraceChannel(&session);
  std::cout << "session while disabled: " << pvti::checkTraceChannel(&session) << "\n";
  pvti::Tracepoint::event(&session, "session off");
  pvti::enableTraceChannel(&session);
  pvti::Tracepoint::event(&session, "session on");

  pvti::Tracepoint::begin(&pvti::traceDrivers, "drivers");
  pvti::Tracepoint::end(&pvti::traceDrivers, "drivers");

  std::cout << "channels:";
  std::vector<pvti::TraceChannel*> channels = pvti::listTraceChannel();
  for (std::size_t i = 0; i < channels.size(); ++i) {
    std::cout << " " << channels[i]->name << "=" << pvti::checkTraceChannel(channels[i]);
  }
  std::cout << "\n";

  pvti::Graph throughput("throughput");
  throughput.addSeries("samples").add(2.5);

  std::cout << "file: " << pvti::getCurrentTraceFilename() << "\n";
  pvti::closeTrace();
  pvti::Tracepoint::event(&session, "after close");
  std::cout << "session after close: " << pvti::checkTraceChannel(&session) << "\n";
  return 0;
}
