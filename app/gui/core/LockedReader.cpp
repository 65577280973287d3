#include "LockedReader.hpp"

#include "tilescope/report/ReportError.hpp"

#include <exception>
#include <new>

namespace tilescope::gui {

void rethrowNamingFile(const std::string& path) {
    try {
        throw;
    } catch (const report::ReportError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw report::ReportError(path,
                                  "file is damaged or too large (out of memory while reading it)");
    } catch (const std::exception& e) {
        throw report::ReportError(path, std::string("file is damaged (") + e.what() + ")");
    }
}

} // namespace tilescope::gui
