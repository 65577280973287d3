#pragma once

#include "core/NewestLoad.hpp"
#include "tables/RecordTableModel.hpp"
#include "tilescope/report/HostTraceTypes.hpp"

#include <QString>
#include <memory>
#include <vector>

namespace tilescope::gui {

class HostTraceSession;

/// Search of the open host traces by event name, as a substring (case-insensitive) or a regular
/// expression. search() matches the files' interned names in memory, then asks each file for the
/// events of the matching names on a worker (report::findEventsByName), at most kMaxHits in time
/// order over all files. The hits are this table (file, thread, name, start, duration) for the
/// results list; next() and previous() step through them, wrapping, and emit currentChanged.
class EventSearchModel : public RecordTableModel {
    Q_OBJECT
public:
    static constexpr std::int64_t kMaxHits = 10000;
    struct Hit {
        int file = 0;
        report::HostEvent event;
    };

    explicit EventSearchModel(std::vector<std::shared_ptr<HostTraceSession>> files,
                              QObject* parent = nullptr);

    /// Starts a search; an invalid regular expression fails at once with its error.
    void search(const QString& pattern, bool regularExpression);
    const std::vector<Hit>& hits() const { return hits_; }
    bool truncated() const { return truncated_; }
    bool isSearching() const { return search_.busy(); }
    int current() const { return current_; }
    void setCurrent(int index);
    void next();
    void previous();
    /// The worker's job (public for tests). Throws std::invalid_argument for a bad regex.
    static std::vector<Hit> find(const std::vector<std::shared_ptr<HostTraceSession>>& files,
                                 const QString& pattern, bool regularExpression, bool* truncated);

signals:
    void finished();
    void failed(const QString& message);
    void currentChanged(int index);

private:
    void setHits(std::vector<Hit> hits, bool truncated);

    std::vector<std::shared_ptr<HostTraceSession>> files_;
    std::vector<Hit> hits_;
    bool truncated_ = false;
    int current_ = -1;
    NewestLoad search_;
};

} // namespace tilescope::gui
