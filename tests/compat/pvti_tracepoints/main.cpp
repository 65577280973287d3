// Host tracepoints with libpvti only (no Poplar, no Python): a scoped tracepoint with a nested one,
// a begin/end pair, an instant event and a graph series, written to a *.pvti file when
// PVTI_OPTIONS enables tracing.
#include <iostream>

#include <pvti/pvti.hpp>

static pvti::TraceChannel channel = {"compat"};

static int work(int n) {
  pvti::Tracepoint tracepoint(&channel, "work");
  int sum = 0;
  for (int i = 1; i <= n; ++i) {
    sum += i;
  }
  return sum;
}

int main() {
  pvti::Graph graph("loss", "%");
  pvti::Series series = graph.addSeries("train");

  int total = 0;
  {
    pvti::Tracepoint outer(&channel, "outer");
    for (int step = 0; step < 3; ++step) {
      total += work(10);
      series.add(100.0 / (step + 1));
    }
  }
  pvti::Tracepoint::begin(&channel, "manual");
  total += work(4);
  pvti::Tracepoint::end(&channel, "manual");
  pvti::Tracepoint::event(&channel, "done");

  std::cout << "total: " << total << std::endl;
  return 0;
}
