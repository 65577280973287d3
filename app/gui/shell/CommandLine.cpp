// The desktop app's command line: the options Qt's parser knows, and the checks of how they go
// together (which view an option applies to, what a value must look like).

#include "CommandLine.hpp"

#include "ReportPane.hpp"
#include "compare/ComparePane.hpp"
#include "memory/MemoryView.hpp"
#include "system/SystemAnalyserView.hpp"

#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {

/// A time like "8.5ms", "120us", "2s" or "3" (milliseconds) in nanoseconds.
std::optional<std::int64_t> parseTime(const QString& text) {
    static const QRegularExpression re(
        QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)\\s*(ns|us|µs|ms|s)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QString unit = m.captured(2);
    const double scale = unit == QLatin1String("ns")                                   ? 1.0
                         : unit == QLatin1String("us") || unit == QStringLiteral("µs") ? 1e3
                         : unit == QLatin1String("s")                                  ? 1e9
                                                                                       : 1e6;
    const double ns = m.captured(1).toDouble() * scale;
    if (!(ns < 9e18))
        return std::nullopt;
    return std::int64_t(std::llround(ns));
}

std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(const QString& text,
                                                                QString* error) {
    const QStringList parts = text.split(QLatin1Char(':'));
    const auto from = parts.size() == 2 ? parseTime(parts[0]) : std::nullopt;
    const auto to = parts.size() == 2 ? parseTime(parts[1]) : std::nullopt;
    if (!from || !to || *to <= *from) {
        *error = QStringLiteral("--range must be FROM:TO with FROM < TO, each a non-negative "
                                "number with an optional unit ns, us, ms or s (got '%1')")
                     .arg(text);
        return std::nullopt;
    }
    return std::pair{*from, *to};
}

/// The index of a view option's value among `choices`, or -1 with an error naming them.
int choiceOf(const QString& flag, const QString& value, const QStringList& choices,
             QString* error) {
    const int index = int(choices.indexOf(value));
    if (index < 0) {
        const QString allowed =
            choices.size() == 2 ? choices[0] + QStringLiteral(" or ") + choices[1]
                                : QStringLiteral("one of ") + choices.join(QStringLiteral(", "));
        *error = QStringLiteral("--%1 must be %2 (got '%3')").arg(flag, allowed, value);
    }
    return index;
}

/// A view option (--tile-order, --execution-mode, ...) opens `view` of one profile report: false,
/// with an error, when a comparison, a trace set or another view was asked for.
bool selectViewFor(const QString& flag, const QString& view, bool oneReport, QString& chosenView,
                   QString* error) {
    if (!oneReport || (!chosenView.isEmpty() && chosenView != view)) {
        *error =
            QStringLiteral("--%1 applies to the %2 view of one profile report").arg(flag, view);
        return false;
    }
    chosenView = view;
    return true;
}

} // namespace

std::optional<CommandLineOptions> parseCommandLine(const QStringList& arguments, QString* error,
                                                   bool* exitNow, QCommandLineParser& parser) {
    parser.setApplicationDescription(
        QStringLiteral("TileScope: profiler for tile-based BSP accelerators"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QStringLiteral("A profile report (profile.pop), a report folder, or host traces "
                       "(*.pvti) to open together, optionally with the profile reports of the "
                       "same run for the joint host and device timeline; any of them may be on "
                       "another machine as ssh://[user@]host[:port]/path"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("View to show: %1").arg(ReportPane::viewNames().join(", ")),
        QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the view to a PNG and exit"),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot (default 1280x800)"),
                                  QStringLiteral("WxH"));
    const QCommandLineOption sshConfig(
        QStringLiteral("ssh-config"),
        QStringLiteral("SSH configuration for ssh:// files (default: ~/.ssh/config)"),
        QStringLiteral("FILE"));
    const QCommandLineOption knownHosts(
        QStringLiteral("known-hosts"),
        QStringLiteral("known_hosts file for ssh:// files (default: ~/.ssh/known_hosts)"),
        QStringLiteral("FILE"));
    const QCommandLineOption acceptNewHostKey(
        QStringLiteral("accept-new-host-key"),
        QStringLiteral("Trust and record the key of a host not yet in known_hosts without asking "
                       "(a changed key is always refused)"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("Compare two reports: FILE is the source (baseline), a second FILE the "
                       "target; views: %1")
            .arg(ComparePane::viewNames().join(", ")));
    const QCommandLineOption compareTrace(
        QStringLiteral("compare-trace"),
        QStringLiteral("Compare two host traces in the System Analyser: FILE is trace A (the "
                       "baseline), a second FILE trace B; per event name count, total and mean in "
                       "each and their differences, with the flame of each"));
    const QCommandLineOption range(
        QStringLiteral("range"),
        QStringLiteral("Timeline window to show, from the start of the traces: FROM:TO, each a "
                       "number with a unit ns, us, ms or s (default ms), e.g. 8.5ms:9ms"),
        QStringLiteral("FROM:TO"));
    const QCommandLineOption tileOrder(
        QStringLiteral("tile-order"),
        QStringLiteral("Tile order of the memory view: software or physical (physical needs a "
                       "report that records where its tiles sit on the die)"),
        QStringLiteral("ORDER"));
    const QCommandLineOption executionMode(
        QStringLiteral("execution-mode"),
        QStringLiteral("Mode of the execution view: flat, flame, bsp, ipu or blocks"),
        QStringLiteral("MODE"));
    const QCommandLineOption flame(
        QStringLiteral("flame"),
        QStringLiteral("Timeline flame graph: thread (one per thread) or process (all threads "
                       "of a process merged)"),
        QStringLiteral("TYPE"));
    const QCommandLineOption chart(
        QStringLiteral("chart"),
        QStringLiteral("Timeline counter graphs: line or stacked (series stacked as areas)"),
        QStringLiteral("TYPE"));
    const QCommandLineOption sweepOption(
        QStringLiteral("sweep"),
        QStringLiteral("FILE is a what-if sweep folder (tilescope-cli sweep -o DIR): open its "
                       "Sweep view (a folder holding sweep.json opens so without it)"));
    const QCommandLineOption alwaysLive(
        QStringLiteral("always-live"),
        QStringLiteral("Liveness chart: include (always-live memory under the not-always-live "
                       "bytes) or exclude (the axis starts at the not-always-live range)"),
        QStringLiteral("MODE"));
    const QCommandLineOption cycleRange(
        QStringLiteral("cycle-range"),
        QStringLiteral("Execution Trace: select cycles FROM:TO of the run (whole numbers) and "
                       "show what ran in them"),
        QStringLiteral("FROM:TO"));
    const QCommandLineOption memoryTab(
        QStringLiteral("memory-tab"),
        QStringLiteral("Memory view tab: %1").arg(MemoryView::tabNames().join(", ")),
        QStringLiteral("TAB"));
    parser.addOptions({view, screenshot, size, sshConfig, knownHosts, acceptNewHostKey, compare,
                       compareTrace, range, tileOrder, executionMode, flame, chart, alwaysLive,
                       cycleRange, memoryTab, sweepOption});
    *exitNow = false;
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version"))) {
        *exitNow = true;
        return std::nullopt;
    }
    CommandLineOptions o;
    const QStringList positional = parser.positionalArguments();
    o.view = parser.value(view);
    // Host traces (or the timeline and calltree views) go to the system analyser, which takes
    // several files.
    const bool system = SystemAnalyserView::viewNames().contains(o.view) ||
                        std::any_of(positional.begin(), positional.end(), [](const QString& f) {
                            return f.endsWith(QLatin1String(".pvti"));
                        });
    if (parser.isSet(compareTrace)) {
        if (parser.isSet(compare)) {
            *error = QStringLiteral("--compare compares two reports, --compare-trace two host "
                                    "traces: give one of them");
            return std::nullopt;
        }
        if (positional.size() != 2 ||
            std::any_of(positional.begin(), positional.end(),
                        [](const QString& f) { return !f.endsWith(QLatin1String(".pvti")); })) {
            *error = QStringLiteral("--compare-trace expects two host traces (*.pvti), A and B "
                                    "(got %1)")
                         .arg(positional.isEmpty() ? QStringLiteral("none")
                                                   : positional.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        if (!o.view.isEmpty() && o.view != QLatin1String("compare")) {
            *error = QStringLiteral("--compare-trace shows the compare view (got --view %1)")
                         .arg(o.view);
            return std::nullopt;
        }
        for (const auto* option : {&range, &flame, &chart})
            if (parser.isSet(*option)) {
                *error = QStringLiteral("--%1 applies to the timeline view, not to "
                                        "--compare-trace")
                             .arg(option->names().constFirst());
                return std::nullopt;
            }
        o.comparedTraces = positional;
        o.file = positional.front();
        o.view = QStringLiteral("compare");
    } else if (parser.isSet(compare)) {
        if (positional.size() != 2) {
            *error = QStringLiteral("--compare expects two reports, SOURCE and TARGET (got %1)")
                         .arg(positional.size());
            return std::nullopt;
        }
        if (!o.view.isEmpty() && !ComparePane::viewNames().contains(o.view)) {
            *error = QStringLiteral("unknown compare view '%1' (available: %2)")
                         .arg(o.view, ComparePane::viewNames().join(", "));
            return std::nullopt;
        }
        o.compared = positional;
        o.file = positional.front();
    } else if (system) {
        // Profile reports next to the traces add their device steps to the timeline (the
        // joint view); at least one host trace is what the system analyser shows.
        if (!positional.isEmpty() &&
            std::none_of(positional.begin(), positional.end(),
                         [](const QString& f) { return f.endsWith(QLatin1String(".pvti")); })) {
            *error = QStringLiteral("the timeline and call tree views need a host trace "
                                    "(*.pvti); a profile report (%1) joins one, it is not shown "
                                    "alone there")
                         .arg(positional.front());
            return std::nullopt;
        }
        o.traces = positional;
        if (!positional.isEmpty())
            o.file = positional.front();
    } else if (positional.size() > 1) {
        *error = QStringLiteral("expected one FILE, got %1").arg(positional.size());
        return std::nullopt;
    } else if (!positional.isEmpty()) {
        o.file = positional.front();
    }
    o.sweep =
        parser.isSet(sweepOption) || (!system && !parser.isSet(compare) && !o.file.isEmpty() &&
                                      QFileInfo(o.file + QStringLiteral("/sweep.json")).isFile());
    if (o.sweep &&
        (system || parser.isSet(compare) || positional.size() != 1 || parser.isSet(view))) {
        *error = QStringLiteral("--sweep opens one sweep folder, alone (no --view or --compare)");
        return std::nullopt;
    }
    const QStringList views = ReportPane::viewNames() + SystemAnalyserView::viewNames();
    if (!o.view.isEmpty() && !views.contains(o.view) && o.comparedTraces.isEmpty()) {
        *error = QStringLiteral("unknown view '%1' (available: %2)").arg(o.view, views.join(", "));
        return std::nullopt;
    }
    if (system && !o.view.isEmpty() && !SystemAnalyserView::viewNames().contains(o.view) &&
        o.comparedTraces.isEmpty()) {
        *error = QStringLiteral("view '%1' shows a profile report, not a host trace").arg(o.view);
        return std::nullopt;
    }
    if (parser.isSet(range)) {
        if (!system || (!o.view.isEmpty() && o.view != QLatin1String("timeline"))) {
            *error = QStringLiteral("--range applies to the timeline view of host traces");
            return std::nullopt;
        }
        o.range = parseRange(parser.value(range), error);
        if (!o.range)
            return std::nullopt;
    }
    for (const auto* option : {&flame, &chart}) {
        if (!parser.isSet(*option))
            continue;
        const QString name = option->names().constFirst();
        if (!system || (!o.view.isEmpty() && o.view != QLatin1String("timeline"))) {
            *error = QStringLiteral("--%1 applies to the timeline view of host traces").arg(name);
            return std::nullopt;
        }
        const QString value = parser.value(*option);
        if (option == &flame &&
            (value == QLatin1String("thread") || value == QLatin1String("process")))
            o.flame = value == QLatin1String("process") ? TimelineModel::FlameMode::PerProcess
                                                        : TimelineModel::FlameMode::PerThread;
        else if (option == &chart &&
                 (value == QLatin1String("line") || value == QLatin1String("stacked")))
            o.chart = value == QLatin1String("stacked") ? TimelineCanvas::ChartMode::StackedArea
                                                        : TimelineCanvas::ChartMode::Line;
        else {
            *error = option == &flame
                         ? QStringLiteral("--flame must be thread or process (got '%1')").arg(value)
                         : QStringLiteral("--chart must be line or stacked (got '%1')").arg(value);
            return std::nullopt;
        }
    }
    const bool oneReport = !system && !parser.isSet(compare);
    if (parser.isSet(tileOrder)) {
        const int index = choiceOf(QStringLiteral("tile-order"), parser.value(tileOrder),
                                   {QStringLiteral("software"), QStringLiteral("physical")}, error);
        if (index < 0 || !selectViewFor(QStringLiteral("tile-order"), QStringLiteral("memory"),
                                        oneReport, o.view, error))
            return std::nullopt;
        o.tileOrder = index;
    }
    if (parser.isSet(executionMode)) {
        const int index =
            choiceOf(QStringLiteral("execution-mode"), parser.value(executionMode),
                     {QStringLiteral("flat"), QStringLiteral("flame"), QStringLiteral("bsp"),
                      QStringLiteral("ipu"), QStringLiteral("blocks")},
                     error);
        if (index < 0 || !selectViewFor(QStringLiteral("execution-mode"),
                                        QStringLiteral("execution"), oneReport, o.view, error))
            return std::nullopt;
        o.executionMode = index;
    }
    if (parser.isSet(alwaysLive)) {
        const int index = choiceOf(QStringLiteral("always-live"), parser.value(alwaysLive),
                                   {QStringLiteral("exclude"), QStringLiteral("include")}, error);
        if (index < 0 || !selectViewFor(QStringLiteral("always-live"), QStringLiteral("liveness"),
                                        oneReport, o.view, error))
            return std::nullopt;
        o.includeAlwaysLive = index == 1;
    }
    if (parser.isSet(memoryTab)) {
        const int index = choiceOf(QStringLiteral("memory-tab"), parser.value(memoryTab),
                                   MemoryView::tabNames(), error);
        if (index < 0 || !selectViewFor(QStringLiteral("memory-tab"), QStringLiteral("memory"),
                                        oneReport, o.view, error))
            return std::nullopt;
        o.memoryTab = index;
    }
    if (parser.isSet(cycleRange)) {
        static const QRegularExpression re(QStringLiteral("^(\\d{1,18}):(\\d{1,18})$"));
        const auto m = re.match(parser.value(cycleRange));
        if (!m.hasMatch() || m.captured(2).toULongLong() <= m.captured(1).toULongLong()) {
            *error = QStringLiteral("--cycle-range must be FROM:TO in cycles with FROM < TO, e.g. "
                                    "1000:50000 (got '%1')")
                         .arg(parser.value(cycleRange));
            return std::nullopt;
        }
        if (!selectViewFor(QStringLiteral("cycle-range"), QStringLiteral("execution"), oneReport,
                           o.view, error))
            return std::nullopt;
        o.cycleRange = std::make_pair(double(m.captured(1).toULongLong()),
                                      double(m.captured(2).toULongLong()));
    }
    o.screenshot = parser.value(screenshot);
    if (parser.isSet(size)) {
        static const QRegularExpression re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
        const auto m = re.match(parser.value(size));
        if (!m.hasMatch()) {
            *error = QStringLiteral("--size must be WxH, e.g. 1280x800 (got '%1')")
                         .arg(parser.value(size));
            return std::nullopt;
        }
        o.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    o.sshConfig = parser.value(sshConfig);
    if (parser.isSet(sshConfig) && !QFileInfo(o.sshConfig).isFile()) {
        *error = QStringLiteral("--ssh-config: '%1' is not a file").arg(o.sshConfig);
        return std::nullopt;
    }
    o.knownHosts = parser.value(knownHosts);
    if (parser.isSet(knownHosts) && o.knownHosts.isEmpty()) {
        *error = QStringLiteral("--known-hosts needs a file name");
        return std::nullopt;
    }
    o.acceptNewHostKey = parser.isSet(acceptNewHostKey);
    if (!o.screenshot.isEmpty() && o.file.isEmpty()) {
        *error = QStringLiteral("--screenshot needs a FILE to open");
        return std::nullopt;
    }
    if (!o.screenshot.isEmpty() && o.view.isEmpty())
        o.view = system ? QStringLiteral("timeline") : QStringLiteral("summary");
    return o;
}

} // namespace tilescope::gui
