#include "ComparePair.hpp"

#include "TestReports.hpp"
#include "TwoReports.hpp"

namespace tilescope::gui::test {

const ComparePairPaths& comparePair() {
    static const ComparePairPaths paths = [] {
        using namespace tilescope::testing;
        const std::filesystem::path dir = scratchDir("compare-pair");
        ComparePairPaths p{dir / "source.pop", dir / "target.pop"};
        writeTwoReportsVariant(p.source,
                               {Variant::Source, {{"a", 100}, {"b", 200}, {"a", 100}, {"b", 200}}});
        writeTwoReportsVariant(
            p.target,
            {Variant::Target, {{"a", 100}, {"c", 300}, {"a", 120}, {"c", 300}, {"a", 100}}});
        return p;
    }();
    return paths;
}

} // namespace tilescope::gui::test
