#pragma once

#include <QColor>
#include <cstdint>

namespace tilescope::gui {

/// Fixed, distinguishable colours for chart series, chosen to read on light and dark palettes.
/// Memory categories keep the same colour in every breakdown and view (key = category id);
/// negative keys are the synthetic series (total, liveness classes, regions).
inline QColor seriesColour(std::int64_t key) {
    static const QColor categories[] = {
        QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
        QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
        QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
        QColor(0x3b, 0x8b, 0xd9), QColor(0xd6, 0x5f, 0x9e), QColor(0x8c, 0xd1, 0x7d),
        QColor(0xa0, 0x7c, 0xd8), QColor(0x49, 0xb6, 0xc8), QColor(0xba, 0xb0, 0xac)};
    switch (key) {
    case -1:
        return QColor(0x4e, 0x79, 0xa7); // total
    case -10:
        return QColor(0x4e, 0x79, 0xa7); // always-live
    case -11:
        return QColor(0xf2, 0x8e, 0x2b); // not-always-live
    case -12:
        return QColor(0xba, 0xb0, 0xac); // gaps
    case -100:
        return QColor(0x59, 0xa1, 0x4f); // first region
    case -101:
        return QColor(0xb0, 0x7a, 0xa1); // second region
    default:
        break;
    }
    if (key >= 1)
        return categories[(key - 1) % 15];
    return categories[(-key) % 15];
}

/// The colour of a program, the same in every view that draws programs (the Execution Trace's
/// flame, the Program Tree's swatches), so a program is recognised by colour across them.
inline QColor programColour(std::int64_t programId) {
    return seriesColour(1 + (programId < 0 ? -programId : programId) % 15);
}

} // namespace tilescope::gui
