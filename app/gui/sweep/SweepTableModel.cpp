#include "SweepTableModel.hpp"

#include "core/Format.hpp"

#include <QBrush>
#include <QColor>

namespace tilescope::gui {
namespace {

// Columns after the axes' (one per key that varies).
enum Column {
    State,
    Fits,
    PeakTile,
    PeakTileChange,
    TotalMemory,
    AlwaysLive,
    PeakNotAlwaysLive,
    Cycles,
    CyclesChange,
    HostSeconds,
    ColumnCount
};

const char* const kHeaders[] = {"State",         "Fits",        "Peak tile (bytes)", "vs base",
                                "Total (bytes)", "Always-live", "Peak NAL",          "Cycles",
                                "vs base",       "Host s"};

std::optional<double> change(const std::vector<sweep::BaselineDelta>& deltas, const char* figure) {
    for (const auto& d : deltas)
        if (d.figure == figure)
            return d.percentChange();
    return std::nullopt;
}

QString grouped(std::uint64_t value) {
    return formatCount(static_cast<std::int64_t>(value));
}

} // namespace

SweepTableModel::SweepTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SweepTableModel::setSummary(std::shared_ptr<const sweep::SweepSummary> summary) {
    beginResetModel();
    summary_ = std::move(summary);
    pareto_ = summary_ ? sweep::paretoFront(summary_->rows) : std::vector<bool>{};
    axisColumns_ = summary_ ? static_cast<int>(summary_->axes.size()) : 0;
    endResetModel();
}

const sweep::VariantRow* SweepTableModel::variant(int row) const {
    if (!summary_ || row < 0 || row >= static_cast<int>(summary_->rows.size()))
        return nullptr;
    return &summary_->rows[static_cast<std::size_t>(row)];
}

int SweepTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !summary_ ? 0 : static_cast<int>(summary_->rows.size());
}

int SweepTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 1 + axisColumns_ + ColumnCount;
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == 0)
        return tr("Variant");
    if (section <= axisColumns_) {
        const std::string& key = summary_->axes[static_cast<std::size_t>(section - 1)];
        const auto cut = key.find_last_of(":.");
        return QString::fromStdString(cut == std::string::npos ? key : key.substr(cut + 1));
    }
    return tr(kHeaders[section - 1 - axisColumns_]);
}

QVariant SweepTableModel::cell(int row, int column, bool forSorting) const {
    const auto& r = summary_->rows[static_cast<std::size_t>(row)];
    const auto& deltas = summary_->deltas[static_cast<std::size_t>(row)];
    if (column == 0) {
        QString name = QString::fromStdString(r.name);
        if (!forSorting && pareto_[static_cast<std::size_t>(row)])
            name += QStringLiteral(" *");
        if (!forSorting && r.name == summary_->baseline)
            name += tr(" (base)");
        return name;
    }
    if (column <= axisColumns_) {
        const std::string& key = summary_->axes[static_cast<std::size_t>(column - 1)];
        for (const auto& s : r.settings)
            if (s.key == key) {
                bool numeric = false;
                const double v = QString::fromStdString(s.value).toDouble(&numeric);
                if (forSorting && numeric)
                    return v;
                return QString::fromStdString(s.value);
            }
        return {};
    }
    const bool figures = r.hasReport && r.compiled;
    const auto number = [&](std::uint64_t v) -> QVariant {
        if (!figures)
            return forSorting ? QVariant(-1.0) : QVariant();
        return forSorting ? QVariant(static_cast<double>(v)) : QVariant(grouped(v));
    };
    const auto percent = [&](std::optional<double> p) -> QVariant {
        if (!p)
            return forSorting ? QVariant(-1e300) : QVariant();
        return forSorting ? QVariant(*p) : QVariant(QString::asprintf("%+.1f%%", *p));
    };
    switch (column - 1 - axisColumns_) {
    case State:
        return QString::fromStdString(r.state);
    case Fits:
        return !r.compiled ? QStringLiteral("-") : r.fits ? tr("yes") : tr("NO");
    case PeakTile:
        return number(r.peakTileMemoryBytes);
    case PeakTileChange:
        return percent(change(deltas, "peak_tile_memory"));
    case TotalMemory:
        return number(r.totalMemoryBytes);
    case AlwaysLive:
        return number(r.alwaysLiveBytes);
    case PeakNotAlwaysLive:
        return number(r.peakNotAlwaysLiveBytes);
    case Cycles:
        if (!r.cycles())
            return forSorting ? QVariant(-1.0) : QVariant();
        return forSorting ? QVariant(static_cast<double>(*r.cycles()))
                          : QVariant(grouped(*r.cycles()));
    case CyclesChange:
        return percent(change(deltas, "cycles"));
    case HostSeconds:
        return forSorting ? QVariant(r.hostSeconds)
                          : QVariant(QString::number(r.hostSeconds, 'f', 2));
    default:
        return {};
    }
}

QVariant SweepTableModel::data(const QModelIndex& index, int role) const {
    if (!summary_ || !index.isValid())
        return {};
    const auto& r = summary_->rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return cell(index.row(), index.column(), false);
    case Qt::UserRole:
        return cell(index.row(), index.column(), true);
    case Qt::TextAlignmentRole:
        return index.column() > axisColumns_ + 2 ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (r.state == "failed" || (r.compiled && !r.fits))
            return QBrush(QColor(190, 30, 30));
        return {};
    case Qt::ToolTipRole:
        if (!r.reason.empty() || !r.outputTail.empty())
            return QString::fromStdString(r.reason +
                                          (r.outputTail.empty() ? "" : "\n\n" + r.outputTail));
        return {};
    default:
        return {};
    }
}

} // namespace tilescope::gui
