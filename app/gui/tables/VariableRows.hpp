#pragma once

#include "RecordTableModel.hpp"
#include "tilescope/report/ProfileTypes.hpp"

#include <QString>
#include <map>
#include <vector>

namespace tilescope::gui {

/// The columns every variables table of the app shares (Operations view, Memory view's Variables
/// tab): name, element type, elements, bytes, category, always-live, and the live range as first
/// and last step (empty for always-live variables).
std::vector<RecordTableModel::Column> variableColumns();
/// One row in variableColumns() order; `categoryLabels` maps category ids to their labels.
RecordTableModel::Row variableRow(const report::VariableRecord& v,
                                  const std::map<std::int64_t, QString>& categoryLabels);
/// Category labels by id, for variableRow().
std::map<std::int64_t, QString>
categoryLabels(const std::vector<report::MemoryCategory>& categories);

} // namespace tilescope::gui
