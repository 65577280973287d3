#pragma once
// The timeline canvas's fixed sizes, in pixels at 1x, shared by its drawing (TimelineCanvas*.cpp)
// and its input handling (TimelineCanvasInput.cpp).

namespace tilescope::gui::timeline_layout {

constexpr float kLabelWidth = 230;
constexpr float kOverviewHeight = 34;
constexpr float kRulerHeight = 24;
constexpr float kTrackHeight = 20;
constexpr float kHeaderHeight = 20;
constexpr float kChartHeight = 56;
constexpr float kPinWidth = 16;
constexpr double kMinimumSpanNs = 100;

} // namespace tilescope::gui::timeline_layout
