#include "ChartStacking.hpp"

#include <algorithm>

namespace tilescope::gui {

std::vector<std::vector<TimelineModel::Point>>
stackSeries(const std::vector<TimelineModel::Series>& series) {
    std::vector<std::int64_t> times;
    for (const auto& s : series)
        for (const auto& p : s.points)
            times.push_back(p.tNs);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());

    std::vector<std::vector<TimelineModel::Point>> out(series.size());
    std::vector<double> base(times.size(), 0.0);
    for (std::size_t i = 0; i < series.size(); ++i) {
        const auto& points = series[i].points;
        std::size_t next = 0;
        double held = 0;
        out[i].reserve(times.size());
        for (std::size_t t = 0; t < times.size(); ++t) {
            while (next < points.size() && points[next].tNs <= times[t])
                held = points[next++].mean;
            const double top = base[t] + held;
            out[i].push_back({times[t], base[t], top, top});
            base[t] = top;
        }
    }
    return out;
}

} // namespace tilescope::gui
