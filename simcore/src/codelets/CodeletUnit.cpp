#include "tilescope/sim/CodeletUnit.hpp"

#include <cctype>
#include <sstream>

namespace tilescope::sim {

namespace {

std::size_t skipSpace(const std::string& s, std::size_t i) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
    return i;
}

/// A C string literal naming `path` for #line.
std::string quoted(const std::string& path) {
    std::string q = "\"";
    for (char c : path) {
        if (c == '\\' || c == '"')
            q += '\\';
        q += c;
    }
    return q + "\"";
}

} // namespace

std::string rewriteSupervisorAttributes(std::string text) {
    for (std::size_t at = text.find("target"); at != std::string::npos;
         at = text.find("target", at + 1)) {
        if (at > 0 &&
            (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_'))
            continue;
        std::size_t i = skipSpace(text, at + 6);
        if (i >= text.size() || text[i] != '(')
            continue;
        i = skipSpace(text, i + 1);
        static const std::string kSupervisor = "\"supervisor\"";
        if (text.compare(i, kSupervisor.size(), kSupervisor) != 0)
            continue;
        i = skipSpace(text, i + kSupervisor.size());
        if (i >= text.size() || text[i] != ')')
            continue;
        const std::string replacement = "unused";
        for (std::size_t k = at; k <= i; ++k)
            if (text[k] != '\n')
                text[k] = ' ';
        text.replace(at, replacement.size(), replacement);
    }
    return text;
}

std::size_t registeredVertexCount(const std::vector<ScannedVertexClass>& classes) {
    std::size_t n = 0;
    for (const auto& c : classes)
        n += c.isTemplate ? c.instantiations.size() : 1;
    return n;
}

std::string generateCodeletUnit(const std::string& sourcePath, const std::string& text,
                                const std::vector<ScannedVertexClass>& classes,
                                const std::string& registerFunction) {
    struct Registered {
        std::string name, type;
        const std::vector<std::string>* members;
        bool construct;
    };
    std::vector<Registered> types;
    for (const auto& c : classes) {
        const bool construct = !c.declaresUndefinedConstructor;
        if (!c.isTemplate)
            types.push_back({c.qualifiedName, "::" + c.qualifiedName, &c.members, construct});
        else
            for (const auto& i : c.instantiations)
                types.push_back({i.name, "::" + i.type, &c.members, construct});
    }

    std::ostringstream g;
    g << "#line 1 " << quoted(sourcePath) << "\n" << rewriteSupervisorAttributes(text) << "\n";
    g << "#line 1 " << quoted("<tilescope registration of " + sourcePath + ">") << "\n";
    g << "#include <tilescope/sim/CodeletRegistration.hpp>\n#include <cstdint>\n"
         "#pragma GCC diagnostic push\n"
         "#if !defined(__clang__)\n"
         "#pragma GCC diagnostic ignored \"-Wnon-template-friend\"\n"
         "#endif\n"
         "namespace {\n"
         "// tilescope_member(tilescope_key<I>{}) yields the I-th member pointer; explicit\n"
         "// instantiations of tilescope_rob name private members without access checks, as the\n"
         "// standard allows. Long names: the user's macros (-DN=4) are defined here.\n"
         "template <int tilescopeIndex> struct tilescope_key {\n"
         "    friend constexpr auto tilescope_member(tilescope_key);\n"
         "};\n"
         "template <int tilescopeIndex, typename tilescopePointer, tilescopePointer "
         "tilescopeMember>\n"
         "struct tilescope_rob {\n"
         "    friend constexpr auto tilescope_member(tilescope_key<tilescopeIndex>) {\n"
         "        return tilescopeMember;\n"
         "    }\n"
         "};\n";
    // The explicit instantiations stay inside the unnamed namespace: Clang requires them in the
    // template's own namespace (GCC accepts either).
    int key = 0;
    for (const auto& t : types)
        for (const auto& m : *t.members)
            g << "template struct tilescope_rob<" << key++ << ", decltype(&" << t.type << "::" << m
              << "), &" << t.type << "::" << m << ">;\n";
    g << "} // namespace\n#pragma GCC diagnostic pop\n\nnamespace {\n";
    key = 0;
    for (std::size_t n = 0; n < types.size(); ++n) {
        g << "void tilescope_visit_" << n
          << "(void* tilescopeObject, tilescope::sim::abi::FieldVisitor& tilescopeVisitor) {\n"
          << "    auto& tilescopeVertex = *static_cast<" << types[n].type
          << "*>(tilescopeObject);\n";
        for (const auto& m : *types[n].members)
            g << "    tilescope::sim::abi::describeField(tilescopeVisitor, \"" << m
              << "\", tilescopeVertex.*tilescope_member(tilescope_key<" << key++ << ">{}));\n";
        g << "    (void)tilescopeVertex;\n    (void)tilescopeVisitor;\n}\n";
    }
    g << "} // namespace\n\n__attribute__((visibility(\"hidden\"))) void " << registerFunction
      << "(tilescope::sim::abi::CodeletSink& tilescopeSink) {\n";
    for (std::size_t n = 0; n < types.size(); ++n)
        g << "    tilescopeSink.addVertexType(tilescope::sim::abi::makeVertexTypeInfo<"
          << types[n].type << (types[n].construct ? "" : ", false") << ">(" << quoted(types[n].name)
          << ", &tilescope_visit_" << n << "));\n";
    g << "    (void)tilescopeSink;\n}\n";
    return g.str();
}

std::string generateEntryUnit(const std::vector<std::string>& registerFunctions,
                              const std::string& description) {
    std::ostringstream g;
    g << "// Generated by TileScope: the entry point of a codelet library.\n"
         "#include <tilescope/sim/CodeletAbi.hpp>\n#include <cstdint>\n\n";
    for (const auto& f : registerFunctions)
        g << "void " << f << "(tilescope::sim::abi::CodeletSink& sink);\n";
    g << "\nextern \"C\" __attribute__((visibility(\"default\"))) const char "
         "tilescope_codelet_object[] = "
      << quoted(description)
      << ";\n\n"
         "extern \"C\" __attribute__((visibility(\"default\"))) void "
         "tilescope_register_codelets(std::uint32_t version, "
         "tilescope::sim::abi::CodeletSink& sink) {\n"
         "    if (version != tilescope::sim::abi::kVersion)\n        return;\n";
    for (const auto& f : registerFunctions)
        g << "    " << f << "(sink);\n";
    g << "}\n";
    return g.str();
}

} // namespace tilescope::sim
