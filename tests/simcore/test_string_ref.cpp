// poplar::StringRef, the class that replaced `using StringRef = std::string_view` so that public
// headers compile as C++11: construction, comparison, printing and, in C++17 and later code like
// this test, conversion to and from std::string_view.

#include <catch2/catch.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/StringRef.hpp>
#include <sstream>
#include <string>
#include <string_view>

using poplar::StringRef;

namespace {
std::size_t lengthOf(StringRef s) {
    return s.size();
}
std::string_view asView(std::string_view v) {
    return v;
}
} // namespace

TEST_CASE("StringRef is built from C strings, std::string and pointer plus length", "[stringref]") {
    const std::string owned = "tile";
    CHECK(lengthOf("exchange") == 8);
    CHECK(lengthOf(owned) == 4);
    CHECK(lengthOf(StringRef("compute", 4)) == 4);
    CHECK(StringRef().empty());
    CHECK(StringRef(nullptr).empty());
    const StringRef ref(owned);
    CHECK(ref.data() == owned.data());
    CHECK(std::string(ref.begin(), ref.end()) == "tile");
    CHECK(ref[1] == 'i');
}

TEST_CASE("StringRef compares by characters and converts to std::string", "[stringref]") {
    const std::string owned = "abc";
    const StringRef a(owned);
    CHECK(a == "abc");
    CHECK("abc" == a);
    CHECK(a == owned);
    CHECK(a != "abd");
    CHECK(StringRef("ab") < a);
    CHECK_FALSE(a < StringRef("ab"));
    CHECK(StringRef("abc", 2) == "ab");
    const std::string copy = a;
    CHECK(copy == "abc");
    CHECK(a.cloneAsString() == "abc");
    std::ostringstream os;
    os << a << '|' << StringRef("xyz", 1);
    CHECK(os.str() == "abc|x");
}

TEST_CASE("StringRef converts to and from std::string_view in C++17 code", "[stringref]") {
    const std::string_view view = "poplar";
    const StringRef ref = view;
    CHECK(ref == view);
    CHECK(view == ref);
    CHECK_FALSE(ref != view);
    CHECK(asView(ref) == "poplar");
    CHECK(lengthOf(view.substr(0, 3)) == 3);
    CHECK(poplar::DebugContext(poplar::DebugContext("layer"), view).getPathName() ==
          "layer/poplar");
}
