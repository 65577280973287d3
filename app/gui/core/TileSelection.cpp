#include "TileSelection.hpp"

#include <QStringList>
#include <algorithm>

namespace tilescope::gui {

TileSelection TileSelection::range(std::uint32_t first, std::uint32_t last) {
    TileSelection s;
    s.add({std::min(first, last), std::max(first, last)});
    return s;
}

std::optional<TileSelection> TileSelection::parse(const QString& text, std::uint32_t numTiles,
                                                  QString* error) {
    auto fail = [&](const QString& why) -> std::optional<TileSelection> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    auto number = [&](const QString& s, std::uint32_t* out) {
        bool ok = false;
        const qulonglong v = s.trimmed().toULongLong(&ok);
        if (!ok || v >= numTiles)
            return false;
        *out = static_cast<std::uint32_t>(v);
        return true;
    };
    TileSelection sel;
    const QStringList parts = text.split(',', Qt::SkipEmptyParts);
    for (const QString& raw : parts) {
        const QString part = raw.trimmed();
        if (part.isEmpty())
            continue;
        const qsizetype dash = part.indexOf('-');
        std::uint32_t first = 0, last = 0;
        if (dash < 0) {
            if (!number(part, &first))
                return fail(
                    QStringLiteral("'%1' is not a tile number below %2").arg(part).arg(numTiles));
            last = first;
        } else {
            const QString a = part.left(dash), b = part.mid(dash + 1);
            if (!number(a, &first))
                return fail(
                    QStringLiteral("'%1' is not a tile number below %2").arg(a).arg(numTiles));
            if (b.trimmed().isEmpty())
                last = numTiles - 1;
            else if (!number(b, &last))
                return fail(
                    QStringLiteral("'%1' is not a tile number below %2").arg(b).arg(numTiles));
            if (last < first)
                return fail(QStringLiteral("range '%1' ends before it starts").arg(part));
        }
        sel.add({first, last});
    }
    if (sel.empty())
        return fail(QStringLiteral("no tiles given"));
    return sel;
}

std::uint64_t TileSelection::count() const {
    std::uint64_t n = 0;
    for (const Range& r : ranges_)
        n += std::uint64_t(r.last) - r.first + 1;
    return n;
}

bool TileSelection::contains(std::uint32_t tile) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), tile,
                               [](std::uint32_t t, const Range& r) { return t < r.first; });
    return it != ranges_.begin() && std::prev(it)->last >= tile;
}

bool TileSelection::intersects(std::uint32_t first, std::uint32_t last) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), last,
                               [](std::uint32_t t, const Range& r) { return t < r.first; });
    return it != ranges_.begin() && std::prev(it)->last >= first;
}

TileSelection TileSelection::of(std::vector<std::uint32_t> tiles) {
    std::sort(tiles.begin(), tiles.end());
    TileSelection out;
    for (std::uint32_t t : tiles) {
        if (!out.ranges_.empty() && std::uint64_t(out.ranges_.back().last) + 1 >= t)
            out.ranges_.back().last = std::max(out.ranges_.back().last, t);
        else
            out.ranges_.push_back({t, t});
    }
    return out;
}

void TileSelection::add(Range r) {
    ranges_.push_back(r);
    std::sort(ranges_.begin(), ranges_.end(),
              [](const Range& a, const Range& b) { return a.first < b.first; });
    // Merge overlapping and adjacent ranges so the representation stays canonical.
    std::vector<Range> merged;
    for (const Range& x : ranges_) {
        if (!merged.empty() && std::uint64_t(merged.back().last) + 1 >= x.first)
            merged.back().last = std::max(merged.back().last, x.last);
        else
            merged.push_back(x);
    }
    ranges_ = std::move(merged);
}

void TileSelection::toggle(std::uint32_t tile) {
    if (!contains(tile)) {
        add({tile, tile});
        return;
    }
    std::vector<Range> out;
    for (const Range& r : ranges_) {
        if (tile < r.first || tile > r.last) {
            out.push_back(r);
            continue;
        }
        if (tile > r.first)
            out.push_back({r.first, tile - 1});
        if (tile < r.last)
            out.push_back({tile + 1, r.last});
    }
    ranges_ = std::move(out);
}

QString TileSelection::toString() const {
    QStringList parts;
    for (const Range& r : ranges_)
        parts << (r.first == r.last ? QString::number(r.first)
                                    : QStringLiteral("%1-%2").arg(r.first).arg(r.last));
    return parts.join(QStringLiteral(", "));
}

} // namespace tilescope::gui
